"""irlib.stats.compare: every number checked against scipy (or by hand), plus the edge cases."""
from __future__ import annotations

import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import irlib
from irlib.stats.compare import compare_systems, per_query_ranking
from irlib.stats.randomization import sign_flip_test
from irlib.stats.verdict import format_number, format_p, verdict


def summary_sentence(c, label, a, b):
    return verdict(c, label, a, b).sentence
from irlib.io import read_qrels, read_run

SAMPLES = Path(__file__).resolve().parents[1] / "assets" / "samples"


def _pair(n=11, seed=3):
    rng = np.random.default_rng(seed)
    ids = [f"q{i}" for i in range(n)]
    a = pd.Series(rng.random(n), index=ids)
    b = pd.Series(np.clip(a.to_numpy() + rng.normal(0.05, 0.2, n), 0, 1), index=ids)
    return a, b


def test_numbers_equal_scipy():
    a, b = _pair()
    c = compare_systems(a, b, n_resamples=1000, seed=7)
    d = b - a
    assert c.n == 11
    assert (c.wins, c.losses, c.ties) == (int((d > 0).sum()), int((d < 0).sum()),
                                          int((d == 0).sum()))
    assert c.mean_delta == pytest.approx(d.mean(), abs=1e-15)
    assert c.mean_a == pytest.approx(a.mean()) and c.mean_b == pytest.approx(b.mean())
    t = stats.ttest_rel(b, a)
    assert c.t_statistic == pytest.approx(t.statistic, rel=1e-12)
    assert c.t_pvalue == pytest.approx(t.pvalue, rel=1e-12)
    low, high = stats.t.interval(0.95, len(d) - 1, loc=d.mean(), scale=stats.sem(d))
    assert (c.ci_low, c.ci_high) == (pytest.approx(low, rel=1e-12), pytest.approx(high, rel=1e-12))
    # the t-interval and the t-test agree: 0 is inside the interval iff p >= 0.05
    assert (c.ci_low <= 0 <= c.ci_high) == (c.t_pvalue >= 0.05)
    # 11 queries differ: every one of the 2^11 sign patterns is counted
    assert c.exact_randomization and c.randomization.patterns == 2 ** 11
    assert c.randomization_pvalue == pytest.approx(_sign_flip_p(d.to_numpy()), abs=1e-12)


def _sign_flip_p(d: np.ndarray) -> float:
    """Exact two-sided sign-flip p-value, by enumerating every sign pattern (scipy's rule)."""
    d = np.asarray(d, dtype=float)
    observed = d.mean()
    greater = less = 0
    for start in range(0, 2 ** len(d), 1 << 16):          # pattern numbers, in chunks
        bits = (np.arange(start, min(start + (1 << 16), 2 ** len(d)))[:, None]
                >> np.arange(len(d))) & 1
        means = ((1 - 2 * bits) @ d) / len(d)
        eps = 1e-14 * max(1.0, abs(observed))      # scipy's tolerance for equal statistics
        greater += np.count_nonzero(means >= observed - eps)
        less += np.count_nonzero(means <= observed + eps)
    return min(1.0, 2 * min(greater, less) / 2 ** len(d))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_exact_randomization_matches_enumeration(seed):
    a, b = _pair(n=9, seed=seed)
    c = compare_systems(a, b)
    assert c.exact_randomization
    assert c.randomization_pvalue == pytest.approx(_sign_flip_p((b - a).to_numpy()), abs=1e-12)


def test_randomization_is_reproducible_with_a_seed():
    a, b = _pair(n=40)
    p1 = compare_systems(a, b, n_resamples=2000, seed=1).randomization_pvalue
    p2 = compare_systems(a, b, n_resamples=2000, seed=1).randomization_pvalue
    assert p1 == p2
    # and close to the t-test with 40 queries
    assert p1 == pytest.approx(compare_systems(a, b).t_pvalue, abs=0.05)


def test_aligned_on_query_id_not_position():
    a = pd.Series({"q1": 0.1, "q2": 0.9, "q3": 0.5, "only_a": 1.0})
    b = pd.Series({"q3": 0.7, "q1": 0.1, "q2": 0.4, "only_b": 0.0})
    c = compare_systems(a, b)
    assert c.deltas.to_dict() == pytest.approx({"q1": 0.0, "q2": -0.5, "q3": 0.2})
    assert (c.wins, c.losses, c.ties) == (1, 1, 1)
    assert c.unmatched == ("only_a", "only_b")


def test_non_finite_values_are_left_out():
    a = pd.Series({"q1": 0.1, "q2": math.nan, "q3": 0.5})
    b = pd.Series({"q1": 0.2, "q2": 0.3, "q3": 0.4})
    c = compare_systems(a, b)
    assert c.n == 2 and c.unmatched == ("q2",)


