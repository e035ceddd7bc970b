"""What the browser may show before Python's rerun: the numbers of every state one action away.

While a card is held over another rank, or the moment a badge is clicked, the board tells the
live charts which neighbour of the current state the learner is looking at ("move:6:0": the
card at rank 7 dropped at rank 1; "grade:0:1": the card at rank 1 judged relevant), and they
look its numbers up here: tiles, the TP/FP caption and both charts' curves (or the
precision–recall graph's points), plus the cards' outcome tags for the board. irlib computes all
of them at once (:func:`irlib.one_move_neighbours`, :func:`irlib.metric_curves_batch`,
:func:`irlib.precision_recall_batch`); the browser computes no metric. Python's rerun then
confirms the numbers, or replaces them if they ever disagree.
"""
from __future__ import annotations

import base64
import functools
import json
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

import irlib
from irlib.measures.registry import MEASURES
from ui.shared import component_code
from ui.shared.numbers import fmt
from ui.shared.charts import PR_TRACES, y_range
from ui.shared.formula_view import formula_entry

#: Curve values travel rounded: a quarter of a pixel on a 240 px chart of 0..1, the hover
#: label's own precision, and the rerun brings the exact ones.
DECIMALS = 3
#: In ``charts``: the precision–recall graph (``ui.shared.charts.precision_recall_figure``) instead
#: of curves over K. Its points move in x and y, so its entries give both per trace.
PRECISION_RECALL = "precision-recall"


@dataclass(frozen=True, eq=False)       # hashed by identity: cached with its JSON
class Preview:
    """The two halves of the table: numbers for the live charts, outcome tags for the board."""
    base: str                                   # the state the keys are relative to
    numbers: dict[str, dict]
    outcomes: dict[str, list[str]]

    def for_board(self, board: str) -> dict:
        return {"board": board, "base": self.base, "outcomes": self.outcomes}

    def board_json(self, board: str) -> component_code.Encoded:
        """:meth:`for_board`, encoded once per state (``ranking_board(preview=...)`` takes
        either): a rerun that finds its state does not encode ~90 keys' tags again."""
        return _board_json(self, board)

    def for_charts(self, board: str) -> str:
        """The live charts' half: deflated JSON text, base64 (``ui/shared/live_chart.py`` inflates it
        once per rerun)."""
        return _charts_json(self, board)


@functools.lru_cache(maxsize=64)
def _board_json(preview: "Preview", board: str) -> component_code.Encoded:
    return component_code.encoded(preview.for_board(board))


@functools.lru_cache(maxsize=64)
def _charts_json(preview: "Preview", board: str) -> str:
    # Serialised once per state; Streamlit then sends a string. Many actions lead to the same
    # numbers (two cards of one grade swapped), so each distinct entry travels once and the
    # keys point at it: about half the bytes.
    entries, index = [], {}
    keys = {}
    for key, entry in preview.numbers.items():      # keys with equal numbers share the entry
        if id(entry) not in index:
            index[id(entry)] = len(entries)
            entries.append(entry)
        keys[key] = index[id(entry)]
    text = json.dumps({"board": board, "base": preview.base, "keys": keys, "entries": entries},
                      separators=(",", ":"))
    # deflated (~4x smaller): bytes are most of what a rerun costs the server (hashing,
    # framing, sending) and the browser inflates it with its own DecompressionStream
    return "deflate:" + base64.b64encode(zlib.compress(text.encode(), 6)).decode("ascii")


def signature(order: Sequence[str], grades: Mapping[str, int]) -> str:
    """A state as the board knows it: ids in rank order, then their grades.

    >>> signature(["b", "a"], {"a": 1, "b": 0})
    'b,a|0,1'
    """
    return ",".join(order) + "|" + ",".join(str(int(grades.get(i, 0))) for i in order)


