"""Helpers for two lessons: "Many queries: MRR and MAP" and "Graded relevance: NDCG".

Board state lives in ``st.session_state`` under one key per query (``mm_order_<query>``,
``mm_grades_<query>``; ``nd_order``, ``nd_grades``); the boards' ``on_change`` callbacks write
there and the pages read it back on every run. All numbers come from irlib; this module only
arranges them (substituted formulas, tables, figures).
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import irlib
from irlib import fmt
from ui import page_state as ps
from ui.catalog import load_catalog
from ui.charts import METRIC_COLORS, clicked_x, curves_figure
from ui.tiles import TILE_WIDTH

# --------------------------------------------------------------------------- MRR & MAP

MM = "mm_"
#: The article's three MRR/MAP queries, in its order (the second reworded, see the page).
MRR_QUERIES = ("cat-in-a-box", "white-animal", "dark-cats")


def order_key(prefix: str, query_id: str | None = None) -> str:
    return f"{prefix}order" + (f"_{query_id}" if query_id else "")


def grades_key(prefix: str, query_id: str | None = None) -> str:
    return f"{prefix}grades" + (f"_{query_id}" if query_id else "")


def _board_fields(query_id: str, suffix: str | None, number: str = "") -> list[ps.Field]:
    """The order and judgments of one board, defaulting to the catalog's query."""
    catalog = load_catalog()
    ids, query = list(catalog.items), catalog.queries[query_id]
    tail = f"_{suffix}" if suffix else ""
    top = max(1, *query.grades.values())
    return [ps.Field("order" + tail, tuple(query.order), ps.ordering(ids), f"order{number}"),
            ps.Field("grades" + tail, dict(query.grades), ps.judgments(ids, 1 if top == 1 else 4),
                     f"labels{number}" if top == 1 else f"grades{number}")]


@functools.cache
def mrr_state() -> ps.PageState:
    """The lesson's state: three boards, K and the "ten results" demo's two sliders."""
    n = len(load_catalog().items)
    boards = [f for number, qid in enumerate(MRR_QUERIES, 1)
              for f in _board_fields(qid, qid, str(number))]
    return ps.PageState(MM, boards + [
        ps.Field("k", 8, ps.whole_number(1, n)),
        ps.Field("ten_first", 1, ps.whole_number(1, 10), "first"),
        ps.Field("ten_hits", 1, ps.whole_number(1, 10), "hits")])


def init_mrr() -> None:
    """Each query's order and judgments default to the article's; a link may set them."""
    mrr_state().start()


def reset_mrr() -> None:
    mrr_state().reset(*(f"{kind}_{qid}" for qid in MRR_QUERIES for kind in ("order", "grades")))


def saver(prefix: str, state_id: str | None = None):
    """An ``on_change`` callback for a board whose state lives under ``prefix``/``state_id``."""
    state = mrr_state() if prefix == MM else ndcg_state()
    tail = f"_{state_id}" if state_id else ""
    return state.board_saver("order" + tail, "grades" + tail)


def ranked(prefix: str, state_id: str | None = None) -> tuple[list[str], dict[str, int], list[int]]:
    """(order, judgments, grades in rank order) of one board."""
    state = mrr_state() if prefix == MM else ndcg_state()
    tail = f"_{state_id}" if state_id else ""
    return state.ranked("order" + tail, "grades" + tail)


#: A line break in an aligned derivation, with a strut so stacked fractions do not touch.
_BREAK = r" \\ \rule{0pt}{2.4em}"
#: The same for a next line without fractions.
_BREAK_FLAT = r" \\[0.4em]"


def mrr_latex(rrs: Sequence[float], first_ranks: Sequence[int | None], k: int) -> str:
    r"""MRR as a three-line derivation (narrow enough for a phone).

    ``MRR@8 = 1/Q Σ 1/rank_q = 1/3 (1/2 + 1/1 + 1/5) = (0.5 + 1 + 0.2)/3 = 0.57``
    """
    q = len(rrs)
    fracs = " + ".join(rf"\frac{{1}}{{{r}}}" if r else "0" for r in first_ranks)
    terms = " + ".join(fmt(v) for v in rrs)
    return (r"\begin{aligned}"
            rf"\text{{MRR@{k}}} &= \frac{{1}}{{Q}}\sum_{{q=1}}^{{Q}} \frac{{1}}{{rank_q}}" + _BREAK
            + rf" &= \frac{{1}}{{{q}}}\left({fracs}\right)" + _BREAK +
            rf" &= \frac{{{terms}}}{{{q}}} = {fmt(float(np.mean(rrs)))}"
            r"\end{aligned}")


