"""Lesson 8 true to the literature (issue 43), in irlib: κ at 0 and below, weighted κ and
Krippendorff's α (against scikit-learn and the coincidence-matrix formula), κ's bootstrap,
prevalence, Kendall's τ between system rankings under each rater (Voorhees 2000), condensed
lists and pool bias (Sakai & Kando 2008; Zobel 1998), and planned against post-hoc power."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import irlib
from irlib import io as irio
from irlib.batch.pooling import pooled_qrels, run_from_lists, scores_under_pooling
from irlib.stats.power import queries_needed
from irlib.stats.raters import agreement, cohen_kappa, combine_ratings
from tests.test_judgments import DISAGREEMENT, SAMPLES, _sample


def _with_you(yours):
    return np.column_stack([[2, 3, 0, 1], yours, [3, 2, 2, 0]])


def test_kappa_zero_is_exactly_zero_and_read_as_chance():
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa
    for yours in ([2, 2, 2, 1], [1, 3, 0, 1]):
        raw = fleiss_kappa(aggregate_raters(_with_you(yours))[0])
        assert abs(raw) < 1e-15                       # statsmodels: -8e-17 or so
        a = agreement(_with_you(yours))
        assert a.kappa == 0.0 and f"{a.kappa:.2f}" == "0.00"
        assert a.words == "slight"                    # Landis & Koch: 0.00-0.20
        assert a.reading.startswith("exactly the agreement chance would give")
    below = agreement(_with_you([0, 0, 3, 2]))
    assert round(below.kappa, 2) == -0.41 and below.words == "poor"
    assert below.reading.startswith("less agreement than chance")


def test_combine_ratings_lower_middle_differs_from_pandas_median_astype_int():
    ratings = pd.DataFrame([[0, 1, 3, 3]])
    assert int(ratings.median(axis=1).astype(int).iloc[0]) == 2          # the notebook's code
    assert combine_ratings(ratings.to_numpy(), "median").tolist() == [1]  # irlib: lower middle


def test_weighted_kappa_agrees_with_scikit_learn():
    from sklearn.metrics import cohen_kappa_score

    from irlib.stats.raters import weighted_kappa
    rng = np.random.default_rng(7)
    for _ in range(20):
        a, b = rng.integers(0, 4, size=(2, int(rng.integers(4, 20))))
        if len(np.unique(np.concatenate([a, b]))) == 1:
            continue
        for w in ("linear", "quadratic"):
            # scikit-learn's table spans the grades given; irlib's too (lowest to highest)
            labels = np.arange(min(a.min(), b.min()), max(a.max(), b.max()) + 1)
            assert weighted_kappa(a, b, w) == pytest.approx(
                cohen_kappa_score(a, b, weights=w, labels=labels), abs=1e-12)


def _hand_alpha(ratings, level):
    """Krippendorff's α from the coincidence matrix (Krippendorff, "Computing Krippendorff's
    alpha-reliability", 2011): every pair of ratings of a unit counted 1/(m - 1) times."""
    arr = np.asarray(ratings, float)
    values = np.unique(arr)
    at = {v: i for i, v in enumerate(values)}
    o = np.zeros((len(values), len(values)))
    for row in arr:
        for i, x in enumerate(row):
            for j, y in enumerate(row):
                if i != j:
                    o[at[x], at[y]] += 1 / (len(row) - 1)
    n_c = o.sum(axis=1)
    n = n_c.sum()

    def delta(c, k):
        if level == "nominal":
            return float(c != k)
        if level == "interval":
            return (values[c] - values[k]) ** 2
        lo, hi = min(c, k), max(c, k)
        return (n_c[lo:hi + 1].sum() - (n_c[c] + n_c[k]) / 2) ** 2
    d = np.array([[delta(c, k) for k in range(len(values))] for c in range(len(values))])
    return 1 - ((o * d).sum() / n) / ((np.outer(n_c, n_c) * d).sum() / (n * (n - 1)))


def test_krippendorffs_alpha_agrees_with_the_hand_formula():
    from irlib.stats.raters import ordinal_agreement
    rng = np.random.default_rng(11)
    cases = [DISAGREEMENT] + [rng.integers(0, 4, size=(int(rng.integers(4, 15)), 3))
                              for _ in range(10)]
    for ratings in cases:
        o = ordinal_agreement(ratings)
        for level, value in (("nominal", o.alpha_nominal), ("ordinal", o.alpha_ordinal),
                             ("interval", o.alpha_interval)):
            assert value == pytest.approx(_hand_alpha(ratings, level), abs=1e-12), level
    o = ordinal_agreement(DISAGREEMENT)
    # as categories the raters barely agree; by distance, much more (rater 3 is 1 grade off)
    assert (round(o.alpha_nominal, 2), round(o.alpha_ordinal, 2)) == (0.17, 0.58)


