"""Lesson 5: why libraries disagree. One graded ranking scored with the conventions of
trec_eval (pytrec_eval, ir_measures), ranx, scikit-learn, torchmetrics and Kaggle's apk, and
of the recommender tools Spark's RankingEvaluator, Microsoft Recommenders and RecBole, side
by side; then each disagreement (AP's denominator, NDCG's gain and ideal, ties) alone."""

from ui.shared.course import through_app_navigation

through_app_navigation()   # first, before the slow imports (ui/shared/course.py)

import streamlit as st

import irlib
from irlib.measures import conventions as cv
from ui.shared.numbers import fmt
from ui.lessons import libraries as lib
from ui.shared import phone_tables
from ui.shared.board import ranking_board
from ui.shared.catalog import board_items, load_catalog
from ui.shared.course import lesson_links
from ui.shared.layout import board_page


P = lib.PREFIX
S = lib.page_state()
lib.init()
catalog = load_catalog()
n_items = len(catalog.items)

board_page()       # one screen: the board and the libraries' numbers in view together
head = st.columns([5, 2], vertical_alignment="center")
head[0].title("Why libraries disagree", anchor=False)
head[1].button("↺ Video's ranking and grades", key=P + "reset", on_click=lib.reset,
               width="stretch", help="Back to the video's order and grades 0, 4, 1, 3, 4, 1, 3, 2.")
st.caption(
    "The same ranking, scored with the **conventions** of eight tools for search and "
    "recommender systems — what AP divides by, which gain NDCG uses, where the ideal ranking "
    "comes from, what counts as relevant, how ties are ordered. None is wrong. Drag a picture "
    "or change a grade (the video's “white cat in a box”, grades 0–4): every library follows.")

controls = st.columns(3)
controls[0].slider("K for AP@K", 1, n_items, **S.bind("k_ap"),
                   help="AP@2 shows the denominators' disagreement at its starkest.")
controls[1].slider("K for NDCG@K", 1, n_items, **S.bind("k_ndcg"))
controls[2].number_input("Relevant when grade ≥", 1, 4, **S.bind("rel"),
                         help="AP needs a yes/no. Only ranx also applies it to NDCG.")

order, judgments, grades = lib.current()
ranking_board(board_items(), order, judgments, mode="graded", key=P + "board",
              on_change=lib.on_board_change)
k_ap, k_ndcg, rel = int(S["k_ap"]), int(S["k_ndcg"]), int(S["rel"])
missed, missed_grade = int(S["missed"]), int(S["missed_grade"])
judged = lib.judged_pool(grades, missed, missed_grade)

# a phone turns it: the libraries as rows (ui/shared/phone_tables.py)
phone_tables.table(lib.scores_table(grades, judged, k_ap, k_ndcg, rel), P + "scores")
st.caption("— : the library has no such measure. Every number is computed by irlib with that "
           "library's conventions switched on; tests check them against pytrec_eval, ranx, "
           "scikit-learn and Spark themselves, and against the source of torchmetrics, apk, "
           "Microsoft Recommenders and RecBole. HitRate@K is Success@K: they all agree on it.")

st.header(f"1. AP@{k_ap}: what do we divide by?")
parts = lib.ap_parts(grades, judged, k_ap, rel)
st.markdown(
    "Everyone agrees on the **numerator**: add up Precision@k at each rank k ≤ K that holds a "
    f"relevant result (grade ≥ {rel}). They disagree on the **denominator**: all R relevant "
    "documents of the query, at most K of them, or only those the top K actually found.")
st.latex(lib.numerator_latex(parts, k_ap))
denominators = lib.ap_latex(parts, k_ap)
for (who, name, value, tex), col in zip(denominators, st.columns(3)):
    with col:
        st.metric(f"÷ {name}", fmt(value, 4), help=who, border=True)
        st.caption(who)
        st.latex(tex)
st.markdown(
    "Dividing by **R** punishes a short list for every relevant document it could not hold; "
    "**min(R, K)** forgives that (a list of K cannot hold more than K); dividing by what was "
    "**found** only judges the order of the hits, so one hit at rank 1 and nothing else "
    "scores a perfect 1.")

