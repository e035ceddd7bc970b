"""A p-value as the app, the report and the command line print it (one rule, so the same p
reads the same everywhere)."""
from __future__ import annotations

import math


def format_p(p: float | None) -> str:
    """A p-value as people read it: ``0.21``, ``0.034``, ``0.008``, ``< 0.001``; ``–`` if none.

    Examples
    --------
    >>> format_p(0.2134), format_p(0.0342), format_p(0.0082), format_p(0.0001), format_p(None)
    ('0.21', '0.034', '0.008', '< 0.001', '–')
    """
    if p is None or not math.isfinite(p):
        return "–"
    if p >= 0.995:
        return "1"
    if p >= 0.1:
        return f"{p:.2f}"
    if p >= 0.001:
        return f"{p:.3f}"
    return "< 0.001"
