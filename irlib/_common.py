"""Conventions shared by every metric family: input checks, the relevance threshold, errors.

Settled here once so that each metric module stays short enough to read.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal

import numpy as np

#: Binary metrics count a document as relevant when its grade is >= this (trec_eval's ``-l 1``).
DEFAULT_REL = 1
#: trec_eval's floor for geometric means (its MIN_GEO_MEAN): a query scoring 0 counts as 1e-5,
#: so GMAP of a run with one failed query is small but not 0.
GEOMETRIC_FLOOR = 1e-5


class InputError(ValueError):
    """A bad input, with where it is: file (or parameter), line and column when known.

    ``str(err)`` reads like ``"run.txt, line 12, column 5: score 'abc' is not a number"``.
    """

    def __init__(self, problem: str, *, source: str | None = None,
                 line: int | None = None, column: int | str | None = None):
        self.problem = problem
        self.source = source
        self.line = line
        self.column = column
        where = []
        if source:
            where.append(str(source))
        if line is not None:
            where.append(f"line {line}")
        if column is not None:
            where.append(f"column {column}")
        super().__init__(f"{', '.join(where)}: {problem}" if where else problem)


def check_k(k, name: str = "k", *, allow_none: bool = False) -> int | None:
    """Return ``k`` if it is a positive int (``None`` allowed when ``allow_none``)."""
    if k is None and allow_none:
        return None
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise ValueError(f"{name} must be a positive integer, got {k!r}")
    if k < 1:
        raise ValueError(f"{name} must be >= 1, got {k}")
    return int(k)


def check_grades(grades, name: str = "grades") -> np.ndarray:
    """Grades in rank order as a float array; finite and >= 0 (0 = not relevant)."""
    if isinstance(grades, (str, bytes)):
        raise ValueError(f"{name} must be a sequence of numbers, got a string")
    try:
        arr = np.asarray(grades, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a sequence of numbers, got {grades!r}") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    bad = ~np.isfinite(arr)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name}[{i}] is {arr[i]}; grades must be finite numbers")
    neg = arr < 0
    if neg.any():
        i = int(np.flatnonzero(neg)[0])
        raise ValueError(f"{name}[{i}] is {arr[i]:g}; grades must be >= 0 (0 = not relevant)")
    return arr


def check_rel(rel) -> int:
    """The relevance threshold: a whole number >= 1 (trec_eval's ``-l`` takes an integer)."""
    if isinstance(rel, bool) or not isinstance(rel, (int, float, np.integer, np.floating)) \
            or not math.isfinite(rel) or rel < 1 or rel != int(rel):
        raise ValueError(f"rel must be a whole number >= 1 (grade >= rel is relevant), "
                         f"got {rel!r}")
    return int(rel)


def check_grade_rows(grades, name: str = "grades") -> np.ndarray:
    """Grades as a 2-D float array, one ranking per row; finite and >= 0 (0 = not relevant)."""
    if isinstance(grades, (str, bytes)):
        raise ValueError(f"{name} must be a 2-D array of numbers, got a string")
    try:
        arr = np.asarray(grades, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a 2-D array of numbers (rows of equal length), "
                         f"got {grades!r}") from None
    if arr.ndim != 2:
        raise ValueError(f"{name} must be two-dimensional (one ranking per row), "
                         f"got shape {arr.shape}")
    for bad, why in ((~np.isfinite(arr), "grades must be finite numbers"),
                     (arr < 0, "grades must be >= 0 (0 = not relevant)")):
        if bad.any():
            row, col = (int(i) for i in np.argwhere(bad)[0])
            raise ValueError(f"{name}[{row}, {col}] is {arr[row, col]:g}; {why}")
    return arr


def pool_rows(grades: np.ndarray, judged) -> np.ndarray:
    """The judged pool of each row of ``grades`` (2-D) as a 2-D array: ``judged`` is None (each
    row is its own pool), one pool for all rows (1-D; returned as one row that broadcasts) or
    one pool per row (2-D)."""
    if judged is None:
        return grades
    pool = np.asarray(judged, dtype=float) if not isinstance(judged, (str, bytes)) else None
    if pool is None or pool.ndim not in (1, 2):
        raise ValueError("judged must be None, one pool (1-D) or one pool per ranking (2-D), "
                         f"got {judged!r}")
    if pool.ndim == 2 and len(pool) != len(grades):
        raise ValueError(f"judged must have one row per ranking: {len(pool)} rows != "
                         f"{len(grades)} rankings")
    return check_grade_rows(pool, "judged") if pool.ndim == 2 \
        else check_grades(pool, "judged")[None, :]


def judged_or_shown(grades: np.ndarray, judged: Sequence[float] | None) -> np.ndarray:
    """The query's judged grades (for denominators and ideals); the shown list when not given.

    ``judged`` holds every judged document of the query, the shown ones included, so it
    must hold at least as many documents of each grade or above as the shown list does
    (otherwise recall could pass 1 and NDCG's ideal fall below the ranking).
    """
    if judged is None:
        return grades
    judged = check_grades(judged, "judged")
    shown = np.sort(grades[grades > 0])[::-1]
    pool = np.full(len(shown), -np.inf)
    top = np.sort(judged)[::-1][:len(shown)]
    pool[:len(top)] = top
    short = np.flatnonzero(pool < shown)          # the i-th best shown beats the i-th judged
    if short.size:
        grade = float(shown[short[0]])
        raise ValueError(
            f"judged must include the shown documents: grades holds "
            f"{np.count_nonzero(grades >= grade)} with grade >= {grade:g}, judged only "
            f"{np.count_nonzero(judged >= grade)}")
    return judged


def safe_div(num, den):
    """num / den, with 0 where den == 0 (a query without relevant documents scores 0)."""
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den != 0)
    return out if out.ndim else float(out)


def mean_over_queries(score, rankings, judged=None) -> float:
    """Mean of ``score(grades, judged)`` over queries; ``judged`` is one entry per query or None."""
    if len(rankings) == 0:
        raise ValueError("rankings must hold at least one query, got none")
    if judged is not None and len(judged) != len(rankings):
        raise ValueError(f"judged must have one entry per query: {len(judged)} != {len(rankings)}")
    judged = judged if judged is not None else [None] * len(rankings)
    return float(np.mean([score(g, j) for g, j in zip(rankings, judged)]))


def fmt_number(x: float, digits: int = 2) -> str:
    """A number in explanations and verdicts: at most ``digits`` decimals, no trailing zeros.

    Rounded half up from the shortest decimal that reads back as ``x`` (what ``repr``
    shows), as a person rounds on paper: binary floats such as 0.125 or 0.995 are not
    rounded down for being stored a hair below.

    >>> [fmt_number(x) for x in (0.125, 0.995, -0.004, 1.0)], fmt_number(2.5237, 4)
    (['0.13', '1', '0', '1'], '2.5237')
    """
    if not math.isfinite(float(x)):
        return str(float(x))
    value = Decimal(repr(float(x))).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    text = f"{value:f}".rstrip("0").rstrip(".") if digits else f"{value:f}"
    return "0" if text in ("-0", "") else text
