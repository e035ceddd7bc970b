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

