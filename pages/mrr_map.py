"""Lesson 2, many queries: the article's three queries with a board each; RR and AP per query,
then MRR and MAP over the test set with the formulas substituted."""

from ui.shared.course import through_app_navigation

through_app_navigation()   # first, before the slow imports (ui/shared/course.py)

import streamlit as st

import irlib
from ui.shared.numbers import fmt
from ui.lessons import mrr_map as mm
from ui.shared.formula import two_lines
from ui.shared.tiles import tiles
from ui.shared.board import ranking_board
from ui.shared.catalog import board_items, load_catalog
from ui.shared.course import SOURCES, lesson_links
from ui.shared.layout import board_page, keep_in_view
from ui.shared.texts import METRIC_TEXT


P = mm.MM
S = mm.mrr_state()
mm.init_mrr()
catalog = load_catalog()
n_items = len(catalog.items)

board_page(compact_metrics=True)
st.title("Many queries: MRR and MAP", anchor=False)
st.caption(
    "One ranking tells us little; a test set has many queries. Here are the three queries of "
    f"{SOURCES['article']}, over the same eight pictures. **Drag** the pictures and **click a badge**: each "
    "query's RR and AP, and their means over the queries — **MRR** and **MAP** — follow at "
    "once.")

k = int(S["k"])
rows, rrs, aps, firsts, rankings, boards = [], [], [], [], [], []
for number, qid in enumerate(mm.MRR_QUERIES, 1):
    query = catalog.queries[qid]
    order, judgments, grades = mm.board(qid).ranked()
    rr, ap = irlib.explain("RR", grades, k), irlib.explain("AP", grades, k)
    first = rr.details["first_relevant_rank"]
    rrs.append(rr.value)
    aps.append(ap.value)
    firsts.append(first)
    rankings.append(grades)
    boards.append((number, qid, query, order, judgments, rr, ap))
    rows.append({"Query": f"{number}. {query.text}",
                 "Relevant judged": sum(1 for g in grades if g),
                 "First relevant at rank": first, f"RR@{k}": rr.value, f"AP@{k}": ap.value})

# The means first, beside K, pinned at the top on a laptop: the three boards are taller
# than its screen, and the means must stay in view while the third board changes. The band
# and the boards share a container, so the band goes with the last board (and covers none
# of the lesson below it).
with st.container(key=P + "boards"):
    keep_in_view(P + "top")
    with st.container(key=P + "top"):
        controls = st.columns([4, 2.6, 1.6], vertical_alignment="bottom")
    controls[0].slider("K: results per query that count", 1, n_items, **S.bind("k"),
                       help="RR@K and AP@K only look at the top K results. The article uses "
                            "K = 8.")
    with controls[1].container(horizontal=True, gap="small"):     # side by side on a phone
        st.metric(f"MRR@{k}", fmt(irlib.mean_reciprocal_rank(rankings, k)), border=True,
                  width="stretch",
                  help="Mean reciprocal rank: the mean of the three queries' RR.")
        st.metric(f"MAP@{k}", fmt(irlib.mean_average_precision(rankings, k)), border=True,
                  width="stretch",
                  help="Mean average precision: the mean of the three queries' AP.")
    controls[2].button("↺ Article's rankings", key=P + "reset", on_click=mm.reset_mrr,
                       width="stretch", help="Back to the article's orders and judgments.")

    items = board_items()
    for number, qid, query, order, judgments, rr, ap in boards:
        with st.container(border=True, key=f"{P}card_{qid}"):
            left, right = st.columns([5, 1.6], vertical_alignment="center")
            with left:
                st.markdown(f"**Query {number}: “{query.text}”**")
                ranking_board(items, order, judgments, mode="binary", key=f"{P}board_{qid}",
                              k=k, size="small", on_change=mm.board(qid).save)
            # side by side on a phone too (columns would stack them)
            with right.container(horizontal=True, gap="small"):
                for name, value in (("RR", rr.value), ("AP", ap.value)):
                    st.metric(f"{name}@{k}", fmt(value), border=True, width="stretch")

with st.expander("How each query's RR and AP are made, with today's numbers"):
    for number, qid, query, order, judgments, rr, ap in boards:
        st.markdown(f"**Query {number}: “{query.text}”**")
        st.latex(rr.latex)
        st.latex(two_lines(ap.latex))

st.header("The whole test set in one number")
st.markdown(
    "**MRR** averages the reciprocal ranks, **MAP** the average precisions, over the "
    f"Q = {len(rrs)} queries. The table keeps three decimals; the formulas round to two, as "
    "the article does.")
with st.container(border=True, key=P + "means"):
    st.dataframe(mm.mean_table(rows, k), hide_index=True, width="stretch",
                 column_config={c: st.column_config.NumberColumn(format="%.3f")
                                for c in (f"RR@{k}", f"AP@{k}")})
    left, right = st.columns(2)
    left.latex(mm.mrr_latex(rrs, firsts, k))
    right.latex(mm.map_latex(aps, k))

st.header("Why MRR ignores everything after the first hit")
st.markdown(
    "The article's warning: ask for **ten** products, get **one** relevant one at rank 1 and "
    "nine misses. Nine useless results out of ten is a terrible list, yet RR is a perfect 1 — "
    "it stops looking at the first hit. Add relevant results below it: RR does not move, while "
    "Precision@10 and AP@10 do.")
with st.container(border=True, key=P + "ten"):
    a, b = st.columns(2)
    a.slider("Rank of the first relevant result", 1, 10, **S.bind("ten_first"))
    b.slider("Relevant results in the list", 1, 10, **S.bind("ten_hits"),
             help="Placed one after another, starting at the first relevant rank.")
    wanted = int(S["ten_hits"])
    demo = mm.ten_results(int(S["ten_first"]), wanted)
    st.markdown(mm.result_strip(demo["grades"]))
    if demo["shown"] < wanted:
        st.caption(f"Only {demo['shown']} fit between that rank and rank 10.")
    tiles([(label, fmt(demo[name]), METRIC_TEXT[name].short)
              for name, label in [("RR", "RR@10"), ("P", "Precision@10"), ("R", "Recall@10"),
                                  ("AP", "AP@10")]])
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
        "its (correct) 0.67.\n"
        "- Its second query is “white cat”; only three of these pictures show a white cat, so "
        "it reads “white animal” here (the white dog counts too), which keeps its relevant "
        "ranks 1, 4, 5 and 7.")

lesson_links("pages/mrr_map.py")
S.keep_address()
