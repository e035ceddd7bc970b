"""Lesson 3: graded relevance. CG, DCG, IDCG and NDCG step by step on the video's 0-4 grades,
linear vs exponential gain, and where the ideal ranking comes from."""
import streamlit as st

import irlib
from irlib import fmt
from ui import lessons as ls
from ui.board import ranking_board
from ui.catalog import board_items, load_catalog
from ui.formula import show_explanation
from ui.texts import METRIC_TEXT

P = ls.ND
ls.init_ndcg()
catalog = load_catalog()
query = catalog.queries[ls.NDCG_QUERY]
n_items = len(catalog.items)

st.title("Graded relevance: NDCG")
st.markdown(
    f"Not every hit is equally good. For **“{query.text}”** the video grades the eight "
    "pictures from 0 to 4: **4** a white cat in a box, **3** another cat in a box, **2** a dog "
    "in a box, **1** an empty box or two cats without a box, **0** the dog. **Drag** the "
    "pictures, **click a badge** to change a grade (keys **0–4** work too), and follow "
    "CG → DCG → IDCG → NDCG.")

controls = st.columns([3, 3, 2, 2])
controls[0].slider("K: results that count", 1, n_items, key=P + "k")
controls[1].slider("Results shown: the system returns the top N", 1, n_items, key=P + "shown",
                   help="The other pictures are judged but never returned. Matters for where "
                        "the ideal ranking comes from (below).")
controls[2].segmented_control(
    "NDCG gain", list(ls.GAIN_LABELS), key=P + "gain", required=True,
    format_func=ls.GAIN_LABELS.get,
    help="Linear: gain = grade (trec_eval, ranx's ndcg). Exponential: 2^grade − 1 "
         "(the DCG notebook, ranx's ndcg_burges, ir_measures' dcg='exp-log2').")
controls[3].toggle("Show both gains", key=P + "both",
                   help="Draw the other gain's curves too, dotted.")
k, n_shown = int(st.session_state[P + "k"]), int(st.session_state[P + "shown"])
gain, ideal = st.session_state[P + "gain"], st.session_state[P + "ideal"]

order, judgments, all_grades = ls.ranked(P)
shown = all_grades[:n_shown]
outcomes = [("FN" if g > 0 else "TN") if rank > n_shown else ""
            for rank, g in enumerate(all_grades, 1)]
ranking_board(board_items(), order, judgments, mode="graded", key=P + "board", k=k,
              outcomes=outcomes, on_change=ls.saver(P))

buttons = st.columns(4)
buttons[0].button("↺ Video's order and grades", key=P + "reset", on_click=ls.reset_ndcg,
                  width="stretch", help="Back to the video's ranking; all eight results shown.")
buttons[1].button("⇄ Swap the first two", key=P + "swap", on_click=ls.swap_first_two,
                  width="stretch", help="The article's experiment: CG@2 stays, DCG@2 changes.")
buttons[2].button("★ Ideal order", key=P + "ideal_order", on_click=ls.ideal_order,
                  width="stretch", help="Best grades first: NDCG = 1.")
if n_shown < n_items:
    st.caption(f"The system returns only the top {n_shown}; the pictures below rank {n_shown} "
               "are judged but not returned (FN: a relevant one it missed).")

kw = dict(judged=all_grades, gain=gain, ideal=ideal)
curves = ls.graded_curves(shown, all_grades, gain=gain, ideal=ideal)
tiles = [("CG", f"CG@{k}"), ("DCG", f"DCG@{k}"), ("IDCG", f"IDCG@{k}"), ("nDCG", f"NDCG@{k}")]
for col, (name, label) in zip(st.columns(4), tiles):
    col.metric(label, fmt(curves[name][k - 1]), border=True, help=METRIC_TEXT[name].short)

other = (ls.graded_curves(shown, all_grades, gain=ls._other(gain), ideal=ideal)
         if st.session_state[P + "both"] else None)
left, right = st.columns(2)
with left:
    st.plotly_chart(ls.dcg_figure(curves, other, k, gain), key=P + "chart_dcg",
                    on_select=lambda: ls.set_k_from_chart(P + "chart_dcg"),
                    selection_mode="points")
with right:
    st.plotly_chart(ls.ndcg_figure(curves, other, k, gain), key=P + "chart_ndcg",
                    on_select=lambda: ls.set_k_from_chart(P + "chart_ndcg"),
                    selection_mode="points")
st.caption("Click a point on either chart to set K. DCG grows with every relevant result; "
           "IDCG is the best any ordering could do, so NDCG = DCG / IDCG is at most 1.")

st.header("Step by step, as the article does")
flip = ls.swapped(shown)
can_swap = k >= 2 and n_shown >= 2

with st.container(border=True, key=P + "step_cg"):
    st.subheader("1. Cumulative gain: add up the grades")
    show_explanation(irlib.explain("CG", shown, k, **kw), table=False)
    if can_swap:
        st.latex(ls.labelled(irlib.explain("CG", flip, k, **kw).latex, "first two swapped"))
        st.caption("Same number in both orders: CG cannot tell a good first result from a "
                   "bad one.")

with st.container(border=True, key=P + "step_dcg"):
    st.subheader("2. Discounted cumulative gain: lower ranks count less")
    show_explanation(irlib.explain("DCG", shown, k, **kw), table=False)
    if can_swap:
        st.latex(ls.labelled(irlib.explain("DCG", flip, k, **kw).latex, "first two swapped"))
        st.caption("Dividing by log2(rank + 1) makes order matter: the best picture first "
                   "scores higher.")

with st.container(border=True, key=P + "step_idcg"):
    st.subheader("3. Ideal DCG: the best possible order")
    show_explanation(irlib.explain("IDCG", shown, k, **kw), table=False)

with st.container(border=True, key=P + "step_ndcg"):
    st.subheader("4. Normalised DCG: divide by the ideal")
    show_explanation(irlib.explain("nDCG", shown, k, **kw))

st.header("Where does the ideal order come from?")
st.segmented_control(
    "Build the ideal ranking from", list(ls.IDEAL_LABELS), key=P + "ideal", required=True,
    format_func=ls.IDEAL_LABELS.get)
st.markdown(
    "**trec_eval**, **ranx** and **ir_measures** build the ideal ranking from *every judged* "
    "document of the query (the qrels), so a relevant picture the system never returned still "
    "raises IDCG and lowers NDCG. **scikit-learn's `ndcg_score`** only sees the relevance "
    "values you pass it — usually just the returned list — so its ideal is a reshuffle of what "
    "was shown and a missed relevant picture costs nothing. With all eight results shown the "
    "two agree; lower “Results shown” above to see them split.")
judged_ndcg = irlib.ndcg_at_k(shown, k, judged=all_grades, gain=gain, ideal="judged")
shown_ndcg = irlib.ndcg_at_k(shown, k, judged=all_grades, gain=gain, ideal="shown")
a, b = st.columns(2)
a.metric(f"NDCG@{k}, ideal from all judged", fmt(judged_ndcg), border=True,
         help="trec_eval, ranx, ir_measures")
b.metric(f"NDCG@{k}, ideal from the shown list", fmt(shown_ndcg), border=True,
         help="scikit-learn's ndcg_score")

with st.expander("Where the article's 0.41 comes from"):
    code = list(ls.ARTICLE_CODE_GRADES)
    st.markdown(
        "The article's text works with the 0–4 grades above and gets NDCG@2 = 0.39. Its later "
        f"**0.41** comes from its Python code, which uses the grades `{code}` instead:")
    for metric in ("DCG", "IDCG", "nDCG"):
        st.latex(irlib.explain(metric, code, 2).latex)