def map_latex(aps: Sequence[float], k: int) -> str:
    r"""``MAP@8 = 1/Q Σ AP@8_q = (0.54 + 0.67 + 0.23)/3 = 0.48``, on two lines."""
    q = len(aps)
    terms = " + ".join(fmt(v) for v in aps)
    return (r"\begin{aligned}"
            rf"\text{{MAP@{k}}} &= \frac{{1}}{{Q}}\sum_{{q=1}}^{{Q}} AP@{k}_q" + _BREAK +
            rf" &= \frac{{{terms}}}{{{q}}} = {fmt(float(np.mean(aps)))}"
            r"\end{aligned}")


def two_lines(latex: str) -> str:
    r"""Break ``A = B = C = D`` after the definition: ``A = B`` on one line, ``= C = D`` below.

    Keeps irlib's formula as it is, only narrower (it fits a phone).
    """
    parts = latex.split(" = ")
    if len(parts) < 4:
        return latex
    rest = " = ".join(parts[2:])
    gap = _BREAK if r"\frac" in rest else _BREAK_FLAT
    return (r"\begin{aligned}" + parts[0] + " &= " + parts[1] + gap + " &= " + rest
            + r"\end{aligned}")


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


# --------------------------------------------------------------------------- NDCG

ND = "nd_"
NDCG_QUERY = "white-cat-in-a-box"
#: The article's NDCG code uses these grades instead of the 0-4 grades of its text.
ARTICLE_CODE_GRADES = (0, 7, 2, 4, 6, 1, 4, 3)
GAIN_LABELS = {"linear": "grade", "exponential": "2^grade − 1"}
IDEAL_LABELS = {"judged": "all judged pictures", "shown": "only the shown list"}


@functools.cache
def ndcg_state() -> ps.PageState:
    n = len(load_catalog().items)
    return ps.PageState(ND, _board_fields(NDCG_QUERY, None) + [
        ps.Field("k", 2, ps.whole_number(1, n)),
        ps.Field("shown", n, ps.whole_number(1, n)),
        ps.Field("gain", "linear", ps.one_of(tuple(GAIN_LABELS))),
        ps.Field("ideal", "judged", ps.one_of(tuple(IDEAL_LABELS))),
        ps.Field("both", True, ps.switch())])


def init_ndcg() -> None:
    ndcg_state().start()


def reset_ndcg() -> None:
    """Back to the video's order and grades, all eight results shown."""
    ndcg_state().reset("order", "grades", "shown")


def swap_first_two() -> None:
    order = list(ndcg_state()["order"])
    order[0], order[1] = order[1], order[0]
    ndcg_state().set("order", order)


def ideal_order() -> None:
    """Best grades first; ties keep the picture order."""
    grades = ndcg_state()["grades"]
    ids = list(load_catalog().items)
    ndcg_state().set("order", sorted(ids, key=lambda i: (-grades[i], ids.index(i))))


def set_k_from_chart(chart_key: str, prefix: str = ND) -> None:
    k = clicked_x(st.session_state.get(chart_key))
    if k is not None and 1 <= k <= len(load_catalog().items):
        st.session_state[prefix + "k"] = k


def graded_curves(shown: Sequence[int], judged: Sequence[int], *, gain: str,
                  ideal: str) -> dict[str, np.ndarray]:
    """CG, DCG, IDCG and NDCG at K = 1..len(judged) for a list of ``len(shown)`` results.

    Past the shown list DCG stays flat (no more results); IDCG keeps growing when the ideal
    comes from all judged items.
    """
    ks = range(1, len(judged) + 1)
    kw = dict(judged=judged, gain=gain, ideal=ideal)
    return {"CG": np.array([irlib.cg_at_k(shown, k) for k in ks]),
            "DCG": np.array([irlib.dcg_at_k(shown, k, gain=gain) for k in ks]),
            "IDCG": np.array([irlib.idcg_at_k(shown, k, **kw) for k in ks]),
            "nDCG": np.array([irlib.ndcg_at_k(shown, k, **kw) for k in ks])}


