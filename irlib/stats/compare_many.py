"""Many systems at once: a table of means, and which differences would survive chance.

A search team compares a baseline with several variants on every measure. Each cell of
:func:`compare_many` holds a system's mean, whether it is the best, and whether it differs
from the baseline (or, on request, from every other system) by a paired test — the paired
t-test or the randomization test (:mod:`irlib.stats.randomization`) — with the p-values of each
measure's comparisons corrected for their number by Holm–Bonferroni (Holm 1979): with m
comparisons, the smallest p is multiplied by m, the next by m − 1, …, each kept at least as
large as the one before. The family is one measure's comparisons, so asking about more
systems makes each "significant" harder to earn, as it should.

Per-query wins, ties and losses against the baseline come with each system.

Every sentence about the table is said from :class:`Finding` (:meth:`ManyComparison.finding`):
one comparison with its test, raw and corrected p, the correction, the size of its family,
whether the table marks it and whether its means are a tie (:mod:`irlib.stats.ties`); a difference
the table does not mark is never called real. :func:`headline` says the whole table in one
paragraph.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations
from zlib import crc32

import numpy as np
import pandas as pd

from irlib.stats.compare import compare_systems
from irlib.stats.p_values import format_p
from irlib.stats.ties import is_tie, leaders

TESTS = {"t-test": "paired t-test", "randomization": "randomization test"}
CORRECTIONS = {"holm": "Holm–Bonferroni", "none": "no correction"}


def is_quality_measure(measure: str) -> bool:
    """Whether a higher mean of ``measure`` means a better system. Judged@K does not: it says
    how much of the top K was judged, so it gets no ★, no ▲/▼ and no sentence of better or
    worse.

    >>> is_quality_measure("nDCG@10"), is_quality_measure("Judged@10")
    (True, False)
    """
    return not str(measure).startswith("Judged")


def comparison_seed(seed: int, measure: str, system: str, against: str) -> list[int]:
    """The random stream of one comparison's randomization test: its own for each (measure,
    system, against), so the Monte Carlo errors of a table's comparisons do not move together,
    and the same for the same names and ``seed`` (reproducible, whatever else is compared).

    >>> comparison_seed(0, "AP", "b", "a") == comparison_seed(0, "AP", "b", "a")
    True
    >>> comparison_seed(0, "AP", "b", "a") != comparison_seed(0, "AP", "c", "a")
    True
    """
    return [int(seed)] + [crc32(str(x).encode()) for x in (measure, system, against)]


def holm(p_values: Sequence[float]) -> np.ndarray:
    """Holm–Bonferroni adjusted p-values, in the order given.

    >>> holm([0.01, 0.04, 0.03]).round(3).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p_values, dtype=float)
    m = len(p)
    order = np.argsort(p, kind="stable")
    adjusted = np.minimum(1.0, np.maximum.accumulate(p[order] * (m - np.arange(m))))
    out = np.empty(m)
    out[order] = adjusted
    return out


