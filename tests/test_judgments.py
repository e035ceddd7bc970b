"""Where judgments come from, in irlib: raters (κ), Judged@K, pooling rules and power.

The notebook's "disagreement" query (seed 004) is the acceptance test of the raters; Judged@K
is checked against ir_measures on the sample runs; κ against scikit-learn and statsmodels;
power against statsmodels' TTestPower and a noncentral-t reference.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import irlib
from irlib import io as irio
from irlib._common import InputError
from irlib.batch.pooling import pool, pooled_qrels, run_from_lists, scores_under_pooling
from irlib.stats.power import power_at, queries_needed, spread, verdict_by_queries
from irlib.stats.raters import agreement, cohen_kappa, combine_ratings, scores_by_rater

SAMPLES = Path(__file__).resolve().parents[1] / "assets" / "samples"
#: The notebook's "disagreement" query: doc1..doc4 in rank order, rating_1..rating_3.
DISAGREEMENT = [[2, 2, 3], [3, 3, 2], [0, 0, 2], [1, 1, 0]]


# --------------------------------------------------------------------------- raters

def test_the_notebooks_median_grades_and_dcg():
    assert combine_ratings(DISAGREEMENT, "median").tolist() == [2, 3, 0, 1]
    scores = scores_by_rater(DISAGREEMENT, 4)
    assert scores.loc["median", "DCG@4"] == pytest.approx(7.847185, abs=1e-6)   # notebook
    assert scores.loc["rater 3", "DCG@4"] == pytest.approx(7 + 3 / math.log2(3) + 3 / 2)
    # NDCG: DCG over the ideal (3, 2, 1, 0) of the same grades, 9.392789 as the notebook's "test"
    assert scores.loc["median", "NDCG@4"] == pytest.approx(7.847185 / 9.392789, abs=1e-6)


def test_the_sample_sheet_is_the_notebooks_and_reads_the_same_median():
    sheet = irio.read_ratings(SAMPLES / "ratings_notebook.csv")
    query = sheet[sheet["query"] == "disagreement"]
    ratings = query[["rating_1", "rating_2", "rating_3"]].to_numpy()
    assert ratings.tolist() == DISAGREEMENT
    assert combine_ratings(ratings).tolist() == query["relevance"].tolist()


def test_mean_and_majority_differ_from_the_median():
    assert combine_ratings(DISAGREEMENT, "mean").tolist() == pytest.approx(
        [7 / 3, 8 / 3, 2 / 3, 2 / 3])
    assert combine_ratings([[0, 3, 3], [0, 1, 2]], "majority").tolist() == [3, 1]
    assert combine_ratings([[0, 3, 3, 1]], "median").tolist() == [1]     # lower middle of four


def test_kappa_agrees_with_scikit_learn_and_statsmodels():
    from sklearn.metrics import cohen_kappa_score
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa
    rng = np.random.default_rng(3)
    for _ in range(20):
        ratings = rng.integers(0, 4, size=(int(rng.integers(3, 15)), 3))
        if len(np.unique(ratings[:, 0])) == 1 and len(np.unique(ratings[:, 1])) == 1:
            continue
        assert cohen_kappa(ratings[:, 0], ratings[:, 1]) == pytest.approx(
            cohen_kappa_score(ratings[:, 0], ratings[:, 1]), abs=1e-12)
        want = fleiss_kappa(aggregate_raters(ratings)[0])
        assert agreement(ratings).kappa == pytest.approx(want, abs=1e-12)
    two = agreement(np.array(DISAGREEMENT)[:, [0, 2]])
    assert two.method == "Cohen's κ"
    assert two.kappa == pytest.approx(cohen_kappa_score([2, 3, 0, 1], [3, 2, 2, 0]))


def test_the_notebooks_raters_agree_only_slightly():
    a = agreement(DISAGREEMENT)
    # by hand: every document has two equal grades of three (P_i = 1/3); grades used 3, 2, 4,
    # 3 times of 12: p_e = 38/144; kappa = (1/3 - 38/144) / (1 - 38/144)
    assert a.kappa == pytest.approx((1 / 3 - 38 / 144) / (1 - 38 / 144))
    assert a.words == "slight" and a.pairs[(1, 2)] == 1.0


@pytest.mark.parametrize("bad, where", [([[1, 2], [1, -1]], "line 2, column rater 2"),
                                        ([[1, 2.5]], "line 1, column rater 2"),
                                        ([[1], [2]], "two raters")])
def test_bad_ratings_are_named(bad, where):
    with pytest.raises(InputError, match=where):
        agreement(bad)


# --------------------------------------------------------------------------- Judged@K

def _sample(name):
    return irio.read_run(SAMPLES / f"run_{name}.txt")


@pytest.mark.parametrize("k", [1, 3, 5, 10, None])
def test_judged_at_k_agrees_with_ir_measures(k):
    ir_measures = pytest.importorskip("ir_measures")
    qrels = irio.read_qrels(SAMPLES / "qrels.txt")
    # a judgment pool of depth 2 over two runs, so the others meet unjudged documents
    judged = pooled_qrels(qrels, {"control": _sample("control"), "test": _sample("test")}, 2)
    name = "Judged" if k is None else f"Judged@{k}"
    for run_name in ("control", "rm3", "dense"):
        run = _sample(run_name)
        ours = irlib.evaluate(judged, run, [name]).per_query[name].dropna()
        theirs = {m.query_id: m.value for m in ir_measures.iter_calc(
            [ir_measures.parse_measure(name)],
            judged.rename(columns={"relevance": "relevance"}), run)}
        assert set(ours.index) == set(theirs)
        for qid, value in ours.items():
            assert value == pytest.approx(theirs[qid], abs=1e-12), (run_name, qid)


def test_judged_at_k_in_the_cli_and_with_judged_only(tmp_path, capsys):
    qrels = tmp_path / "q.txt"
    qrels.write_text("1 0 a 1\n1 0 b 0\n")
    run = tmp_path / "r.txt"
    run.write_text("1 Q0 x 1 4 t\n1 Q0 a 2 3 t\n1 Q0 y 3 2 t\n1 Q0 b 4 1 t\n")
    from irlib.cli.trec_eval import main
    assert main([str(qrels), str(run), "-m", "Judged@4", "-m", "Judged@2"]) == 0
    out = capsys.readouterr().out
    assert "Judged@4              \tall\t0.5000" in out
    assert "Judged@2              \tall\t0.5000" in out
    assert main([str(qrels), str(run), "-m", "Judged@2", "-J"]) == 0
    assert "\tall\t1.0000" in capsys.readouterr().out      # -J: only judged results are left


# --------------------------------------------------------------------------- pooling

def toy():
    qrels = pd.DataFrame({"query_id": "q", "doc_id": [f"d{i}" for i in range(1, 8)],
                          "relevance": [1, 0, 1, 0, 1, 1, 0]})
    runs = run_from_lists({"A": ["d1", "d2", "d3", "d4"], "B": ["d3", "d1", "d4", "d2"],
                           "C": ["d5", "d6", "d1", "d7"]})
    return qrels, runs


def test_the_pool_is_the_union_of_each_pooled_systems_top_k():
    qrels, runs = toy()
    assert pool({n: runs[n] for n in "AB"}, 2)["doc_id"].tolist() == ["d1", "d2", "d3"]
    assert pooled_qrels(qrels, {n: runs[n] for n in "AB"}, 1)["doc_id"].tolist() == ["d1", "d3"]


def test_a_system_outside_the_pool_is_underrated_and_each_rule_says_how_much():
    qrels, runs = toy()
    t = scores_under_pooling(qrels, runs, ["A", "B"], 2, "P@4", 4)
    c = t.loc["C"]
    assert not c["pooled"]
    assert c["complete"] == 0.75                      # d5, d6, d1 relevant of four
    assert c["unjudged_not_relevant"] == 0.25         # only d1 is judged
    assert c["judged_only"] == 0.25                   # condensed: [d1], P@4 still over 4
    assert c["bpref"] == 0.5                          # R = 2 (d1, d3), d1 found, no n above
    assert c["judged_at_k"] == 0.25
    pooled = scores_under_pooling(qrels, runs, ["A", "B", "C"], 2, "P@4", 4).loc["C"]
    # in the pool: d5, d6 (its top 2) and d1 judged, d7 not
    assert pooled["unjudged_not_relevant"] == 0.75 and pooled["judged_at_k"] == 0.75


def test_rules_equal_trec_eval_options():
    """Condensed lists are trec_eval -J, bpref is trec_eval's bpref (pytrec_eval)."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, runs = toy()
    judged = pooled_qrels(qrels, {n: runs[n] for n in "AB"}, 2)
    ev = pytrec_eval.RelevanceEvaluator(
        {"q": dict(zip(judged["doc_id"], map(int, judged["relevance"])))}, {"bpref", "P"})
    run = runs["C"]
    want = ev.evaluate({"q": dict(zip(run["doc_id"], run["score"]))})["q"]
    assert irlib.evaluate(judged, run, ["Bpref"]).means["Bpref"] == pytest.approx(want["bpref"])
    assert irlib.evaluate(judged, run, ["P@5"]).means["P@5"] == pytest.approx(want["P_5"])