def other_gain(gain: str) -> str:
    return "exponential" if gain == "linear" else "linear"


def dcg_figure(curves: dict, other: dict | None, k: int, gain: str, height: int = 380) -> dict:
    """DCG and IDCG for the chosen gain (solid / dashed); the other gain faint and dotted."""
    tag = {"linear": "grade", "exponential": "2^grade − 1"}
    data = {"DCG": curves["DCG"], "IDCG": curves["IDCG"]}
    labels = {"DCG": f"DCG (gain = {tag[gain]})", "IDCG": f"IDCG (gain = {tag[gain]})"}
    dash = {"IDCG": "dash"}
    if other is not None:
        data.update({"DCG other": other["DCG"], "IDCG other": other["IDCG"]})
        labels.update({"DCG other": f"DCG (gain = {tag[other_gain(gain)]})",
                       "IDCG other": f"IDCG (gain = {tag[other_gain(gain)]})"})
        dash.update({"DCG other": "dot", "IDCG other": "dashdot"})
    fig = curves_figure(data, list(data), k, y_title="DCG at K", unit_interval=False,
                        labels=labels, dash=dash, height=height)
    _fade_others(fig, {"DCG other": "DCG", "IDCG other": "IDCG"}, labels)
    return fig


def ndcg_figure(curves: dict, other: dict | None, k: int, gain: str, height: int = 380) -> dict:
    """NDCG@K for the chosen gain, and (dotted) for the other gain."""
    tag = {"linear": "grade", "exponential": "2^grade − 1"}
    data = {"nDCG": curves["nDCG"]}
    labels = {"nDCG": f"NDCG (gain = {tag[gain]})"}
    dash = {}
    if other is not None:
        data["nDCG other"] = other["nDCG"]
        labels["nDCG other"] = f"NDCG (gain = {tag[other_gain(gain)]})"
        dash["nDCG other"] = "dot"
    fig = curves_figure(data, list(data), k, y_title="NDCG at K", labels=labels, dash=dash,
                        height=height)
    _fade_others(fig, {"nDCG other": "nDCG"}, labels)
    return fig


def _fade_others(fig: dict | go.Figure, colour_of: dict[str, str], labels: dict[str, str]) -> None:
    """Give the other gain's traces their metric's colour, thinner and translucent.

    Works on the plain Plotly dict ``curves_figure`` returns (and on a ``go.Figure``).
    """
    by_label = {labels[name]: base for name, base in colour_of.items() if name in labels}
    traces = fig["data"] if isinstance(fig, dict) else fig.data
    for trace in traces:
        base = by_label.get(trace["name"])
        if base:
            trace["line"] = {**dict(trace["line"] or {}), "color": METRIC_COLORS[base],
                             "width": 2}
            trace["opacity"] = 0.75


def tiles(rows: list[tuple[str, str, str | None]]) -> None:
    """Metric tiles with the look every page shares (``ui/tiles.py``), widened when a label
    needs it.

    One width for the whole row: at least the shared tile width, and enough for the longest
    label plus its help icon, so no label is cut to "NDC…".
    """
    def needed(label: str) -> int:   # capitals, digits and "@" are wider than the rest
        return sum(8 if (c.isupper() or c.isdigit() or c == "@") else 6 for c in label) + 60
    width = max(TILE_WIDTH, *(needed(label) for label, _, _ in rows))
    with st.container(horizontal=True, gap="xsmall"):
        for label, value, help_text in rows:
            st.metric(label, value, help=help_text, border=True, width=width)


def swapped(grades: Sequence[int]) -> list[int]:
    out = list(grades)
    if len(out) >= 2:
        out[0], out[1] = out[1], out[0]
    return out


def narrow(expl: irlib.Explanation) -> irlib.Explanation:
    """The same explanation with its formula broken after the definition (:func:`two_lines`)."""
    return replace(expl, latex=two_lines(expl.latex))


def show_swapped(expl: irlib.Explanation) -> None:
    """The same formula for the ranking with its first two results swapped, labelled above."""
    st.caption("With the first two results swapped:")
    st.latex(two_lines(expl.latex))
