"""Accuracy is one axis: which systems are worth their cost? The cost/quality Pareto frontier.

A system is *dominated* when another one costs no more, scores at least as well, and is
strictly better on one of the two. The systems nobody dominates form the Pareto frontier
(the lecture's cost vs. MRR plot: BM25 cheap and weak, the small SPLADE models "a huge jump
for essentially the same cost", a costly system below them dominated).

:func:`check_systems` validates a table of systems as a person types it and says which row
and column is wrong; :func:`pareto_front` marks the frontier.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


def _as_float_array(values, name: str) -> np.ndarray:
    if isinstance(values, (str, bytes)):
        raise ValueError(f"{name} must be a sequence of numbers, got a string")
    out = []
    for i, v in enumerate(values):
        if v is None:
            out.append(math.nan)
            continue
        if isinstance(v, bool):
            raise ValueError(f"{name}[{i}] is {v!r}; it must be a number")
        try:
            out.append(float(v))
        except (TypeError, ValueError):
            raise ValueError(f"{name}[{i}] is {v!r}; it must be a number") from None
    return np.asarray(out, dtype=float)


def pareto_front(cost: Sequence[float], quality: Sequence[float]) -> np.ndarray:
    """Boolean mask: True for the systems no other system dominates (lower cost is better,
    higher quality is better).

    Rows with a missing (None / NaN) cost or quality are never on the front and dominate
    nothing. Exact duplicates do not dominate each other, so both stay on the front.

    Examples
    --------
    The lecture's picture in miniature: BM25 is cheapest, "small" is much better for about
    the same cost, "big" is a little better again, "costly" is dearer and worse than "big".

    >>> cost    = [1.0, 1.2, 5.0, 9.0]          # BM25, small, big, costly
    >>> quality = [0.19, 0.35, 0.39, 0.37]
    >>> pareto_front(cost, quality).tolist()
    [True, True, True, False]

    Ties: same cost, lower quality is dominated; identical points both stay.

    >>> pareto_front([1, 1, 2, 2], [0.5, 0.4, 0.6, 0.6]).tolist()
    [True, False, True, True]
    >>> pareto_front([1, None, float("nan")], [0.2, 0.9, 0.9]).tolist()
    [True, False, False]
    """
    c = _as_float_array(cost, "cost")
    q = _as_float_array(quality, "quality")
    if len(c) != len(q):
        raise ValueError(f"cost and quality must have the same length: {len(c)} != {len(q)}")
    if np.isinf(c).any() or np.isinf(q).any():
        bad = int(np.flatnonzero(np.isinf(c) | np.isinf(q))[0])
        raise ValueError(f"row {bad}: cost and quality must be finite numbers")
    valid = ~(np.isnan(c) | np.isnan(q))
    cv, qv = c[valid], q[valid]
    # j dominates i: c_j <= c_i, q_j >= q_i, and one of them strictly.
    no_worse = (cv[None, :] <= cv[:, None]) & (qv[None, :] >= qv[:, None])
    better = (cv[None, :] < cv[:, None]) | (qv[None, :] > qv[:, None])
    dominated = (no_worse & better).any(axis=1)
    mask = np.zeros(len(c), dtype=bool)
    mask[np.flatnonzero(valid)] = ~dominated
    return mask


def dominated_by(cost: Sequence[float], quality: Sequence[float]) -> list[int | None]:
    """For each system, the index of one system that dominates it (None on the front).

    The cheapest dominating system is named (then the best, then the first), which reads as
    "you could pay less and get more with ...".

    Examples
    --------
    >>> dominated_by([1.0, 1.2, 5.0, 9.0], [0.19, 0.35, 0.39, 0.37])
    [None, None, None, 2]
    >>> dominated_by([3, 1, 2], [0.1, 0.5, 0.6])     # both 1 and 2 beat 0: 1 is cheaper
    [1, None, None]
    """
    c = _as_float_array(cost, "cost")
    q = _as_float_array(quality, "quality")
    front = pareto_front(c, q)
    out: list[int | None] = []
    for i in range(len(c)):
        if front[i] or np.isnan(c[i]) or np.isnan(q[i]):
            out.append(None)
            continue
        cands = [j for j in range(len(c))
                 if not (np.isnan(c[j]) or np.isnan(q[j])) and c[j] <= c[i] and q[j] >= q[i]
                 and (c[j] < c[i] or q[j] > q[i])]
        out.append(min(cands, key=lambda j: (c[j], -q[j], j)))
    return out


@dataclass(frozen=True)
class Problem:
    """One bad cell: ``row`` is 1-based, as a person counts the rows of a table."""
    row: int
    column: str
    message: str

    def __str__(self) -> str:
        return f"Row {self.row}, column “{self.column}”: {self.message}"


def _number(value) -> float | None:
    """A finite float, or None when the cell is empty or not a number."""
    if value is None or isinstance(value, bool):
        return None
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def _is_blank(value) -> bool:
    if value is None:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    return isinstance(value, str) and not value.strip()


#: Costs and latencies above this are typos, and would overflow a log axis's tick maths.
MAX_VALUE = 1e12


def check_systems(names: Sequence, quality: Sequence, cost: Sequence,
                  latency: Sequence | None = None, *, quality_label: str = "MRR@10",
                  cost_label: str = "cost", latency_label: str = "latency",
                  name_label: str = "system") -> tuple[np.ndarray, list[Problem]]:
    """Validate a table of systems; return (rows that are fine, problems naming row and column).

    Rules: a name is not empty; quality is a number in [0, 1]; cost (and latency, when
    given) is a number from 0 to 1e12. A row with any problem is left out (``ok`` is False there).

    Examples
    --------
    >>> ok, problems = check_systems(["BM25", "", "x"], [0.19, 0.3, 1.2], [100, 50, -1])
    >>> ok.tolist()
    [True, False, False]
    >>> [str(p) for p in problems]     # doctest: +NORMALIZE_WHITESPACE
    ['Row 2, column “system”: the name is empty',
     'Row 3, column “MRR@10”: 1.2 is outside 0–1',
     'Row 3, column “cost”: -1 is negative']
    """
    n = len(names)
    columns = [("quality", quality), ("cost", cost)]
    if latency is not None:
        columns.append(("latency", latency))
    for what, values in columns:
        if len(values) != n:
            raise ValueError(f"{what} must have one value per system: {len(values)} != {n}")
    ok = np.ones(n, dtype=bool)
    problems: list[Problem] = []

    def flag(i: int, column: str, message: str) -> None:
        ok[i] = False
        problems.append(Problem(i + 1, column, message))

    for i in range(n):
        if _is_blank(names[i]):
            flag(i, name_label, "the name is empty")
        q = _number(quality[i])
        if q is None:
            flag(i, quality_label, "is empty or not a number" if _is_blank(quality[i])
                 else f"{quality[i]!r} is not a number")
        elif not 0 <= q <= 1:
            flag(i, quality_label, f"{q:g} is outside 0–1")
        for label, values in ((cost_label, cost),
                              (latency_label, latency if latency is not None else None)):
            if values is None:
                continue
            x = _number(values[i])
            if x is None:
                flag(i, label, "is empty or not a number" if _is_blank(values[i])
                     else f"{values[i]!r} is not a number")
            elif x < 0:
                flag(i, label, f"{x:g} is negative")
            elif x > MAX_VALUE:
                flag(i, label, f"{x:g} is too large (at most {MAX_VALUE:g})")
    return ok, problems
