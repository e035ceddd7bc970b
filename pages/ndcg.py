"""Lesson 3, graded relevance: CG, DCG, IDCG and NDCG step by step on the video's 0-4 grades,
linear vs exponential gain, and where the ideal ranking comes from."""

from ui.shared.course import through_app_navigation

through_app_navigation()   # first, before the slow imports (ui/shared/course.py)

import streamlit as st

import irlib
from ui.shared.numbers import fmt
from ui.lessons import ndcg as nd
from ui.shared.formula import narrow, show_swapped
from ui.shared.tiles import tiles
from ui.shared.board import ranking_board
from ui.shared.charts import plotly_config
from ui.shared.catalog import board_items, load_catalog
from ui.shared.course import SOURCES, lesson_links
from ui.shared.layout import board_page
from ui.shared.formula import show_explanation


P = nd.ND
S = nd.ndcg_state()
nd.init_ndcg()
catalog = load_catalog()
query = catalog.queries[nd.NDCG_QUERY]
n_items = len(catalog.items)

board_page(compact_metrics=True)
head = st.columns([4, 6], vertical_alignment="center")
head[0].title("Graded relevance: NDCG", anchor=False)
with head[1].container(horizontal=True, horizontal_alignment="right", gap="small"):
    st.button("↺ Video's order", key=P + "reset", on_click=nd.reset_ndcg,
              help="Back to the video's ranking and grades; all eight results shown.")
    st.button("⇄ Swap the first two", key=P + "swap", on_click=nd.swap_first_two,
              help="The article's experiment: CG@2 stays, DCG@2 changes.")
    st.button("★ Ideal order", key=P + "ideal_order", on_click=nd.ideal_order,
              help="Highest grades first: NDCG = 1.")
st.caption(
    f"Not every hit is equally good. For **“{query.text}”** the video grades the pictures "
    "0–4: **4** a white cat in a box, **3** another cat in a box, **2** a dog in a box, **1** "
    "an empty box or two cats, **0** the dog. **Drag** the pictures, **click a badge** to "
    "change a grade (keys **0–4** work too), and follow CG → DCG → IDCG → NDCG.")

# In a row that wraps: each control keeps the width its options need (in fixed columns,
# "Ideal ranking from" was cut at 1366 px).
with st.container(horizontal=True, vertical_alignment="bottom", key=P + "controls"):
    st.segmented_control(
        "NDCG gain", list(nd.GAIN_LABELS), **S.bind("gain"), required=True,
        format_func=nd.GAIN_LABELS.get,
        help="Linear: gain = grade (trec_eval, ranx's ndcg). Exponential: 2^grade − 1 "
             "(the DCG notebook, ranx's ndcg_burges, ir_measures' dcg='exp-log2').")
    st.segmented_control(
        "Ideal ranking from", list(nd.IDEAL_LABELS), **S.bind("ideal"), required=True,
        format_func=nd.IDEAL_LABELS.get,
        help="All judged pictures: trec_eval, ranx, ir_measures. Only the shown list: "
             "scikit-learn's ndcg_score. They differ once the system returns fewer than all "
             "eight.")
    st.toggle("Both gains", **S.bind("both"),
              help="Draw the other gain's curves too, fainter and dotted.")
    st.slider("K: results that count", 1, n_items, **S.bind("k"), width=180,
              help="The cut-off line on the board.")
    st.slider("Results shown (top N)", 1, n_items, **S.bind("shown"), width=180,
              help="The system returns the top N; the other pictures are judged but never "
                   "returned.")
k, n_shown = int(S["k"]), int(S["shown"])
gain, ideal = S["gain"], S["ideal"]

order, judgments, all_grades = nd.board().ranked()
shown = all_grades[:n_shown]
# Pictures below the shown list: judged but not returned (FN if relevant).
outcomes = [("FN" if g > 0 else "TN") if rank > n_shown else ""
            for rank, g in enumerate(all_grades, 1)]
ranking_board(board_items(), order, judgments, mode="graded", key=P + "board", k=k,
              outcomes=outcomes, on_change=nd.board().save)
kw = dict(judged=all_grades, gain=gain, ideal=ideal)
curves = nd.graded_curves(shown, all_grades, gain=gain, ideal=ideal)
other = (nd.graded_curves(shown, all_grades, gain=nd.other_gain(gain), ideal=ideal)
         if S["both"] else None)
# The numbers beside their curves, under the board: one screen on a laptop. Two rows of two
# tiles of one width, so a phone (where columns stack) reads them in order too.
numbers, left, right = st.columns([1.5, 2, 2])
st.html(f"""<style>
.st-key-{P}numbers [data-testid="stElementContainer"] {{ flex: 1 1 0; }}
</style>""")
with numbers.container(key=P + "numbers"):
    for row in ((("CG", f"CG@{k}"), ("DCG", f"DCG@{k}")),
                (("IDCG", f"IDCG@{k}"), ("nDCG", f"NDCG@{k}"))):
        with st.container(horizontal=True, gap="small"):
            for name, label in row:
                st.metric(label, fmt(curves[name][k - 1]), border=True, width="stretch")
