"""Plotly figures shared by every page: one look for curves over K and bar comparisons."""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from ui.shared.texts import METRIC_TEXT

_BLUE, _ORANGE, _GREEN, _GREY, _BLACK, _PINK, _VERMILION, _SKY = (
    "#0072B2", "#E69F00", "#009E73", "#999999", "#000000", "#CC79A7", "#D55E00", "#56B4E9")
#: The same colour for a measure on every page (Okabe-Ito, colour-blind safe), keyed by its
#: name in irlib's registry; the app's own choice, not the library's (tests check that every
#: measure of the registry has one).
METRIC_COLORS = {
    "P": _BLUE, "R": _ORANGE, "F1": _GREEN, "Success": _GREY, "Rprec": _BLACK, "RR": _PINK,
    "AP": _VERMILION, "CG": _GREEN, "DCG": _BLUE, "IDCG": _GREY, "nDCG": _SKY,
    "NumQ": _GREY, "NumRet": _GREY, "NumRel": _GREY, "NumRelRet": _GREY,
    "NumNonrelRet": _GREY, "GMAP": _VERMILION, "Bpref": _BLUE, "GMBpref": _BLUE,
    "infAP": _VERMILION, "Judged": _GREY, "IPrec": _PINK, "IPrecAvg": _PINK, "SetP": _BLUE, "SetR": _ORANGE,
    "SetF": _GREEN, "RBP": _GREEN, "RBPResidual": _GREY, "INST": _ORANGE, "ERR": _PINK,
}
FONT = dict(size=14)


#: Toolbar buttons that send a chart (its data included) to a server: plotly.js 3+ shows
#: "Share chart…" (``sendChartToCloud``) unless told not to, and plotly.py's ``to_html``
#: points it at Plotly's chart service. Nothing may leave the machine.
SENDING_BUTTONS = ("sendChartToCloud", "sendDataToCloud", "editInChartStudio")


def plotly_config(**extra) -> dict:
    """The config of every Plotly chart in the app and the report: no logo, and no control
    that sends data anywhere (``extra`` adds to it, e.g. ``toImageButtonOptions``).

    >>> config = plotly_config(displayModeBar=False)
    >>> config["showSendToCloud"], config["plotlyServerURL"], config["displayModeBar"]
    (False, '', False)
    """
    return {"displaylogo": False, "showSendToCloud": False, "showEditInChartStudio": False,
            "showLink": False, "plotlyServerURL": "",
            "modeBarButtonsToRemove": list(SENDING_BUTTONS), **extra}


def _layout(fig: go.Figure, *, y_title: str, x_title: str = "K (results returned)",
            height: int = 380) -> go.Figure:
    fig.update_layout(layout_dict(y_title=y_title, x_title=x_title, height=height))
    return fig


def layout_dict(*, y_title: str, x_title: str = "K (results returned)", height: int = 380) -> dict:
    """The shared layout as a plain dict.

    The legend sits at the bottom of the whole figure (``yref: "container"``), not at a
    fraction of the plot's height below its x axis: plotly.js then keeps the axis's numbers
    and title above it, at every width and however many rows the legend wraps to. A legend
    placed in plot fractions moved with the plot's height, which changes with the legend's
    rows: after a resize it lay on the axis's numbers until a reload.
    """
    xaxis = {"dtick": 1}
    if x_title:     # an empty title still keeps a title's room under the axis
        xaxis["title"] = {"text": x_title}
    return {"height": height, "margin": {"l": 10, "r": 10, "t": 24, "b": 10}, "font": FONT,
            "legend": {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom",
                       "x": 0, "xanchor": "left"},
            "hovermode": "x unified", "clickmode": "event+select",
            "xaxis": xaxis, "yaxis": {"title": {"text": y_title}}}


def _round_up(value: float) -> float:
    """The next round number at or above ``value`` (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^n).

    >>> [_round_up(v) for v in (0, 0.7, 2.56, 2.95, 3.2, 41)]
    [1.0, 0.8, 3.0, 3.0, 4.0, 50.0]
    """
    if not value > 0:
        return 1.0
    scale = 10.0 ** math.floor(math.log10(value))
    return next(step * scale for step in (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10)
                if step * scale >= value - 1e-12)


