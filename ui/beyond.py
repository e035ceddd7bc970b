"""Helpers for the lesson "Beyond accuracy": a table of systems, its validation and the
cost/quality chart with the Pareto frontier.

The default rows are made up (plausible orders of magnitude, not measurements) and say so
wherever they are shown. Everything a person types is data: names reach the page only as
table cells, Plotly text (HTML-escaped) or Markdown with every special character escaped.
"""
from __future__ import annotations

import functools
import html
import json
import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from ui import page_state as ps
from ui.texts import md_escape

from irlib.pareto import Problem, check_systems, dominated_by, pareto_front

PREFIX = "beyond_"
DATA_KEY = PREFIX + "data"
EDITOR_KEY = PREFIX + "editor"
ORIGIN_KEY = PREFIX + "editor_origin"
MAX_LINK_ROWS = 50
NAME, MRR, LATENCY, COST = "System", "MRR@10", "Latency (ms)", "Cost (USD / month)"
COLUMNS = (NAME, MRR, LATENCY, COST)
ILLUSTRATIVE = "Illustrative numbers, not measurements"

#: Made-up but plausible: a first-stage lexical index on CPUs, learned sparse and dense
#: retrievers, and re-rankers of growing size on GPUs.
DEFAULT_ROWS = (
    ("BM25", 0.19, 30, 100),
    ("learned sparse (SPLADE-style)", 0.37, 60, 350),
    ("dense bi-encoder", 0.33, 50, 700),
    ("BM25 + re-ranker", 0.36, 350, 1800),
    ("cross-encoder re-ranker", 0.39, 400, 2500),
    ("large LLM re-ranker", 0.41, 2500, 12000),
)

FRONT_COLOR, DOMINATED_COLOR, OVER_COLOR = "#0072B2", "#999999", "#D55E00"


def default_table() -> pd.DataFrame:
    return pd.DataFrame(DEFAULT_ROWS, columns=list(COLUMNS)).astype(
        {MRR: float, LATENCY: float, COST: float})


def systems_codec() -> ps.Codec:
    """The table in a link: JSON rows ``[name, MRR@10, latency, cost]`` (null for a blank).

    >>> c = systems_codec()
    >>> c.encode(default_table().iloc[:1])
    '[["BM25",0.19,30.0,100.0]]'
    >>> c.parse('[["A", 0.5, 10, null]]').to_dict("records")
    [{'System': 'A', 'MRR@10': 0.5, 'Latency (ms)': 10.0, 'Cost (USD / month)': nan}]
    """
    def parse(text: str) -> pd.DataFrame:
        rows = json.loads(text)
        if not isinstance(rows, list) or len(rows) > MAX_LINK_ROWS or not all(
                isinstance(r, list) and len(r) == 4 and (r[0] is None or isinstance(r[0], str))
                and all(v is None or (isinstance(v, (int, float)) and not isinstance(v, bool))
                        for v in r[1:]) for r in rows):
            raise ValueError(text)
        table = pd.DataFrame(rows, columns=list(COLUMNS))
        return table.astype({MRR: float, LATENCY: float, COST: float})

    def encode(table: pd.DataFrame) -> str:
        rows = [[None if _blank(v) else (str(v) if c == NAME else float(v))
                 for c, v in zip(COLUMNS, row)]
                for row in table.reindex(columns=list(COLUMNS)).itertuples(index=False)]
        return json.dumps(rows, separators=(",", ":"), ensure_ascii=False)
    return ps.Codec(parse, encode, f"a JSON list of up to {MAX_LINK_ROWS} rows "
                                   "[name, MRR@10, latency, cost]")


@functools.cache
def page_state() -> ps.PageState:
    return ps.PageState(PREFIX, [
        ps.Field("data", default_table, systems_codec(), "systems"),
        ps.Field("budget", 0, ps.whole_number(0, 10 ** 6)),
        ps.Field("log_x", True, ps.switch(), "log")])


def init() -> None:
    page_state().start()


def editor_table() -> pd.DataFrame:
    """What the data editor starts from: the table as it was when the editor was (re)drawn.

    The editor keeps the learner's edits as changes to that starting table, and Streamlit
    drops them when the page is left (``st.data_editor`` cannot persist), so the page keeps
    the edited table itself (:data:`DATA_KEY`) and restarts the editor from it on return.
    """
    ss = st.session_state
    if EDITOR_KEY not in ss or ORIGIN_KEY not in ss:
        ss[ORIGIN_KEY] = ss[DATA_KEY]
    return ss[ORIGIN_KEY]


