"""Interpolated precision: the precision–recall curve and the numbers read off it.

Walking down a ranking, every relevant result adds a point (recall, precision). The
*interpolated* precision at a recall level is the best precision reached at that recall or
beyond, so the curve never rises to the right: it is the raw curve's upper envelope from the
right (trec_eval's ``iprec_at_recall``; Manning, Raghavan & Schütze, ch. 8.4).

A recall level becomes a number of relevant documents ``c`` that must be found first, and
trec_eval's two versions round it differently (``rule``):

``"v9"``   ``c = ⌊level · R + 0.9⌋`` (trec_eval 9.0.8 and earlier, pytrec_eval, ir_measures):
           almost "round up", so the level is really reached.
``"v10"``  ``c = round(level · R)`` (trec_eval 10.0): to the nearest, so IPrec@0.8 with R = 3
           reads the precision at 2 of 3 relevant found (recall 0.67).

The 11-point average is the mean of the interpolated precision at recall 0, 0.1, …, 1.
"""
from __future__ import annotations

import math

import numpy as np

from irlib._common import (DEFAULT_REL, check_grade_rows, check_grades, check_rel,
                           judged_or_shown, pool_rows, safe_div)

#: trec_eval's recall levels (``iprec_at_recall`` and ``11pt_avg``).
ELEVEN_LEVELS = tuple(i / 10 for i in range(11))
RULES = ("v9", "v10")


def check_level(level) -> float:
    """A recall level: a number from 0 to 1."""
    if isinstance(level, bool) or not isinstance(level, (int, float, np.integer, np.floating)) \
            or not 0 <= level <= 1:
        raise ValueError(f"recall level must be a number from 0 to 1, got {level!r}")
    return float(level)


def check_rule(rule) -> str:
    if rule not in RULES:
        raise ValueError(f"rule must be one of {RULES}, got {rule!r}")
    return rule


def relevant_needed(level: float, n_relevant, rule: str = "v9"):
    """How many relevant documents reach recall ``level`` under trec_eval's ``rule``.

    >>> relevant_needed(0.8, 3), relevant_needed(0.8, 3, "v10")
    (3, 2)
    """
    exact = level * np.asarray(n_relevant, dtype=float)
    if rule == "v9":
        cut = np.floor(exact + 0.9)
    else:                   # C's lround: halves away from zero (exact >= 0 here)
        cut = np.where(exact - np.floor(exact) >= 0.5, np.ceil(exact), np.floor(exact))
    cut = cut.astype(np.int64)
    return int(cut) if cut.ndim == 0 else cut


def precision_at_relevant(grades, *, rel=DEFAULT_REL) -> tuple[np.ndarray, np.ndarray]:
    """The ranks of the relevant results and the precision at each (rank order)."""
    grades = check_grades(grades)
    rel = check_rel(rel)
    ranks = np.flatnonzero(grades >= rel) + 1
    return ranks, np.arange(1, len(ranks) + 1) / ranks


def _envelope(precision: np.ndarray) -> np.ndarray:
    """Each point's interpolated precision: the best precision at it or further down."""
    return np.maximum.accumulate(precision[::-1])[::-1] if len(precision) else precision


def interpolated_precision(grades, level, *, judged=None, rel=DEFAULT_REL,
                           rule="v9") -> float:
    r"""Interpolated precision at recall ``level`` (trec_eval's ``iprec_at_recall_<level>``).

    .. math:: IPrec@r = \max_{k:\ \text{recall}@k \ge r} P@k

    with the level turned into a count of relevant documents by ``rule`` (see the module).
    0 when the ranking never reaches that recall; a query without relevant documents scores 0.

    Examples
    --------
    The article's first ranking, relevant at ranks 2, 4, 5 and 7 (precision 1/2, 2/4, 3/5,
    4/7): from recall 0.5 on, the best precision still to come is 3/5.

    >>> grades = [0, 1, 0, 1, 1, 0, 1, 0]
    >>> interpolated_precision(grades, 0.5), interpolated_precision(grades, 0.0)
    (0.6, 0.6)
    >>> round(interpolated_precision(grades, 1.0), 4)
    0.5714
    """
    level = check_level(level)
    rule = check_rule(rule)
    ranks, precision = precision_at_relevant(grades, rel=rel)
    n_relevant = int(np.count_nonzero(judged_or_shown(check_grades(grades), judged) >= rel))
    return _interpolated(precision, n_relevant, level, rule)


def _interpolated(precision: np.ndarray, n_relevant: int, level: float, rule: str) -> float:
    needed = relevant_needed(level, n_relevant, rule)
    if needed > len(precision) or not len(precision):
        return 0.0
    return float(_envelope(precision)[max(needed, 1) - 1])