def test_float_noise_is_a_tie():
    a = pd.Series({"q1": 0.1 + 0.2, "q2": 0.5})
    b = pd.Series({"q1": 0.3, "q2": 0.5})
    c = compare_systems(a, b)
    assert (c.wins, c.losses, c.ties) == (0, 0, 2)


def test_no_common_queries():
    c = compare_systems(pd.Series({"a": 1.0}), pd.Series({"b": 1.0}))
    assert c.n == 0 and c.mean_delta is None and c.t_pvalue is None
    assert "no query in common" in summary_sentence(c, "AP", "A", "B")


def test_one_query_has_no_test():
    with warnings.catch_warnings():
        warnings.simplefilter("error")           # no RuntimeWarning from scipy either
        c = compare_systems(pd.Series({"q": 0.2}), pd.Series({"q": 0.5}))
    assert c.n == 1 and c.wins == 1 and c.mean_delta == pytest.approx(0.3)
    assert c.ci_low is None and c.t_pvalue is None and c.randomization_pvalue is None
    text = summary_sentence(c, "AP", "A", "B")
    assert text.startswith("B is better on 1 of 1 query") and "single query" in text


def test_all_ties_give_p_one_without_nan():
    a = pd.Series({"q1": 0.2, "q2": 0.5, "q3": 0.0})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        c = compare_systems(a, a.copy())
    assert (c.wins, c.losses, c.ties) == (0, 0, 3)
    assert c.t_pvalue == 1.0 and c.randomization_pvalue == 1.0 and c.t_statistic == 0.0
    assert (c.ci_low, c.ci_high) == (0.0, 0.0)
    assert summary_sentence(c, "NDCG@4", "A", "B") == \
        "B and A score the same NDCG@4 on all 3 queries."


def test_constant_shift_is_degenerate_but_defined():
    a = pd.Series({"q1": 0.2, "q2": 0.5, "q3": 0.0})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        c = compare_systems(a, a + 0.25)
    assert c.t_statistic == math.inf and c.t_pvalue == 0.0
    assert c.ci_low == pytest.approx(0.25) and c.ci_high == pytest.approx(0.25)
    assert c.randomization_pvalue == pytest.approx(_sign_flip_p(np.full(3, 0.25)))


def test_bad_arguments():
    a = pd.Series({"q1": 0.2})
    with pytest.raises(TypeError, match="pandas Series"):
        compare_systems([0.1], a)
    with pytest.raises(ValueError, match="more than once"):
        compare_systems(pd.Series([0.1, 0.2], index=["q", "q"]), a)
    with pytest.raises(ValueError, match="n_resamples"):
        compare_systems(a, a, n_resamples=0)
    with pytest.raises(ValueError, match="confidence"):
        compare_systems(a, a, confidence=95)


def test_summary_sentence_wording():
    a, b = _pair(n=11, seed=3)
    c = compare_systems(a, b)
    text = summary_sentence(c, "NDCG@4", "control", "test")
    assert text.startswith(f"test is better on {c.wins} of 11 queries and worse on {c.losses};")
    verb = "rises" if c.mean_delta > 0 else "falls"
    assert f"the mean NDCG@4 {verb} by {format_number(abs(c.mean_delta))}" in text
    assert f"p = {format_p(c.randomization_pvalue)}" in text or "p < 0.001" in text
    # a clear loss with many queries
    rng = np.random.default_rng(0)
    ids = [f"q{i}" for i in range(60)]
    base = pd.Series(rng.random(60), index=ids)
    worse = compare_systems(base, base - 0.2 + rng.normal(0, 0.01, 60))
    sentence = summary_sentence(worse, "AP", "A", "B")
    assert "falls by 0.2" in sentence and "rarely appear by chance (p < 0.001)" in sentence
    assert "this few" not in sentence


def test_format_helpers():
    assert format_p(0.049999) == "0.050" and format_p(1.0) == "1" and format_p(math.nan) == "–"
    assert format_number(-0.123) == "-0.12" and format_number(0.00004) == "0.00004"


def test_sample_runs_control_vs_test():
    """The README's claim about the sample files: test beats control on AP, p ≈ 0.008."""
    qrels = read_qrels(SAMPLES / "qrels.txt")
    control = irlib.evaluate(qrels, read_run(SAMPLES / "run_control.txt"), ["AP"]).per_query["AP"]
    test = irlib.evaluate(qrels, read_run(SAMPLES / "run_test.txt"), ["AP"]).per_query["AP"]
    c = compare_systems(control, test)
    assert (c.wins, c.losses) == (11, 4)
    both = control.notna() & test.notna()      # queries a run misses have no value (trec_eval)
    assert c.t_pvalue == pytest.approx(stats.ttest_rel(test[both], control[both]).pvalue,
                                       rel=1e-12)
    assert c.t_pvalue == pytest.approx(0.0082, abs=5e-4)


