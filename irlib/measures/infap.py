r"""infAP: average precision inferred from a judged random sample of the pool.

Yilmaz & Aslam ("Estimating average precision with incomplete and imperfect judgments",
CIKM 2006) judge only a random sample of the pool. A shown result is then one of four kinds:
judged relevant, judged non-relevant, *sampled out* (in the pool, not judged) or *outside
the pool*. In trec_eval's qrels a sampled-out document has a negative grade (by convention
-1) and a document outside the pool is not in the qrels at all. At a relevant result at rank
k, with r relevant, n judged non-relevant and u sampled-out results above it, infAP takes the
expected precision: the result itself, and the r + n + u pooled results above it relevant in
the share the judged ones are (smoothed by ε = 1e-5: with none judged above, half of them);
the results outside the pool above it count as not relevant:

.. math:: E[P@k] = \frac{1}{k} + \frac{k-1}{k} \cdot \frac{r + n + u}{k-1} \cdot
          \frac{r + \epsilon}{r + n + 2\epsilon}, \qquad E[P@1] = 1, \qquad
          \text{infAP} = \frac{1}{R} \sum_{k \text{ relevant}} E[P@k]

R counts the judged relevant documents, found or not. This is trec_eval's ``infAP``
(``m_infap.c``, its terms in its order). With every result judged, infAP is AP up to ε.
"""
from __future__ import annotations

import numpy as np

from irlib._common import DEFAULT_REL, check_grades, check_rel, judged_or_shown, safe_div

#: trec_eval's INFAP_EPSILON: smooths the share of relevant among the judged results above.
EPSILON = 1e-5


def infap(grades, *, judged=None, rel=DEFAULT_REL, unjudged=None, pooled=None) -> float:
    r"""infAP of one ranking (see the module for the formula).

    ``unjudged`` marks the shown results nobody judged (True = unjudged; their grade must
    be 0), as in :func:`irlib.measures.counts.judged_at_k`; ``pooled`` marks which of those
    were in the pool (sampled out of the judging: trec_eval's negative grade). An unjudged
    result not marked ``pooled`` is outside the pool (not in the qrels); without marks every
    shown result is judged. ``judged`` holds every judged grade of the query, the shown ones
    included: R counts those ``>= rel``. A query without relevant documents scores 0.
    :func:`irlib.evaluate` reads the marks from the qrels itself.

    Examples
    --------
    Relevant at ranks 3 and 5 (R = 2); rank 1 is outside the pool, rank 2 sampled out. At
    rank 3 one of the two results above is pooled, none judged: 1/3 + 1/3 · 1/2. At rank 5
    three of four are pooled, one of the two judged is relevant: 1/5 + 3/5 · 1/2.

    >>> marks = dict(unjudged=[True, True, False, False, False],
    ...              pooled=[False, True, False, False, False])
    >>> round(infap([0, 0, 1, 0, 2], **marks), 4)      # (1/2 + 1/2) / 2
    0.5
    >>> round(infap([0, 0, 1, 0, 2]), 4)                # all judged: AP up to ε, (1/3 + 2/5) / 2
    0.3667
    """
    grades = check_grades(grades)
    rel = check_rel(rel)
    sampled_out, outside = pool_marks(grades, unjudged, pooled)
    n_relevant = int(np.count_nonzero(judged_or_shown(grades, judged) >= rel))
    return safe_div(float(np.sum(infap_rows(grades, rel, sampled_out, outside)["term"])),
                    n_relevant)


def pool_marks(grades: np.ndarray, unjudged, pooled) -> tuple[np.ndarray, np.ndarray]:
    """The shown results sampled out of the judging (in the pool) and those outside the pool,
    as boolean arrays, from :func:`infap`'s ``unjudged`` and ``pooled`` marks."""
    n = len(grades)
    marks = []
    for value, name in ((unjudged, "unjudged"), (pooled, "pooled")):
        mark = np.zeros(n, dtype=bool) if value is None else np.asarray(value, dtype=bool)
        if mark.shape != (n,):
            raise ValueError(f"{name} must mark each of the {n} results, got shape {mark.shape}")
        marks.append(mark)
    missing, in_pool = marks
    graded = np.flatnonzero(missing & (grades != 0))
    if graded.size:
        i = int(graded[0])
        raise ValueError(f"the result at rank {i + 1} is marked unjudged but has grade "
                         f"{grades[i]:g}: an unjudged result has no grade (give 0)")
    return missing & in_pool, missing & ~in_pool


def infap_rows(grades: np.ndarray, rel: int, sampled_out: np.ndarray,
               outside: np.ndarray) -> dict[str, np.ndarray]:
    """Per relevant result: its rank, the relevant, judged non-relevant and sampled-out
    results above it, and its term E[P@k]."""
    judged = ~(sampled_out | outside)
    relevant = judged & (grades >= rel)
    nonrelevant = judged & (grades < rel)

    def above(flags):
        return (np.cumsum(flags) - flags)[relevant]
    rows = {"rank": np.flatnonzero(relevant) + 1, "relevant_above": above(relevant),
            "nonrelevant_above": above(nonrelevant), "unjudged_above": above(sampled_out)}
    rows["term"] = infap_terms(rows["rank"], rows["relevant_above"],
                               rows["nonrelevant_above"], rows["unjudged_above"])
    return rows


def infap_terms(rank, relevant_above, nonrelevant_above, unjudged_above) -> np.ndarray:
    """Each relevant result's E[P@k], written as trec_eval computes it (1 at rank 1).

    Arrays broadcast, so :func:`irlib.evaluate` scores every query's hits at once.
    """
    k = np.asarray(rank, dtype=float)
    r = np.asarray(relevant_above, dtype=float)
    n = np.asarray(nonrelevant_above, dtype=float)
    u = np.asarray(unjudged_above, dtype=float)
    j = k - 1.0
    below = np.where(j > 0, j, 1.0)                   # rank 1: no result above, the term is 1
    later = 1.0 / (j + 1.0) + (j / (j + 1.0)) * ((r + n + u) / below) * (
        (r + EPSILON) / (r + n + 2 * EPSILON))
    return np.where(j > 0, later, 1.0)
