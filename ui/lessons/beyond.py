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

from ui.shared import page_state as ps
from ui.shared.texts import md_escape

from irlib.stats.pareto import Problem, check_systems, dominated_by, pareto_front

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


#: The plot area (px) the names are placed for: about the narrowest the chart is drawn (a
#: 390 px phone: 290 x 268; beside the table on a 1366 px laptop: 317 x 287, with the page's
#: height of 440). Names apart there are apart on any wider chart too: the points move
#: apart, the names keep their size.
LABEL_ROOM = (284, 240)
LABEL_FONT = 11
LABEL_GAP = 2
#: The smallest marker's diameter (px). plotly.js writes a name below a point from
#: ``radius / 0.8 + 1`` px, and the name's box starts 0.25 em above its baseline: below a
#: marker narrower than 14 px the box would cover the marker's rim.
MIN_MARKER = 16
MAX_MARKER = 36
#: How many partial placements place_labels tries (a few ms) before it keeps its best.
LABEL_SEARCH_STEPS = 3000
#: Room left around the points, as fractions of the axis's span (more above: the names of
#: the best systems sit over them). Set here, not by plotly.js's autorange, so the names are
#: placed on the same axes the browser draws.
X_PAD, Y_PAD = (0.08, 0.08), (0.1, 0.3)


def figure(judged: pd.DataFrame, *, log_x: bool, budget: float,
           height: int = 440) -> go.Figure:
    """Cost (x) against MRR@10 (y); marker area grows with latency; the frontier as a step.

    Each system's name sits beside its point, on one line or two, where it covers no other
    name, point or frontier line (:func:`place_labels`); a name with no such place is left to
    the point's hover label.
    """
    fig = go.Figure()
    max_latency = float(judged[LATENCY].max()) if len(judged) else 1.0
    styles = {"frontier": ("on the Pareto frontier", FRONT_COLOR, "circle", 1.0),
              "dominated": ("dominated", DOMINATED_COLOR, "circle", 0.55),
              "over budget": ("over the latency budget", OVER_COLOR, "x", 0.8)}
    sizes = (MIN_MARKER + (MAX_MARKER - MIN_MARKER)
             * np.sqrt(judged[LATENCY].to_numpy(float) / max_latency)
             if max_latency > 0 else np.full(len(judged), float(MIN_MARKER)))
    x_range = axis_range(judged[COST].to_numpy(float), log=log_x, pad=X_PAD)
    y_range = axis_range(judged[MRR].to_numpy(float), log=False, pad=Y_PAD)
    fx = _fractions(judged[COST].to_numpy(float), x_range, log=log_x)
    fy = _fractions(judged[MRR].to_numpy(float), y_range, log=False)
    front = judged[judged["status"] == "frontier"].sort_values([COST, MRR])
    step = [int(i) for i in front.index]       # the frontier line, cheapest to dearest
    labels = place_labels(fx, fy, sizes, [str(n) for n in judged[NAME]],
                          judged["status"].tolist(), line=[(fx[i], fy[i]) for i in step])
    if len(front) > 1:
        fig.add_trace(go.Scatter(
            x=front[COST], y=front[MRR], mode="lines", line_shape="hv",
            line=dict(color=FRONT_COLOR, width=2, dash="dash"), name="Pareto frontier",
            hoverinfo="skip"))
    for status, (label, color, symbol, opacity) in styles.items():
        rows = np.flatnonzero((judged["status"] == status).to_numpy())
        if not len(rows):
            continue
        part = judged.iloc[rows]
        # names as text, never HTML; a line break only where place_labels put one, after a
        # space: the SVG's text (what a screen reader or a copy reads) keeps the words apart
        # ("dense bi-encoder", not "densebi-encoder")
        shown = [("top center", "") if labels[i] is None
                 else (labels[i][0], " <br>".join(html.escape(t) for t in labels[i][1]))
                 for i in rows]
        fig.add_trace(go.Scatter(
            x=part[COST], y=part[MRR], mode="markers+text", name=label,
            text=[text for _, text in shown], textposition=[where for where, _ in shown],
            textfont=dict(color=color if status != "frontier" else None, size=LABEL_FONT),
            marker=dict(size=sizes[rows], color=color, symbol=symbol, opacity=opacity,
                        line=dict(width=1, color="#ffffff") if symbol == "circle" else None),
            customdata=np.column_stack([part[LATENCY], part["row"]]),
            hovertext=[html.escape(n) for n in part[NAME]],
            hovertemplate="<b>%{hovertext}</b><br>MRR@10 %{y:.3f}<br>cost %{x:,.0f} USD/month"
                          "<br>latency %{customdata[0]:,.0f} ms<extra></extra>"))
    # The legend at the foot of the figure and the note above the plot: neither can lie on
    # a point or a name (ui/shared/charts.py places its legends the same way).
    fig.update_layout(height=height, margin=dict(l=0, r=4, t=40, b=10), font=dict(size=14),
                      legend=dict(orientation="h", yref="container", y=0, yanchor="bottom",
                                  x=0, xanchor="left", font=dict(size=12)),
                      hovermode="closest")
    fig.update_xaxes(title=COST + (" — log scale" if log_x else ""),
                     type="log" if log_x else "linear", range=x_range)
    if log_x and len(judged):
        ticks = log_ticks(float(judged[COST].min()), float(judged[COST].max()))
        fig.update_xaxes(tickvals=ticks, ticktext=[f"{t:,.0f}" for t in ticks])
    fig.update_yaxes(title=MRR + " (higher is better)", range=y_range)
    fig.add_annotation(text=ILLUSTRATIVE if judged_is_default(judged) else "Your numbers",
                       xref="paper", yref="paper", x=1, y=1, xanchor="right", yanchor="bottom",
                       showarrow=False, font=dict(size=12, color="#888"))
    return fig


