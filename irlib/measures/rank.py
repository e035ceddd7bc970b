"""Reciprocal rank: how early the first relevant document appears."""
from __future__ import annotations

import numpy as np

from irlib._common import DEFAULT_REL, check_grades, check_k, check_rel, mean_over_queries


def first_relevant_rank(grades, k=None, *, rel=DEFAULT_REL) -> int | None:
    """The 1-based rank of the first relevant document within the top k, or None.

    Examples
    --------
    >>> first_relevant_rank([0, 1, 0, 1])
    2
    >>> first_relevant_rank([0, 1, 0, 1], k=1) is None
    True
    """
    grades = check_grades(grades)
    k = check_k(k, allow_none=True)
    rel = check_rel(rel)
    hits = np.flatnonzero(grades[:k] >= rel)
    return int(hits[0]) + 1 if hits.size else None


def reciprocal_rank(grades, k=None, *, rel=DEFAULT_REL) -> float:
    r"""RR (RR@k): one over the rank of the first relevant document; 0 if none is in the top k.

    .. math:: RR = \frac{1}{\text{rank of the first relevant result}}

    Everything after the first hit is ignored: [1, 0, 0, ...] and [1, 1, 1, ...] both score 1.

    Examples
    --------
    >>> reciprocal_rank([0, 1, 0, 1, 1, 0, 1, 0])   # first relevant at rank 2
    0.5
    """
    rank = first_relevant_rank(grades, k, rel=rel)
    return 1.0 / rank if rank else 0.0


def mean_reciprocal_rank(rankings, k=None, *, rel=DEFAULT_REL) -> float:
    r"""MRR: the mean of the queries' reciprocal ranks.

    .. math:: MRR = \frac{1}{Q} \sum_{q=1}^{Q} \frac{1}{rank_q}

    (The article labels this formula "RR"; it is the mean, MRR.)

    Examples
    --------
    The article's three queries, first relevant at ranks 2, 1 and 5:

    >>> queries = [[0, 1, 0, 1, 1, 0, 1, 0], [1, 0, 0, 1, 1, 0, 1, 0], [0, 0, 0, 0, 1, 0, 0, 1]]
    >>> round(mean_reciprocal_rank(queries), 4)     # (0.5 + 1.0 + 0.2) / 3
    0.5667
    """
    return mean_over_queries(lambda g, _: reciprocal_rank(g, k, rel=rel), rankings)
