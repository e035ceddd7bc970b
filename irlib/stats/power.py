r"""How many queries a comparison needs: a paired t-test's power, and the verdict on fewer.

A comparison of two systems is a paired test over queries. Its per-query differences have a
mean :math:`\bar d` and a standard deviation :math:`s_d`; their ratio is the effect size
(Cohen's :math:`d_z = \bar d / s_d`). With :math:`n` queries the paired t statistic is
:math:`t = d_z \sqrt{n}`, so a small difference against a large spread needs many queries.
:func:`queries_needed` asks statsmodels' ``TTestPower`` for the smallest :math:`n` that finds
a difference of a given size with a given power (the chance of finding it when it is real);
:func:`power_at` gives the power of the queries at hand. :func:`verdict_by_queries` shows the
same thing from the data: draw fewer queries, run the upload page's randomization test again,
and count how often its verdict stays.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from irlib.stats.compare import _aligned
from irlib.stats.randomization import sign_flip_test


def _fraction(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating)) \
            or not 0 < float(value) < 1:
        raise ValueError(f"{name} must be a number between 0 and 1, got {value!r}")
    return float(value)


def spread(differences) -> tuple[float, float, int]:
    """Mean and standard deviation (n - 1) of the per-query differences, and their number."""
    d = np.asarray(differences, dtype=float)
    d = d[np.isfinite(d)]
    if len(d) < 2:
        raise ValueError(f"need the differences of at least 2 queries, got {len(d)}")
    return float(d.mean()), float(d.std(ddof=1)), len(d)


@dataclass(frozen=True)
class SampleSize:
    """The queries a paired t-test needs to find ``delta`` against the spread ``sd``."""
    delta: float
    sd: float
    effect_size: float          # delta / sd (Cohen's d_z)
    power: float
    alpha: float
    exact: float                # statsmodels' solution, a real number
    queries: int                # rounded up, at least 2

    def sentence(self, measure: str = "the measure") -> str:
        return (f"To find a difference of {self.delta:.3g} in {measure} when the per-query "
                f"differences spread by {self.sd:.3g} (effect size {self.effect_size:.2f}), a "
                f"paired t-test at α = {self.alpha:g} with power {self.power:.0%} needs "
                f"{self.queries:,} queries.")


def queries_needed(delta: float, sd: float, *, power: float = 0.8,
                   alpha: float = 0.05) -> SampleSize:
    r"""The queries a two-sided paired t-test needs to find a mean difference ``delta`` when
    the per-query differences have standard deviation ``sd``, with probability ``power``.

    Solves :math:`\text{power} = P(|T_{n-1}(\delta/s_d \cdot \sqrt{n})| > t_{1-\alpha/2, n-1})`
    (a noncentral t) for :math:`n` with statsmodels' ``TTestPower().solve_power``.

    Examples
    --------
    A medium effect (0.5 standard deviations), 80% power, α = 0.05: 34 queries (33.4 rounded
    up), the textbook number.

    >>> s = queries_needed(0.05, 0.1)
    >>> s.effect_size, round(s.exact, 2), s.queries
    (0.5, 33.37, 34)
    """
    from statsmodels.stats.power import TTestPower
    for value, name in ((delta, "delta"), (sd, "sd")):
        if isinstance(value, bool) or not isinstance(value, (int, float, np.floating)) \
                or not math.isfinite(value) or value <= 0:
            raise ValueError(f"{name} must be a positive number, got {value!r}")
    power, alpha = _fraction(power, "power"), _fraction(alpha, "alpha")
    effect = float(delta) / float(sd)
    exact = float(TTestPower().solve_power(effect_size=effect, power=power, alpha=alpha,
                                           alternative="two-sided"))
    return SampleSize(float(delta), float(sd), effect, power, alpha, exact,
                      max(2, math.ceil(exact - 1e-9)))


def power_at(n: int, delta: float, sd: float, *, alpha: float = 0.05) -> float:
    """The power of a two-sided paired t-test over ``n`` queries (statsmodels' ``TTestPower``).

    >>> round(power_at(34, 0.05, 0.1), 3)
    0.808
    """
    from statsmodels.stats.power import TTestPower
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ValueError(f"n must be a whole number of queries >= 2, got {n!r}")
    if not (isinstance(sd, (int, float, np.floating)) and sd > 0):
        raise ValueError(f"sd must be a positive number, got {sd!r}")
    return float(TTestPower().power(effect_size=float(delta) / float(sd), nobs=int(n),
                                    alpha=_fraction(alpha, "alpha"), alternative="two-sided"))


def verdict_by_queries(a: pd.Series, b: pd.Series, sizes=None, *, draws: int = 200,
                       alpha: float = 0.05, seed: int = 0, n_resamples: int = 2000,
                       replace: bool = False) -> pd.DataFrame:
    """How the verdict on ``b`` against ``a`` (per-query scores, paired by query id) changes
    with the number of queries: for each size, ``draws`` random sets of that many queries,
    each judged by the randomization test the upload page uses.

    ``replace=False`` draws subsets of the queries at hand (sizes up to their number): the
    verdict on fewer queries. ``replace=True`` draws with replacement (a bootstrap), so sizes
    may pass the queries at hand: the verdict on more queries like these, the data's own
    counterpart of :func:`power_at`.

    Returns one row per size: ``better`` / ``worse`` (share of subsets where ``b`` is
    significantly better / worse at ``alpha``) and ``no_difference`` (the rest).

    Examples
    --------
    >>> a = pd.Series(np.linspace(0.2, 0.6, 30), index=[f"q{i}" for i in range(30)])
    >>> b = a + 0.05 + 0.05 * np.sin(np.arange(30))
    >>> curve = verdict_by_queries(a, b, [5, 30], draws=50)
    >>> curve.loc[30].to_dict()          # all 30 queries: the same verdict every time
    {'better': 1.0, 'worse': 0.0, 'no_difference': 0.0}
    >>> bool(curve.loc[5, "better"] < 1)     # five queries: often not enough
    True
    >>> noisy = a + 0.03 + 0.1 * np.sin(np.arange(30) * 2.1)     # a small gain, much noise
    >>> verdict_by_queries(a, noisy, [6, 30, 90], draws=50, replace=True)["better"].tolist()
    [0.1, 0.62, 0.98]
    """
    a, b, _ = _aligned(a, b)
    diff = (b - a).to_numpy(dtype=float)
    n = len(diff)
    if n < 2:
        raise ValueError(f"the two systems share {n} scored queries; at least 2 are needed")
    alpha = _fraction(alpha, "alpha")
    if sizes is None:
        sizes = sorted({int(s) for s in np.linspace(2, n, num=min(n - 1, 12)).round()})
    sizes = [int(s) for s in sizes]
    bad = [s for s in sizes if not 2 <= s <= (math.inf if replace else n)]
    if bad:
        most = "" if replace else f" and at most the {n} queries"
        raise ValueError(f"sizes must be at least 2{most} (draws "
                         f"{'with' if replace else 'without'} replacement), got {bad}")
    rng = np.random.default_rng(seed)
    rows = {}
    for size in sizes:
        counts = {"better": 0, "worse": 0, "no_difference": 0}
        for draw in range(draws):
            d = diff[rng.choice(n, size, replace=replace)]
            test = sign_flip_test(d, n_resamples=n_resamples, seed=seed + draw, exact_up_to=12)
            key = ("no_difference" if test.p_value >= alpha or d.sum() == 0
                   else "better" if d.sum() > 0 else "worse")
            counts[key] += 1
        rows[size] = {key: value / draws for key, value in counts.items()}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("queries")
