"""Counts: how many results, relevant documents and relevant results a query has.

trec_eval prints them first (``num_q``, ``num_ret``, ``num_rel``, ``num_rel_ret``,
``num_nonrel_judged_ret``); their line over all queries is a sum (``num_q``: how many queries
the means are over), so they tell at a glance whether two runs were judged on the same
ground. Each takes the whole ranking: no cut-off.
"""
from __future__ import annotations

import numpy as np

from irlib._common import DEFAULT_REL, check_grades, check_k, check_rel, judged_or_shown, safe_div


def num_queries(grades) -> float:
    """One ranking is one query (trec_eval's ``num_q``, summed over queries).

    >>> num_queries([0, 1])
    1.0
    """
    check_grades(grades)
    return 1.0


def num_retrieved(grades) -> float:
    """How many results the ranking holds (``num_ret``).

    >>> num_retrieved([0, 1, 0])
    3.0
    """
    return float(len(check_grades(grades)))


def num_relevant(grades, *, judged=None, rel=DEFAULT_REL) -> float:
    """How many relevant documents the query has, found or not (``num_rel``; R).

    >>> num_relevant([0, 1, 0], judged=[0, 1, 0, 2, 1])
    3.0
    """
    grades = check_grades(grades)
    return float(np.count_nonzero(judged_or_shown(grades, judged) >= check_rel(rel)))


def num_relevant_retrieved(grades, *, rel=DEFAULT_REL) -> float:
    """How many of the results are relevant (``num_rel_ret``).

    >>> num_relevant_retrieved([0, 1, 0, 2], rel=2)
    1.0
    """
    return float(np.count_nonzero(check_grades(grades) >= check_rel(rel)))


def num_nonrelevant_retrieved(grades, *, rel=DEFAULT_REL) -> float:
    """How many of the results were judged not relevant (``num_nonrel_judged_ret``).

    Every shown result counts as judged here; :func:`irlib.evaluate` leaves unjudged ones out.

    >>> num_nonrelevant_retrieved([0, 1, 0, 2], rel=2)
    3.0
    """
    return float(np.count_nonzero(check_grades(grades) < check_rel(rel)))


def judged_at_k(grades, k=None, *, unjudged=None) -> float:
    r"""Share of the top K results that have a judgment (ir_measures' ``Judged@K``).

    .. math:: \text{Judged@K} = \frac{|\{\text{judged results in the top } K\}|}
              {\min(K, \text{results returned})}

    A pool judged to depth k leaves the results of a system outside the pool unjudged; a low
    Judged@K warns that P, AP or NDCG count those as not relevant. ``unjudged`` marks the shown
    results nobody judged (True = unjudged); without it every shown result counts as judged,
    as in the other per-ranking functions, and Judged@K is 1. No K: the whole ranking. An
    empty ranking scores 0. :func:`irlib.evaluate` finds the unjudged results itself (a run's
    document missing from the qrels, or with a negative grade).

    >>> judged_at_k([0, 1, 0, 0, 1], 4, unjudged=[False, False, True, True, False])
    0.5
    >>> judged_at_k([1, 0], 10)       # only two returned: divided by 2, as ir_measures does
    1.0
    """
    grades = check_grades(grades)
    n = len(grades) if k is None else min(check_k(k), len(grades))
    if unjudged is None:
        missing = np.zeros(len(grades), dtype=bool)
    else:
        missing = np.asarray(unjudged, dtype=bool)
        if missing.shape != grades.shape:
            raise ValueError(f"unjudged must mark each of the {len(grades)} results, got "
                             f"shape {missing.shape}")
    return float(safe_div(n - np.count_nonzero(missing[:n]), n))
