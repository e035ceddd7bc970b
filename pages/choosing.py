"""Lesson 4: choosing a metric. The lecture's three rankings of six documents, six metrics,
the winner of each highlighted: at K = 2 ranking 1 wins precision and recall, at K = 5
ranking 3 does, and AP does not depend on K. Then the lecture's guidance as a decision aid."""

from ui.shared.course import through_app_navigation

through_app_navigation()   # first, before the slow imports (ui/shared/course.py)

import streamlit as st
from streamlit.errors import StreamlitAPIException

import irlib
from irlib.stats import claims
from ui.lessons import choosing as ch
from ui.shared.board import ranking_board
from ui.shared.charts import bars_figure, plotly_config
from ui.shared.course import SOURCES, lesson_links
from ui.shared.formula import show_explanation
from ui.shared.layout import board_page
from ui.shared.texts import METRIC_TEXT


P = ch.PREFIX
S = ch.page_state()
ch.init()

board_page()       # one screen: the boards and the six metrics in view together
head = st.columns([5, 2], vertical_alignment="center")
head[0].title("Which ranking is best?", anchor=False)
head[1].button("↺ Lecture's rankings", key=P + "reset", on_click=ch.reset, width="stretch",
               help="Back to relevant at 1, 2, 6 / 2, 5, 6 / 3, 4, 5.")
st.caption(
    "The lecture's puzzle: three systems rank the **same six documents**; the three relevant "
    "ones (A, B, C) land at ranks **1, 2, 6**, **2, 5, 6** and **3, 4, 5**. Which scores "
    "highest depends on the metric — and on K. Drag a card (or Alt+↑/↓) to reorder a ranking, "
    "click a badge to judge a document (the judgments are shared by all three).")
st.slider("K — how many results the user looks at", 1, ch.N, **S.bind("k"),
          help="Success, RR, precision, recall and F1 only look at the top K. AP uses "
               "the whole list.")
k = int(S["k"])

by_ranking = ch.rankings()
scores = ch.score_all(by_ranking, k)
at2, at5 = ch.score_all(by_ranking, 2, ["P"]), ch.score_all(by_ranking, 5, ["P"])
# The winners right under K, above the boards: on a phone the boards are a screen tall, and
# the table a learner watches while moving K would be a screen below the slider.
numbers, insight = st.columns([4, 3])
numbers.table(ch.styled_table(ch.results_table(scores, by_ranking)))
insight.info(ch.insight(scores, at2, at5, scores.values["AP"]), icon=":material/lightbulb:")
insight.caption(claims.one_query_caption(k, len(ch.RANKINGS)))

tab_labels = [f"Ranking {n}" for n in by_ranking]
items = ch.board_items()
for n, tab in zip(ch.RANKINGS, S.tabs("tab", tab_labels)):
    with tab:
        ranking_board(items, st.session_state[ch.order_key(n)], st.session_state[ch.GRADES_KEY],
                      mode="binary", key=f"{P}board_{n}", k=k, on_change=ch.saver(n))

categories = [ch.label(m, k) for m, _, _ in ch.METRICS]
st.plotly_chart(
    bars_figure(categories, {f"Ranking {n}": [scores.values[m][n] for m, _, _ in ch.METRICS]
                             for n in ch.RANKINGS}, y_title="score"),
    key=P + "bars", config=plotly_config(displayModeBar=False))

with st.expander("How each number is made"):
    left, right = st.columns(2)
    which = left.selectbox("Ranking", ch.RANKINGS, **S.bind("explain_ranking"),
                           format_func=lambda n: f"Ranking {n}")
    metric = right.selectbox("Metric", [m for m, _, _ in ch.METRICS],
                             **S.bind("explain_metric"), format_func=lambda m: ch.label(m, k))
    grades = by_ranking[which]
    show_explanation(irlib.explain(metric, grades, ch.N if metric == "AP" else k))
    if metric == "AP":
        st.caption(f"AP here is over all {ch.N} results (AP@{ch.N}), as in the lecture.")

st.header("Which metric should you use?")
st.markdown("There is no single answer. The lecture's guidance, as questions about your users:")
need = ch.NEED_BY_KEY[st.radio(
    "What matters most for your users?", [n.key for n in ch.NEEDS], **S.bind("need"),
    format_func=lambda key: ch.NEED_BY_KEY[key].situation)]
metric_scores = ch.score_all(by_ranking, k, [need.metric])
best = metric_scores.winners[need.metric]
shown = ch.label(need.metric, k)
values = ", ".join(f"{metric_scores.values[need.metric][n]:.2f}" for n in ch.RANKINGS)
verdict = ("On the three rankings above (one query, no test), "
           + claims.highest_on_one(f"**{ch.names(best)}**" if best else "", len(best),
                                   f"{shown} ({values})", len(ch.RANKINGS)) + ".")
with st.container(border=True, key=P + "advice"):
    st.markdown(need.advice)
    st.markdown(verdict)
    text = METRIC_TEXT.get(need.metric)
    if text:
        st.caption(f"**For:** {text.pros}  \n**Against:** {text.cons}")
if need.key == "graded":
    try:
        st.page_link("pages/ndcg.py", label="Lesson 3: graded relevance and NDCG", icon="🎚️")
    except StreamlitAPIException:     # run on its own (tests), without the app's navigation
        st.caption("See lesson 3, graded relevance and NDCG.")

with st.expander("All seven at a glance"):
    st.markdown("\n".join(
        ["| If … | then … |", "|---|---|"]
        + [f"| {n.situation} | {n.advice.split('.')[0].replace('|', '/')}. |" for n in ch.NEEDS]))
    st.caption(f"After “which metric should you use?” in {SOURCES['lecture']}; the "
               f"graded-labels row comes from {SOURCES['article']} and its video. Accuracy is not "
               "everything either: see lesson 6, latency and cost.")

lesson_links("pages/choosing.py")
S.keep_address()
