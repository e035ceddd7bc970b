r"""bpref: how often the judged relevant results are ranked above the judged non-relevant ones.

Buckley & Voorhees ("Retrieval evaluation with incomplete information", SIGIR 2004) built it
for pools that were never judged completely: only *judged* documents count, so an unjudged
result neither helps nor hurts (AP and P count it as not relevant). With R relevant and N
judged non-relevant documents, each relevant result found is worth one minus the share of
non-relevant results above it, the share taken out of min(R, N):

.. math:: \text{bpref} = \frac{1}{R} \sum_{r \text{ relevant, found}}
          \left(1 - \frac{\min(|n \text{ above } r|, R)}{\min(R, N)}\right)

This is trec_eval's ``bpref`` (a relevant result with no non-relevant one above it counts 1).
Here every shown result counts as judged; :func:`irlib.evaluate` leaves the unjudged out.
"""
from __future__ import annotations

import numpy as np

from irlib._common import DEFAULT_REL, check_grades, check_rel, judged_or_shown, safe_div


def bpref(grades, *, judged=None, rel=DEFAULT_REL) -> float:
    r"""bpref of one ranking (see the module for the formula).

    ``judged`` holds every judged grade of the query, the shown results included: R counts
    those ``>= rel`` and N those below (at least the non-relevant results shown). A query
    without relevant documents scores 0.

    Examples
    --------
    The article's first ranking (relevant at 2, 4, 5, 7; R = N = 4): one non-relevant
    result above the first relevant, two above the next two, three above the last.

    >>> bpref([0, 1, 0, 1, 1, 0, 1, 0])      # (3/4 + 2/4 + 2/4 + 1/4) / 4
    0.5
    """
    grades = check_grades(grades)
    rel = check_rel(rel)
    pool = judged_or_shown(grades, judged)
    n_relevant = int(np.count_nonzero(pool >= rel))
    relevant = grades >= rel
    # every shown result is judged, so N is at least the non-relevant ones shown
    n_nonrelevant = max(len(pool) - n_relevant, int(np.count_nonzero(~relevant)))
    above = np.cumsum(~relevant)[relevant]          # non-relevant results above each hit
    return safe_div(float(np.sum(bpref_terms(above, n_relevant, n_nonrelevant))), n_relevant)


def bpref_terms(nonrelevant_above, n_relevant, n_nonrelevant) -> np.ndarray:
    """Each found relevant result's share, given the non-relevant results above it.

    Arrays broadcast, so :func:`irlib.evaluate` scores every query's hits at once.
    """
    above = np.asarray(nonrelevant_above, dtype=float)
    scale = np.minimum(n_relevant, n_nonrelevant)
    share = np.divide(np.minimum(above, n_relevant), scale,
                      out=np.zeros(np.broadcast(above, scale).shape),
                      where=(above > 0) & (scale > 0))
    return 1.0 - share