def curves_figure(curves: dict, names: Sequence[str], k: int, *, y_title: str = "score",
                  unit_interval: bool = True, labels: dict | None = None,
                  dash: dict | None = None, height: int = 380) -> dict:
    """Each metric in ``names`` against K = 1..N, with the chosen K marked by a line and dots.

    Built as a plain Plotly dict: ``go.Figure`` validation costs ~15 ms per chart, most of
    the page's script time on every drag.
    """
    traces = []
    for name in names:
        values = np.asarray(curves[name], dtype=float)
        ks = list(range(1, len(values) + 1))
        label = (labels or {}).get(name, METRIC_TEXT[name].label if name in METRIC_TEXT else name)
        traces.append({
            "type": "scatter", "x": ks, "y": values.tolist(), "name": label,
            "mode": "lines+markers",
            # simplify off: plotly.js draws every point's vertex, as
            # ui/shared/live_chart/live_chart.js does when it moves the points: the same path.
            "line": {"color": METRIC_COLORS.get(name), "width": 3, "simplify": False,
                     "dash": (dash or {}).get(name, "solid")},
            "marker": {"size": [14 if x == k else 7 for x in ks]},
            "hovertemplate": f"{label}: %{{y:.3f}}<extra></extra>"})
    # a compact chart: the K marker names the axis
    layout = layout_dict(y_title=y_title, height=height,
                         x_title="" if height < 380 else "K (results returned)")
    layout["shapes"] = [{"type": "line", "x0": k, "x1": k, "xref": "x", "y0": 0, "y1": 1,
                         "yref": "paper", "line": {"width": 2, "dash": "dot", "color": "#888"}}]
    # The K label above the plot, over its line: inside the plot it lay on the curves' points.
    layout["annotations"] = [{"x": k, "xref": "x", "y": 1, "yref": "paper", "text": f"K = {k}",
                              "showarrow": False, "xanchor": "center", "yanchor": "bottom"}]
    # A fixed y range (not autorange) keeps the axes still while the curves move, and lets
    # ui/shared/live_chart.py move only the points. IDCG's top bounds every DCG, so a drag leaves
    # it, and rounding it up to a round number keeps it through most judgment changes.
    layout["yaxis"]["range"] = y_range(
        None if unit_interval else max(max(t["y"], default=0.0) for t in traces))
    return {"data": traces, "layout": layout}


def y_range(highest: float | None) -> list[float]:
    """:func:`curves_figure`'s fixed y range: 0..1 for scores (``highest`` None), else up to
    ``highest`` rounded up to a round number; a little room below 0 and above the top.
    (``ui.lessons.playground.preview`` sends a neighbour's range too, so the preview moves
    the axis the rerun would.)"""
    top = 1.0 if highest is None else _round_up(highest)
    return [-0.03 * top, 1.05 * top]


#: The precision–recall chart's traces in order, each an (x, y) pair of
#: :func:`irlib.precision_recall_batch`'s keys: the envelope first, under the points.
PR_TRACES = (("envelope_recall", "envelope_precision"), ("recall", "precision"))
#: The envelope's legend entry: what interpolation is, said on the chart itself.
ENVELOPE_NAME = "interpolated: the highest precision at this recall or beyond"


def precision_recall_figure(pr: dict, k: int, *, height: int = 380) -> dict:
    """One ranking's precision–recall graph: a point per rank, K's large, joined in rank order,
    under the interpolated envelope drawn as its steps. A plain Plotly dict, as
    :func:`curves_figure`.

    ``pr`` is :func:`irlib.precision_recall_batch`'s result for the one ranking. Both axes keep a fixed range, so the live charts can move the points in x and y
    (``ui/shared/live_chart.py``); a click on a point reports its rank (``"click": "customdata"``),
    which is the K it stands for.
    """
    ranks = [int(r) for r in pr["rank"]]
    (ex, ey), (px, py) = ([np.asarray(pr[name][0], dtype=float).tolist() for name in pair]
                          for pair in PR_TRACES)
    traces = [
        {"type": "scatter", "x": ex, "y": ey, "name": ENVELOPE_NAME, "mode": "lines",
         "line": {"color": METRIC_COLORS["IPrec"], "width": 3, "simplify": False},
         # not hovered or clicked: its corners sit on the points, and a click must reach them
         "hoverinfo": "skip"},
        {"type": "scatter", "x": px, "y": py, "name": f"at each rank (the large dot: K = {k})",
         "mode": "lines+markers", "customdata": ranks,
         "line": {"color": METRIC_COLORS["P"], "width": 1.5, "dash": "dot", "simplify": False},
         "marker": {"size": [14 if r == k else 7 for r in ranks]},
         "hovertemplate": "rank %{customdata}: recall %{x:.2f}, precision %{y:.3f}"
                          "<extra></extra>"}]
    layout = layout_dict(y_title="precision", x_title="recall", height=height)
    layout["hovermode"] = "closest"
    layout["xaxis"].update(dtick=0.25, range=[-0.03, 1.05])
    layout["yaxis"]["range"] = [-0.03, 1.05]
    return {"data": traces, "layout": layout, "click": "customdata"}


def clicked_x(event) -> int | None:
    """The x (K) of the first clicked point in a ``st.plotly_chart`` selection, if any."""
    try:
        points = event["selection"]["points"]
    except (KeyError, TypeError):
        points = getattr(getattr(event, "selection", None), "points", None)
    if not points:
        return None
    x = points[0].get("x")
    return int(round(x)) if x is not None else None


def bars_figure(categories: Sequence[str], series: dict[str, Sequence[float]], *,
                y_title: str = "score", highlight: dict[str, int] | None = None,
                height: int = 320) -> go.Figure:
    """Grouped bars: one group per category, one bar per series (e.g. rankings x metrics)."""
    fig = go.Figure()
    palette = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9"]
    for i, (name, values) in enumerate(series.items()):
        fig.add_trace(go.Bar(x=list(categories), y=list(values), name=name,
                             marker_color=palette[i % len(palette)],
                             text=[f"{v:.2f}" for v in values], textposition="outside"))
    fig.update_layout(barmode="group")
    fig = _layout(fig, y_title=y_title, x_title="", height=height)
    # A value too wide for its bar (on a phone) is left to the hover label: plotly.js would
    # shrink it to a few pixels, over its neighbours' values.
    fig.update_layout(hovermode="closest", uniformtext=dict(minsize=11, mode="hide"))
    return fig
