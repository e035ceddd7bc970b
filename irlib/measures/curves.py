"""Every per-ranking metric for K = 1..N at once: what the app's charts plot.

One pass of cumulative sums instead of N calls (the one-row case of
:func:`irlib.metric_curves_batch`); tests pin each point to the per-K functions.
"""
from __future__ import annotations

import numpy as np

from irlib._common import DEFAULT_REL, check_grades, judged_or_shown
from irlib.batch.curves import metric_curves_batch
from irlib.measures.registry import MEASURES

#: The curves :func:`metric_curves` returns, in display order: every registered measure that
#: has a curve over K (IPrec's parameter is a recall level, not a rank).
CURVE_NAMES = tuple(name for name, info in MEASURES.items() if info.curve is not None)


def metric_curves(grades, *, judged=None, rel=DEFAULT_REL, gain="linear", ideal="judged",
                  denominator="relevant", measures=None) -> dict[str, np.ndarray]:
    """Each metric's value at K = 1..len(grades), keyed by :data:`CURVE_NAMES`
    (or only ``measures``, names in :data:`irlib.MEASURES`).

    Examples
    --------
    >>> c = metric_curves([0, 1, 0, 1, 1, 0, 1, 0])
    >>> c["R"].tolist()
    [0.0, 0.25, 0.25, 0.5, 0.75, 0.75, 1.0, 1.0]
    >>> c["RR"].tolist()[:3]
    [0.0, 0.5, 0.5]
    """
    grades = check_grades(grades)
    # judged_or_shown checks that the pool holds the shown list
    pool = None if judged is None else judged_or_shown(grades, judged)
    rows = metric_curves_batch(grades[None, :], judged=pool, rel=rel, gain=gain, ideal=ideal,
                               denominator=denominator, measures=measures)
    return {name: row[0] for name, row in rows.items()}