def _p(p: float | None) -> str:

    text = format_p(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


@dataclass(frozen=True)
class Finding:
    """One comparison of the systems table: ``system`` against ``against`` on ``measure``.

    What a sentence may say is decided here, once: :attr:`real` (the table marks it: the
    corrected p is below ``alpha`` and the means are no tie) and :attr:`direction`.
    ``p_value`` is the test's own (uncorrected) p, ``p_adjusted`` after ``correction`` over
    the ``family_size`` comparisons of the measure (equal when the family is one).
    """
    measure: str
    system: str
    against: str
    mean_system: float
    mean_against: float
    mean_delta: float | None       # mean of system − against over the rows both have
    n: int
    test: str                      # a key of TESTS
    p_value: float | None
    p_adjusted: float | None
    correction: str                # a key of CORRECTIONS
    family_size: int
    all_pairs: bool
    alpha: float
    marked: bool
    tie: bool
    quality: bool = True           # False: a measure like Judged@K, never better or worse

    @property
    def corrected(self) -> bool:
        """Whether the p-value was corrected (a family of more than one, and a correction)."""
        return self.family_size > 1 and self.correction != "none"

    @property
    def real(self) -> bool:
        """The table marks the difference: the only case a sentence may call it real."""
        return self.marked

    @property
    def direction(self) -> int:
        """+1 ``system`` is marked better, −1 marked worse, 0 no clear difference (always 0
        on a measure that is not about quality, such as Judged@K)."""
        if not self.marked or not self.mean_delta or not self.quality:
            return 0
        return 1 if self.mean_delta > 0 else -1

    @property
    def family(self) -> str:
        """The comparisons corrected together, in words.

        >>> f = Finding("AP", "b", "a", .3, .2, .1, 9, "t-test", .02, .04, "holm", 2, False,
        ...             .05, True, False)
        >>> f.family
        'the 2 comparisons with the baseline'
        """
        n = self.family_size
        if self.all_pairs:
            return f"the {n} comparisons between every pair of systems"
        return "the one comparison with the baseline" if n == 1 else \
            f"the {n} comparisons with the baseline"

    def p_words(self) -> str:
        """The p-value a sentence rests on, named: corrected, with its family, or plain.

        >>> f = Finding("AP", "b", "a", .3, .2, .1, 60, "t-test", .038, .066, "holm", 2,
        ...             False, .05, False, False)
        >>> print(f.p_words())  # doctest: +NORMALIZE_WHITESPACE
        corrected for the 2 comparisons with the baseline (Holm–Bonferroni): p = 0.066;
        uncorrected p = 0.038
        """
        if self.p_value is None:
            return "no p-value"
        if not self.corrected:
            return _p(self.p_value)
        return (f"corrected for {self.family} ({CORRECTIONS[self.correction]}): "
                f"{_p(self.p_adjusted)}; uncorrected {_p(self.p_value)}")


@dataclass(frozen=True)
class ManyComparison:
    """What :func:`compare_many` found.

    ``means``: systems x measures (rows in the order given, the baseline first).
    ``best``: per measure, the systems that share the highest mean
    (:func:`irlib.stats.ties.leaders`: tied leaders share it, none when all tie; none on a
    measure that is not about quality, :func:`is_quality_measure`).
    ``tests``: one row per (measure, system, against): the two means and their difference,
    wins / ties / losses over the queries both answered, the raw and corrected p-values,
    whether the difference is significant at ``alpha`` after correction, whether the means
    are a tie (:func:`irlib.stats.ties.is_tie`), whether the table ``marked`` it (significant and
    no tie: the only differences any sentence may call real) and whether both means were taken
    over the very queries compared (``same_queries``: False when a system has no value for some
    query, so the gap between the means need not be the difference).
    """
    means: pd.DataFrame
    best: dict[str, tuple[str, ...]]
    tests: pd.DataFrame
    baseline: str
    test: str
    correction: str
    alpha: float
    #: (measure, system, against) -> the :class:`~irlib.stats.compare.Comparison` each test row
    #: came from, so a sentence about a row reads the very numbers the row holds.
    comparisons: dict = field(default_factory=dict, repr=False, compare=False)

    @cached_property
    def _rows(self) -> dict[tuple[str, str, str], dict]:
        """The test rows by (measure, system, against), read once (a lookup per sentence
        must not filter the whole frame)."""
        return {(r["measure"], r["system"], r["against"]): r
                for r in self.tests.to_dict("records")}

    def cell(self, measure: str, system: str, against: str | None = None) -> pd.Series | None:
        """The test row of ``system`` against ``against`` (default: the baseline)."""
        row = self._rows.get((measure, system, against or self.baseline))
        return None if row is None else pd.Series(row)

    @property
    def all_pairs(self) -> bool:
        """Whether every pair was compared, not only each system with the baseline."""
        return bool((self.tests["against"] != self.baseline).any())

    @property
    def family_size(self) -> int:
        """How many comparisons each measure's correction covers."""
        measures = self.tests["measure"].nunique()
        return len(self.tests) // measures if measures else 0

    def finding(self, measure: str, system: str, against: str | None = None
                ) -> Finding | None:
        """The comparison of ``system`` with ``against`` (default: the baseline) on
        ``measure``, as every sentence must say it; looked up either way round (the
        difference then read from ``system``'s side)."""
        against = against or self.baseline
        row, flip = self._rows.get((measure, system, against)), False
        if row is None:
            row, flip = self._rows.get((measure, against, system)), True
        if row is None:
            return None
        sign = -1.0 if flip else 1.0
        mean_b, mean_a = row["mean_system"], row["mean_against"]
        if flip:
            mean_a, mean_b = mean_b, mean_a
        p = row["p_value"]
        return Finding(measure=measure, system=system, against=against,
                       mean_system=float(mean_b), mean_against=float(mean_a),
                       mean_delta=None if row["mean_delta"] is None or
                       pd.isna(row["mean_delta"]) else sign * float(row["mean_delta"]),
                       n=int(row["n"]), test=self.test,
                       p_value=None if p is None or pd.isna(p) else float(p),
                       p_adjusted=None if p is None or pd.isna(p) else float(row["p_adjusted"]),
                       correction=self.correction, family_size=self.family_size,
                       all_pairs=self.all_pairs, alpha=self.alpha,
                       marked=bool(row["marked"]), tie=bool(row["tie"]),
                       quality=is_quality_measure(measure))

    def findings(self, measure: str | None = None) -> list[Finding]:
        """Every comparison of the table (of one measure), in the table's order."""
        rows = self.tests if measure is None else self.tests[self.tests["measure"] == measure]
        return [self.finding(m, s, a) for m, s, a in
                zip(rows["measure"], rows["system"], rows["against"])]

    def method(self, unit: str = "query") -> str:
        """How the cells were tested, for a caption (``unit``: a row is a query or a user)."""
        return (f"{TESTS[self.test]} on the per-{unit} scores, {CORRECTIONS[self.correction]} "
                f"over each measure's comparisons, significant at {self.alpha:g}")


def compare_many(per_query: Mapping[str, pd.DataFrame], baseline: str, *,
                 measures: Sequence[str] | None = None, test: str = "randomization",
                 correction: str = "holm", all_pairs: bool = False, alpha: float = 0.05,
                 n_resamples: int = 10_000, seed: int = 0) -> ManyComparison:
    """Means, best systems and corrected paired tests for many systems.

    Parameters
    ----------
    per_query : mapping of system name -> DataFrame
        Each system's per-query values (query ids as the index, one column per measure),
        e.g. ``irlib.evaluate(...).per_query``. A query a system has no value for (NaN) is
        left out of that system's mean and of its comparisons.
    baseline : str
        The system the others are compared with.
    measures : sequence of str, optional
        Columns to compare (default: every column of the baseline).
    test : {"randomization", "t-test"}
    correction : {"holm", "none"}
    all_pairs : bool
        Also compare every pair of non-baseline systems.

    Examples
    --------
    >>> a = pd.DataFrame({"AP": [0.2, 0.4, 0.1, 0.5]}, index=["q1", "q2", "q3", "q4"])
    >>> result = compare_many({"base": a, "new": a + 0.1, "same": a}, "base")
    >>> result.means["AP"].round(3).to_dict(), result.best["AP"]
    ({'base': 0.3, 'new': 0.4, 'same': 0.3}, ('new',))
    >>> row = result.cell("AP", "new")    # better on all 4: 2 of the 16 sign patterns as far
    >>> int(row["wins"]), int(row["losses"]), float(row["p_value"]), float(row["p_adjusted"])
    (4, 0, 0.125, 0.25)
    """
    if test not in TESTS:
        raise ValueError(f"test must be one of {tuple(TESTS)}, got {test!r}")
    if correction not in CORRECTIONS:
        raise ValueError(f"correction must be one of {tuple(CORRECTIONS)}, got {correction!r}")
    if baseline not in per_query:
        raise ValueError(f"baseline {baseline!r} is not one of the systems "
                         f"({', '.join(map(str, per_query))})")
    systems = [baseline] + [s for s in per_query if s != baseline]
    measures = list(measures if measures is not None else per_query[baseline].columns)
    means = pd.DataFrame({m: [float(per_query[s][m].mean()) for s in systems]
                          for m in measures}, index=pd.Index(systems, name="system"))
    best = {m: leaders(means[m].to_dict()) if is_quality_measure(m) else () for m in measures}
    pairs = [(s, baseline) for s in systems[1:]]
    if all_pairs:
        pairs += [(b, a) for a, b in combinations(systems[1:], 2)]
    rows, kept = [], {}
    for measure in measures:
        found = []
        for system, against in pairs:
            c = compare_systems(per_query[against][measure], per_query[system][measure],
                                n_resamples=n_resamples,
                                seed=comparison_seed(seed, measure, system, against),
                                randomization=test == "randomization")
            p = c.randomization_pvalue if test == "randomization" else c.t_pvalue
            kept[(measure, system, against)] = c
            mean_s, mean_a = means.at[system, measure], means.at[against, measure]
            found.append(dict(measure=measure, system=system, against=against, n=int(c.n),
                              mean_system=mean_s, mean_against=mean_a,
                              mean_delta=c.mean_delta, wins=int(c.wins), ties=int(c.ties),
                              losses=int(c.losses), p_value=p,
                              same_queries=bool(
                                  int(per_query[system][measure].notna().sum()) == c.n ==
                                  int(per_query[against][measure].notna().sum())),
                              tie=bool(np.isfinite(mean_s) and np.isfinite(mean_a)
                                       and is_tie(mean_s, mean_a))))
        raw = [r["p_value"] if r["p_value"] is not None else 1.0 for r in found]
        adjusted = holm(raw) if correction == "holm" else np.asarray(raw, dtype=float)
        for r, p_adj in zip(found, adjusted):
            r["p_adjusted"] = float(p_adj) if r["p_value"] is not None else None
            r["significant"] = bool(r["p_value"] is not None and p_adj < alpha)
            r["marked"] = r["significant"] and not r["tie"] and is_quality_measure(measure)
        rows += found
    columns = ["measure", "system", "against", "n", "mean_system", "mean_against",
               "mean_delta", "wins", "ties", "losses", "p_value", "p_adjusted", "significant",
               "tie", "marked", "same_queries"]
    return ManyComparison(means, best, pd.DataFrame(rows, columns=columns), baseline, test,
                          correction, alpha, kept)


def _join(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def headline(result: ManyComparison, labels: Mapping[str, str] | None = None,
             unit: str = "query") -> str:
    """The whole table in a paragraph: which systems beat or fall behind the baseline after
    correction, on which measures, and with every pair compared, which other pairs the table
    marks; said only from the table's marks (:attr:`Finding.real`). Measures that are not about
    quality (:func:`is_quality_measure`, e.g. Judged@K) are never said better or worse.

    ``labels`` names the measures (default: their column names).

    Examples
    --------
    >>> ids = [f"q{i}" for i in range(12)]
    >>> base = pd.DataFrame({"AP": np.linspace(0.1, 0.6, 12)}, index=ids)
    >>> print(headline(compare_many({"base": base, "up": base + 0.2, "same": base}, "base")))
    ... # doctest: +NORMALIZE_WHITESPACE
    up beats base on AP. No clear difference from base on any measure: same. By the
    randomization test, Holm–Bonferroni over the 2 comparisons with the baseline of each
    measure, at 0.05.

    With every pair compared, a marked pair without the baseline is said too:

    >>> print(headline(compare_many({"base": base, "up": base + 0.2, "same": base}, "base",
    ...                             all_pairs=True)))   # doctest: +NORMALIZE_WHITESPACE
    up beats base on AP. No clear difference from base on any measure: same. Between the
    other systems: same falls behind up on AP. By the randomization test, Holm–Bonferroni
    over the 3 comparisons between every pair of systems of each measure, at 0.05.
    """
    labels = labels or {}
    measures = [m for m in result.means.columns if is_quality_measure(m)]
    said, unclear = [], []
    for system in result.means.index:
        if system == result.baseline:
            continue
        parts = _moves([result.finding(m, system) for m in measures], result.baseline, labels)
        if parts:
            said.append(f"{system} " + " and ".join(parts) + ".")
        else:
            unclear.append(system)
    if unclear and not said:
        said.append(f"No system clearly beats or falls behind {result.baseline} on any "
                    f"measure: the differences of {_join(unclear)} could be chance.")
    elif unclear:
        said.append(f"No clear difference from {result.baseline} on any measure: "
                    f"{_join(unclear)}.")
    if result.all_pairs:
        others = result.tests[result.tests["against"] != result.baseline]
        pairs = list(dict.fromkeys(zip(others["system"], others["against"])))
        between = []
        for system, against in pairs:
            parts = _moves([result.finding(m, system, against) for m in measures], against,
                           labels)
            if parts:
                between.append(f"{system} " + " and ".join(parts))
        said.append("Between the other systems: " + ("; ".join(between) + "." if between
                                                      else "no pair is marked."))
    family = result.finding(result.means.columns[0], next(
        s for s in result.means.index if s != result.baseline)).family \
        if len(result.means.columns) and len(result.means) > 1 else "no comparison"
    how = (f"By the {TESTS[result.test]}, "
           + (f"{CORRECTIONS[result.correction]} over {family} of each measure"
              if result.family_size > 1 and result.correction != "none" else
              "one comparison, nothing to correct")
           + f", at {result.alpha:g}.")
    return " ".join(said + [how])


def _moves(found: Sequence[Finding | None], against: str, labels: Mapping[str, str]
           ) -> list[str]:
    """"beats X on A" / "falls behind X on B", from the marked findings only."""
    up = [labels.get(f.measure, f.measure) for f in found if f and f.direction > 0]
    down = [labels.get(f.measure, f.measure) for f in found if f and f.direction < 0]
    return ([f"beats {against} on {_join(up)}"] if up else []) + \
        ([f"falls behind {against} on {_join(down)}"] if down else [])