def test_bad_lists_are_named():
    with pytest.raises(InputError, match="system C, column rank 3: 'd1' is listed twice"):
        run_from_lists({"C": ["d1", "d2", "d1"]})
    with pytest.raises(ValueError, match="pooled names runs"):
        scores_under_pooling(*toy(), ["Z"], 2, "P@4", 4)


# --------------------------------------------------------------------------- power

def _noncentral_power(n, effect, alpha):
    from scipy import stats
    df, nc = n - 1, effect * math.sqrt(n)
    crit = stats.t.ppf(1 - alpha / 2, df)
    return stats.nct.sf(crit, df, nc) + stats.nct.cdf(-crit, df, nc)


@pytest.mark.parametrize("delta, sd, power", [(0.05, 0.1, 0.8), (0.02, 0.1, 0.9), (0.1, 0.1, 0.8)])
def test_queries_needed_matches_statsmodels_and_a_noncentral_t(delta, sd, power):
    from statsmodels.stats.power import TTestPower
    s = queries_needed(delta, sd, power=power)
    assert s.exact == pytest.approx(TTestPower().solve_power(
        effect_size=delta / sd, power=power, alpha=0.05), rel=1e-9)
    assert _noncentral_power(s.queries, delta / sd, 0.05) >= power        # enough ...
    assert _noncentral_power(s.queries - 1, delta / sd, 0.05) < power     # ... and no more
    assert power_at(s.queries, delta, sd) == pytest.approx(
        _noncentral_power(s.queries, delta / sd, 0.05), abs=1e-9)


