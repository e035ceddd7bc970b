"""Compare two systems query by query: wins and losses, the mean difference and two tests.

Offline comparisons are *paired*: both systems answer the same queries, so what matters is
the per-query difference ``b - a``. :func:`compare_systems` reports

* wins / losses / ties (``b`` better / worse / equal on a query),
* the mean difference with a t-based 95% confidence interval,
* the paired t-test's p-value (:func:`scipy.stats.ttest_rel`),
* a randomization test's p-value: under "no difference" each query's pair could be swapped,
  i.e. each difference's sign flipped; :func:`scipy.stats.permutation_test` with
  ``permutation_type="samples"`` does exactly that (exactly, when 2^n is small).

:func:`summary_sentence` says the result in one line a stakeholder can read, and
:func:`per_query_ranking` lists one query's ranking with its grades, in trec_eval's order.
No Streamlit here.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

__all__ = ["Comparison", "compare_systems", "summary_sentence", "per_query_ranking",
           "format_p", "format_number"]

#: Differences this small (relative to the values) are ties: the same ranking computed
#: through different float paths must not count as a win.
_TIE_TOLERANCE = 1e-12
#: Below this many queries the summary warns that a difference is easily chance.
_FEW_QUERIES = 30


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


#: Above this many query x resample values, scipy's generic permutation machinery takes
#: seconds (7,000 queries: ~5 s); the same Monte Carlo test then runs in NumPy batches.
_SCIPY_MAX_WORK = 2_000_000


def _sign_flip_pvalue(d: np.ndarray, n_resamples: int, rng: np.random.Generator) -> float:
    """Monte Carlo two-sided sign-flip p-value with scipy.stats.permutation_test's rule.

    Each resample gives every difference a random sign; the null statistic is the mean.
    As in scipy: p = min(1, 2 * min(P(null <= obs), P(null >= obs))), each side counted
    as ``(hits + 1) / (n_resamples + 1)``, with a small tolerance for equal statistics.
    """
    n = len(d)
    observed = float(d.mean())
    gamma = abs(observed) * np.finfo(float).eps * 100     # scipy's tolerance
    batch = max(1, 4_000_000 // n)
    less = greater = 0
    done = 0
    while done < n_resamples:
        m = min(batch, n_resamples - done)
        # random bits, 8 per random byte: much cheaper than one random number per sign
        bits = np.unpackbits(rng.integers(0, 256, size=(m, (n + 7) // 8), dtype=np.uint8),
                             axis=1, count=n)
        null = ((1.0 - 2.0 * bits) @ d) / n
        less += int(np.count_nonzero(null <= observed + gamma))
        greater += int(np.count_nonzero(null >= observed - gamma))
        done += m
    p_less = (less + 1) / (n_resamples + 1)
    p_greater = (greater + 1) / (n_resamples + 1)
    return float(min(1.0, 2 * min(p_less, p_greater)))


def _mean_difference(x, y, axis=0):
    # vectorised for permutation_test: with permutation_type="samples" it swaps x[i], y[i]
    return np.mean(y - x, axis=axis)


def compare_systems(a: pd.Series, b: pd.Series, *, n_resamples: int = 10_000,
                    seed: int = 0, confidence: float = 0.95) -> Comparison:
    """Compare per-query scores ``b`` (new system) with ``a`` (baseline), paired by query id.

    Parameters
    ----------
    a, b : Series
        One measure's value per query, indexed by query id (e.g. a column of
        ``irlib.evaluate(...).per_query``). Only queries in both with finite values are
        compared; the others are listed in ``unmatched``.
    n_resamples : int
        Sign-flip resamples of the randomization test; when ``2**n <= n_resamples`` all
        sign patterns are enumerated instead (an exact test). The test is
        :func:`scipy.stats.permutation_test` (``permutation_type="samples"``) unless
        ``n * n_resamples`` exceeds 2,000,000 (e.g. thousands of queries): then the same
        Monte Carlo test with scipy's p-value rule runs as NumPy batches (0.6 s instead
        of several seconds for 7,000 queries; a different random stream).
    seed : int
        Seed of the randomization test, so the same data gives the same p-value (the pairs
        are put in query-id order first, so row order does not matter either).
    confidence : float
        Level of the t-based confidence interval of the mean difference.

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
    exact = n >= 1 and 2 ** n <= n_resamples
    common = dict(a=a, b=b, deltas=deltas, wins=wins, losses=losses, ties=n - wins - losses,
                  n_resamples=int(n_resamples), exact_randomization=bool(exact),
                  unmatched=unmatched, confidence=confidence)
    if n == 0:
        return Comparison(mean_a=None, mean_b=None, mean_delta=None, ci_low=None, ci_high=None,
                          t_statistic=None, t_pvalue=None, randomization_pvalue=None, **common)
    mean = float(diff.mean())
    means = dict(mean_a=float(x.mean()), mean_b=float(y.mean()), mean_delta=mean)
    if n < 2:
        return Comparison(ci_low=None, ci_high=None, t_statistic=None, t_pvalue=None,
                          randomization_pvalue=None, **means, **common)

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

    if not diff.any():
        rand_p = 1.0                     # every sign pattern gives the same mean: 0
    elif exact or n * n_resamples <= _SCIPY_MAX_WORK:
        rand = stats.permutation_test((x, y), _mean_difference, permutation_type="samples",
                                      vectorized=True, n_resamples=int(n_resamples),
                                      alternative="two-sided", rng=np.random.default_rng(seed))
        rand_p = float(min(1.0, rand.pvalue))
    else:
        rand_p = _sign_flip_pvalue(diff, int(n_resamples), np.random.default_rng(seed))
    return Comparison(ci_low=float(ci_low), ci_high=float(ci_high), t_statistic=float(t_stat),
                      t_pvalue=float(t_p), randomization_pvalue=rand_p, **means, **common)