# --------------------------------------------------------------------------- rankings

def test_per_query_ranking_uses_trec_eval_order():
    qrels = pd.DataFrame({"query_id": ["1"] * 3, "doc_id": ["d1", "d2", "d9"],
                          "relevance": [1, 3, 2]})
    run = pd.DataFrame({"query_id": ["1", "1", "1", "1", "2"],
                        "doc_id": ["d1", "d2", "d3", "d10", "d1"],
                        "score": [1.0, 2.0, 2.0, 2.0, 9.0]})
    ranking = per_query_ranking(qrels, run, 1)
    # ties on score 2.0 broken by doc id descending, as strings: d3 > d2 > d10
    assert ranking["doc_id"].tolist() == ["d3", "d2", "d10", "d1"]
    assert ranking["rank"].tolist() == [1, 2, 3, 4]
    assert ranking["relevance"].tolist() == [0, 3, 0, 1]
    assert ranking["judged"].tolist() == [False, True, False, True]
    assert per_query_ranking(qrels, run, "nope").empty


@pytest.mark.parametrize("measure, fn", [
    ("AP", lambda g, j: irlib.average_precision(g, max(len(g), 1), judged=j)),
    ("nDCG@10", lambda g, j: irlib.ndcg_at_k(g, 10, judged=j)),
    ("RR", lambda g, j: irlib.reciprocal_rank(g, max(len(g), 1))),
])
def test_per_query_ranking_reproduces_evaluate(measure, fn):
    qrels = read_qrels(SAMPLES / "qrels.txt")
    run = read_run(SAMPLES / "run_test.txt")
    per_query = irlib.evaluate(qrels, run, [measure]).per_query[measure]
    for qid in ["1", "8", "101", "107", "114"]:
        ranking = per_query_ranking(qrels, run, qid)
        judged = qrels.loc[qrels["query_id"] == qid, "relevance"].to_numpy()
        assert fn(ranking["relevance"].to_numpy(), judged) == pytest.approx(per_query[qid])


def test_large_inputs_use_the_fast_sign_flip_with_scipys_rule():
    """Thousands of queries: random sign patterns (NumPy batches), the p-value within its
    stated margin of scipy's Monte Carlo estimate and of the t-test (accurate here)."""
    rng = np.random.default_rng(5)
    ids = [f"q{i}" for i in range(3000)]
    a = pd.Series(rng.random(3000), index=ids)
    for shift in (0.0, 0.004, 0.01):
        b = a + rng.normal(shift, 0.1, 3000)
        c = compare_systems(a, b, n_resamples=4000)
        assert not c.exact_randomization and c.randomization.margin < 0.016
        theirs = stats.permutation_test((a.sort_index().to_numpy(), b.sort_index().to_numpy()),
                                        lambda x, y, axis: np.mean(y - x, axis=axis),
                                        permutation_type="samples", vectorized=True,
                                        n_resamples=4000, batch=500,
                                        rng=np.random.default_rng(0)).pvalue
        # both estimate the same p; their difference has sd <= sqrt(2 * 0.25 / 4000) = 0.011
        assert c.randomization_pvalue == pytest.approx(theirs, abs=0.045)
        assert c.randomization_pvalue == pytest.approx(c.t_pvalue, abs=0.045)


def test_exact_up_to_twenty_differing_queries_then_monte_carlo_with_a_margin():
    """The issue's case: 24 queries, 11 ties, 13 that differ -> exact over 2^13 patterns."""
    rng = np.random.default_rng(8)
    d = np.concatenate([rng.normal(0.02, 0.05, 13), np.zeros(11)])
    exact = sign_flip_test(d)
    assert exact.exact and exact.patterns == 2 ** 13 and exact.n_differing == 13
    assert exact.p_value == pytest.approx(_sign_flip_p(d[:13]), abs=1e-12)
    twenty = sign_flip_test(rng.normal(0.01, 0.05, 20))
    assert twenty.exact and twenty.patterns == 2 ** 20 and twenty.margin is None
    more = rng.normal(0.01, 0.05, 21)
    estimate = sign_flip_test(more, n_resamples=20_000)
    assert not estimate.exact and estimate.margin == pytest.approx(
        1.96 * math.sqrt(estimate.p_value * (1 - estimate.p_value) / 20_000))
    assert estimate.p_value == pytest.approx(_sign_flip_p(more), abs=estimate.margin * 1.5)
    assert "p ± 0." in estimate.describe() and "exact" in twenty.describe()