def test_power_helpers_refuse_bad_input():
    for bad in ({"delta": 0, "sd": 1}, {"delta": 1, "sd": -1},
                {"delta": 1, "sd": 1, "power": 1.2}):
        with pytest.raises(ValueError):
            queries_needed(**bad)
    with pytest.raises(ValueError, match="at least 2"):
        spread([0.1])


def test_fewer_queries_give_the_full_verdict_less_often_on_the_sample_runs():
    qrels = irio.read_qrels(SAMPLES / "qrels.txt")
    a = irlib.evaluate(qrels, _sample("control"), ["nDCG@10"]).per_query.iloc[:, 0]
    b = irlib.evaluate(qrels, _sample("rm3"), ["nDCG@10"]).per_query.iloc[:, 0]
    full = irlib.stats.compare.compare_systems(a, b)
    curve = verdict_by_queries(a, b, [4, 12, int(full.n)], draws=60)
    everything = curve.loc[full.n]
    assert everything.sum() == pytest.approx(1.0)
    verdict = "better" if full.randomization_pvalue < 0.05 else "no_difference"
    assert everything[verdict] == 1.0                # all queries: the page's own verdict
    assert curve.loc[4, verdict] < everything[verdict]
    with pytest.raises(ValueError, match="sizes must be at least 2 and at most the 24 queries"):
        verdict_by_queries(a, b, [30])
    # drawn with replacement, more queries like these: the gain is found more often
    more = verdict_by_queries(a, b, [8, 96], draws=60, replace=True)
    assert more.loc[96, "better"] > more.loc[8, "better"]


# --------------------------------------------------------------------------- issue 43

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
    from ui.judgments import PREVALENCE
    (a, b), (c, d) = PREVALENCE.values()
    assert np.mean(np.array(a) == b) == np.mean(np.array(c) == d) == 0.9
    assert cohen_kappa(a, b) == pytest.approx(0.8)                 # p_e = 0.5
    assert cohen_kappa(c, d) == pytest.approx((0.9 - 0.82) / 0.18)  # p_e = 0.81 + 0.01


def test_kendall_tau_between_system_rankings_under_each_rater():
    from scipy.stats import kendalltau

    from irlib.stats.rater_rankings import rank_correlation, ranking_agreement
    from ui.judgments import system_table
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
    from ui import judgments as jd
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
    from ui import judgments as jd
    c = jd.pool_scores(jd.read_new_system(jd.NEW_DEFAULT), 2, "P@5", False).loc["C"]
    assert c["judged_only"] == c["unjudged_not_relevant"] == 0.2   # one judged, over 5
    assert "trec_eval's P@5 still divides by 5" in condensed_sentence(
        "C", "P@5", c["judged_only"], c["complete"], c["unjudged_not_relevant"])


def test_leave_one_out_rescores_without_a_systems_own_documents():
    from irlib.batch.pooling import leave_one_out
    from ui import judgments as jd
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