def eleven_point_average(grades, *, judged=None, rel=DEFAULT_REL, rule="v9") -> float:
    r"""The mean interpolated precision at recall 0, 0.1, …, 1 (trec_eval's ``11pt_avg``).

    .. math:: \text{11-pt} = \frac{1}{11} \sum_{r \in \{0, 0.1, \dots, 1\}} IPrec@r

    Examples
    --------
    Relevant at ranks 2, 4, 5, 7 (R = 4): recall 0 to 0.7 needs at most 3 found, where the
    best precision still to come is 3/5; 0.8 to 1 needs all 4 (4/7).

    >>> round(eleven_point_average([0, 1, 0, 1, 1, 0, 1, 0]), 4)   # (8 x 3/5 + 3 x 4/7) / 11
    0.5922
    """
    rule = check_rule(rule)
    grades = check_grades(grades)
    _, precision = precision_at_relevant(grades, rel=rel)
    n_relevant = int(np.count_nonzero(judged_or_shown(grades, judged) >= check_rel(rel)))
    return math.fsum(_interpolated(precision, n_relevant, level, rule)
                     for level in ELEVEN_LEVELS) / len(ELEVEN_LEVELS)


def precision_recall_points(grades, *, judged=None, rel=DEFAULT_REL) -> dict[str, np.ndarray]:
    """The precision–recall curve of one ranking, a point per rank.

    Returns ``rank``, ``recall``, ``precision`` (raw, at every rank) and ``interpolated``
    (the best precision at that rank or below it: the curve's envelope from the right).
    A query without relevant documents has recall 0 everywhere. For many rankings at once,
    and the envelope as a curve to draw, see :func:`precision_recall_batch`.

    Examples
    --------
    >>> pts = precision_recall_points([1, 0, 1, 0])
    >>> pts["recall"].tolist(), pts["precision"].round(3).tolist()
    ([0.5, 0.5, 1.0, 1.0], [1.0, 0.5, 0.667, 0.5])
    >>> pts["interpolated"].round(3).tolist()
    [1.0, 0.667, 0.667, 0.5]
    """
    grades = check_grades(grades)
    pool = judged_or_shown(grades, judged)
    rows = precision_recall_batch(grades[None, :], judged=pool, rel=rel)
    return {"rank": rows["rank"], **{name: rows[name][0]
                                     for name in ("recall", "precision", "interpolated")}}


def precision_recall_batch(grades, *, judged=None, rel=DEFAULT_REL) -> dict[str, np.ndarray]:
    """:func:`precision_recall_points` for many rankings at once, with the envelope to draw.

    ``grades`` holds one ranking per row (shape ``(n_rankings, N)``); ``judged`` is as in
    :func:`~irlib.batch.curves.metric_curves_batch` (None: each row is its own pool).

    Returns
    -------
    dict of ndarray
        ``rank`` (N,): 1..N. ``recall``, ``precision``, ``interpolated`` (n_rankings, N): row r
        is ``precision_recall_points(grades[r])``. ``envelope_recall`` and
        ``envelope_precision`` (n_rankings, N + 1): the interpolated curve (the best precision
        at a recall or beyond) as points to join with straight lines: a start on the
        precision axis at recall 0, then one point per rank. Between two relevant results
        the points stand on one recall, so the joined line is the curve's steps; after the
        last relevant result the curve has ended and its last point repeats (a rank's own
        ``interpolated`` there is lower: no recall is left to reach). Every row has N + 1
        points, so a chart can move them in place from one ranking to another.

    Examples
    --------
    Relevant at ranks 2, 4, 5, 7 (the article's first ranking): the envelope stays at 3/5
    up to recall 0.75, then 4/7 to recall 1, where rank 8 (not relevant) adds nothing.

    >>> pr = precision_recall_batch([[0, 1, 0, 1, 1, 0, 1, 0]])
    >>> pr["envelope_recall"][0].tolist()
    [0.0, 0.0, 0.25, 0.25, 0.5, 0.75, 0.75, 1.0, 1.0]
    >>> pr["envelope_precision"][0].round(3).tolist()
    [0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.571, 0.571, 0.571]
    >>> pr["interpolated"][0, -2:].round(3).tolist()     # per rank: below rank 8, only 4/8
    [0.571, 0.5]
    """
    grades = check_grade_rows(grades)
    rel = check_rel(rel)
    n_rankings, n = grades.shape
    relevant = grades >= rel
    n_relevant = np.count_nonzero(pool_rows(grades, judged) >= rel, axis=1)[:, None]
    ranks = np.arange(1, n + 1)
    found = np.cumsum(relevant, axis=1)
    precision = found / ranks
    recall = safe_div(found, n_relevant)
    interpolated = np.maximum.accumulate(precision[:, ::-1], axis=1)[:, ::-1]
    # From the last relevant result on (found has its final value), the curve's last point:
    # the precision at that result, found / its rank (0 for a ranking with none).
    total = found[:, -1:] if n else np.zeros((n_rankings, 1))
    last_rank = n - np.argmax(relevant[:, ::-1], axis=1)[:, None] if n else np.ones((n_rankings, 1))
    ended = np.where(found == total, total / last_rank, interpolated)
    start = interpolated[:, :1] if n else np.zeros((n_rankings, 1))
    return {"rank": ranks, "recall": recall, "precision": precision,
            "interpolated": interpolated,
            "envelope_recall": np.hstack([np.zeros((n_rankings, 1)), recall]),
            "envelope_precision": np.hstack([start, ended])}
