""":func:`~irlib.metric_curves` and :func:`~irlib.confusion_at_k` for many rankings at once.

One ranking per row of a 2-D grade array, all rows the same length N. Every curve comes back
as an (n_rankings, N) array whose row r, column K-1 is the metric of ranking r at cut-off K,
computed with the same cumulative sums as the one-ranking functions along axis 1, so a table
of a few hundred small rankings (the playground's one-move neighbours) costs about as much
as a handful of ``metric_curves`` calls. Tests pin every cell to the per-ranking functions.

``judged``, the pool that recall's R, AP's denominator and the ideal ranking come from, is one of
``None``             each row is its own pool (the playground: the shown cards are all judged);
a 1-D array          one pool shared by every row (several orders of one query's results);
a 2-D array          one pool per row, row r for ranking r (pools the same length).
"""
from __future__ import annotations

import numpy as np

from irlib._common import DEFAULT_REL, check_grade_rows, check_k, check_rel, pool_rows
from irlib.measures.ap import DENOMINATORS
from irlib.measures._curve_kernels import Rankings
from irlib.measures.dcg import GAINS, IDEALS
from irlib.measures.registry import MEASURES

#: The curves :func:`confusion_curves_batch` returns.
CONFUSION_NAMES = ("TP", "FP", "FN", "TN")


def _n_relevant(pool: np.ndarray, rel: float) -> np.ndarray:
    """R of every row, shaped (n_rankings, 1) or (1, 1) to broadcast over K."""
    return np.count_nonzero(pool >= rel, axis=1)[:, None]


def metric_curves_batch(grades, *, judged=None, rel=DEFAULT_REL, gain="linear", ideal="judged",
                        denominator="relevant", measures=None) -> dict[str, np.ndarray]:
    r"""Every metric at K = 1..N for many rankings: :func:`~irlib.metric_curves` row by row.

    ``grades`` holds one ranking per row, in rank order (shape ``(n_rankings, N)``). The result
    maps each measure of :data:`~irlib.MEASURES` to an ``(n_rankings, N)`` array; column K-1 is the
    metric at cut-off K. The idea is that of the one-ranking version, along axis 1: with
    :math:`hits_K` the cumulative count of relevant results and R the relevant ones in the pool,

    .. math::
        P@K = \frac{hits_K}{K}, \quad R@K = \frac{hits_K}{R}, \quad
        AP@K = \frac{\sum_{k \le K} P@k \cdot rel_k}{R}, \quad
        NDCG@K = \frac{\sum_{k \le K} gain_k / \log_2(k+1)}{IDCG@K}

    Parameters
    ----------
    grades : array-like of shape (n_rankings, N)
        Relevance grades, one ranking per row (0 = not relevant).
    judged : None, array-like of shape (P,) or (n_rankings, P)
        The judged pool: None (each row is its own pool), one pool for all rows, or one per row.
    rel, gain, ideal, denominator
        As in :func:`~irlib.metric_curves`.
    measures : iterable of str, optional
        Only these measures (names in :data:`~irlib.MEASURES`); default: every one.

    Examples
    --------
    The article's first two queries side by side, relevant at ranks 2, 4, 5, 7 and 1, 4, 5, 7:

    >>> c = metric_curves_batch([[0, 1, 0, 1, 1, 0, 1, 0],
    ...                          [1, 0, 0, 1, 1, 0, 1, 0]])
    >>> c["P"][:, :2].tolist()             # P@1 and P@2 of each ranking
    [[0.0, 0.5], [1.0, 0.5]]
    >>> c["RR"][:, -1].tolist()            # first relevant at rank 2, and at rank 1
    [0.5, 1.0]
    >>> c["AP"][:, -1].round(6).tolist()   # MAP's two terms: (1/2 + 2/4 + 3/5 + 4/7) / 4, ...
    [0.542857, 0.667857]

    A pool shared by both rows (four relevant documents never shown) halves recall:

    >>> c = metric_curves_batch([[0, 1, 0, 1, 1, 0, 1, 0],
    ...                          [1, 0, 0, 1, 1, 0, 1, 0]], judged=[1] * 8)
    >>> c["R"][:, -1].tolist()
    [0.5, 0.5]
    """
    grades = check_grade_rows(grades)
    rel = check_rel(rel)
    if denominator not in DENOMINATORS:
        raise ValueError(f"denominator must be one of {DENOMINATORS}, got {denominator!r}")
    if ideal not in IDEALS:
        raise ValueError(f"ideal must be one of {IDEALS}, got {ideal!r}")
    if gain not in GAINS:
        raise ValueError(f"gain must be one of {GAINS}, got {gain!r}")
    names = _measure_names(measures)
    rankings = Rankings(grades, pool_rows(grades, judged), rel, gain, ideal, denominator)
    return {name: MEASURES[name].curve(rankings) for name in names}


