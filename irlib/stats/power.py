r"""How many queries a comparison needs: planning a test collection's size.

A comparison of two systems is a paired test over queries. Its per-query differences have a
mean :math:`\bar d` and a standard deviation :math:`s_d`; the *effect size* is their ratio,
Cohen's :math:`d_z = \delta / s_d` for a difference :math:`\delta`. With :math:`n` queries the
paired t statistic is about :math:`d_z \sqrt{n}`, so a small difference against a large
spread needs many queries. Every test here is two-sided (a difference either way counts).

Planning (Sakai 2016, "Topic set size design"; Cohen 1988) runs *before* the study: the
experimenter states the smallest difference :math:`\delta` that would matter and takes
:math:`s_d` from a pilot (earlier runs on similar queries). :func:`plan` asks statsmodels'
``TTestPower`` for the smallest :math:`n` that finds :math:`\delta` with the wanted power
(the chance of finding it when it is real), and carries the pilot's uncertainty about
:math:`s_d` (a chi-square interval) into an interval for :math:`n`. :func:`verdict_by_queries`
simulates studies of each size from the pilot's differences and counts how often the
upload page's randomization test finds the difference.

*Observed* (post-hoc) power, computed from the effect a study itself measured, is not a
forecast: it is a function of the study's p-value and adds nothing to it (Hoenig & Heisey
2001). :func:`observed_power` returns it labelled so, with the interval of the effect that
shows why "queries needed" from a measured effect is so uncertain.
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


def sd_interval(sd: float, n: int, level: float = 0.95) -> tuple[float, float]:
    r"""A confidence interval for the standard deviation of normal differences, from ``n``
    of them with sample SD ``sd``:
    :math:`\sqrt{(n-1)s^2/\chi^2_{1-a/2,\,n-1}}` to :math:`\sqrt{(n-1)s^2/\chi^2_{a/2,\,n-1}}`.

    >>> [round(x, 4) for x in sd_interval(0.102, 24)]
    [0.0793, 0.1431]
    """
    from scipy import stats
    if isinstance(n, bool) or int(n) != n or n < 2:
        raise ValueError(f"n must be a whole number >= 2, got {n!r}")
    level = _fraction(level, "level")
    df = int(n) - 1
    tail = (1 - level) / 2
    return (float(sd * math.sqrt(df / stats.chi2.ppf(1 - tail, df))),
            float(sd * math.sqrt(df / stats.chi2.ppf(tail, df))))


@dataclass(frozen=True)
class Plan:
    """A planned study: queries needed to find ``delta`` with ``power``, at the pilot's SD and
    at both ends of that SD's interval."""
    delta: float
    sd: float
    pilot_queries: int
    sd_low: float
    sd_high: float
    level: float
    needed: SampleSize          # at the pilot's SD
    fewest: SampleSize          # at the low end of the SD's interval
    most: SampleSize            # at the high end

    @property
    def effect_size(self) -> float:
        return self.needed.effect_size


def plan(delta: float, sd: float, pilot_queries: int, *, power: float = 0.8,
         alpha: float = 0.05, level: float = 0.95) -> Plan:
    """Queries a two-sided paired t-test needs to find the smallest difference that matters,
    ``delta``, when a pilot of ``pilot_queries`` queries measured the SD ``sd`` of the
    per-query differences; the interval of that SD (:func:`sd_interval`) gives an interval
    for the queries needed.

    Examples
    --------
    A gain of 0.05 nDCG@10 matters; the sample runs' 24 queries spread by 0.102:

    >>> p = plan(0.05, 0.102, 24)
    >>> round(p.effect_size, 2), p.needed.queries, p.fewest.queries, p.most.queries
    (0.49, 35, 22, 67)
    """
    low, high = sd_interval(sd, pilot_queries, level)
    return Plan(float(delta), float(sd), int(pilot_queries), low, high, level,
                queries_needed(delta, sd, power=power, alpha=alpha),
                queries_needed(delta, low, power=power, alpha=alpha),
                queries_needed(delta, high, power=power, alpha=alpha))


@dataclass(frozen=True)
class ObservedPower:
    """Post-hoc power of a finished study, with what it restates: its p-value, and the
    interval of the effect it measured."""
    n: int
    mean: float
    sd: float
    p_value: float              # two-sided paired t-test
    power: float                # "observed power": at the measured effect, a function of p
    effect_size: float
    effect_low: float           # the effect size's interval (the mean's t interval / sd)
    effect_high: float
    level: float

    @property
    def queries_range(self) -> tuple[int, float]:
        """Queries needed (80 % power) at each end of the effect's interval; infinite when
        the interval reaches 0 (no difference is among the plausible values)."""
        ends = sorted(abs(e) for e in (self.effect_low, self.effect_high))
        crosses = self.effect_low <= 0 <= self.effect_high
        most = math.inf if crosses else queries_needed(ends[0], 1.0).queries
        return queries_needed(ends[1], 1.0).queries, most


def observed_power(differences, *, alpha: float = 0.05, level: float = 0.95) -> ObservedPower:
    """Observed (post-hoc) power: the power of a two-sided paired t-test at the effect the
    study measured itself. It restates the p-value (p = α gives about 50 %), so it is no
    evidence for or against a difference (Hoenig & Heisey 2001).

    Examples
    --------
    >>> d = [0.1, -0.05, 0.2, 0.0, 0.15, -0.1, 0.05, 0.12]
    >>> o = observed_power(d)
    >>> round(o.p_value, 3), round(o.power, 2), round(o.effect_low, 2), round(o.effect_high, 2)
    (0.151, 0.29, -0.27, 1.41)
    >>> o.queries_range                  # the effect could be 0: any number could be needed
    (7, inf)
    """
    from scipy import stats
    mean, sd, n = spread(differences)
    if sd == 0:
        raise ValueError("the differences do not vary: there is no spread to test against")
    level = _fraction(level, "level")
    t = mean / (sd / math.sqrt(n))
    p = float(2 * stats.t.sf(abs(t), n - 1))
    half = stats.t.ppf(1 - (1 - level) / 2, n - 1) / math.sqrt(n)
    effect = mean / sd
    return ObservedPower(n, mean, sd, p, power_at(n, abs(mean), sd, alpha=alpha), effect,
                         float(effect - half), float(effect + half), level)


def simulated_study(differences, delta: float, sizes, *, draws: int = 100, alpha: float = 0.05,
                    seed: int = 0) -> pd.DataFrame:
    """How often studies of each size find a true difference ``delta``: the pilot's per-query
    differences, moved to have mean ``delta`` (their spread kept), drawn with replacement,
    each draw judged by the randomization test (:func:`verdict_by_queries`).

    A pilot whose differences spread by 0.072: 19 queries give 80 % power for 0.05.

    >>> pilot = 0.1 * np.sin(np.arange(24) * 1.7)
    >>> plan(0.05, float(np.std(pilot, ddof=1)), 24).needed.queries
    19
    >>> simulated_study(pilot, 0.05, [8, 19], draws=40)["better"].tolist()
    [0.15, 0.95]
    """
    d = np.asarray(differences, dtype=float)
    d = d[np.isfinite(d)]
    if len(d) < 2:
        raise ValueError(f"need the differences of at least 2 queries, got {len(d)}")
    index = [f"q{i}" for i in range(len(d))]
    zero = pd.Series(0.0, index=index)
    moved = pd.Series(d - d.mean() + float(delta), index=index)
    return verdict_by_queries(zero, moved, sizes, draws=draws, alpha=alpha, seed=seed,
                              replace=True)