def keep_edits(edited: pd.DataFrame) -> None:
    st.session_state[DATA_KEY] = edited.reset_index(drop=True)


def reset() -> None:
    """Back to the illustrative rows (drops the editor's pending edits too)."""
    page_state().reset("data")
    st.session_state.pop(EDITOR_KEY, None)


def _blank(v) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v)) or \
        (isinstance(v, str) and not v.strip()) or v is pd.NA


def clean(table: pd.DataFrame) -> tuple[pd.DataFrame, list[str], int]:
    """(valid rows with float columns and their 1-based ``row``, warnings, empty rows skipped).

    A row with any bad cell is left out and named in a warning; rows where every cell is
    empty (a freshly added row) are skipped quietly.
    """
    table = table.reindex(columns=list(COLUMNS)).reset_index(drop=True)
    empty = table.apply(lambda r: all(_blank(v) for v in r), axis=1)
    rows = table[~empty]
    names = [None if _blank(v) else str(v) for v in rows[NAME]]
    ok, problems = check_systems(
        names, rows[MRR].tolist(), rows[COST].tolist(), rows[LATENCY].tolist(),
        quality_label=MRR, cost_label=COST, latency_label=LATENCY, name_label=NAME)
    original_row = (np.flatnonzero(~empty.to_numpy()) + 1).tolist()
    warnings = [_warning(p, original_row[p.row - 1], names[p.row - 1]) for p in problems]
    valid = rows[ok].copy()
    valid.insert(0, "row", np.asarray(original_row)[ok])
    valid[NAME] = valid[NAME].astype(str).str.strip()
    for col in (MRR, LATENCY, COST):
        valid[col] = pd.to_numeric(valid[col], errors="coerce").astype(float)
    return valid.reset_index(drop=True), warnings, int(empty.sum())


def _warning(problem: Problem, row: int, name: str | None) -> str:
    who = f" (“{md_escape(name)}”)" if name else ""
    return (f"Row {row}{who}, column “{md_escape(problem.column)}”: "
            f"{md_escape(problem.message)}. This row is left out of the chart.")


def verdicts(valid: pd.DataFrame, budget: float) -> pd.DataFrame:
    """Each valid system's place: on the frontier, dominated (by whom), or over the budget."""
    out = valid.copy()
    within = np.ones(len(out), bool) if not budget else (out[LATENCY] <= budget).to_numpy()
    idx = np.flatnonzero(within)
    front = np.zeros(len(out), bool)
    by: list[int | None] = [None] * len(out)
    if len(idx):
        front[idx] = pareto_front(out[COST].to_numpy()[idx], out[MRR].to_numpy()[idx])
        for i, j in zip(idx, dominated_by(out[COST].to_numpy()[idx], out[MRR].to_numpy()[idx])):
            by[i] = None if j is None else int(idx[j])
    status, text = [], []
    for i in range(len(out)):
        if not within[i]:
            status.append("over budget")
            text.append(f"over the {budget:g} ms latency budget")
        elif front[i]:
            status.append("frontier")
            text.append("on the Pareto frontier")
        else:
            status.append("dominated")
            other = out.iloc[by[i]]
            text.append(f"dominated by {other[NAME]}")
    out["status"] = status
    out["Verdict"] = text
    return out


def frontier_steps(judged: pd.DataFrame) -> pd.DataFrame:
    """The frontier from cheapest to dearest: what each step up buys, and for how much."""
    front = judged[judged["status"] == "frontier"].sort_values([COST, MRR])
    steps = front[[NAME, MRR, COST]].copy().reset_index(drop=True)
    gained, extra = steps[MRR].diff(), steps[COST].diff()
    steps["MRR@10 gained"] = ["—" if i == 0 else f"{v:+.3f}" for i, v in enumerate(gained)]
    steps["Extra cost (USD / month)"] = ["—" if i == 0 else f"{v:+,.0f}"
                                         for i, v in enumerate(extra)]
    return steps