st.header(f"2. NDCG@{k_ndcg}: which gain, and which ideal?")
st.markdown(
    "**Gain.** trec_eval, ranx's `ndcg`, scikit-learn and torchmetrics use the grade itself "
    "(Järvelin & Kekäläinen); ranx's `ndcg_burges` and ir_measures' `nDCG(dcg='exp-log2')` use "
    "2^grade − 1 (Burges et al.), which makes a grade-4 result worth 15 times a grade-1 one. "
    "Spark's RankingEvaluator, RecBole and Microsoft Recommenders (by default) give **every "
    "relevant item a gain of 1**: a 5-star rating and a 3-star one count the same. "
    "**Ideal.** trec_eval and ranx build IDCG from *every judged document of the query*; "
    "scikit-learn and torchmetrics only see the list you hand them, so a relevant document "
    "the system never retrieved cannot lower their score.")
with st.container(border=True, key=P + "missed_box"):
    left, right = st.columns(2)
    left.number_input("Judged documents the system never returned", 0, 5, **S.bind("missed"),
                      help="They join the judged pool (trec_eval, ranx) but not the list "
                           "passed to scikit-learn or torchmetrics.")
    right.number_input("Their grade", 0, 4, **S.bind("missed_grade"))
    variants = (
        ("gain grade · ideal: all judged", "trec_eval ndcg_cut, ranx ndcg",
         cv.score_under("trec_eval", grades, k_ndcg, judged=judged)["NDCG"]),
        ("gain 2^grade − 1 · all judged", "ranx ndcg_burges, ir_measures "
         "nDCG(dcg='exp-log2')",
         cv.score_under("ranx", grades, k_ndcg, judged=judged, gain="exponential")["NDCG"]),
        ("gain 1 if relevant · all judged", "Spark RankingEvaluator ndcgAtK, RecBole NDCG, "
         "Microsoft Recommenders ndcg_at_k (score_type='binary', its default)",
         cv.score_under("spark", grades, k_ndcg, judged=judged, rel=rel)["NDCG"]),
        ("gain grade · ideal: given list", "scikit-learn ndcg_score, "
         "torchmetrics retrieval_normalized_dcg",
         cv.score_under("sklearn", grades, k_ndcg, judged=judged)["NDCG"]))
    for (label, who, value), col in zip(variants, st.columns(len(variants))):
        with col:
            st.metric(label, fmt(value, 4), border=True,
                      help=f"NDCG@{k_ndcg} with this gain and ideal: {who}")
            st.caption(who)
    idcg_judged = irlib.idcg_at_k(grades, k_ndcg, judged=judged)
    idcg_shown = irlib.idcg_at_k(grades, k_ndcg, ideal="shown")
    st.markdown(f"IDCG@{k_ndcg} from all judged documents: **{fmt(idcg_judged, 3)}** · "
                f"from the given list only: **{fmt(idcg_shown, 3)}**")
    if missed == 0:
        st.caption("All judged pictures are in the list, so both ideals agree. Add a document "
                   "the system never returned to see them part.")

st.header("3. Tied scores")
st.markdown(
    "Systems often give two documents the same score. trec_eval (and so pytrec_eval and "
    "ir_measures) then orders them by **doc id, descending**; ranx keeps the order they came "
    "in (in practice), and Spark takes the order of the array you hand it; scikit-learn's and "
    "torchmetrics' NDCG give both the average of their gains. Pick two neighbours that tie:")
tie = st.selectbox("Results that share one score", list(range(1, n_items)), **S.bind("tie"),
                   format_func=lambda r: f"ranks {r} and {r + 1}")
st.table(lib.tie_table(grades, order, int(tie), k_ap, k_ndcg, rel,
                       missed=[missed_grade] * missed))
a, b = order[int(tie) - 1], order[int(tie)]
if judgments.get(a, 0) == judgments.get(b, 0):
    st.caption("These two have the same grade, so no rule changes the score: try another pair.")
else:
    st.caption(f"Doc ids compare as text: “{max(a, b)}” sorts after “{min(a, b)}”, so "
               f"trec_eval puts it first. The input order is the board's. trec_eval's rule "
               "is computed by irlib.evaluate; the others with the per-ranking functions.")
if missed:
    st.caption("The judged documents never returned count here as in the side-by-side table: "
               "in trec_eval's and ranx's R and ideal ranking; scikit-learn cannot see them.")

st.header("All the conventions")
phone_tables.table(lib.conventions_matrix(), P + "conventions")   # a phone: per row
st.caption("In a few words. Each library's tab below has its record in full, with how it is "
           "called, its version and the source it was read from.")
for key, tab in zip(cv.CONVENTIONS, S.tabs("details", [lib.SHORT[k] for k in cv.CONVENTIONS])):
    with tab:
        st.table(lib.library_details(key))
st.caption("The conventions live in irlib/measures/conventions.py as data, one record per library. "
           "When numbers disagree across papers or tools, check these rows first.")

lesson_links("pages/libraries.py")
S.keep_address()
