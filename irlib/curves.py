"""Every per-ranking metric for K = 1..N at once: what the app's charts plot.

One pass of cumulative sums instead of N calls; tests pin each point to the per-K functions.
"""
from __future__ import annotations

import numpy as np

from irlib._common import DEFAULT_REL, check_grades, check_rel, judged_or_shown, safe_div
from irlib.ap import DENOMINATORS, precision_at_ranks
from irlib.dcg import discounts, gain_values, ideal_grades

#: The curves :func:`metric_curves` returns, in display order.
CURVE_NAMES = ("P", "R", "F1", "Success", "RR", "AP", "CG", "DCG", "IDCG", "nDCG")


def metric_curves(grades, *, judged=None, rel=DEFAULT_REL, gain="linear", ideal="judged",
                  denominator="relevant") -> dict[str, np.ndarray]:
    """Each metric's value at K = 1..len(grades), keyed by :data:`CURVE_NAMES`.

    Examples
    --------
    >>> c = metric_curves([0, 1, 0, 1, 1, 0, 1, 0])
    >>> c["R"].tolist()
    [0.0, 0.25, 0.25, 0.5, 0.75, 0.75, 1.0, 1.0]
    >>> c["RR"].tolist()[:3]
    [0.0, 0.5, 0.5]
    """
    grades = check_grades(grades)
    rel = check_rel(rel)
    if denominator not in DENOMINATORS:
        raise ValueError(f"denominator must be one of {DENOMINATORS}, got {denominator!r}")
    n = len(grades)
    ks = np.arange(1, n + 1)
    relevant = grades >= rel
    hits = np.cumsum(relevant)
    n_relevant = int(np.count_nonzero(judged_or_shown(grades, judged) >= rel))

    precision = hits / ks
    recall = safe_div(hits, np.full(n, n_relevant))
    f1 = safe_div(2 * precision * recall, precision + recall)
    first = int(np.argmax(relevant)) + 1 if relevant.any() else None
    rr = np.where(ks >= first, 1.0 / first, 0.0) if first else np.zeros(n)

    ap_numerator = np.cumsum(np.where(relevant, precision_at_ranks(relevant), 0.0))
    ap_den = {"relevant": np.full(n, n_relevant), "min_r_k": np.minimum(n_relevant, ks),
              "retrieved": hits}[denominator]
    ap = safe_div(ap_numerator, ap_den)

    dcg = np.cumsum(gain_values(grades, gain) / discounts(n))
    ideal_top = ideal_grades(grades, judged=judged, ideal=ideal)[:n]
    ideal_top = np.pad(ideal_top, (0, n - len(ideal_top)))
    idcg = np.cumsum(gain_values(ideal_top, gain) / discounts(n))
    return {"P": precision, "R": recall, "F1": f1, "Success": (hits > 0).astype(float),
            "RR": rr, "AP": ap, "CG": np.cumsum(grades), "DCG": dcg, "IDCG": idcg,
            "nDCG": safe_div(dcg, idcg)}
