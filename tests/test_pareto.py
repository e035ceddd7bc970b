"""irlib.stats.pareto: the frontier against a brute-force definition, ties, NaN, and validation."""
import math

import numpy as np
import pytest

from irlib.stats.pareto import Problem, check_systems, pareto_front


def brute_force(cost, quality):
    n = len(cost)
    out = []
    for i in range(n):
        if math.isnan(cost[i]) or math.isnan(quality[i]):
            out.append(False)
            continue
        dominated = any(
            not (math.isnan(cost[j]) or math.isnan(quality[j]))
            and cost[j] <= cost[i] and quality[j] >= quality[i]
            and (cost[j] < cost[i] or quality[j] > quality[i])
            for j in range(n))
        out.append(not dominated)
    return out


def test_matches_the_definition_on_random_tables():
    rng = np.random.default_rng(0)
    for _ in range(300):
        n = int(rng.integers(1, 12))
        cost = rng.integers(0, 6, n).astype(float)          # small ints: many ties
        quality = rng.integers(0, 6, n) / 5
        cost[rng.random(n) < 0.1] = np.nan
        assert pareto_front(cost, quality).tolist() == brute_force(cost, quality)


def test_the_lecture_shape_bm25_cheap_splade_jump_ants_dominated():
    names = ["BM25", "SPLADE small", "SPLADE large", "ANCE"]
    mask = pareto_front([1.0, 1.1, 1.3, 6.0], [0.19, 0.33, 0.38, 0.33])
    assert dict(zip(names, mask.tolist())) == {"BM25": True, "SPLADE small": True,
                                               "SPLADE large": True, "ANCE": False}


def test_ties_and_duplicates():
    assert pareto_front([1, 1], [0.5, 0.5]).tolist() == [True, True]       # identical: both
    assert pareto_front([1, 1], [0.5, 0.4]).tolist() == [True, False]      # same cost
    assert pareto_front([1, 2], [0.5, 0.5]).tolist() == [True, False]      # same quality
    assert pareto_front([], []).tolist() == []


def test_missing_values_are_off_the_front_and_dominate_nothing():
    assert pareto_front([None, 2.0], [0.9, 0.1]).tolist() == [False, True]
    assert pareto_front([1.0, 2.0], [float("nan"), 0.1]).tolist() == [False, True]


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="same length"):
        pareto_front([1, 2], [0.1])
    with pytest.raises(ValueError, match=r"cost\[1\] is 'x'"):
        pareto_front([1, "x"], [0.1, 0.2])
    with pytest.raises(ValueError, match="row 0"):
        pareto_front([math.inf], [0.1])


def test_check_systems_names_row_and_column():
    ok, problems = check_systems(
        ["BM25", "  ", "dense", "LLM", None],
        [0.19, 0.3, 1.5, 0.4, 0.2],
        [100, 50, 10, -5, 1],
        [20, 30, 40, 50, -1],
        cost_label="cost ($/month)", latency_label="latency (ms)")
    assert ok.tolist() == [True, False, False, False, False]
    text = [str(p) for p in problems]
    assert "Row 2, column “system”: the name is empty" in text
    assert "Row 3, column “MRR@10”: 1.5 is outside 0–1" in text
    assert "Row 4, column “cost ($/month)”: -5 is negative" in text
    assert "Row 5, column “latency (ms)”: -1 is negative" in text
    assert problems[0] == Problem(2, "system", "the name is empty")


def test_check_systems_empty_and_non_numeric_cells():
    ok, problems = check_systems(["a", "b"], [None, "high"], [1, float("nan")])
    assert ok.tolist() == [False, False]
    assert [str(p) for p in problems] == [
        "Row 1, column “MRR@10”: is empty or not a number",
        "Row 2, column “MRR@10”: 'high' is not a number",
        "Row 2, column “cost”: is empty or not a number"]


def test_check_systems_edges_are_allowed():
    ok, problems = check_systems(["free", "perfect"], [0, 1], [0, 0], [0, 0])
    assert ok.all() and not problems
    with pytest.raises(ValueError, match="one value per system"):
        check_systems(["a"], [0.1, 0.2], [1])


def test_huge_costs_are_flagged_not_drawn():
    from irlib.stats.pareto import check_systems
    ok, problems = check_systems(["a", "b"], [0.3, 0.4], [1e308, 10])
    assert ok.tolist() == [False, True]
    assert "too large" in str(problems[0]) and "Row 1" in str(problems[0])
