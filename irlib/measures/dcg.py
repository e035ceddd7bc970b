"""Graded metrics: cumulative gain, discounted cumulative gain and its normalised form.

Two gain functions sit behind one switch, ``gain``:

``"linear"``       gain = grade. Järvelin & Kekäläinen (2002), "Cumulated gain-based evaluation
                   of IR techniques", ACM TOIS 20(4); trec_eval's ``ndcg``, ranx's ``ndcg``.
``"exponential"``  gain = 2^grade − 1. Burges et al. (2005), "Learning to rank using gradient
                   descent", ICML; the DCG notebook, ranx's ``ndcg_burges``,
                   ir_measures' ``nDCG(dcg='exp-log2')``.

The discount is log2(rank + 1) in both. The ideal ranking (IDCG) comes from ``ideal``:
``"judged"`` sorts all judged grades of the query (trec_eval), ``"shown"`` sorts only the
shown list (scikit-learn's ``ndcg_score``), which can hide relevant documents never retrieved.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irlib._common import check_grades, check_k, judged_or_shown, mean_over_queries, safe_div

GAINS = ("linear", "exponential")
#: Each gain as a formula of the grade, for labels ("NDCG (gain = 2^grade − 1)").
GAIN_FORMULAS = {"linear": "grade", "exponential": "2^grade − 1"}
IDEALS = ("judged", "shown")


def gain_values(grades: np.ndarray, gain: str = "linear") -> np.ndarray:
    """Gain of each grade: the grade itself, or 2^grade − 1."""
    if gain == "linear":
        return grades.astype(float)
    if gain == "exponential":
        return np.exp2(grades) - 1.0
    raise ValueError(f"gain must be one of {GAINS}, got {gain!r}")


def discounts(n: int) -> np.ndarray:
    """log2(rank + 1) for rank = 1..n."""
    return np.log2(np.arange(2, n + 2))


def ideal_grades(grades, *, judged=None, ideal="judged") -> np.ndarray:
    """The grades of the best possible ranking, highest first.

    Examples
    --------
    >>> ideal_grades([0, 4, 1, 3, 4, 1, 3, 2]).tolist()
    [4.0, 4.0, 3.0, 3.0, 2.0, 1.0, 1.0, 0.0]
    """
    grades = check_grades(grades)
    if ideal not in IDEALS:
        raise ValueError(f"ideal must be one of {IDEALS}, got {ideal!r}")
    pool = judged_or_shown(grades, judged) if ideal == "judged" else grades
    return np.sort(pool)[::-1]


def cg_at_k(grades, k=None) -> float:
    r"""CG@K: the plain sum of the top K grades. It ignores order.

    .. math:: CG@K = \sum_{k=1}^{K} rel_k

    Examples
    --------
    >>> cg_at_k([0, 4, 1, 3], 2), cg_at_k([4, 0, 1, 3], 2)   # same in both orders
    (4.0, 4.0)
    """
    grades = check_grades(grades)
    k = check_k(k, allow_none=True)
    return float(np.sum(grades[:k]))


def dcg_at_k(grades, k=None, *, gain="linear") -> float:
    r"""DCG@K: gains summed with a logarithmic discount for lower ranks.

    .. math:: DCG@K = \sum_{k=1}^{K} \frac{gain(rel_k)}{\log_2(k + 1)}

    Examples
    --------
    >>> round(dcg_at_k([0, 4, 1, 3, 4, 1, 3, 2], 2), 4)   # 0/log2(2) + 4/log2(3)
    2.5237
    >>> dcg_at_k([4, 0, 1, 3], 2)                        # 4/log2(2) + 0/log2(3)
    4.0
    >>> round(dcg_at_k([2, 3, 0, 1], 4, gain="exponential"), 6)   # the notebook's 7.847185
    7.847185
    """
    grades = check_grades(grades)
    k = check_k(k, allow_none=True)
    top = grades[:k]
    return float(np.sum(gain_values(top, gain) / discounts(len(top))))


def idcg_at_k(grades, k=None, *, judged=None, gain="linear", ideal="judged") -> float:
    r"""IDCG@K: the DCG@K of the ideal ranking.

    Examples
    --------
    >>> round(idcg_at_k([0, 4, 1, 3, 4, 1, 3, 2], 2), 4)   # 4/log2(2) + 4/log2(3)
    6.5237
    """
    k = check_k(k, allow_none=True)
    return dcg_at_k(ideal_grades(grades, judged=judged, ideal=ideal), k, gain=gain)


def ndcg_at_k(grades, k=None, *, judged=None, gain="linear", ideal="judged") -> float:
    r"""NDCG@K: DCG@K divided by the ideal DCG@K, so 1 is the best possible ranking.

    .. math:: NDCG@K = \frac{DCG@K}{IDCG@K}

    A query without relevant documents (IDCG = 0) scores 0.

    Examples
    --------
    >>> grades = [0, 4, 1, 3, 4, 1, 3, 2]
    >>> round(ndcg_at_k(grades, 2), 4)                      # 2.5237 / 6.5237
    0.3869
    >>> round(ndcg_at_k(grades, 8), 4), round(ndcg_at_k(grades, 8, gain="exponential"), 4)
    (0.7283, 0.6829)
    """
    dcg = dcg_at_k(grades, k, gain=gain)
    return safe_div(dcg, idcg_at_k(grades, k, judged=judged, gain=gain, ideal=ideal))


def mean_ndcg(rankings: Sequence, k=None, *, judged: Sequence | None = None, gain="linear",
              ideal="judged") -> float:
    """The mean NDCG@K over queries.

    Examples
    --------
    >>> round(mean_ndcg([[0, 1], [1, 0]], 2), 4)            # (0.6309 + 1) / 2
    0.8155
    """
    return mean_over_queries(
        lambda g, j: ndcg_at_k(g, k, judged=j, gain=gain, ideal=ideal), rankings, judged)
