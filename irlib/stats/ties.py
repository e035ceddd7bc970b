"""When two means are a tie: a difference the tables cannot show is no difference.

Every table in the app and the command line prints means to three decimals. Two means closer
than half of that last digit print alike ("0.102 vs 0.102"), so no sentence may call one of
them better, whatever a test says of such a difference.
"""
from __future__ import annotations

TIE_TOLERANCE = 0.0005
"""Means closer than this (absolute, on the measure's own scale) are a tie."""


def is_tie(a: float, b: float, tolerance: float = TIE_TOLERANCE) -> bool:
    """Whether two means are a tie: ``|a - b| < tolerance``.

    >>> is_tie(0.10213, 0.10214)
    True
    >>> is_tie(0.121, 0.102)
    False
    """
    return abs(float(a) - float(b)) < tolerance
