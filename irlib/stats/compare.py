"""Compare two systems query by query: wins and losses, the mean difference and two tests.

Offline comparisons are *paired*: both systems answer the same queries, so what matters is
the per-query difference ``b - a``. :func:`compare_systems` reports

* wins / losses / ties (``b`` better / worse / equal on a query),
* the mean difference with a t-based 95% confidence interval,
* the paired t-test's p-value (:func:`scipy.stats.ttest_rel`),
* the randomization test's p-value (:mod:`irlib.stats.randomization`): under "no difference" each
  query's difference could have had the other sign; exact up to 20 differing queries.

:mod:`irlib.stats.verdict` says the result in sentences; :func:`per_query_ranking` lists one
query's ranking with its grades, in trec_eval's order. No Streamlit here.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from irlib.stats.randomization import SignFlipTest, sign_flip_test

__all__ = ["Comparison", "compare_systems", "per_query_ranking"]

#: Differences this small (relative to the values) are ties: the same ranking computed
#: through different float paths must not count as a win.
_TIE_TOLERANCE = 1e-12


@dataclass(frozen=True)
class Comparison:
    """System ``b`` against system ``a`` on the queries both scored.

    ``deltas`` is ``b - a`` per query (sorted by query id; differences within
    ``1e-12`` are exactly 0). Statistics that need at least two queries are ``None`` below
    that; :attr:`confidence` is the level of the interval (0.95).
    """
    a: pd.Series
    b: pd.Series
    deltas: pd.Series
    wins: int
    losses: int
    ties: int
    mean_a: float | None
    mean_b: float | None
    mean_delta: float | None
    ci_low: float | None
    ci_high: float | None
    t_statistic: float | None
    t_pvalue: float | None
    randomization_pvalue: float | None
    n_resamples: int
    exact_randomization: bool
    unmatched: tuple[str, ...]           # queries scored by only one system (left out)
    confidence: float = 0.95
    randomization: SignFlipTest | None = None   # how its p-value was reached

    @property
    def n(self) -> int:
        """Number of queries compared."""
        return len(self.deltas)


def _aligned(a: pd.Series, b: pd.Series) -> tuple[pd.Series, pd.Series, tuple[str, ...]]:
    for name, s in (("a", a), ("b", b)):
        if not isinstance(s, pd.Series):
            raise TypeError(f"{name} must be a pandas Series indexed by query id, "
                            f"got {type(s).__name__}")
        if s.index.has_duplicates:
            dup = s.index[s.index.duplicated()][0]
            raise ValueError(f"{name} has query {dup!r} more than once")
    a = pd.to_numeric(a, errors="coerce").astype(float)
    b = pd.to_numeric(b, errors="coerce").astype(float)
    a.index = a.index.astype(str)
    b.index = b.index.astype(str)
    common = a.index.intersection(b.index)
    ok = common[np.isfinite(a.reindex(common)) & np.isfinite(b.reindex(common))]
    ok = ok.sort_values()
    unmatched = set(a.index).symmetric_difference(b.index) | set(common.difference(ok))
    unmatched = tuple(sorted(unmatched))
    return a.reindex(ok), b.reindex(ok), unmatched


def compare_systems(a: pd.Series, b: pd.Series, *, n_resamples: int = 10_000,
                    seed: int = 0, confidence: float = 0.95,
                    randomization: bool = True) -> Comparison:
    """Compare per-query scores ``b`` (new system) with ``a`` (baseline), paired by query id.

    Parameters
    ----------
    a, b : Series
        One measure's value per query, indexed by query id (e.g. a column of
        ``irlib.evaluate(...).per_query``). Only queries in both with finite values are
        compared; the others are listed in ``unmatched``.
    n_resamples : int
        Random sign patterns of the randomization test when more than 20 queries differ;
        up to 20 every pattern is counted (exact). See :func:`irlib.stats.randomization.sign_flip_test`.
    seed : int
        Seed of the randomization test, so the same data gives the same p-value (the pairs
        are put in query-id order first, so row order does not matter either).
    confidence : float
        Level of the t-based confidence interval of the mean difference.
    randomization : bool
        Run the randomization test (its p-value is None when not).

    Returns
    -------
    Comparison
        With fewer than two queries the interval and both p-values are ``None``. When every
        difference is the same number ``d`` (e.g. all ties), the t-test is degenerate:
        ``d == 0`` gives t = 0 and p = 1, otherwise t = ±inf and p = 0; the interval is
        ``[d, d]``.

    Examples
    --------
    >>> a = pd.Series({"q1": 0.5, "q2": 0.25, "q3": 1.0, "q4": 0.0})
    >>> b = pd.Series({"q1": 0.75, "q2": 0.25, "q3": 1.0, "q4": 0.5})
    >>> c = compare_systems(a, b)
    >>> c.wins, c.losses, c.ties, c.mean_delta
    (2, 0, 2, 0.1875)
    >>> round(c.t_pvalue, 4), c.randomization_pvalue, c.exact_randomization
    (0.2152, 0.5, True)
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence!r}")
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) \
            or n_resamples < 1:
        raise ValueError(f"n_resamples must be a positive integer, got {n_resamples!r}")
    a, b, unmatched = _aligned(a, b)
    x, y = a.to_numpy(), b.to_numpy()
    raw = y - x
    scale = np.maximum(1.0, np.maximum(np.abs(x), np.abs(y)))
    diff = np.where(np.abs(raw) <= _TIE_TOLERANCE * scale, 0.0, raw)
    y = np.where(diff == 0, x, y)        # the tests see the same ties as the counts
    deltas = pd.Series(diff, index=a.index, name="delta")
    n = len(diff)
    wins, losses = int((diff > 0).sum()), int((diff < 0).sum())
    common = dict(a=a, b=b, deltas=deltas, wins=wins, losses=losses, ties=n - wins - losses,
                  n_resamples=int(n_resamples), unmatched=unmatched, confidence=confidence)
    if n < 2:
        means = dict(mean_a=None, mean_b=None, mean_delta=None) if n == 0 else \
            dict(mean_a=float(x.mean()), mean_b=float(y.mean()), mean_delta=float(diff.mean()))
        return Comparison(ci_low=None, ci_high=None, t_statistic=None, t_pvalue=None,
                          randomization_pvalue=None, exact_randomization=False, **means,
                          **common)
    mean = float(diff.mean())
    sd = float(diff.std(ddof=1))
    if sd == 0.0:
        # Every query moved by the same amount: no spread, so no t distribution to use.
        t_stat, t_p = (0.0, 1.0) if mean == 0 else (math.copysign(math.inf, mean), 0.0)
        ci_low = ci_high = mean
    else:
        test = stats.ttest_rel(y, x)
        t_stat, t_p = float(test.statistic), float(test.pvalue)
        half = float(stats.t.ppf(0.5 + confidence / 2, df=n - 1)) * sd / math.sqrt(n)
        ci_low, ci_high = mean - half, mean + half
    flips = sign_flip_test(diff, n_resamples=int(n_resamples), seed=seed) if randomization \
        else None
    return Comparison(mean_a=float(x.mean()), mean_b=float(y.mean()), mean_delta=mean,
                      ci_low=float(ci_low), ci_high=float(ci_high), t_statistic=float(t_stat),
                      t_pvalue=float(t_p), randomization_pvalue=flips and flips.p_value,
                      exact_randomization=bool(flips and flips.exact), randomization=flips,
                      **common)


