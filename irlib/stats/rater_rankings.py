r"""Do raters who disagree rank *systems* differently? Kendall's τ between system rankings.

Voorhees (2000) had the TREC-4 topics judged by three assessors, ranked the runs by mean
average precision under each set of judgments, and compared the rankings with Kendall's τ:
the absolute scores moved with the assessor, the order of the systems hardly did (τ about 0.9
and above, the level usually read as "equivalent rankings"). This module repeats that on
graded queries: :func:`system_scores` scores every system under each rater's grades (mean
NDCG@K over queries), :func:`ranking_agreement` gives Kendall's τ-b (scipy) of every pair of
raters' system rankings and how many pairs of systems swap, :func:`tau_reading` reads τ.

Kendall's τ counts the pairs of systems two rankings put in the same order (concordant,
:math:`C`) and in opposite orders (discordant, :math:`D`):
:math:`\tau = (C - D) / \binom{m}{2}` for :math:`m` systems without ties (τ-b corrects for
ties). τ = 1: the same order; 0: no relation; -1: reversed.
"""
from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from irlib.measures.dcg import ndcg_at_k
from irlib.stats.raters import check_ratings

#: Kendall's τ from which two system rankings count as equivalent (Voorhees 2000).
EQUIVALENT_TAU = 0.9


def orderings(n: int) -> dict[str, tuple[int, ...]]:
    """Every way of reordering ``n`` shown results, named by the positions in their new order:
    ``"1234"`` keeps the order shown, ``"4321"`` reverses it.

    >>> list(orderings(3))
    ['123', '132', '213', '231', '312', '321']
    """
    if not 1 <= n <= 6:
        raise ValueError(f"n must be between 1 and 6 (6! = 720 orderings), got {n}")
    return {"".join(str(i + 1) for i in p): p for p in itertools.permutations(range(n))}


def system_scores(queries: Mapping[str, object], systems: Mapping[str, Sequence[int]],
                  k: int | None = None, *, gain: str = "exponential",
                  raters: Sequence[str] | None = None) -> pd.DataFrame:
    """Mean NDCG@K over ``queries`` of every system under each rater's grades alone.

    ``queries`` maps a query to its ratings (rows: the shown documents; columns: raters,
    the same raters for every query). A system is a reordering of each query's shown
    documents (positions, 0-based, as :func:`orderings` gives). Returns one row per system
    and one column per rater (``raters`` names them; default ``rater 1``, ``rater 2``, …).

    Examples
    --------
    >>> q = {"q1": [[2, 3], [3, 2], [0, 2], [1, 0]]}        # two raters, four documents
    >>> s = system_scores(q, {"shown": (0, 1, 2, 3), "reversed": (3, 2, 1, 0)}, 4)
    >>> s.round(4)
              rater 1  rater 2
    shown      0.8354   1.0000
    reversed   0.6166   0.6165
    """
    arrays = {str(q): check_ratings(r, f"ratings of {q}") for q, r in queries.items()}
    if not arrays:
        raise ValueError("system_scores needs at least one query")
    width = {a.shape[1] for a in arrays.values()}
    if len(width) != 1:
        raise ValueError(f"every query needs the same raters, got {sorted(width)} columns")
    n_raters = width.pop()
    names = list(raters) if raters is not None else [f"rater {i + 1}" for i in range(n_raters)]
    if len(names) != n_raters:
        raise ValueError(f"{len(names)} rater names for {n_raters} raters")
    rows = {}
    for system, order in systems.items():
        order = list(order)
        rows[system] = {}
        for r, name in enumerate(names):
            values = []
            for query, arr in arrays.items():
                if sorted(order) != list(range(arr.shape[0])):
                    raise ValueError(f"system {system!r} does not reorder the "
                                     f"{arr.shape[0]} documents of {query!r}")
                depth = arr.shape[0] if k is None else k
                values.append(ndcg_at_k(arr[order, r], depth, gain=gain))
            rows[system][name] = float(np.mean(values))
    return pd.DataFrame.from_dict(rows, orient="index")


@dataclass(frozen=True)
class RankCorrelation:
    """Kendall's τ-b between two raters' rankings of the same systems."""
    tau: float
    systems: int
    pairs: int              # pairs of systems
    swapped: int            # pairs the two rankings put in opposite orders
    tied: int               # pairs tied under at least one rater

    @property
    def reading(self) -> str:
        return tau_reading(self.tau)


def rank_correlation(x, y) -> RankCorrelation:
    """Kendall's τ-b of two score vectors over the same systems (scipy's ``kendalltau``),
    with the number of pairs of systems they put in opposite orders.

    >>> c = rank_correlation([0.1, 0.2, 0.3, 0.4], [0.1, 0.3, 0.2, 0.4])
    >>> round(c.tau, 3), c.pairs, c.swapped, c.tied
    (0.667, 6, 1, 0)
    """
    from scipy.stats import kendalltau
    x, y = np.asarray(x, float), np.asarray(y, float)
    if x.shape != y.shape or x.ndim != 1 or len(x) < 2:
        raise ValueError("rank_correlation needs two equally long lists of 2 or more scores")
    i, j = np.triu_indices(len(x), 1)
    sx, sy = np.sign(x[i] - x[j]), np.sign(y[i] - y[j])
    tau = float(kendalltau(x, y).statistic)
    return RankCorrelation(tau, len(x), len(i), int(np.sum(sx * sy < 0)),
                           int(np.sum((sx == 0) | (sy == 0))))


def ranking_agreement(scores: pd.DataFrame) -> dict[tuple[str, str], RankCorrelation]:
    """Kendall's τ of every pair of columns (raters) of :func:`system_scores`."""
    cols = list(scores.columns)
    return {(a, b): rank_correlation(scores[a], scores[b])
            for a, b in itertools.combinations(cols, 2)}


def tau_reading(tau: float) -> str:
    """τ in words, against Voorhees' (2000) 0.9.

    >>> tau_reading(0.93), tau_reading(0.65)
    ('practically the same order (τ ≥ 0.9)', 'a different order (τ < 0.9)')
    >>> tau_reading(-0.2)
    'more pairs of systems in opposite orders than in the same (τ < 0)'
    """
    if not np.isfinite(tau):
        return "undefined: the systems all score the same"
    if tau >= EQUIVALENT_TAU:
        return "practically the same order (τ ≥ 0.9)"
    if tau >= 0:
        return "a different order (τ < 0.9)"
    return "more pairs of systems in opposite orders than in the same (τ < 0)"
