"""Helpers for the lesson "Choosing a metric": the lecture's three rankings of six documents.

The lecture ranks the same six documents three ways; a star marks the three relevant ones
(A, B and C here). Ranking 1 puts them at ranks 1, 2 and 6, ranking 2 at 2, 5 and 6,
ranking 3 at 3, 4 and 5. State lives in ``st.session_state``: one order per ranking
(``choosing_order_<n>``) and one set of judgments shared by all three (``choosing_grades``):
it is the same six documents, so marking one relevant marks it in every ranking.
"""
from __future__ import annotations

import base64
import functools
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
import streamlit as st

import irlib
from irlib.stats import claims
from ui.shared import page_state as ps

PREFIX = "choosing_"
RANKINGS = (1, 2, 3)
DOCS = ("A", "B", "C", "D", "E", "F")
LECTURE_GRADES = {"A": 1, "B": 1, "C": 1, "D": 0, "E": 0, "F": 0}
#: Relevant (A, B, C) at ranks {1, 2, 6}, {2, 5, 6} and {3, 4, 5}, as in the lecture.
LECTURE_ORDERS = {1: list("ABDEFC"), 2: list("DAEFBC"), 3: list("DEABCF")}
N = len(DOCS)
#: (key, column label with "{k}" for K, depends on K)
METRICS = (("Success", "Success@{k}", True), ("RR", "RR@{k}", True), ("P", "P@{k}", True),
           ("R", "R@{k}", True), ("F1", "F1@{k}", True), ("AP", "AP", False))
WINNER_MARK = claims.STAR
#: Cells with the highest score (ties shared, irlib.stats.claims): a tint that reads on white
#: and on Streamlit's dark background, plus bold text and the star, so it never depends on
#: colour alone.
WINNER_STYLE = ("background-color: rgba(230, 159, 0, 0.28); font-weight: 700; "
                "box-shadow: inset 3px 0 0 #E69F00")
_BAND = {"A": "#0072B2", "B": "#E69F00", "C": "#009E73", "D": "#CC79A7", "E": "#56B4E9",
         "F": "#D55E00"}


def _doc_icon(letter: str) -> str:
    """A small page icon with the document's letter, as a data URI (no files, no network)."""
    colour = _BAND[letter]
    lines = "".join(f'<rect x="14" y="{y}" width="{w}" height="3" rx="1.5" fill="#b8c2cc"/>'
                    for y, w in ((62, 36), (69, 28)))
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 84" width="64" height="84">'
           '<path d="M8 3h34l16 16v59a3 3 0 0 1-3 3H8a3 3 0 0 1-3-3V6a3 3 0 0 1 3-3z" '
           'fill="#ffffff" stroke="#5b7083" stroke-width="2.5"/>'
           '<path d="M42 3v16h16" fill="#e6ecf2" stroke="#5b7083" stroke-width="2.5" '
           'stroke-linejoin="round"/>'
           f'<rect x="5" y="3" width="6" height="75" fill="{colour}"/>'
           f'<text x="33" y="50" font-family="sans-serif" font-size="30" font-weight="700" '
           f'text-anchor="middle" fill="#29335c">{letter}</text>{lines}</svg>')
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode("ascii")


def board_items() -> list[dict]:
    return [{"id": d, "title": f"Doc {d}", "image": _doc_icon(d),
             "alt": f"Document {d}"} for d in DOCS]


def order_key(n: int) -> str:
    return f"{PREFIX}order_{n}"


GRADES_KEY = PREFIX + "grades"
K_KEY = PREFIX + "k"


@functools.cache
def page_state() -> ps.PageState:
    """The three orders, the shared judgments, K, the open tab and the page's choices."""
    letters = "".join(DOCS)
    return ps.PageState(PREFIX, [
        *(ps.Field(f"order_{n}", tuple(LECTURE_ORDERS[n]), ps.ordering(DOCS, letters), f"o{n}")
          for n in RANKINGS),
        ps.Field("grades", dict(LECTURE_GRADES), ps.judgments(DOCS, 1), "labels"),
        ps.Field("k", 2, ps.whole_number(1, N)),
        ps.Field("tab", "Ranking 1", ps.one_of(tuple(f"Ranking {n}" for n in RANKINGS))),
        ps.Field("explain_ranking", 1, ps.one_of(RANKINGS), "explain"),
        ps.Field("explain_metric", "P", ps.one_of(tuple(m for m, _, _ in METRICS)), "formula"),
        ps.Field("need", NEEDS[0].key, ps.one_of(tuple(n.key for n in NEEDS))),
    ])