def per_query_ranking(qrels: pd.DataFrame, run: pd.DataFrame, query_id) -> pd.DataFrame:
    """One query's ranking with its grades, in trec_eval's order (score desc, doc id desc).

    Parameters
    ----------
    qrels : DataFrame
        ``query_id, doc_id, relevance``.
    run : DataFrame
        ``query_id, doc_id, score`` (other columns are kept).
    query_id
        The query; compared as a string.

    Returns
    -------
    DataFrame
        ``rank`` (1 = top), ``doc_id``, ``score``, ``relevance`` (the judged grade, 0 when
        unjudged), ``judged`` (bool), then the run's other columns. Empty when the run
        does not answer the query.

    Examples
    --------
    >>> qrels = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "c"], "relevance": [2, 1]})
    >>> run = pd.DataFrame({"query_id": ["1", "1", "1", "2"], "doc_id": ["a", "b", "c", "a"],
    ...                     "score": [1.0, 3.0, 1.0, 5.0]})
    >>> per_query_ranking(qrels, run, "1")
       rank doc_id  score  relevance  judged
    0     1      b    3.0          0   False
    1     2      c    1.0          1    True
    2     3      a    1.0          2    True
    """
    qid = str(query_id)
    rows = run.loc[run["query_id"].astype(str).to_numpy() == qid]
    rows = rows.assign(doc_id=rows["doc_id"].astype(str),
                       score=pd.to_numeric(rows["score"], errors="coerce").astype(float))
    rows = rows.sort_values(["score", "doc_id"], ascending=[False, False], kind="stable")
    judged = qrels.loc[qrels["query_id"].astype(str).to_numpy() == qid]
    grades = pd.Series(judged["relevance"].to_numpy(),
                       index=judged["doc_id"].astype(str).to_numpy())
    grade = grades.reindex(rows["doc_id"].to_numpy())
    extra = [c for c in rows.columns if c not in ("query_id", "doc_id", "score")]
    out = pd.DataFrame({"rank": np.arange(1, len(rows) + 1),
                        "doc_id": rows["doc_id"].to_numpy(),
                        "score": rows["score"].to_numpy(),
                        "relevance": grade.fillna(0).to_numpy().astype(
                            np.int64 if pd.api.types.is_integer_dtype(grades) or grades.empty
                            else float),
                        "judged": grade.notna().to_numpy()})
    for column in extra:
        out[column] = rows[column].to_numpy()
    return out