def axis_range(values: np.ndarray, *, log: bool, pad: tuple[float, float]) -> list[float]:
    """The axis's range around ``values``, ``pad`` (below, above) of their span beyond them
    (log10 units for a log axis, as plotly.js takes them).

    >>> axis_range(np.array([100.0, 10000.0]), log=True, pad=(0.1, 0.2))
    [1.8, 4.4]
    """
    v = np.log10(values) if log else np.asarray(values, float)
    lo, hi = (float(v.min()), float(v.max())) if len(v) else (0.0, 1.0)
    span = hi - lo or (1.0 if log else max(abs(hi) * 0.5, 0.1))
    return [round(lo - pad[0] * span, 6), round(hi + pad[1] * span, 6)]


def _fractions(values: np.ndarray, axis: list[float], *, log: bool) -> np.ndarray:
    v = np.log10(values) if log else np.asarray(values, float)
    return (v - axis[0]) / (axis[1] - axis[0])


#: Where a name may sit around its point, most wanted first: above the frontier's points,
#: below the others (plotly.js's textposition).
_ABOVE_FIRST = ("top center", "top left", "top right", "middle left", "middle right",
                "bottom center", "bottom left", "bottom right")
_BELOW_FIRST = ("bottom center", "bottom left", "bottom right", "middle right", "middle left",
                "top center", "top left", "top right")


def _two_lines(name: str) -> tuple[str, ...] | None:
    """``name`` broken at the space nearest its middle, or None if it has no space."""
    spaces = [i for i, c in enumerate(name) if c == " "]
    if not spaces:
        return None
    cut = min(spaces, key=lambda i: abs(2 * i - len(name)))
    return name[:cut], name[cut + 1:]


