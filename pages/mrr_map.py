"""Lesson 2: many queries. The article's three queries, one board each; RR and AP per query,
then MRR and MAP over the test set, with the formulas substituted."""
import streamlit as st

import irlib
from irlib import fmt
from ui import lessons as ls
from ui.board import ranking_board
from ui.catalog import board_items, load_catalog
from ui.texts import METRIC_TEXT

P = ls.MM
ls.init_mrr()
catalog = load_catalog()
n_items = len(catalog.items)

st.title("Many queries: MRR and MAP")
st.markdown(
    "One ranking tells us little; a test set has many queries. Here are the article's three "
    "queries over the same eight pictures. **Drag** the pictures and **click a badge** to "
    "change a judgment: each query's RR and AP, and their means over the queries — **MRR** "
    "and **MAP** — follow at once.")
st.caption("The article's second query is “white cat”; only three of these pictures show a "
           "white cat, so it reads “white animal” here (the white dog counts too), which keeps "
           "its relevant ranks 1, 4, 5 and 7.")

controls = st.columns([3, 2, 2])
controls[0].slider("K: results per query that count", 1, n_items, key=P + "k",
                   help="RR@K and AP@K only look at the top K results. The article uses K = 8.")
k = int(st.session_state[P + "k"])
controls[2].button("↺ Article's rankings", key=P + "reset", on_click=ls.reset_mrr,
                   width="stretch", help="Back to the article's orders and judgments.")

rows, rrs, aps, firsts, rankings = [], [], [], [], []
items = board_items()
for number, qid in enumerate(ls.MRR_QUERIES, 1):
    query = catalog.queries[qid]
    order, judgments, grades = ls.ranked(P, qid)
    rr = irlib.explain("RR", grades, k)
    ap = irlib.explain("AP", grades, k)
    first = rr.details["first_relevant_rank"]
    rrs.append(rr.value)
    aps.append(ap.value)
    firsts.append(first)
    rankings.append(grades)
    rows.append({"Query": f"{number}. {query.text}",
                 "Relevant judged": sum(1 for g in grades if g),
                 "First relevant at rank": first, f"RR@{k}": rr.value, f"AP@{k}": ap.value})
    with st.container(border=True, key=f"{P}card_{qid}"):
        st.subheader(f"Query {number}: “{query.text}”")
        ranking_board(items, order, judgments, mode="binary", key=f"{P}board_{qid}", k=k,
                      on_change=ls.saver(P, qid))
        tiles, formulas = st.columns([1, 3], vertical_alignment="center")
        with tiles:
            left, right = st.columns(2)
            left.metric(f"RR@{k}", fmt(rr.value), border=True, help=METRIC_TEXT["RR"].short)
            right.metric(f"AP@{k}", fmt(ap.value), border=True, help=METRIC_TEXT["AP"].short)
        with formulas:
            st.latex(rr.latex)
            st.latex(ap.latex)

st.header("The whole test set in one number")
st.markdown(
    "**MRR** averages the reciprocal ranks, **MAP** the average precisions, over the "
    f"Q = {len(rrs)} queries. The table keeps three decimals; the formulas round to two, as "
    "the article does.")
mrr = irlib.mean_reciprocal_rank(rankings, k)
map_ = irlib.mean_average_precision(rankings, k)
with st.container(border=True, key=P + "means"):
    table_col, tiles_col = st.columns([3, 2], vertical_alignment="center")
    with table_col:
        st.dataframe(ls.mean_table(rows, k), hide_index=True, width="stretch",
                     column_config={c: st.column_config.NumberColumn(format="%.3f")
                                    for c in (f"RR@{k}", f"AP@{k}")})
    with tiles_col:
        left, right = st.columns(2)
        left.metric(f"MRR@{k}", fmt(mrr), border=True,
                    help="Mean reciprocal rank: the mean of the queries' RR.")
        right.metric(f"MAP@{k}", fmt(map_), border=True,
                     help="Mean average precision: the mean of the queries' AP.")
    st.latex(ls.mrr_latex(rrs, firsts, k))
    st.latex(ls.map_latex(aps, k))

st.header("Why MRR ignores everything after the first hit")
st.markdown(
    "The article's warning: ask for **ten** products, get **one** relevant one at rank 1 and "
    "nine misses. Nine of ten useless results is a terrible list, yet RR is a perfect 1.0 — "
    "RR stops looking at the first hit. Add relevant results below it: RR does not move, while "
    "Precision@10 and AP@10 do.")
with st.container(border=True, key=P + "ten"):
    a, b = st.columns(2)
    a.slider("Rank of the first relevant result", 1, 10, 1, key=P + "ten_first")
    b.slider("Relevant results in the list", 1, 10, 1, key=P + "ten_hits",
             help="Placed one after another, starting at the first relevant rank.")
    demo = ls.ten_results(int(st.session_state[P + "ten_first"]),
                          int(st.session_state[P + "ten_hits"]))
    st.markdown(ls.result_strip(demo["grades"]))
    if demo["shown"] < int(st.session_state[P + "ten_hits"]):
        st.caption(f"Only {demo['shown']} fit between that rank and rank 10.")
    for col, (name, label) in zip(st.columns(4), [("RR", "RR@10"), ("P", "Precision@10"),
                                                  ("R", "Recall@10"), ("AP", "AP@10")]):
        col.metric(label, fmt(demo[name]), border=True, help=METRIC_TEXT[name].short)
    st.caption("Assumes ten relevant products exist for this user (what we hoped to fill the "
               "list with), so Recall@10 and AP@10 divide by 10. Computed with irlib.")

with st.expander("Notes on the article's numbers"):
    st.markdown(
        "- Its MRR formula is labelled **RR**, but it is the mean over queries: **MRR** "
        "(RR is one query's 1/rank).\n"
        "- It prints AP@8 of the third query as **0.22** in the text and **0.23** in its code's "
        "output. The exact value is (1/5 + 2/8)/2 = **0.225**, so it depends on rounding; the "
        "table above keeps 0.225. MAP is 0.48 either way (0.4786 exactly).\n"
        "- Its AP@8 of the second query lists the terms 1, 0.5, **0.4** and **0.43**; the "
        "precisions at ranks 5 and 7 are 3/5 = **0.6** and 4/7 = **0.57**, which is what gives "
        "its (correct) 0.67.")
