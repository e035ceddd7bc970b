"""The page's two charts, as Plotly figures the page and the report share: per-query
differences between two systems, and a precision-recall graph. No Streamlit here."""
from __future__ import annotations

import html

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ui.shared.charts import _layout

WIN, LOSS, TIE = "#009E73", "#D55E00", "#999999"     # Okabe-Ito, as in ui/shared/charts.py
MEAN, QUERY, ENVELOPE = "#0072B2", "#E69F00", "#CC79A7"


def _wrap(text: str, width: int = 95) -> str:
    """Plotly titles do not wrap: break a long one into lines (``<br>``), each line but the
    last keeping its space: plotly.js draws a line as a ``<tspan>`` of its own, and a page's
    text (copied, read aloud) joins them as they are ("better<br>on" reads "betteron").

    >>> _wrap("neural is better on 2 of 5 queries", 16)
    'neural is better <br>on 2 of 5 <br>queries'
    """
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return " <br>".join(lines + [line])


def deltas_figure(frame: pd.DataFrame, label: str, names: tuple[str, str],
                  mean_delta: float | None, *, title: str | None = None,
                  units: str = "queries") -> go.Figure:
    """Bars of the per-query differences B − A, sorted; green = B better, orange = worse.

    ``title`` (e.g. the verdict) is drawn on the chart, so a saved PNG says what it shows.
    """
    a, b = names
    d = frame["difference"].to_numpy()
    colors = np.where(d > 0, WIN, np.where(d < 0, LOSS, TIE))
    text = frame["query"] if "query" in frame.columns else frame["query_id"]
    one = {"queries": "query", "users": "user"}.get(units, units)
    hover = [f"{one} {html.escape(q)}" + (f" · {html.escape(t)}" if "query" in frame.columns
                                           and t else "")
             for q, t in zip(frame["query_id"], text)]
    x = np.arange(1, len(frame) + 1)
    fig = go.Figure(go.Bar(x=x, y=d, marker_color=colors, customdata=hover,
                           hovertemplate="%{customdata}<br>difference %{y:+.4f}<extra></extra>",
                           showlegend=False))
    ties = d == 0
    if ties.any():   # a tie is a bar of height 0: mark it so it can be seen and hovered
        fig.add_trace(go.Scatter(x=x[ties], y=d[ties], mode="markers", showlegend=False,
                                 marker=dict(color=TIE, size=7, symbol="diamond"),
                                 customdata=np.asarray(hover, dtype=object)[ties],
                                 hovertemplate="%{customdata}<br>tie<extra></extra>"))
    fig.add_hline(y=0, line_width=1, line_color="#888")
    if mean_delta is not None and mean_delta != 0:
        # the mean as a legend entry beside the chart, not a label on top of the bars
        fig.add_trace(go.Scatter(x=[x[0] - 0.5, x[-1] + 0.5], y=[mean_delta, mean_delta],
                                 mode="lines", name=f"mean {mean_delta:+.3f}",
                                 line=dict(color=MEAN, width=2, dash="dot"), hoverinfo="skip"))
    fig = _layout(fig, y_title=html.escape(f"{label}: {b} − {a}"),
                  x_title=f"{units}, sorted by difference ({len(frame):,})", height=360)
    # one trace in the legend: plotly.js would hide a legend of one unless told to show it
    fig.update_layout(hovermode="closest", bargap=0.15 if len(frame) < 200 else 0,
                      showlegend=mean_delta is not None and mean_delta != 0,
                      legend=dict(orientation="h", yanchor="bottom", y=1.0, x=1, yref="paper",
                                  xanchor="right"),
                      margin=dict(l=10, r=10, t=30, b=10))
    fig.update_yaxes(automargin=True, title_standoff=8)
    fig.update_xaxes(automargin=True)       # the query ids and the axis title, unclipped
    if title:
        # short lines (a phone's width), below a band kept for the toolbar, which a phone
        # always shows; the legend sits between the title and the bars
        # from the chart's left edge (not the plot's, past the axis): a phone's width
        # holds 46 characters of 13 px bold
        text = _wrap(html.escape(title), 46)
        lines = text.count("<br>") + 1
        fig.update_layout(title=dict(text=text, x=0, xanchor="left", xref="container",
                                     yref="container", y=1, yanchor="top",
                                     pad=dict(t=44, l=8),
                                     font=dict(size=13)),
                          margin=dict(t=44 + 17 * lines + 30),
                          height=360 + 17 * lines)
    fig.update_xaxes(dtick=None, showticklabels=len(frame) <= 40,
                     tickmode="array" if len(frame) <= 40 else "auto",
                     tickvals=list(x) if len(frame) <= 40 else None,
                     ticktext=[html.escape(q) for q in frame["query_id"]] if len(frame) <= 40
                     else None)
    return fig


def precision_recall_figure(mean: pd.Series, query: pd.DataFrame | None, query_id: str | None,
                            system: str, *, height: int = 360, unit: str = "query") -> go.Figure:
    """The precision-recall graph: the mean interpolated precision at recall 0, 0.1, …, 1
    over the queries (trec_eval's iprec_at_recall), and one query's raw points with their
    interpolated envelope (the best precision at that recall or beyond)."""
    fig = go.Figure()
    fig.add_trace(go.Scatter(
        x=list(mean.index), y=mean.to_numpy(), mode="lines+markers",
        name=f"{html.escape(system)}: mean, interpolated", line=dict(color=MEAN, width=3),
        hovertemplate="recall %{x:.1f}: mean interpolated precision %{y:.3f}<extra></extra>"))
    if query is not None and len(query):
        shown = html.escape(str(query_id))
        fig.add_trace(go.Scatter(
            x=query["recall"], y=query["interpolated"], mode="lines", line_shape="hv",
            name=f"{unit} {shown}: interpolated", line=dict(color=ENVELOPE, width=2),
            hovertemplate="recall %{x:.2f}: interpolated %{y:.3f}<extra></extra>"))
        fig.add_trace(go.Scatter(
            x=query["recall"], y=query["precision"], mode="markers",
            name=f"{unit} {shown}: at each rank", marker=dict(color=QUERY, size=7),
            customdata=query["rank"],
            hovertemplate="rank %{customdata}: recall %{x:.2f}, precision %{y:.3f}"
                          "<extra></extra>"))
    fig = _layout(fig, y_title="precision", x_title="recall", height=height)
    fig.update_layout(hovermode="closest", margin=dict(l=10, r=10, t=10, b=10),
                      legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0))
    fig.update_xaxes(range=[-0.02, 1.02], dtick=0.2)
    fig.update_yaxes(range=[-0.02, 1.05], automargin=True)
    return fig
