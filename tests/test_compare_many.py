"""Many systems (irlib.stats.compare_many) against ranx's compare (means, uncorrected p-values,
wins/ties/losses, with the paired t-test and Fisher's randomization test) and against
statsmodels' Holm–Bonferroni; the verdict's wording (irlib.stats.verdict) on the cases it names."""
import numpy as np
import pandas as pd
import pytest
import ranx
from statsmodels.stats.multitest import multipletests

import irlib
from irlib.stats.compare import compare_systems
from irlib.stats.compare_many import compare_many, holm
from irlib.stats.verdict import format_pair, queries, verdict
from tests.test_parity import random_case

MEASURES = {"nDCG@10": "ndcg@10", "AP": "map", "P@5": "precision@5"}


@pytest.fixture(scope="module")
def four_systems():
    """A baseline and three variants over the same queries; distinct scores (ranx keeps
    tied documents in input order, trec_eval orders them by doc id)."""
    qrels, run = random_case(3, n_queries=80)
    qrels = qrels[qrels.relevance >= 0]
    run = run[run.query_id.isin(qrels.query_id)]
    qrels = qrels[qrels.query_id.isin(run.query_id)]
    rng = np.random.default_rng(4)
    runs = {}
    for i, name in enumerate(("base", "v1", "v2", "v3")):
        noise = rng.normal(0.0, 1.0 + i * 0.5, len(run))
        runs[name] = run.assign(score=run["score"] * (1 + i) + noise)
    per_query = {n: irlib.evaluate(qrels, r, list(MEASURES)).per_query for n, r in runs.items()}
    ranx_qrels = ranx.Qrels.from_df(qrels.astype({"query_id": object, "doc_id": object}),
                                    q_id_col="query_id", doc_id_col="doc_id",
                                    score_col="relevance")
    ranx_runs = []
    for name, r in runs.items():
        x = ranx.Run.from_df(r.astype({"query_id": object, "doc_id": object}),
                             q_id_col="query_id", doc_id_col="doc_id", score_col="score")
        x.name = name
        ranx_runs.append(x)
    return per_query, ranx_qrels, ranx_runs


def test_means_and_t_test_p_values_equal_ranx_compare(four_systems):
    per_query, ranx_qrels, ranx_runs = four_systems
    ours = compare_many(per_query, "base", test="t-test", all_pairs=True)
    theirs = ranx.compare(ranx_qrels, ranx_runs, list(MEASURES.values()),
                          stat_test="student", max_p=0.05).to_dict()
    for system in per_query:
        for measure, key in MEASURES.items():
            assert ours.means.at[system, measure] == pytest.approx(
                theirs[system]["scores"][key], abs=1e-9), (system, measure)
    for _, row in ours.tests.iterrows():
        key = MEASURES[row["measure"]]
        p = theirs[row["against"]]["comparisons"][row["system"]][key]
        assert row["p_value"] == pytest.approx(p, rel=1e-9), (row["system"], row["against"])
        if row["against"] == "base":       # ranx counts from the first system's side
            wtl = theirs["base"]["win_tie_loss"][row["system"]][key]
            assert (row["losses"], row["ties"], row["wins"]) == (wtl["W"], wtl["T"], wtl["L"])
    assert len(ours.tests) == 6 * len(MEASURES)            # 3 against base + 3 other pairs


def test_randomization_p_values_agree_with_ranx_fisher_within_its_error(four_systems):
    """ranx's Fisher test is Monte Carlo (n_permutations), irlib's exact up to 20 differing
    queries and Monte Carlo with a margin beyond; the two estimates agree within their error."""
    per_query, ranx_qrels, ranx_runs = four_systems
    n = 20_000
    ours = compare_many(per_query, "base", measures=["AP"], n_resamples=n)
    theirs = ranx.compare(ranx_qrels, ranx_runs, ["map"], stat_test="fisher",
                          n_permutations=n, max_p=0.05).to_dict()
    for _, row in ours.tests.iterrows():
        p = theirs["base"]["comparisons"][row["system"]]["map"]
        margin = 4 * np.sqrt(max(p * (1 - p), 1e-4) / n) * 2
        assert row["p_value"] == pytest.approx(p, abs=margin), row["system"]


def test_holm_equals_statsmodels(four_systems):
    rng = np.random.default_rng(1)
    for m in (1, 2, 5, 9):
        p = rng.random(m) ** 3
        assert holm(p) == pytest.approx(multipletests(p, method="holm")[1], abs=1e-12)
    per_query = four_systems[0]
    result = compare_many(per_query, "base", test="t-test")
    for measure in MEASURES:
        rows = result.tests[result.tests["measure"] == measure]
        expected = multipletests(rows["p_value"].to_numpy(), method="holm")[1]
        assert rows["p_adjusted"].to_numpy() == pytest.approx(expected, abs=1e-12)
        assert (rows["significant"] == (rows["p_adjusted"] < 0.05)).all()