def test_kappa_of_resampled_documents_is_statsmodels_kappa_of_that_resample():
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    from irlib.stats.raters import _kappas_of_draws, kappa_interval
    arr = np.array(DISAGREEMENT, float)
    rows = np.random.default_rng(0).integers(0, 4, size=(50, 4))
    mine = _kappas_of_draws(arr, rows)
    for r, k in zip(rows, mine):
        sample = arr[r].astype(int)
        if len(np.unique(sample)) == 1:
            assert np.isnan(k)
            continue
        want = fleiss_kappa(aggregate_raters(sample)[0])
        assert (np.isnan(k) and not np.isfinite(want)) or k == pytest.approx(want, abs=1e-12)
    two = _kappas_of_draws(arr[:, [0, 2]], rows)
    assert two[0] == pytest.approx(cohen_kappa(arr[rows[0], 0], arr[rows[0], 2]), abs=1e-12)
    i = kappa_interval(DISAGREEMENT)
    assert (round(i.low, 2), round(i.high, 2)) == (-0.37, 0.09)   # 4 documents: wide
    many = kappa_interval(np.tile(DISAGREEMENT, (25, 1)))          # the same, 100 documents
    assert many.high - many.low < (i.high - i.low) / 2


def test_prevalence_same_raw_agreement_lower_kappa():
    from ui.lessons.judgments import PREVALENCE
    (a, b), (c, d) = PREVALENCE.values()
    assert np.mean(np.array(a) == b) == np.mean(np.array(c) == d) == 0.9
    assert cohen_kappa(a, b) == pytest.approx(0.8)                 # p_e = 0.5
    assert cohen_kappa(c, d) == pytest.approx((0.9 - 0.82) / 0.18)  # p_e = 0.81 + 0.01


def test_kendall_tau_between_system_rankings_under_each_rater():
    from scipy.stats import kendalltau

    from irlib.stats.rater_rankings import rank_correlation, ranking_agreement
    from ui.lessons.judgments import system_table
    rng = np.random.default_rng(5)
    x, y = rng.random(9), rng.random(9)
    c = rank_correlation(x, y)
    assert c.tau == pytest.approx(kendalltau(x, y).statistic)
    brute = sum((x[i] - x[j]) * (y[i] - y[j]) < 0 for i in range(9) for j in range(i))
    assert c.swapped == brute and c.pairs == 36
    scores = system_table([2, 3, 0, 1])           # the notebook's grades: you = rater 2
    assert len(scores) == 24 and list(scores.columns) == ["rater 1", "you", "rater 3"]
    # "1234" (as shown) on the disagreement query alone is the notebook's NDCG 0.8354
    taus = ranking_agreement(scores)
    assert round(taus[("rater 1", "rater 3")].tau, 2) == 0.65
    assert taus[("rater 1", "rater 3")].swapped == 48
    assert round(taus[("rater 1", "you")].tau, 2) == 0.93
    assert taus[("rater 1", "you")].reading.startswith("practically the same order")
    assert taus[("rater 1", "rater 3")].reading.startswith("a different order")


def test_system_scores_are_mean_ndcg_over_queries():
    from irlib.measures.dcg import ndcg_at_k
    from irlib.stats.rater_rankings import system_scores
    q = {"a": [[2, 3], [3, 2], [0, 2], [1, 0]], "b": [[0, 1], [1, 1], [2, 0], [0, 0]]}
    s = system_scores(q, {"rev": (3, 2, 1, 0)}, 4)
    want = np.mean([ndcg_at_k([1, 0, 3, 2], 4, gain="exponential"),
                    ndcg_at_k([0, 2, 1, 0], 4, gain="exponential")])
    assert s.loc["rev", "rater 1"] == pytest.approx(want)
    with pytest.raises(ValueError, match="does not reorder"):
        system_scores(q, {"short": (0, 1)}, 4)


# the page's pool: C = d9 d4 d1 d3, depth 2, AP (issue 43's example)
def _issue_pool():
    from ui.lessons import judgments as jd
    runs = run_from_lists({**jd.POOLED, "C": ["d9", "d4", "d1", "d3"]})
    return jd.qrels(), runs


def test_condensed_lists_overrate_and_a_shallow_pool_inflates_ap_for_everyone():
    from irlib.batch.pooling import condensed_sentence, relevant_counts
    qrels, runs = _issue_pool()
    t = scores_under_pooling(qrels, runs, ["A", "B"], 2, "AP", 5)
    c = t.loc["C"]
    assert c["complete"] == pytest.approx((1 / 3 + 2 / 4) / 6)    # d1, d3 at 3, 4; R = 6
    assert c["judged_only"] == 1.0 and c["bpref"] == 1.0          # condensed: d1, d3 on top
    assert c["unjudged_not_relevant"] == pytest.approx((1 / 3 + 2 / 4) / 2)   # R = 2
    assert t["unjudged_not_relevant"].round(2).tolist() == [0.83, 1.0, 0.42]
    assert t["complete"].round(2).tolist() == [0.28, 0.43, 0.14]
    assert relevant_counts(qrels, pooled_qrels(qrels, {n: runs[n] for n in "AB"}, 2)) \
        .loc["q"].to_dict() == {"complete": 6, "pool": 2}
    assert condensed_sentence("C", "AP", c["judged_only"], c["complete"],
                              c["unjudged_not_relevant"]).endswith(
        "so -J overrates it here (condensed lists tend to, Sakai & Kando 2008).")


