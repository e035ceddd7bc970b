"""Many systems at once: a table of means, and which differences would survive chance.

A search team compares a baseline with several variants on every measure. Each cell of
:func:`compare_many` holds a system's mean, whether it is the best, and whether it differs
from the baseline (or, on request, from every other system) by a paired test — the paired
t-test or the randomization test (:mod:`irlib.randomization`) — with the p-values of each
measure's comparisons corrected for their number by Holm–Bonferroni (Holm 1979): with m
comparisons, the smallest p is multiplied by m, the next by m − 1, …, each kept at least as
large as the one before. The family is one measure's comparisons, so asking about more
systems makes each "significant" harder to earn, as it should.

Per-query wins, ties and losses against the baseline come with each system.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd

from irlib.compare import compare_systems

TESTS = {"t-test": "paired t-test", "randomization": "randomization test"}
CORRECTIONS = {"holm": "Holm–Bonferroni", "none": "no correction"}


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


@dataclass(frozen=True)
class ManyComparison:
    """What :func:`compare_many` found.

    ``means``: systems x measures (rows in the order given, the baseline first).
    ``best``: per measure, the systems with the highest mean.
    ``tests``: one row per (measure, system, against): the mean difference, wins / ties /
    losses over the queries both answered, the raw and corrected p-values and whether the
    difference is significant at ``alpha`` after correction.
    """
    means: pd.DataFrame
    best: dict[str, tuple[str, ...]]
    tests: pd.DataFrame
    baseline: str
    test: str
    correction: str
    alpha: float

    def cell(self, measure: str, system: str, against: str | None = None) -> pd.Series | None:
        """The test row of ``system`` against ``against`` (default: the baseline)."""
        against = against or self.baseline
        rows = self.tests[(self.tests["measure"] == measure) & (self.tests["system"] == system)
                          & (self.tests["against"] == against)]
        return rows.iloc[0] if len(rows) else None

    def method(self) -> str:
        """How the cells were tested, for a caption."""
        return (f"{TESTS[self.test]} on the per-query scores, {CORRECTIONS[self.correction]} "
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
    best = {m: tuple(means.index[np.isclose(means[m], means[m].max(), rtol=0, atol=1e-12)])
            for m in measures}
    pairs = [(s, baseline) for s in systems[1:]]
    if all_pairs:
        pairs += [(b, a) for a, b in combinations(systems[1:], 2)]
    rows = []
    for measure in measures:
        found = []
        for system, against in pairs:
            c = compare_systems(per_query[against][measure], per_query[system][measure],
                                n_resamples=n_resamples, seed=seed,
                                randomization=test == "randomization")
            p = c.randomization_pvalue if test == "randomization" else c.t_pvalue
            found.append(dict(measure=measure, system=system, against=against, n=int(c.n),
                              mean_delta=c.mean_delta, wins=int(c.wins), ties=int(c.ties),
                              losses=int(c.losses), p_value=p))
        raw = [r["p_value"] if r["p_value"] is not None else 1.0 for r in found]
        adjusted = holm(raw) if correction == "holm" else np.asarray(raw, dtype=float)
        for r, p_adj in zip(found, adjusted):
            r["p_adjusted"] = float(p_adj) if r["p_value"] is not None else None
            r["significant"] = bool(r["p_value"] is not None and p_adj < alpha)
        rows += found
    columns = ["measure", "system", "against", "n", "mean_delta", "wins", "ties", "losses",
               "p_value", "p_adjusted", "significant"]
    return ManyComparison(means, best, pd.DataFrame(rows, columns=columns), baseline, test,
                          correction, alpha)