def test_best_and_markers_and_bad_arguments():
    ids = [f"q{i}" for i in range(12)]
    base = pd.DataFrame({"AP": np.linspace(0.1, 0.6, 12)}, index=ids)
    result = compare_many({"base": base, "up": base + 0.2, "same": base.copy()}, "base")
    assert result.best["AP"] == ("up",)
    up = result.cell("AP", "up")
    assert up["significant"] and up["wins"] == 12 and up["p_value"] == 2 / 2 ** 12
    assert not result.cell("AP", "same")["significant"]
    assert "Holm–Bonferroni" in result.method() and "randomization" in result.method()
    with pytest.raises(ValueError, match="baseline"):
        compare_many({"a": base}, "b")
    with pytest.raises(ValueError, match="test must be"):
        compare_many({"a": base, "b": base}, "a", test="wilcoxon")


# --------------------------------------------------------------------------- verdicts

def _series(values, prefix="q"):
    return pd.Series(values, index=[f"{prefix}{i}" for i in range(len(values))])


def test_the_issues_case_tests_disagree_and_the_sentence_says_why():
    """24 queries, 11 ties, 13 that differ, one large move: the randomization test calls it
    rare, the t-test does not; the verdict names its test and the disagreement says why."""
    moves = [0.02, 0.03, 0.01, 0.04, 0.02, 0.05, 0.03, 0.01, -0.01, 0.02, 0.04, 0.03, 0.02]
    a = _series(np.r_[np.linspace(0.2, 0.4, 13), np.full(11, 0.27)])
    b = a + np.r_[moves, np.zeros(11)]
    c = compare_systems(a, b)
    said = verdict(c, "NDCG@10", "control", "test")
    assert c.randomization.exact and c.randomization.n_differing == 13
    assert "by the randomization test (exact: all 8,192 sign patterns of the 13 queries" \
        in said.sentence
    if (c.t_pvalue < 0.05) != said.significant:
        assert said.disagreement and "The paired t-test disagrees" in said.disagreement
        assert "11 of the 24 queries are ties" in said.disagreement
    skewed = b.copy()
    skewed.iloc[0] += 0.6                      # one query carries the change
    c2 = compare_systems(a, skewed)
    said2 = verdict(c2, "NDCG@10", "control", "test")
    assert c2.randomization_pvalue < 0.05 < c2.t_pvalue
    assert "one query carries" in said2.disagreement and "q0" in said2.disagreement


def test_means_are_rounded_alike_and_counts_agree_in_number():
    assert format_pair(0.6, 0.5912) == ("0.60", "0.59")
    assert format_pair(0.2712, 0.2749) == ("0.271", "0.275")      # never "0.27 to 0.27"
    assert queries(1) == "1 query" and queries(2) == "2 queries"
    one = verdict(compare_systems(_series([0.2]), _series([0.5])), "AP", "A", "B")
    assert one.sentence.startswith("B is better on 1 of 1 query and")
    assert "1 queries" not in one.sentence + one.plain


def test_plain_words_say_what_it_does_not_say():
    a = _series(np.linspace(0.1, 0.9, 40))
    said = verdict(compare_systems(a, a + 0.1), "NDCG@10 (gain g)", "old", "new",
                   plain_label="NDCG@10")
    assert "(gain g)" not in said.plain and "NDCG@10" in said.plain
    assert "likely real" in said.plain and "online" in said.plain


def test_plain_words_blame_the_correction_only_where_it_took_the_finding_away():
    """From the product manager's walk: "cannot tell the two systems apart once we count that 3
    comparisons were made" read as if the correction had taken a finding away when the
    uncorrected p (0.084) was above alpha too."""
    from irlib.stats.compare_many import Finding
    rng = np.random.default_rng(3)
    a = _series(rng.uniform(0, 1, 30))
    c = compare_systems(a, a + rng.normal(0.01, 0.2, 30))

    def plain(p_raw: float, p_adjusted: float) -> str:
        finding = Finding("NDCG@10", "test", "control", c.mean_b, c.mean_a, c.mean_delta, c.n,
                          "randomization", p_raw, p_adjusted, "holm", 3, False, 0.05, False,
                          False)
        return verdict(c, "NDCG@10", "control", "test", finding=finding).plain

    taken_away, never_there = plain(0.02, 0.06), plain(0.084, 0.25)
    assert "on NDCG@10, these queries cannot tell the two systems apart" in taken_away
    assert "once we count that 3 comparisons were made at once" in taken_away
    assert "cannot tell the two systems apart." in never_there
    assert "comparisons were made" not in never_there