def test_judged_only_p_at_k_still_divides_by_k():
    from irlib.batch.pooling import condensed_sentence
    from ui.lessons import judgments as jd
    c = jd.pool_scores(jd.read_new_system(jd.NEW_DEFAULT), 2, "P@5", False).loc["C"]
    assert c["judged_only"] == c["unjudged_not_relevant"] == 0.2   # one judged, over 5
    assert "trec_eval's P@5 still divides by 5" in condensed_sentence(
        "C", "P@5", c["judged_only"], c["complete"], c["unjudged_not_relevant"])


def test_leave_one_out_rescores_without_a_systems_own_documents():
    from irlib.batch.pooling import leave_one_out
    from ui.lessons import judgments as jd
    qrels = jd.qrels()
    runs = run_from_lists({**jd.POOLED, "C": jd.read_new_system(jd.NEW_DEFAULT)})
    t = leave_one_out(qrels, runs, ["A", "B", "C"], 2, "P@5")
    # C's own: d7, d8 (both relevant); without them only d1 of its five is judged relevant
    assert t.loc["C"].to_dict() == {"own": 2, "own_relevant": 2, "with_own": 0.6,
                                    "without_own": 0.2, "change": pytest.approx(-0.4)}
    judged = pooled_qrels(qrels, runs, 2)
    by_hand = judged[~judged["doc_id"].isin(["d7", "d8"])]
    assert irlib.evaluate(by_hand, runs["C"], ["P@5"]).means.iloc[0] == 0.2


def _sample_differences(measure="nDCG@10", base="control", other="test"):
    qrels = irio.read_qrels(SAMPLES / "qrels.txt")
    a = irlib.evaluate(qrels, _sample(base), [measure]).per_query.iloc[:, 0]
    b = irlib.evaluate(qrels, _sample(other), [measure]).per_query.iloc[:, 0]
    return a, b


def test_sd_interval_is_the_chi_square_interval():
    from scipy import stats

    from irlib.stats.power import sd_interval
    low, high = sd_interval(0.1, 24)
    assert low ** 2 == pytest.approx(23 * 0.01 / stats.chi2.ppf(0.975, 23))
    assert high ** 2 == pytest.approx(23 * 0.01 / stats.chi2.ppf(0.025, 23))


def test_post_hoc_power_restates_p_and_planning_does_not_use_the_measured_effect():
    """The sample runs, control against test, nDCG@10: observed power 41 % is p = 0.084
    again; the effect it rests on could be 0, so "queries needed" from it is 15 to ∞. The
    plan starts from the smallest difference that matters (0.05) and the pilot's SD."""
    from scipy import stats

    from irlib.stats.power import observed_power, plan
    a, b = _sample_differences()
    diff = (b - a).dropna()
    o = observed_power(diff)
    assert o.p_value == pytest.approx(stats.ttest_1samp(diff, 0).pvalue, abs=1e-12)
    assert (o.n, round(o.p_value, 3), round(o.power, 2)) == (24, 0.084, 0.41)
    assert (round(o.effect_low, 2), round(o.effect_high, 2)) == (-0.05, 0.79)
    assert o.queries_range == (15, math.inf)
    assert queries_needed(o.mean, o.sd).queries == 60       # the old page's "needs 60"
    p = plan(0.05, o.sd, o.n)
    assert (p.needed.queries, p.fewest.queries, p.most.queries) == (35, 22, 67)
    assert p.effect_size == pytest.approx(0.05 / o.sd)
    # observed power is a function of p alone: at p = α it is about one half, whatever n
    for n in (10, 40):
        t = stats.t.ppf(0.975, n - 1)
        d = np.r_[np.ones(n // 2), -np.ones(n - n // 2)]
        d = (d - d.mean()) / d.std(ddof=1) + t / math.sqrt(n)     # p exactly 0.05
        at_alpha = observed_power(d)
        assert at_alpha.p_value == pytest.approx(0.05)
        assert at_alpha.power == pytest.approx(0.5, abs=0.03)


def test_simulated_studies_of_the_planned_size_find_the_difference_about_as_planned():
    from irlib.stats.power import plan, simulated_study
    a, b = _sample_differences()
    diff = (b - a).dropna()
    p = plan(0.05, float(diff.std(ddof=1)), len(diff))
    curve = simulated_study(diff, 0.05, [8, p.needed.queries, 120], draws=100)
    assert abs(curve.loc[p.needed.queries, "better"] - 0.8) <= 0.1
    assert curve["better"].is_monotonic_increasing
    assert curve.loc[120, "better"] > 0.95 and curve.loc[8, "better"] < 0.5
