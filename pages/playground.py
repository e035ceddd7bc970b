"""Lesson 1, the playground: drag the eight results, judge them, watch every metric move."""
import streamlit as st

import irlib
from ui import playground as pg
from ui.board import ranking_board
from ui.catalog import board_items, load_catalog
from ui.charts import curves_figure
from ui.course import lesson_links
from ui.formula import show_explanation
from ui.live_chart import live_charts
from ui.texts import METRIC_TEXT, OUTCOME_TEXT

P = pg.PREFIX
S = pg.page_state()
pg.init()
state = pg.current()
catalog = load_catalog()
query = catalog.queries[pg.BINARY_QUERY if state.mode == "binary" else pg.GRADED_QUERY]

st.title("Rank the cats")
st.markdown(f"A user searched for **“{query.text}”** and the system returned these eight "
            "pictures. **Drag** them into any order, **click a badge** to judge a picture, and "
            "watch every metric follow. Keyboard: focus a card, **Alt+↑/↓** moves it, "
            + ("**Space** toggles relevant." if state.mode == "binary" else "**0–4** sets the grade."))

controls = st.columns(3)
controls[0].segmented_control(
    "Judgments", ["binary", "graded"], **S.bind("mode"), required=True,
    format_func={"binary": "Relevant / not", "graded": "Grades 0–4"}.get,
    help="Binary: the article's 'cat in a box' labels. Graded: the video's grades for "
         "'white cat in a box'.")
controls[1].segmented_control(
    "NDCG gain", ["linear", "exponential"], **S.bind("gain"), required=True,
    format_func={"linear": "grade", "exponential": "2^grade − 1"}.get,
    disabled=state.mode == "binary",
    help="Linear: gain = grade (trec_eval). Exponential: 2^grade − 1 (the DCG notebook)."
         + (" With 0/1 judgments both give the same numbers (2^1 − 1 = 1): pick "
            "“Grades 0–4” to compare them." if state.mode == "binary" else ""))
if state.mode == "graded":
    controls[2].number_input("Relevant if grade ≥", 1, 4, **S.bind("rel"),
                             help="Binary metrics (P, R, F1, RR, AP) need a yes/no: this is it.")
st.slider("K — how many results the system returns (the cut-off line on the board)", 1,
          len(state.order), **S.bind("k"))

buttons = st.columns(4)
buttons[0].button("↺ Sources' order", key=P + "reset", on_click=pg.reset, width="stretch",
                  help="Back to the article's order and judgments.")
buttons[1].button("★ Ideal order", key=P + "ideal", on_click=pg.sort_by_grade, args=(True,),
                  width="stretch", help="Best-judged pictures first.")
buttons[2].button("▼ Worst order", key=P + "worst", on_click=pg.sort_by_grade, args=(False,),
                  width="stretch", help="Best-judged pictures last.")
buttons[3].button("⤮ Shuffle", key=P + "shuffle", on_click=pg.shuffle, width="stretch")


# A drag or a badge click reruns only this part: the page above does not change with the
# board, and every element re-sent costs the browser time (see benchmarks/bench_interaction.py).
@st.fragment
def live_part() -> None:
    if pg.take_k_from_chart():
        st.rerun(scope="app")             # the K slider above must show the new K too
    state = pg.current()
    judgments = state.current_grades()
    grades = [judgments[i] for i in state.order]
    rel = state.rel if state.mode == "graded" else 1
    k = state.k

    confusion = irlib.confusion_at_k(grades, k, rel=rel)
    ranking_board(board_items(), list(state.order), judgments, mode=state.mode, key=P + "board",
                  k=k, outcomes=list(confusion.outcomes), on_change=pg.on_board_change)

    curves = irlib.metric_curves(grades, rel=rel, gain=state.gain)
    tiles = [("P", f"Precision@{k}"), ("R", f"Recall@{k}"), ("F1", f"F1@{k}"),
             ("RR", f"RR@{k}"), ("AP", f"AP@{k}"), ("DCG", f"DCG@{k}"), ("IDCG", f"IDCG@{k}"),
             ("nDCG", f"NDCG@{k}")]
    # One component draws the caption, the tiles and both charts: they change in the same
    # frame, and every Streamlit element fewer is less for the browser to redo on each drag.
    live_charts([
        ("Precision, recall, F1, RR, AP and NDCG against K",
         curves_figure(curves, ["P", "R", "F1", "RR", "AP", "nDCG"], k, y_title="score at K")),
        ("DCG and IDCG against K",
         curves_figure(curves, ["DCG", "IDCG"], k, y_title="DCG at K", unit_interval=False,
                       dash={"IDCG": "dash"})),
    ], key=P + "curves", on_click=pg.set_k_from_chart, address=pg.address(),
        note=(f"At K = {k}: {confusion.tp} {OUTCOME_TEXT['TP']} · {confusion.fp} "
              f"{OUTCOME_TEXT['FP']} · {confusion.fn} {OUTCOME_TEXT['FN']} · {confusion.tn} "
              f"{OUTCOME_TEXT['TN']}."),
        tiles=[(label, irlib.fmt(curves[name][k - 1])) for name, label in tiles],
        footer="Click a point on either chart to set K.")

    st.subheader("The math, with today's numbers")
    st.segmented_control("Metric", list(pg.url_state.METRICS), **S.bind("metric"), required=True,
                         format_func=lambda m: METRIC_TEXT[m].label)
    show_explanation(irlib.explain(state.metric, grades, k, rel=rel, gain=state.gain))
    if state.metric == "nDCG" and state.mode == "graded":
        st.caption("The article later prints NDCG@2 = 0.41: that number comes from its code's "
                   "grades [0, 7, 2, 4, 6, 1, 4, 3], not the 0–4 grades of its text (0.39).")


live_part()
st.caption(":material/link: To share this exact board (order, judgments, mode, K and metric), "
           "copy the address bar: it always holds the whole state.")
lesson_links("pages/playground.py")
