"""Exact, fast pins of the statistics and conventions every claim rests on (issue 42, item 5).

Copies of irlib with each of these broken still passed every test before; each test below
fails on its own broken copy:

* the randomization test's Monte Carlo p is (hits + 1) / (N + 1) (a p of 0 is impossible),
  as scipy's ``permutation_test`` and Phipson & Smyth (2010) count it;
* its default is 10,000 random sign patterns, in every entry point;
* each comparison of a table draws its own reproducible random stream;
* the tie tolerance is 0.0005: a 0.003 gain is no tie, a 0.0004 one is;
* ★ goes to tied leaders together, or to none;
* Judged@K counts a judged document with a negative grade as unjudged (ir_measures' Judged
  counts qrels with relevance >= 0; trec_eval's -2 is "in the pool, not judged");
* the exponential gain is 2^g − 1 (Burges et al. 2005), worked by hand;
* RR@k is 0 when the first relevant document sits below rank k.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import irlib
from irlib.stats.compare import compare_systems
from irlib.stats.compare_many import compare_many
from irlib.stats.randomization import sign_flip_test
from irlib.stats.ties import TIE_TOLERANCE, is_tie, leaders


def test_monte_carlo_p_is_hits_plus_one_over_n_plus_one():
    # 30 queries all moved up by 1: only the all-up and all-down patterns (2 in 2^30) are as
    # extreme, so 999 random patterns find no hit and p = (0 + 1) / (999 + 1), never 0
    test = sign_flip_test(np.ones(30), n_resamples=999, seed=3)
    assert not test.exact and test.p_value == 1 / 1000
    # a mean difference of 0: every pattern is as extreme, p = (N + 1) / (N + 1) = 1
    assert sign_flip_test(np.r_[np.ones(15), -np.ones(15)], n_resamples=999).p_value == 1.0


def test_default_is_ten_thousand_sign_patterns_everywhere():
    d = np.linspace(-1, 2, 40)
    assert sign_flip_test(d).patterns == 10_000
    a = pd.Series(np.zeros(40), index=[f"q{i}" for i in range(40)])
    assert compare_systems(a, a + d).randomization.patterns == 10_000
    table = compare_many({"a": a.to_frame("AP"), "b": (a + d).to_frame("AP")}, "a")
    assert table.comparisons[("AP", "b", "a")].randomization.patterns == 10_000


def test_each_comparison_has_its_own_reproducible_stream():
    ids = [f"q{i}" for i in range(60)]
    rng = np.random.default_rng(5)
    base = rng.uniform(0, 1, 60)
    move = rng.normal(0.03, 0.1, 60)
    frames = {"base": pd.DataFrame({"AP": base}, index=ids),
              "b": pd.DataFrame({"AP": base + move}, index=ids),
              "c": pd.DataFrame({"AP": base + move}, index=ids)}     # the very same moves
    first = compare_many(frames, "base", n_resamples=2_000)
    p_b, p_c = (first.cell("AP", s)["p_value"] for s in ("b", "c"))
    assert p_b != p_c                       # two streams: their Monte Carlo errors differ
    again = compare_many(frames, "base", n_resamples=2_000)
    assert again.cell("AP", "b")["p_value"] == p_b          # reproducible run to run
    alone = compare_many({k: frames[k] for k in ("base", "b")}, "base", n_resamples=2_000)
    assert alone.cell("AP", "b")["p_value"] == p_b          # whatever else is compared


def test_tie_tolerance_is_half_a_unit_of_the_third_decimal():
    assert TIE_TOLERANCE == 0.0005
    assert not is_tie(0.300, 0.303) and is_tie(0.300, 0.3004)
    ids = [f"q{i}" for i in range(30)]
    base = pd.DataFrame({"AP": np.linspace(0.1, 0.9, 30)}, index=ids)
    gain = compare_many({"a": base, "b": base + 0.003}, "a", test="t-test")
    row = gain.cell("AP", "b")
    assert not row["tie"] and row["marked"] and gain.best["AP"] == ("b",)
    small = compare_many({"a": base, "b": base + 0.0004}, "a", test="t-test")
    row = small.cell("AP", "b")
    assert row["tie"] and not row["marked"] and small.best["AP"] == ()


def test_the_star_is_shared_by_tied_leaders_or_given_to_none():
    assert leaders({"x": 0.6925, "y": 0.6924, "z": 0.5}) == ("x", "y")   # print apart, tie
    assert leaders({"x": 0.1490, "y": 0.1489}) == ()                      # all tie: none
    assert leaders({"x": 0.1577, "y": 0.1577, "z": 0.2}) == ("z",)
    assert leaders({"x": float("nan"), "y": 0.2, "z": 0.1}) == ("y",)


def test_judged_at_k_counts_a_negative_grade_as_unjudged():
    qrels = pd.DataFrame({"query_id": ["1"] * 4, "doc_id": ["a", "b", "c", "d"],
                          "relevance": [1, 0, -1, 2]})
    # a, b judged; c in the qrels with -1 (unjudged); x not in the qrels at all
    run = pd.DataFrame({"query_id": ["1"] * 4, "doc_id": ["a", "c", "x", "b"],
                        "score": [4.0, 3.0, 2.0, 1.0]})
    per_query = irlib.evaluate(qrels, run, ["Judged@2", "Judged@4"]).per_query
    assert per_query.loc["1", "Judged@2"] == 0.5        # a judged, c not
    assert per_query.loc["1", "Judged@4"] == 0.5        # a, b of a, c, x, b


def test_exponential_gain_is_two_to_the_grade_minus_one():
    grades = [3, 0, 1]
    dcg = (2 ** 3 - 1) / math.log2(2) + 0 + (2 ** 1 - 1) / math.log2(4)      # 7 + 0.5
    ideal = (2 ** 3 - 1) / math.log2(2) + (2 ** 1 - 1) / math.log2(3)      # 3, 1, 0
    assert irlib.dcg_at_k(grades, 3, gain="exponential") == pytest.approx(dcg, abs=1e-12)
    assert irlib.ndcg_at_k(grades, 3, gain="exponential") == pytest.approx(dcg / ideal,
                                                                            abs=1e-12)
    assert irlib.dcg_at_k(grades, 3) == pytest.approx(3 + 0.5, abs=1e-12)      # linear
    qrels = pd.DataFrame({"query_id": ["1"] * 3, "doc_id": ["a", "b", "c"],
                          "relevance": [3, 0, 1]})
    run = pd.DataFrame({"query_id": ["1"] * 3, "doc_id": ["a", "b", "c"],
                        "score": [3.0, 2.0, 1.0]})
    batch = irlib.evaluate(qrels, run, ["nDCG(dcg='exp-log2')@3"]).per_query
    assert batch.iloc[0, 0] == pytest.approx(dcg / ideal, abs=1e-12)


def test_rr_at_k_stops_at_k():
    assert irlib.reciprocal_rank([0, 0, 1], 2) == 0.0
    assert irlib.reciprocal_rank([0, 0, 1], 3) == pytest.approx(1 / 3)
    qrels = pd.DataFrame({"query_id": ["1"], "doc_id": ["c"], "relevance": [1]})
    run = pd.DataFrame({"query_id": ["1"] * 3, "doc_id": ["a", "b", "c"],
                        "score": [3.0, 2.0, 1.0]})
    per_query = irlib.evaluate(qrels, run, ["RR@2", "RR@3"]).per_query
    assert per_query.loc["1", "RR@2"] == 0.0
    assert per_query.loc["1", "RR@3"] == pytest.approx(1 / 3, abs=1e-12)


def test_judged_at_k_is_never_compared_like_a_quality_measure():
    from irlib.stats import claims
    ids = [f"q{i}" for i in range(30)]
    base = pd.DataFrame({"AP": np.linspace(0.1, 0.9, 30), "Judged@10": np.full(30, 0.5)},
                        index=ids)
    more = base.assign(**{"Judged@10": np.full(30, 0.9)})     # far more judged, every query
    table = compare_many({"a": base, "b": more}, "a", test="t-test")
    assert table.best["Judged@10"] == () and table.best["AP"] == ()
    f = table.finding("Judged@10", "b")
    assert not f.marked and f.direction == 0 and claims.mark(f) == ""
    assert claims.finding_word(f) == "not a quality measure"
    assert "Judged" not in claims.headline(table)
    assert "★" not in claims.table_cell(table, "Judged@10", "b")
    said = claims.verdict(table.comparisons[("Judged@10", "b", "a")], "Judged@10", "a", "b",
                          finding=f)
    assert said.significant is None and "not compared as a quality measure" in said.sentence
