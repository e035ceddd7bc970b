"""When two means are a tie: a difference the tables cannot show is no difference.

Two means closer than :data:`TIE_TOLERANCE` (half a unit of the third decimal) are a tie: no
sentence may call one of them better, whatever a test says of such a difference, and no mark
(▲/▼, ★) may single one out. They need not print alike: the tables print four decimals, so
0.6924 and 0.6925 print apart and still tie; :func:`leaders` gives the ★ to both.
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


def leaders(means, tolerance: float = TIE_TOLERANCE) -> tuple:
    """Who shares the top (★): every name whose mean ties the highest, or none at all.

    ``means`` maps names to means (NaN means are left out). A mark for the highest mean obeys
    ties as the ▲/▼ marks do: leaders within ``tolerance`` of the top share it, and when
    every name ties the top (or only one name has a mean) nobody leads, so nobody gets it.

    >>> leaders({"a": 0.6925, "b": 0.6924, "c": 0.61})     # a and b print apart, yet tie
    ('a', 'b')
    >>> leaders({"a": 0.30, "b": 0.303})                   # a 0.003 gain is no tie
    ('b',)
    >>> leaders({"a": 0.5, "b": 0.5}), leaders({"a": 0.5})
    ((), ())
    """
    finite = {k: float(v) for k, v in dict(means).items() if v == v and v is not None}
    if len(finite) < 2:
        return ()
    top = max(finite.values())
    shared = tuple(k for k, v in finite.items() if is_tie(v, top, tolerance))
    return () if len(shared) == len(finite) else shared
