"""How the app prints a number: as the article prints it (the lessons' tiles, sentences and
questions). The app's concern, not the library's (irlib's explanations print theirs the same
way; tests/test_api_surface.py checks that the two agree)."""
from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal


def fmt(x: float, digits: int = 2) -> str:
    """A number as the article prints it: at most ``digits`` decimals, no trailing zeros.

    Rounded half up from the shortest decimal that reads back as ``x`` (what ``repr``
    shows), as a person rounds on paper: binary floats such as 0.125 or 0.995 are not
    rounded down for being stored a hair below.

    >>> fmt(0.125), fmt(0.995), fmt(2.5237, 4), fmt(-0.004), fmt(1.0)
    ('0.13', '1', '2.5237', '0', '1')
    """
    if not math.isfinite(float(x)):
        return str(float(x))
    value = Decimal(repr(float(x))).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    text = f"{value:f}".rstrip("0").rstrip(".") if digits else f"{value:f}"
    return "0" if text in ("-0", "") else text