def format_number(x: float) -> str:
    """A score or difference for a sentence: 2 decimals, or 2 significant digits if tiny.

    Examples
    --------
    >>> format_number(0.0512), format_number(0.0042), format_number(1.0), format_number(0)
    ('0.05', '0.0042', '1', '0')
    """
    x = float(x)
    if x == 0 or not math.isfinite(x):
        return "0" if x == 0 else str(x)
    if abs(x) >= 0.01:
        text = f"{x:.2f}".rstrip("0").rstrip(".")
    else:
        text = f"{x:.2g}"
        if "e" in text:
            text = f"{x:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


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


def summary_sentence(comparison: Comparison, measure_label: str, name_a: str,
                     name_b: str, *, alpha: float = 0.05) -> str:
    """One sentence for a stakeholder: how often ``name_b`` wins, how the mean moves, and
    whether that could be chance (the randomization test's p-value).

    Examples
    --------
    >>> a = pd.Series({"q1": 0.5, "q2": 0.25, "q3": 1.0, "q4": 0.0})
    >>> b = pd.Series({"q1": 0.75, "q2": 0.25, "q3": 1.0, "q4": 0.5})
    >>> print(summary_sentence(compare_systems(a, b), "NDCG@4", "control", "test"))
    ... # doctest: +NORMALIZE_WHITESPACE
    test is better on 2 of 4 queries and worse on 0; the mean NDCG@4 rises by 0.19
    (from 0.44 to 0.62); with this few queries the difference could be chance (p = 0.50).
    """
    c = comparison
    n = c.n
    if n == 0:
        return (f"{name_a} and {name_b} have no query in common, so they cannot be "
                "compared.")
    if c.wins == 0 and c.losses == 0:
        return (f"{name_b} and {name_a} score the same {measure_label} on "
                f"{'the only query' if n == 1 else f'all {n} queries'}.")
    queries = "query" if n == 1 else "queries"
    head = f"{name_b} is better on {c.wins} of {n} {queries} and worse on {c.losses}"
    if c.mean_delta == 0:
        move = f"the mean {measure_label} does not change ({format_number(c.mean_a)})"
    else:
        verb = "rises" if c.mean_delta > 0 else "falls"
        move = (f"the mean {measure_label} {verb} by {format_number(abs(c.mean_delta))} "
                f"(from {format_number(c.mean_a)} to {format_number(c.mean_b)})")
    p = c.randomization_pvalue
    if p is None:
        verdict = "with a single query no test can tell a real difference from chance"
    elif p < alpha:
        verdict = (f"a difference this large would rarely appear by chance "
                   f"(p = {format_p(p)})" if p >= 0.001 else
                   "a difference this large would rarely appear by chance (p < 0.001)")
    else:
        few = "with this few queries " if n < _FEW_QUERIES else ""
        verdict = f"{few}the difference could be chance (p = {format_p(p)})"
    return f"{head}; {move}; {verdict}."


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


#: Below this many queries the t-test's normality assumption cannot be checked, and one odd
#: query moves its p-value a lot.
MIN_QUERIES_T_TEST = 6


def t_test_caveat(comparison: Comparison) -> str | None:
    """Why the paired t-test's p-value must not be read here, or None when it may be.

    Examples
    --------
    >>> a = pd.Series({"q1": 0.2, "q2": 0.4, "q3": 0.1})
    >>> print(t_test_caveat(compare_systems(a, a + 0.1)))
    every query moved by the same amount, so the differences have no spread and the t-test divides by zero
    """
    d = comparison.deltas.to_numpy()
    if len(d) < 2:
        return "it needs at least two queries"
    if np.ptp(d) <= _TIE_TOLERANCE * max(1.0, float(np.abs(d).max())):   # float noise aside
        return ("every query moved by the same amount, so the differences have no spread "
                "and the t-test divides by zero")
    if len(d) < MIN_QUERIES_T_TEST:
        return (f"with {len(d)} queries its assumption of normally distributed differences "
                "cannot be checked")
    return None


def randomization_floor(n: int) -> float:
    """The smallest p-value the exact two-sided sign-flip test can give with ``n`` queries.

    Only the observed signs and their mirror image are as extreme as the data: 2 of 2^n.

    >>> randomization_floor(3)
    0.25
    """
    return min(1.0, 2.0 / 2.0 ** int(n))