def neighbour_preview(order: Sequence[str], grades: Mapping[str, int], levels: Sequence[int], *,
                      k: int, rel: int, gain: str, tiles: Sequence[str],
                      charts: Sequence[Sequence[str] | str],
                      note: Callable[[int, int, int, int, int], str]) -> Preview:
    """The numbers of every state one move or one judgment away from ``order``/``grades``.

    Cached per state (a class's boards often pass through the same ones, and a badge clicked
    twice comes back): see :func:`_neighbour_preview` for the parameters.

    >>> p = neighbour_preview(["a", "b"], {"a": 0, "b": 1}, (0, 1), k=1, rel=1, gain="linear",
    ...                       tiles=["P"], charts=[["R"]], note=lambda k, *c: str(c))
    >>> p.numbers["move:1:0"]        # b to rank 1: P@1 = 1, recall 1 at K = 1 and 2
    {'tiles': ['1'], 'note': '(1, 0, 0, 1)', 'charts': [[[1.0, 1.0]]], 'ranges': [None]}
    >>> q = neighbour_preview(["a", "b"], {"a": 0, "b": 1}, (0, 1), k=1, rel=1, gain="linear",
    ...                       tiles=["P"], charts=[["DCG", "IDCG"]], note=lambda k, *c: "")
    >>> q.numbers["grade:0:1"]["ranges"]     # both relevant: IDCG@2 = 1.63, the axis up to 2
    [[-0.06, 2.1]]
    >>> p.outcomes["grade:0:1"]       # a judged relevant: both relevant, only a returned
    ['TP', 'FN']
    """
    return _neighbour_preview(tuple(order), tuple(int(grades.get(i, 0)) for i in order),
                              tuple(levels), k, rel, gain, tuple(tiles),
                              tuple(chart if chart == PRECISION_RECALL else tuple(chart)
                                    for chart in charts), note)


@functools.lru_cache(maxsize=256)
def _neighbour_preview(order: tuple[str, ...], current: tuple[int, ...],
                       levels: tuple[int, ...], k: int, rel: int, gain: str,
                       tiles: tuple[str, ...], charts: tuple[tuple[str, ...] | str, ...],
                       note: Callable[[int, int, int, int, int], str]) -> Preview:
    """``current`` holds the grades in rank order; ``tiles`` names the curves shown as tiles
    (their value at ``k``, as :func:`fmt` prints it), ``charts`` the curves of each chart
    in trace order (or :data:`PRECISION_RECALL`), and ``note(k, tp, fp, fn, tn)`` writes the
    caption."""
    near = irlib.one_move_neighbours(current, levels)
    shown = {*tiles, *(name for chart in charts if chart != PRECISION_RECALL for name in chart)}
    curves = irlib.metric_curves_batch(near.grades, rel=rel, gain=gain, measures=shown)
    pr = irlib.precision_recall_batch(near.grades, rel=rel) if PRECISION_RECALL in charts else None
    counts = irlib.confusion_curves_batch(near.grades, rel=rel)
    tags = irlib.outcomes_at_k_batch(near.grades, k, rel=rel).tolist()
    n = len(near.grades)
    at_k = np.array([curves[name][:, k - 1] for name in tiles]).reshape(len(tiles), n).T
    cut = np.array([counts[name][:, k - 1] for name in irlib.CONFUSION_NAMES]).T
    per_chart = [_chart_numbers(chart, curves, pr) for chart in charts]
    # The DCG chart's y range follows its highest value (ui.shared.charts.y_range): a judgment
    # may move it, and the preview moves it too, so the rerun finds the axis in place.
    tops = [None if chart == PRECISION_RECALL or all(MEASURES[n].bounded for n in chart)
            else np.max([curves[name] for name in chart], axis=(0, 2)) for chart in charts]
    # Many neighbours show the same numbers (two cards of one grade swapped): each distinct
    # row is formatted once, and its entry is shared by every key that leads to it.
    # (Rows found equal by their bytes in a dict: np.unique(axis=0) on ~90 short rows costs
    # more than the curves.)
    rows = np.ascontiguousarray(np.concatenate(
        [at_k, cut, *(flat for flat, _ in per_chart),
         *(top[:, None] for top in tops if top is not None)], axis=1), dtype=float)
    first, inverse, seen = [], [], {}
    for i, row in enumerate(rows):
        j = seen.setdefault(row.tobytes(), len(first))
        if j == len(first):
            first.append(i)
        inverse.append(j)
    at_k_rows, cut_rows, texts = at_k.tolist(), cut.tolist(), {}
    for r in first:                                             # each number formatted once
        for v in at_k_rows[r]:
            if v not in texts:
                texts[v] = fmt(v)
    entries = [{"tiles": [texts[v] for v in at_k_rows[r]], "note": note(k, *cut_rows[r]),
                "charts": [moved[r] for _, moved in per_chart],
                "ranges": [None if top is None else y_range(float(top[r])) for top in tops]}
               for r in first]
    numbers, outcomes = {}, {}
    for key, entry, tag in zip(near.keys(), inverse, tags):
        numbers[key] = entries[entry]
        outcomes[key] = tag
    return Preview(signature(order, dict(zip(order, current))), numbers, outcomes)