def _measure_names(measures) -> tuple[str, ...]:
    known = tuple(name for name, info in MEASURES.items() if info.curve is not None)
    if measures is None:
        return known
    names = (measures,) if isinstance(measures, str) else tuple(measures)
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"no curve over K for measure {unknown[0]!r}; known: {', '.join(known)}")
    return names


def confusion_curves_batch(grades, *, judged=None, rel=DEFAULT_REL) -> dict[str, np.ndarray]:
    """TP, FP, FN and TN at K = 1..N for many rankings: :func:`~irlib.confusion_at_k` per cell.

    Keys are :data:`CONFUSION_NAMES`; each value is an int array of shape ``(n_rankings, N)``.
    With :math:`hits_K` relevant results in the top K: TP = hits_K, FP = K − hits_K,
    FN = max(R − hits_K, 0) (relevant documents below the cut or never shown), and TN = the
    non-relevant results below the cut. ``judged`` is as in :func:`metric_curves_batch`.

    Examples
    --------
    >>> c = confusion_curves_batch([[0, 1, 0, 1, 1, 0, 1, 0],
    ...                             [1, 0, 0, 1, 1, 0, 1, 0]])
    >>> [c[name][:, 1].tolist() for name in CONFUSION_NAMES]   # at K = 2
    [[1, 1], [1, 1], [3, 3], [3, 3]]
    >>> c["TP"][1].tolist()                                      # the second ranking's TP@K
    [1, 1, 1, 2, 3, 3, 4, 4]
    """
    grades = check_grade_rows(grades)
    rel = check_rel(rel)
    n = grades.shape[1]
    ks = np.arange(1, n + 1)
    relevant = grades >= rel
    tp = np.cumsum(relevant, axis=1)
    fp = ks - tp
    non_relevant_shown = n - np.count_nonzero(relevant, axis=1)[:, None]
    fn = np.maximum(_n_relevant(pool_rows(grades, judged), rel) - tp, 0)
    return {"TP": tp, "FP": fp, "FN": np.broadcast_to(fn, tp.shape).copy(),
            "TN": non_relevant_shown - fp}


def outcomes_at_k_batch(grades, k, *, rel=DEFAULT_REL) -> np.ndarray:
    """Each result's outcome when the top ``k`` are returned, for many rankings.

    A string array of the shape of ``grades``: "TP" (returned, relevant), "FP" (returned, not
    relevant), "FN" (relevant, below the cut) or "TN"; row r is ``confusion_at_k(grades[r],
    k).outcomes``.

    Examples
    --------
    >>> outcomes_at_k_batch([[0, 1, 0, 1], [1, 1, 0, 0]], 2).tolist()
    [['FP', 'TP', 'TN', 'FN'], ['TP', 'TP', 'TN', 'TN']]
    """
    grades = check_grade_rows(grades)
    k = check_k(k)
    rel = check_rel(rel)
    relevant = grades >= rel
    returned = np.arange(grades.shape[1]) < k
    return np.where(returned, np.where(relevant, "TP", "FP"), np.where(relevant, "FN", "TN"))
