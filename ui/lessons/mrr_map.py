"""Lesson 2, "Many queries: MRR and MAP": its state and the pieces its page draws.

Three boards (one per article query) live in the page's state under one key per query
(``mm_order_<query>``, ``mm_grades_<query>``; ``ui/shared/boards.py``). All numbers come from irlib;
this module only arranges them (substituted formulas, the means table, the ten-results demo).
"""
from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
import pandas as pd

import irlib
from ui.shared.numbers import fmt
from ui.shared import page_state as ps
from ui.shared.boards import BoardState, board_fields
from ui.shared.catalog import load_catalog
from ui.shared.formula import BREAK

MM = "mm_"
#: The article's three MRR/MAP queries, in its order (the second reworded, see the page).
MRR_QUERIES = ("cat-in-a-box", "white-animal", "dark-cats")


@functools.cache
def mrr_state() -> ps.PageState:
    """The lesson's state: three boards, K and the "ten results" demo's two sliders."""
    n = len(load_catalog().items)
    boards = [f for number, qid in enumerate(MRR_QUERIES, 1)
              for f in board_fields(qid, qid, str(number))]
    return ps.PageState(MM, boards + [
        ps.Field("k", 8, ps.whole_number(1, n)),
        ps.Field("ten_first", 1, ps.whole_number(1, 10), "first"),
        ps.Field("ten_hits", 1, ps.whole_number(1, 10), "hits")])


def board(query_id: str) -> BoardState:
    """The board of one of :data:`MRR_QUERIES`."""
    return BoardState(mrr_state(), query_id)


def init_mrr() -> None:
    """Each query's order and judgments default to the article's; a link may set them."""
    mrr_state().start()


def reset_mrr() -> None:
    for qid in MRR_QUERIES:
        board(qid).reset()


def mrr_latex(rrs: Sequence[float], first_ranks: Sequence[int | None], k: int) -> str:
    r"""MRR as a three-line derivation (narrow enough for a phone).

    ``MRR@8 = 1/Q Σ 1/rank_q = 1/3 (1/2 + 1/1 + 1/5) = (0.5 + 1 + 0.2)/3 = 0.57``
    """
    q = len(rrs)
    fracs = " + ".join(rf"\frac{{1}}{{{r}}}" if r else "0" for r in first_ranks)
    terms = " + ".join(fmt(v) for v in rrs)
    return (r"\begin{aligned}"
            rf"\text{{MRR@{k}}} &= \frac{{1}}{{Q}}\sum_{{q=1}}^{{Q}} \frac{{1}}{{rank_q}}" + BREAK
            + rf" &= \frac{{1}}{{{q}}}\left({fracs}\right)" + BREAK +
            rf" &= \frac{{{terms}}}{{{q}}} = {fmt(float(np.mean(rrs)))}"
            r"\end{aligned}")


def map_latex(aps: Sequence[float], k: int) -> str:
    r"""``MAP@8 = 1/Q Σ AP@8_q = (0.54 + 0.67 + 0.23)/3 = 0.48``, on two lines."""
    q = len(aps)
    terms = " + ".join(fmt(v) for v in aps)
    return (r"\begin{aligned}"
            rf"\text{{MAP@{k}}} &= \frac{{1}}{{Q}}\sum_{{q=1}}^{{Q}} AP@{k}_q" + BREAK +
            rf" &= \frac{{{terms}}}{{{q}}} = {fmt(float(np.mean(aps)))}"
            r"\end{aligned}")


def mean_table(rows: list[dict], k: int) -> pd.DataFrame:
    """One row per query (query, relevant judged, first relevant rank, RR@K, AP@K) and a last
    row with the means (MRR@K, MAP@K)."""
    shown = [{**row, "Relevant judged": str(row["Relevant judged"]),
              "First relevant at rank": (str(row["First relevant at rank"])
                                         if row["First relevant at rank"]
                                         else f"none in the top {k}")} for row in rows]
    means = {"Query": f"Mean of {len(rows)} queries", "Relevant judged": "",
             "First relevant at rank": "",
             f"RR@{k}": float(np.mean([row[f"RR@{k}"] for row in rows])),
             f"AP@{k}": float(np.mean([row[f"AP@{k}"] for row in rows]))}
    table = pd.DataFrame(shown + [means])
    return table[["Query", f"RR@{k}", f"AP@{k}", "First relevant at rank", "Relevant judged"]]


def ten_results(first: int, hits: int, *, n: int = 10, relevant_exist: int = 10) -> dict:
    """The article's "ten results, one relevant" case, generalised.

    ``hits`` relevant results starting at rank ``first`` (as many as fit in ``n``), out of
    ``relevant_exist`` relevant items that exist for the query. Returns the grades and RR@n,
    P@n, R@n and AP@n computed by irlib.
    """
    grades = [0] * n
    for r in range(first, min(n, first + hits - 1) + 1):
        grades[r - 1] = 1
    shown = sum(grades)
    judged = grades + [1] * max(relevant_exist - shown, 0)
    return {"grades": grades, "shown": shown,
            "RR": irlib.reciprocal_rank(grades, n),
            "P": irlib.precision_at_k(grades, n),
            "R": irlib.recall_at_k(grades, n, judged=judged),
            "AP": irlib.average_precision(grades, n, judged=judged)}


def result_strip(grades: Sequence[int]) -> str:
    """Markdown for a row of results: a green badge per relevant rank, a grey one otherwise."""
    return " ".join(f":green-badge[{r} ✓]" if g else f":gray-badge[{r} ✗]"
                    for r, g in enumerate(grades, 1))
