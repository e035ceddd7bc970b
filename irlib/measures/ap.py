"""Average precision: precision at every rank where a relevant document appears, averaged.

Libraries agree on the numerator and disagree on the denominator; ``denominator`` picks one:

``"relevant"``  R, all relevant documents of the query (trec_eval ``map``/``map_cut``, ranx,
                ir_measures). Missing a relevant document costs.
``"min_r_k"``   min(R, K) (Kaggle / ml_metrics ``apk``). A list of K cannot hold more than K.
``"retrieved"`` the relevant documents found in the top K (torchmetrics' retrieval AP).
                Only the order of what was found counts.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irlib._common import (DEFAULT_REL, check_grades, check_k, check_rel, judged_or_shown,
                           mean_over_queries, safe_div)

DENOMINATORS = ("relevant", "min_r_k", "retrieved")


def precision_at_ranks(relevant: np.ndarray) -> np.ndarray:
    """Precision@k for k = 1..len(relevant), given a boolean relevance vector."""
    return np.cumsum(relevant) / np.arange(1, len(relevant) + 1)


def _ap_denominator(denominator, n_relevant, k, found) -> int:
    if denominator == "relevant":
        return n_relevant
    if denominator == "min_r_k":
        return min(n_relevant, k) if k is not None else n_relevant
    return found


def average_precision(grades, k=None, *, judged=None, rel=DEFAULT_REL,
                      denominator="relevant") -> float:
    r"""AP@K: the mean of Precision@k over the ranks k <= K that hold a relevant document.

    .. math:: AP@K = \frac{\sum_{k=1}^{K} P@k \cdot rel_k}{\text{denominator}}

    with :math:`rel_k` = 1 when the document at rank k is relevant. ``k=None`` uses the whole
    list (trec_eval's ``map``). A query without relevant documents scores 0.

    Examples
    --------
    The article's first query, relevant at ranks 2, 4, 5, 7:

    >>> grades = [0, 1, 0, 1, 1, 0, 1, 0]
    >>> # precision at those ranks: 1/2, 2/4, 3/5, 4/7; four relevant in all
    >>> round(average_precision(grades, 8), 6)      # (0.5 + 0.5 + 0.6 + 0.571429) / 4
    0.542857

    The three denominators for AP@2 of the graded eight pictures (grade >= 1 is relevant,
    R = 7, one relevant document in the top 2, precision 0.5 there):

    >>> graded = [0, 4, 1, 3, 4, 1, 3, 2]
    >>> [round(average_precision(graded, 2, denominator=d), 4) for d in DENOMINATORS]
    [0.0714, 0.25, 0.5]
    """
    grades = check_grades(grades)
    k = check_k(k, allow_none=True)
    rel = check_rel(rel)
    if denominator not in DENOMINATORS:
        raise ValueError(f"denominator must be one of {DENOMINATORS}, got {denominator!r}")
    relevant = grades[:k] >= rel
    numerator = float(np.sum(precision_at_ranks(relevant)[relevant]))
    n_relevant = int(np.count_nonzero(judged_or_shown(grades, judged) >= rel))
    den = _ap_denominator(denominator, n_relevant, k, int(np.count_nonzero(relevant)))
    return safe_div(numerator, den)


def mean_average_precision(rankings: Sequence, k=None, *, judged: Sequence | None = None,
                           rel=DEFAULT_REL, denominator="relevant") -> float:
    r"""MAP@K: the mean of the queries' AP@K.

    .. math:: MAP@K = \frac{1}{Q} \sum_{q=1}^{Q} AP@K_q

    Examples
    --------
    >>> queries = [[0, 1, 0, 1, 1, 0, 1, 0], [1, 0, 0, 1, 1, 0, 1, 0], [0, 0, 0, 0, 1, 0, 0, 1]]
    >>> round(mean_average_precision(queries, 8), 6)   # (0.542857 + 0.667857 + 0.225) / 3
    0.478571
    """
    return mean_over_queries(
        lambda g, j: average_precision(g, k, judged=j, rel=rel, denominator=denominator),
        rankings, judged)