def init() -> None:
    page_state().start()


def reset() -> None:
    page_state().reset(*(f"order_{n}" for n in RANKINGS), "grades")


def saver(n: int):
    """on_change for ranking ``n``'s board: its order, and the judgments shared by all three."""
    return page_state().board_saver(f"order_{n}", "grades")


def rankings() -> dict[int, list[int]]:
    """Each ranking's grades (0/1) in rank order."""
    grades = st.session_state[GRADES_KEY]
    return {n: [int(grades.get(d, 0)) for d in st.session_state[order_key(n)]]
            for n in RANKINGS}


def relevant_ranks(grades: Sequence[int]) -> list[int]:
    return [r for r, g in enumerate(grades, 1) if g]


def metric_value(metric: str, grades: Sequence[int], k: int) -> float:
    if metric == "Success":
        return irlib.success_at_k(grades, k)
    if metric == "RR":
        return irlib.reciprocal_rank(grades, k)
    if metric == "P":
        return irlib.precision_at_k(grades, k)
    if metric == "R":
        return irlib.recall_at_k(grades, k)
    if metric == "F1":
        return irlib.f1_at_k(grades, k)
    if metric == "AP":
        return irlib.average_precision(grades)          # the whole list: no K
    if metric == "nDCG":
        return irlib.ndcg_at_k(grades, k)
    raise ValueError(f"unknown metric {metric!r}")


def label(metric: str, k: int) -> str:
    for name, text, _ in METRICS:
        if name == metric:
            return text.format(k=k)
    return {"nDCG": f"NDCG@{k}"}.get(metric, metric)


@dataclass(frozen=True)
class Scores:
    k: int
    values: dict[str, dict[int, float]]      # metric -> ranking -> value
    winners: dict[str, tuple[int, ...]]      # metric -> best rankings (empty: all tie)


def winners_of(by_ranking: dict[int, float]) -> tuple[int, ...]:
    """The rankings with the highest score on this query, as the claims layer shares the top
    (:func:`irlib.stats.claims.leaders`): ties shared, none when all three score the same."""
    return claims.leaders(by_ranking)


def score_all(grades_by_ranking: dict[int, list[int]], k: int,
              metrics: Sequence[str] = tuple(m for m, _, _ in METRICS)) -> Scores:
    values = {m: {n: metric_value(m, g, k) for n, g in grades_by_ranking.items()}
              for m in metrics}
    return Scores(k, values, {m: winners_of(v) for m, v in values.items()})


def names(rankings_: Sequence[int]) -> str:
    """"Ranking 1", "Rankings 1 and 3", "Rankings 1, 2 and 3"."""
    items = [str(n) for n in rankings_]
    if not items:
        return "no ranking"
    if len(items) == 1:
        return f"Ranking {items[0]}"
    return "Rankings " + ", ".join(items[:-1]) + " and " + items[-1]


def results_table(scores: Scores, grades_by_ranking: dict[int, list[int]]) -> pd.DataFrame:
    """Display strings: one row per metric (after a row of relevant ranks), one column per
    ranking; a winner's cell starts with the star. Narrow enough for a phone."""
    columns = {}
    for n, grades in grades_by_ranking.items():
        ranks = relevant_ranks(grades)
        column = {"Relevant at ranks": ", ".join(map(str, ranks)) if ranks else "none"}
        for metric, _, _ in METRICS:
            value = f"{scores.values[metric][n]:.2f}"
            column[label(metric, scores.k)] = (f"{WINNER_MARK}\u00a0{value}"
                                               if n in scores.winners[metric] else value)
        columns[f"Ranking {n}"] = column
    table = pd.DataFrame(columns)
    table.index.name = "Metric"
    return table


def styled_table(table: pd.DataFrame):
    """The table with every winner cell tinted and bold (the star is already in its text)."""
    def _style(cell: str) -> str:
        return WINNER_STYLE if isinstance(cell, str) and cell.startswith(WINNER_MARK) else ""
    return table.style.map(_style)


