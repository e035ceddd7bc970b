"""Order-unaware metrics at a cut-off K: precision, recall, F1, success, and the confusion counts.

Each works on ``grades``, the relevance grades of the returned documents in rank order
(rank 1 first). A document counts as relevant when its grade is ``>= rel`` (default 1).
Denominators that need the whole query (recall's R) come from ``judged``: the grades of
every judged document of the query; without it the shown list is taken as the whole pool.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from irlib._common import DEFAULT_REL, check_grades, check_k, check_rel, judged_or_shown, safe_div


def _hits_at_k(grades, k, rel):
    """Validated inputs and the number of relevant documents in the top k."""
    grades = check_grades(grades)
    k = check_k(k)
    rel = check_rel(rel)
    return grades, k, rel, int(np.count_nonzero(grades[:k] >= rel))


def precision_at_k(grades, k, *, rel=DEFAULT_REL) -> float:
    r"""Precision@K: the share of the top K that is relevant.

    .. math:: P@K = \frac{|\text{relevant} \cap \text{top } K|}{K}

    The denominator is K even when fewer than K documents were returned (as trec_eval's ``P_k``).

    Examples
    --------
    The article's "cat in a box": relevant results at ranks 2, 4, 5 and 7.

    >>> grades = [0, 1, 0, 1, 1, 0, 1, 0]
    >>> precision_at_k(grades, 2)   # one relevant in the top two
    0.5
    """
    _, k, _, hits = _hits_at_k(grades, k, rel)
    return hits / k


def recall_at_k(grades, k, *, judged=None, rel=DEFAULT_REL) -> float:
    r"""Recall@K: the share of all relevant documents that made it into the top K.

    .. math:: R@K = \frac{|\text{relevant} \cap \text{top } K|}{R}

    R counts the relevant documents among ``judged`` (the query's whole judged pool).
    A query without relevant documents scores 0.

    Examples
    --------
    >>> grades = [0, 1, 0, 1, 1, 0, 1, 0]
    >>> recall_at_k(grades, 2)      # 1 of the 4 relevant pictures: 1 / (1 + 3)
    0.25
    """
    grades, k, rel, hits = _hits_at_k(grades, k, rel)
    n_relevant = np.count_nonzero(judged_or_shown(grades, judged) >= rel)
    return safe_div(hits, n_relevant)


def f1_at_k(grades, k, *, judged=None, rel=DEFAULT_REL) -> float:
    r"""F1@K: the harmonic mean of Precision@K and Recall@K (0 when both are 0).

    .. math:: F1@K = \frac{2 \cdot P@K \cdot R@K}{P@K + R@K}

    Examples
    --------
    >>> round(f1_at_k([0, 1, 0, 1, 1, 0, 1, 0], 2), 4)   # 2 * 0.5 * 0.25 / 0.75
    0.3333
    """
    p = precision_at_k(grades, k, rel=rel)
    r = recall_at_k(grades, k, judged=judged, rel=rel)
    return safe_div(2 * p * r, p + r)


def success_at_k(grades, k, *, rel=DEFAULT_REL) -> float:
    """Success@K: 1 when at least one relevant document is in the top K, else 0.

    Examples
    --------
    >>> success_at_k([0, 0, 1], 2), success_at_k([0, 0, 1], 3)
    (0.0, 1.0)
    """
    _, _, _, hits = _hits_at_k(grades, k, rel)
    return float(hits > 0)


def r_precision(grades, *, judged=None, rel=DEFAULT_REL) -> float:
    r"""R-precision: precision at rank R, where R is the number of relevant documents.

    .. math:: R\text{-}Prec = \frac{\text{relevant documents in the top } R}{R}

    It takes no K: the cut-off is the query's own R, so it equals recall at that rank too
    (trec_eval's ``Rprec``). A query without relevant documents scores 0.

    Examples
    --------
    The article's ranking has R = 4 relevant results, two of them in the top 4:

    >>> r_precision([0, 1, 0, 1, 1, 0, 1, 0])
    0.5
    """
    grades = check_grades(grades)
    rel = check_rel(rel)
    n_relevant = int(np.count_nonzero(judged_or_shown(grades, judged) >= rel))
    return safe_div(int(np.count_nonzero(grades[:n_relevant] >= rel)), n_relevant)


def set_precision(grades, *, rel=DEFAULT_REL) -> float:
    r"""Set precision: the share of all returned results that are relevant (trec_eval's ``set_P``).

    The ranking is read as a set: P@K with K = the number of results returned.

    Examples
    --------
    >>> set_precision([0, 1, 0, 1, 1, 0, 1, 0])
    0.5
    """
    grades = check_grades(grades)
    return safe_div(int(np.count_nonzero(grades >= check_rel(rel))), len(grades))


def set_recall(grades, *, judged=None, rel=DEFAULT_REL) -> float:
    r"""Set recall: the share of the relevant documents returned at all (``set_recall``).

    Examples
    --------
    >>> set_recall([0, 1, 0, 1], judged=[0, 1, 0, 1, 1, 1])
    0.5
    """
    grades = check_grades(grades)
    return recall_at_k(grades, max(len(grades), 1), judged=judged, rel=rel)


def set_f(grades, *, judged=None, rel=DEFAULT_REL, beta=1.0) -> float:
    r"""Set F: trec_eval's ``set_F``, a weighted harmonic mean of set precision and recall.

    .. math:: F_\beta = \frac{(\beta + 1) \cdot P \cdot R}{\beta \cdot P + R}

    with trec_eval's weighting: ``beta`` multiplies P as it is (van Rijsbergen's F uses
    β²), so ``beta=1`` is the usual F1. 0 when nothing relevant was returned.

    Examples
    --------
    Four of eight results relevant (P = 1/2), four of the six relevant found (R = 2/3):

    >>> round(set_f([0, 1, 0, 1, 1, 0, 1, 0], judged=[1] * 4 + [0] * 4 + [1] * 2), 4)
    0.5714
    """
    if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not beta > 0:
        raise ValueError(f"beta must be a positive number, got {beta!r}")
    p = set_precision(grades, rel=rel)
    r = set_recall(grades, judged=judged, rel=rel)
    return safe_div((beta + 1.0) * p * r, beta * p + r) if p * r > 0 else 0.0


@dataclass(frozen=True)
class Confusion:
    """True/false positives and negatives at K, in the article's notation.

    ``outcomes`` has one label per shown rank: "TP" (p·p̂, returned and relevant),
    "FP" (n·p̂), "FN" (p·n̂, relevant but below the cut) or "TN" (n·n̂).
    ``fn`` also counts judged relevant documents that were never shown.
    """
    k: int
    tp: int
    fp: int
    fn: int
    tn: int
    outcomes: tuple[str, ...]


def confusion_at_k(grades, k, *, judged=None, rel=DEFAULT_REL) -> Confusion:
    """TP, FP, FN and TN when the system returns its top K.

    Examples
    --------
    >>> c = confusion_at_k([0, 1, 0, 1, 1, 0, 1, 0], 2)
    >>> c.tp, c.fp, c.fn, c.tn
    (1, 1, 3, 3)
    >>> c.outcomes[:4]
    ('FP', 'TP', 'TN', 'FN')
    """
    grades, k, rel, tp = _hits_at_k(grades, k, rel)
    relevant = grades >= rel
    returned = np.arange(len(grades)) < k
    labels = np.where(returned, np.where(relevant, "TP", "FP"), np.where(relevant, "FN", "TN"))
    n_relevant = int(np.count_nonzero(judged_or_shown(grades, judged) >= rel))
    fp = int(np.count_nonzero(returned & ~relevant))
    tn = int(np.count_nonzero(~returned & ~relevant))
    return Confusion(k=k, tp=tp, fp=fp, fn=max(n_relevant - tp, 0), tn=tn,
                     outcomes=tuple(str(x) for x in labels))
