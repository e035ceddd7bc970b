"""The paired randomization (sign-flip) test: could a mean difference this large be chance?

If two systems were equally good, which of the two got the better score on a query would be
a coin toss: every difference could have had the other sign. The test counts the sign
patterns whose mean difference is at least as far from 0 as the observed one (two-sided;
Fisher's randomization test as Smucker, Allan & Carterette, CIKM 2007, use it for IR).

A tie (difference 0) has no sign to flip, so only the m queries that differ matter:

* ``m <= EXACT_UP_TO`` (20): all 2^m patterns are counted, the p-value is exact. The sums of
  all patterns of each half of the differences are added pairwise, 2^m numbers at most.
* beyond: a Monte Carlo estimate from random patterns, with its 95% margin
  (1.96 √(p(1−p)/N)), counted as scipy's ``permutation_test`` does ((hits + 1) / (N + 1)).

Examples
--------
Four queries differ (a tie cannot flip): of the 16 sign patterns, the observed one, the
one with all four positive and their mirror images are at least as far from 0.

>>> test = sign_flip_test([0.2, 0.1, 0.3, -0.05, 0.0])
>>> test.p_value, test.exact, test.patterns, test.n_differing
(0.25, True, 16, 4)
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: Up to this many differing queries the p-value is exact (2^20 = 1,048,576 patterns).
EXACT_UP_TO = 20
_BATCH_VALUES = 4_000_000                 # resamples x queries per Monte Carlo batch


@dataclass(frozen=True)
class SignFlipTest:
    """The test's p-value and how it was reached."""
    p_value: float
    exact: bool
    patterns: int            # sign patterns counted: 2^m (exact) or random ones
    n_differing: int         # m: queries whose difference is not 0
    margin: float | None     # Monte Carlo: 95% margin of p; None when exact

    def describe(self, units: str = "queries") -> str:
        """How the p-value was reached, for a caption (``units``: what the rows are).

        >>> sign_flip_test([0.1, -0.2, 0.3]).describe()
        'exact: all 8 sign patterns of the 3 queries that differ'
        """
        one = {"queries": "query", "users": "user"}.get(units, units)
        if self.n_differing == 0:
            return f"every {one} is a tie: nothing to flip"
        if self.exact:
            which = f"{one} that differs" if self.n_differing == 1 else f"{units} that differ"
            return f"exact: all {self.patterns:,} sign patterns of the {self.n_differing} {which}"
        return (f"{self.patterns:,} random sign patterns of the {self.n_differing:,} {units} "
                f"that differ; p ± {self.margin:.2g}")


def _all_pattern_sums(d: np.ndarray) -> np.ndarray:
    """The signed sums of every sign pattern of ``d`` (2^len(d) values, any order)."""
    def half(values):
        sums = np.zeros(1)
        for v in values:
            sums = np.concatenate([sums + v, sums - v])
        return sums
    cut = len(d) // 2
    return (half(d[:cut])[:, None] + half(d[cut:])[None, :]).ravel()


def sign_flip_test(differences, *, n_resamples: int = 10_000, seed: int = 0,
                   exact_up_to: int = EXACT_UP_TO) -> SignFlipTest:
    """Two-sided paired randomization test on per-query ``differences`` (b − a).

    Parameters
    ----------
    differences : array-like
        One difference per query; zeros (ties) cannot change sign and are left out.
    n_resamples : int
        Random sign patterns when the test is not exact.
    seed : int
        Seed of the random patterns: the same data gives the same p-value.
    exact_up_to : int
        Enumerate every pattern when at most this many queries differ.
    """
    d = np.asarray(differences, dtype=float)
    d = d[d != 0]
    m = len(d)
    if m == 0:
        return SignFlipTest(1.0, True, 1, 0, None)
    observed = abs(float(d.sum()))
    tolerance = observed * np.finfo(float).eps * 100       # equal sums, float noise aside
    if m <= exact_up_to:
        sums = _all_pattern_sums(d)
        hits = int(np.count_nonzero(np.abs(sums) >= observed - tolerance))
        return SignFlipTest(hits / len(sums), True, len(sums), m, None)
    rng = np.random.default_rng(seed)
    batch = max(1, _BATCH_VALUES // m)
    hits = done = 0
    while done < n_resamples:
        size = min(batch, n_resamples - done)
        # random bits, 8 per random byte: much cheaper than one random number per sign
        bits = np.unpackbits(rng.integers(0, 256, size=(size, (m + 7) // 8), dtype=np.uint8),
                             axis=1, count=m)
        sums = (1.0 - 2.0 * bits) @ d
        hits += int(np.count_nonzero(np.abs(sums) >= observed - tolerance))
        done += size
    p = min(1.0, (hits + 1) / (n_resamples + 1))
    margin = 1.96 * math.sqrt(p * (1 - p) / n_resamples)
    return SignFlipTest(p, False, int(n_resamples), m, margin)


def randomization_floor(n_differing: int) -> float:
    """The smallest p-value the exact test can give when ``n_differing`` queries differ.

    Only the observed signs and their mirror image are that extreme: 2 of 2^m.

    >>> randomization_floor(3)
    0.25
    """
    return min(1.0, 2.0 / 2.0 ** int(n_differing))