def _crowned(winners: tuple[int, ...]) -> str:
    """The top rankings in bold, as the claims layer names shared leaders."""
    return claims.leaders_named(f"**{names(winners)}**" if winners else "", len(winners),
                                len(RANKINGS))


def insight(scores: Scores, at2: Scores, at5: Scores, ap_values: dict[int, float]) -> str:
    """The lecture's point, in words that follow the current rankings and K: which ranking
    scores highest on this one query (irlib.stats.claims: an order of scores, never a win)."""
    k = scores.k
    p_w, r_w = scores.winners["P"], scores.winners["R"]
    p = {n: f"{v:.2f}" for n, v in scores.values["P"].items()}
    r = {n: f"{v:.2f}" for n, v in scores.values["R"].items()}

    def top(w: tuple[int, ...], what: str) -> str:
        return claims.highest_on_one(f"**{names(w)}**" if w else "", len(w), what,
                                     len(RANKINGS))

    if p_w and p_w == r_w:
        first = (f"At **K = {k}**, "
                 + top(p_w, f"both precision (P@{k} = {p[p_w[0]]}) and recall "
                            f"(R@{k} = {r[r_w[0]]})") + ".")
    else:
        parts = [top(w, f"{metric} ({vals[w[0]]})" if w else metric)
                 for metric, w, vals in (("precision", p_w, p), ("recall", r_w, r))]
        first = f"At **K = {k}**, " + " and ".join(parts) + "."
    two, five = at2.winners["P"], at5.winners["P"]
    if not any(at5.values["P"].values()):          # P@5 = 0 everywhere, so P@2 = 0 too
        second = ("No ranking has a relevant document in its top 5, so precision is 0 for all "
                  "three rankings at K = 2 and at K = 5.")
    elif two != five:
        second = (f"The highest precision depends on K: at K = 2 {_crowned(two)}, at "
                  f"K = 5 {_crowned(five)}.")
    elif not two:
        second = "With these rankings, " + top((), "precision at K = 2 and at K = 5") + "."
    else:
        second = ("With these rankings, " + top(two, "precision at both K = 2 and K = 5")
                  + "; in the lecture's rankings it changes with K.")
    ap = ", ".join(f"{ap_values[n]:.2f}" for n in sorted(ap_values))
    third = f"AP ({ap} for rankings 1, 2, 3) does not depend on K at all."
    return " ".join([first, second, third])


@dataclass(frozen=True)
class Need:
    key: str
    situation: str
    metric: str            # the metric to look at (irlib / METRIC_TEXT name)
    advice: str


#: The lecture's "which metric should you use?" (and, for graded labels, the article/video).
NEEDS = (
    Need("scroll", "Scrolling through the top K is cheap; one good result is enough", "Success",
         "Use **Success@K**. If looking through K results costs your users little, all that "
         "matters is whether a relevant one is there: Success@K is fine-grained enough."),
    Need("several", "There are several relevant documents per query", "AP",
         "Avoid **RR** and **Success**: they only notice the first relevant document, so they "
         "are too coarse. Use precision, recall, F1 or AP."),
    Need("everything", "Finding every relevant document matters most", "R",
         "Favour **Recall@K**: missing something is costly, reviewing is cheap."),
    Need("only_relevant", "Users should review only relevant documents", "P",
         "Favour **Precision@K**: reviewing is costly, missing a few is cheap; you need a few "
         "relevant examples, not all of them."),
    Need("balance", "Several relevant documents, their order above K hardly matters", "F1",
         "Use **F1@K**, the harmonic mean of precision and recall at K, to balance the two."),
    Need("finest", "Little data, and you need the finest distinctions between rankings", "AP",
         "Use **AP** (MAP over queries): sensitive to rank, precision and recall at once, it "
         "makes the finest distinctions of these metrics."),
    Need("graded", "Your labels are graded (e.g. 0–4), not just relevant / not", "nDCG",
         "Use **NDCG@K**: the only one here that uses how relevant a document is, not just "
         "whether it is (the article and video; the lecture's six metrics are all binary)."),
)
NEED_BY_KEY = {n.key: n for n in NEEDS}