for column, name, figure in ((left, "dcg", nd.dcg_figure), (right, "ndcg", nd.ndcg_figure)):
    with column:
        st.plotly_chart(figure(curves, other, k, gain, height=264), key=f"{P}chart_{name}",
                        on_select=lambda key=f"{P}chart_{name}": nd.set_k_from_chart(key),
                        selection_mode="points", config=plotly_config(displayModeBar=False))
# Under the charts, not between the board and them: on a laptop the curves stay on the
# board's screen when fewer results are shown (the board grows by its FN marks).
short = (f"The system returns only the top {n_shown}; the pictures below rank {n_shown} are "
         "judged but not returned (FN: a relevant one it missed). " if n_shown < n_items else "")
st.caption(short + "Click a point on either chart to set K. DCG grows with every relevant "
           "result; IDCG is the highest any ordering could reach, so NDCG = DCG / IDCG is at most 1. "
           "Exponential gain (2^grade − 1) rewards the 4s much more than the 1s.")

st.header("Step by step, as the article does")
flip = nd.swapped(shown)
can_swap = k >= 2 and n_shown >= 2

with st.container(border=True, key=P + "step_cg"):
    st.subheader("1. Cumulative gain: add up the grades")
    show_explanation(narrow(irlib.explain("CG", shown, k, **kw)), table=False,
                     pros_cons=False)
    if can_swap:
        show_swapped(irlib.explain("CG", flip, k, **kw))
    st.caption("CG is order-unaware: swapping results inside the top K changes nothing, so it "
               "cannot tell a good first result from a bad one.")

with st.container(border=True, key=P + "step_dcg"):
    st.subheader("2. Discounted cumulative gain: lower ranks count less")
    show_explanation(narrow(irlib.explain("DCG", shown, k, **kw)), table=False,
                     pros_cons=False)
    if can_swap:
        show_swapped(irlib.explain("DCG", flip, k, **kw))
    st.caption("Dividing each gain by log2(rank + 1) makes order matter: the most relevant picture "
               "first scores higher. But DCG has no fixed top, so it cannot be compared across "
               "queries.")

with st.container(border=True, key=P + "step_idcg"):
    st.subheader("3. Ideal DCG: the ideal order")
    show_explanation(irlib.explain("IDCG", shown, k, **kw), table=False, pros_cons=False)
    best = [fmt(g) for g in irlib.ideal_grades(shown, judged=all_grades, ideal=ideal)]
    source = "all judged pictures" if ideal == "judged" else "the shown list only"
    st.caption(f"The grades sorted highest first, from {source}: "
               f"**{', '.join(best[:k])}**{' | ' + ', '.join(best[k:]) if best[k:] else ''}. "
               f"IDCG@{k} is the DCG of the first {min(k, len(best))} of them.")

with st.container(border=True, key=P + "step_ndcg"):
    st.subheader("4. Normalised DCG: divide by the ideal")
    show_explanation(irlib.explain("nDCG", shown, k, **kw))

st.header("Where does the ideal order come from?")
st.markdown(
    "**trec_eval**, **ranx** and **ir_measures** build the ideal ranking from *every judged* "
    "document of the query (the qrels), so a relevant picture the system never returned still "
    "raises IDCG and lowers NDCG. **scikit-learn's `ndcg_score`** only sees the relevance "
    "values you pass it — usually just the returned list — so its ideal is a reshuffle of what "
    "was shown and a missed relevant picture costs nothing.")
judged_ndcg = irlib.ndcg_at_k(shown, k, judged=all_grades, gain=gain, ideal="judged")
shown_ndcg = irlib.ndcg_at_k(shown, k, judged=all_grades, gain=gain, ideal="shown")
tiles([(f"NDCG@{k}, ideal from all judged", fmt(judged_ndcg),
        "trec_eval, ranx, ir_measures"),
       (f"NDCG@{k}, ideal from the shown list", fmt(shown_ndcg),
        "scikit-learn's ndcg_score")])
if n_shown == n_items:
    st.caption("With all eight results shown the two agree. Lower “Results shown” above to see "
               "them split.")
else:
    missed = [g for g in all_grades[n_shown:] if g > 0]
    st.caption(f"The system shows {n_shown} of {n_items}; the judged pool also holds "
               f"{len(missed)} relevant picture(s) it never returned "
               f"(grades {', '.join(map(str, missed)) or '—'}).")

with st.expander("Where the article's 0.41 comes from"):
    code = list(nd.ARTICLE_CODE_GRADES)
    st.markdown(
        f"The text of {SOURCES['article']} works with the 0–4 grades above and gets NDCG@2 = "
        "0.39. Its later "
        f"**0.41** comes from its Python code, which uses the grades `{code}` instead:")
    for metric in ("DCG", "IDCG", "nDCG"):
        st.latex(irlib.explain(metric, code, 2).latex)

lesson_links("pages/ndcg.py")
S.keep_address()
