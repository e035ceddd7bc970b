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

from irlib._common import DEFAULT_REL, check_grades, check_rel, judged_or_shown

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
    A query without relevant documents has recall 0 everywhere.

    Examples
    --------
    >>> pts = precision_recall_points([1, 0, 1, 0])
    >>> pts["recall"].tolist(), pts["precision"].round(3).tolist()
    ([0.5, 0.5, 1.0, 1.0], [1.0, 0.5, 0.667, 0.5])
    >>> pts["interpolated"].round(3).tolist()
    [1.0, 0.667, 0.667, 0.5]
    """
    grades = check_grades(grades)
    rel = check_rel(rel)
    relevant = grades >= rel
    n_relevant = int(np.count_nonzero(judged_or_shown(grades, judged) >= rel))
    ranks = np.arange(1, len(grades) + 1)
    found = np.cumsum(relevant)
    precision = found / ranks if len(grades) else np.zeros(0)
    recall = found / n_relevant if n_relevant else np.zeros(len(grades))
    return {"rank": ranks, "recall": recall, "precision": precision,
            "interpolated": _envelope(precision)}