def _chart_numbers(chart, curves: dict, pr: dict | None) -> tuple[np.ndarray, list]:
    """One chart's numbers for every neighbour: flat, one row each (to find equal rows), and as
    the live charts move them: per trace its y values, or ``{"x": …, "y": …}`` for the
    precision–recall graph, whose points move along both axes."""
    if chart == PRECISION_RECALL:
        traces = [(pr[x].round(DECIMALS), pr[y].round(DECIMALS)) for x, y in PR_TRACES]
        lists = [(x.tolist(), y.tolist()) for x, y in traces]
        moved = [[{"x": x[r], "y": y[r]} for x, y in lists] for r in range(len(pr["recall"]))]
        return np.hstack([np.hstack(pair) for pair in traces]), moved
    line = np.stack([curves[name].round(DECIMALS) for name in chart], axis=1)
    return line.reshape(len(line), -1), line.tolist()


def formula_preview(order: Sequence[str], grades: Mapping[str, int], levels: Sequence[int], *,
                    k: int, rel: int, gain: str, metric: str, board: str) -> str:
    """Each neighbour's formula (``ui.shared.formula_view.formula_entry``: irlib's LaTeX and
    per-rank tables), keyed as :func:`neighbour_preview`'s numbers, for the formula view to
    show at a click. Deflated JSON text like :meth:`Preview.for_charts`; cached per state."""
    return _formula_preview(tuple(order), tuple(int(grades.get(i, 0)) for i in order),
                            tuple(levels), k, rel, gain, metric, board)


@functools.lru_cache(maxsize=256)
def _formula_preview(order: tuple[str, ...], current: tuple[int, ...], levels: tuple[int, ...],
                     k: int, rel: int, gain: str, metric: str, board: str) -> str:
    near = irlib.one_move_neighbours(current, levels)
    entries, index, keys = [], {}, {}
    for key, grades in zip(near.keys(), near.grades.tolist()):
        # the formula reads only the top K's grades (and the ideal's, from all of them)
        state = tuple(int(g) for g in grades)
        if state not in index:
            index[state] = len(entries)
            entries.append(_formula_entry(state, k, rel, gain, metric))
        keys[key] = index[state]
    text = json.dumps({"board": board, "base": signature(order, dict(zip(order, current))),
                       "keys": keys, "entries": entries}, separators=(",", ":"))
    return "deflate:" + base64.b64encode(zlib.compress(text.encode(), 6)).decode("ascii")


@functools.lru_cache(maxsize=4096)
def _formula_entry(grades: tuple[int, ...], k: int, rel: int, gain: str, metric: str) -> dict:
    return formula_entry(irlib.explain(metric, list(grades), k, rel=rel, gain=gain))
