"""Lesson 3, "Graded relevance: NDCG": its state, curves and figures.

One board (the video's graded query) in the page's state (``nd_order``, ``nd_grades``;
``ui/shared/boards.py``), how many results are shown, K, the gain and the ideal's pool. All numbers
come from irlib; this module arranges them.
"""
from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
import streamlit as st

import irlib
from irlib.measures.dcg import GAIN_FORMULAS
from ui.shared import page_state as ps
from ui.shared.boards import BoardState, board_fields
from ui.shared.catalog import load_catalog
from ui.shared.charts import METRIC_COLORS, clicked_x, curves_figure

ND = "nd_"
NDCG_QUERY = "white-cat-in-a-box"
#: The article's NDCG code uses these grades instead of the 0-4 grades of its text.
ARTICLE_CODE_GRADES = (0, 7, 2, 4, 6, 1, 4, 3)
GAIN_LABELS = GAIN_FORMULAS
IDEAL_LABELS = {"judged": "all judged", "shown": "the shown list"}


@functools.cache
def ndcg_state() -> ps.PageState:
    n = len(load_catalog().items)
    return ps.PageState(ND, board_fields(NDCG_QUERY, None) + [
        ps.Field("k", 2, ps.whole_number(1, n)),
        ps.Field("shown", n, ps.whole_number(1, n)),
        ps.Field("gain", "linear", ps.one_of(tuple(GAIN_LABELS))),
        ps.Field("ideal", "judged", ps.one_of(tuple(IDEAL_LABELS))),
        ps.Field("both", True, ps.switch())])


def board() -> BoardState:
    return BoardState(ndcg_state())


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
    tag = GAIN_FORMULAS
    data = {"DCG": curves["DCG"], "IDCG": curves["IDCG"]}
    labels = {"DCG": f"DCG ({tag[gain]})", "IDCG": f"IDCG ({tag[gain]})"}
    dash = {"IDCG": "dash"}
    if other is not None:
        data.update({"DCG other": other["DCG"], "IDCG other": other["IDCG"]})
        labels.update({"DCG other": f"DCG ({tag[other_gain(gain)]})",
                       "IDCG other": f"IDCG ({tag[other_gain(gain)]})"})
        dash.update({"DCG other": "dot", "IDCG other": "dashdot"})
    fig = curves_figure(data, list(data), k, y_title="DCG at K", unit_interval=False,
                        labels=labels, dash=dash, height=height)
    _fade_others(fig, {"DCG other": "DCG", "IDCG other": "IDCG"}, labels)
    return fig


def ndcg_figure(curves: dict, other: dict | None, k: int, gain: str, height: int = 380) -> dict:
    """NDCG@K for the chosen gain, and (dotted) for the other gain."""
    tag = GAIN_FORMULAS
    data = {"nDCG": curves["nDCG"]}
    labels = {"nDCG": f"NDCG ({tag[gain]})"}
    dash = {}
    if other is not None:
        data["nDCG other"] = other["nDCG"]
        labels["nDCG other"] = f"NDCG ({tag[other_gain(gain)]})"
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


def swapped(grades: Sequence[int]) -> list[int]:
    out = list(grades)
    if len(out) >= 2:
        out[0], out[1] = out[1], out[0]
    return out