def figure(judged: pd.DataFrame, *, log_x: bool, budget: float,
           height: int = 440) -> go.Figure:
    """Cost (x) against MRR@10 (y); marker area grows with latency; the frontier as a step."""
    fig = go.Figure()
    max_latency = float(judged[LATENCY].max()) if len(judged) else 1.0
    styles = {"frontier": ("on the Pareto frontier", FRONT_COLOR, "circle", 1.0),
              "dominated": ("dominated", DOMINATED_COLOR, "circle", 0.55),
              "over budget": ("over the latency budget", OVER_COLOR, "x", 0.8)}
    front = judged[judged["status"] == "frontier"].sort_values([COST, MRR])
    if len(front) > 1:
        fig.add_trace(go.Scatter(
            x=front[COST], y=front[MRR], mode="lines", line_shape="hv",
            line=dict(color=FRONT_COLOR, width=2, dash="dash"), name="Pareto frontier",
            hoverinfo="skip"))
    for status, (label, color, symbol, opacity) in styles.items():
        part = judged[judged["status"] == status]
        if part.empty:
            continue
        sizes = 12 + 30 * np.sqrt(part[LATENCY].to_numpy() / max_latency) if max_latency > 0 \
            else np.full(len(part), 14.0)
        names = [html.escape(n) for n in part[NAME]]
        fig.add_trace(go.Scatter(
            x=part[COST], y=part[MRR], mode="markers+text", name=label,
            text=names, textposition=_text_positions(part, judged, status),
            textfont=dict(color=color if status != "frontier" else None, size=11),
            marker=dict(size=sizes, color=color, symbol=symbol, opacity=opacity,
                        line=dict(width=1, color="#ffffff") if symbol == "circle" else None),
            customdata=np.column_stack([part[LATENCY], part["row"]]),
            hovertext=names,
            hovertemplate="<b>%{hovertext}</b><br>MRR@10 %{y:.3f}<br>cost %{x:,.0f} USD/month"
                          "<br>latency %{customdata[0]:,.0f} ms<extra></extra>"))
    fig.update_layout(height=height, margin=dict(l=10, r=10, t=40, b=10), font=dict(size=14),
                      legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0),
                      hovermode="closest")
    fig.update_xaxes(title=COST + (" — log scale" if log_x else ""),
                     type="log" if log_x else "linear")
    if log_x and len(judged):
        ticks = log_ticks(float(judged[COST].min()), float(judged[COST].max()))
        fig.update_xaxes(tickvals=ticks, ticktext=[f"{t:,.0f}" for t in ticks])
    fig.update_yaxes(title=MRR + " (higher is better)")
    fig.add_annotation(text=ILLUSTRATIVE if judged_is_default(judged) else "Your numbers",
                       xref="paper", yref="paper", x=1, y=0, xanchor="right", yanchor="bottom",
                       showarrow=False, font=dict(size=12, color="#888"))
    return fig


def _text_positions(part: pd.DataFrame, judged: pd.DataFrame, status: str) -> list[str]:
    """Labels above the frontier, below the others; the cheapest and dearest lean inwards so
    they stay inside the plot."""
    lo, hi = judged[COST].min(), judged[COST].max()
    out = []
    for cost in part[COST]:
        vertical = "top" if status == "frontier" else "bottom"
        side = "right" if cost == lo and lo != hi else "left" if cost == hi and lo != hi \
            else "center"
        out.append(f"{vertical} {side}")
    return out


def log_ticks(low: float, high: float) -> list[float]:
    """1-2-5 ticks covering [low, high] (both > 0), for a log axis without clutter.

    >>> log_ticks(100, 12000)
    [100.0, 200.0, 500.0, 1000.0, 2000.0, 5000.0, 10000.0, 20000.0]
    """
    cands = [float(m * 10 ** e) for e in range(math.floor(math.log10(low)) - 1,
                                               math.ceil(math.log10(high)) + 1)
             for m in (1, 2, 5)]
    first = max((t for t in cands if t <= low), default=cands[0])
    last = min(t for t in cands if t >= high)
    return [t for t in cands if first <= t <= last]


def judged_is_default(judged: pd.DataFrame) -> bool:
    default = default_table()
    try:
        return judged[list(COLUMNS)].reset_index(drop=True).equals(default)
    except KeyError:
        return False