def place_labels(fx, fy, sizes, names: list[str], statuses: list[str], *,
                 line: list[tuple[float, float]] = (), room: tuple[float, float] = LABEL_ROOM
                 ) -> list[tuple[str, tuple[str, ...]] | None]:
    """For each point, (textposition, its name's lines) where the name covers no other name,
    point or the frontier's ``line`` and stays inside the plot, or None where there is no
    such place.

    ``fx``/``fy`` are the points' places as fractions of the axes, ``sizes`` their marker
    diameters (px), ``line`` the frontier's corners (fractions; drawn as a step). The names
    are estimated as plotly.js draws them (``radius / 0.8 + 1`` px from the point's centre,
    Drawing.textPointPosition) in a plot of ``room`` px. A short search names as many points
    as it can, each as close to its most wanted place as it can (the frontier's and the most
    hemmed-in points choose first).

    >>> place_labels([0.2, 0.8], [0.5, 0.5], [14, 14], ["A", "B"], ["frontier", "dominated"])
    [('top center', ('A',)), ('bottom center', ('B',))]
    >>> place_labels([0.5, 0.5], [0.5, 0.5], [14, 14], ["one two", "one two"],
    ...              ["frontier", "frontier"])
    [('top left', ('one two',)), ('top right', ('one two',))]
    """
    width, height = room
    px, py = np.asarray(fx, float) * width, (1 - np.asarray(fy, float)) * height  # y down
    radius = np.asarray(sizes, float) / 2
    # the points, with LABEL_GAP px to spare: the browser's plot is a few px off the estimate
    # (its axes' tick labels, a scrollbar), and a name must not graze a marker then
    g = LABEL_GAP
    fixed = [(x - r - g, y - r - g, x + r + g, y + r + g) for x, y, r in zip(px, py, radius)]
    corners = [(x * width, (1 - y) * height) for x, y in line]
    for (x0, y0), (x1, y1) in zip(corners, corners[1:]):          # the step: across, then up
        fixed += [(min(x0, x1), y0 - 1, max(x0, x1), y0 + 1),
                  (x1 - 1, min(y0, y1), x1 + 1, max(y0, y1))]

    def box(i: int, where: str, lines: tuple[str, ...]) -> tuple[float, float, float, float]:
        vertical, horizontal = where.split()
        off = radius[i] / 0.8 + 1
        w = max(map(len, lines)) * LABEL_FONT * 0.52     # Source Sans: ~0.48 em a letter
        # as plotly.js draws it: the first baseline 0.75 em + off below the point (above it
        # by off and the lines' height), a line 1.3 em below the last, a box from 1 em above
        # the first baseline to 0.36 em below the last (Drawing.textPointPosition)
        tall = (len(lines) - 1) * 1.3 + 1
        baseline = py[i] + LABEL_FONT * 0.75 + {"top": -off - tall * LABEL_FONT,
                                                "bottom": off,
                                                "middle": -tall * LABEL_FONT / 2}[vertical]
        top = baseline - LABEL_FONT
        h = ((len(lines) - 1) * 1.3 + 1.36) * LABEL_FONT
        left = {"left": px[i] - off - w, "right": px[i] + off, "center": px[i] - w / 2}
        return left[horizontal], top, left[horizontal] + w, top + h

    def meets(a, b) -> bool:
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    def options(i: int) -> list[tuple[str, tuple[str, ...], tuple]]:
        """Point i's places inside the plot and clear of points and the frontier line, most
        wanted first: each position on one line, then on two."""
        forms = [lines for lines in ((names[i],), _two_lines(names[i])) if lines]
        found = []
        for where in _ABOVE_FIRST if statuses[i] == "frontier" else _BELOW_FIRST:
            for lines in forms:
                b = box(i, where, lines)
                if (b[0] >= 0 and b[1] >= 0 and b[2] <= width and b[3] <= height
                        and not any(meets(b, o) for j, o in enumerate(fixed) if j != i)):
                    found.append((where, lines, b))
        return found

    n = len(names)
    free = [options(i) for i in range(n)]
    order = sorted(range(n), key=lambda i: (statuses[i] != "frontier", len(free[i]), fx[i]))
    chosen: list = [None] * n
    best: list = [-1, [None] * n]
    steps = [LABEL_SEARCH_STEPS]

    def search(k: int, count: int, boxes: list) -> None:
        # depth first, most wanted places first: the first answer is the greedy one
        if steps[0] <= 0 or count + n - k <= best[0]:
            return
        steps[0] -= 1
        if k == n:
            best[:] = [count, list(chosen)]
            return
        i = order[k]
        for where, lines, b in free[i]:
            if not any(meets(b, o) for o in boxes):
                chosen[i] = (where, lines)
                search(k + 1, count + 1, boxes + [b])
                chosen[i] = None
        search(k + 1, count, boxes)

    search(0, 0, [])
    return best[1]


def log_ticks(low: float, high: float) -> list[float]:
    """Round ticks covering [low, high] (both > 0) for a log axis: 1-2-5 a decade over up to
    a decade and a half, 1-3 over up to three, powers of ten beyond (more would be turned
    on their side to fit a phone).

    >>> log_ticks(100, 1200)
    [100.0, 200.0, 500.0, 1000.0, 2000.0]
    >>> log_ticks(100, 12000)
    [100.0, 300.0, 1000.0, 3000.0, 10000.0, 30000.0]
    """
    decades = math.log10(high) - math.log10(low)
    steps = (1, 2, 5) if decades <= 1.5 else (1, 3) if decades <= 3 else (1,)
    cands = [float(m * 10 ** e) for e in range(math.floor(math.log10(low)) - 1,
                                               math.ceil(math.log10(high)) + 1)
             for m in steps]
    first = max((t for t in cands if t <= low), default=cands[0])
    last = min(t for t in cands if t >= high)
    return [t for t in cands if first <= t <= last]


def judged_is_default(judged: pd.DataFrame) -> bool:
    default = default_table()
    try:
        return judged[list(COLUMNS)].reset_index(drop=True).equals(default)
    except KeyError:
        return False
