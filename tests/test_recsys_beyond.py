"""Beyond-accuracy measures: hand-computed cases, a loop-by-loop reference, rs_metrics.

Each measure of irlib.recsys.BEYOND is checked three ways: small cases worked out by hand
here, random lists against a plain Python loop that follows the definition (ties, short lists,
items without categories, K cutting the lists), and, where a library computes the same
thing (rs_metrics' coverage, popularity and surprisal), against that library on the shop.
"""
import functools
import itertools
import math

import numpy as np
import pandas as pd
import pytest
import rs_metrics

from irlib.recsys import (BEYOND, beyond_accuracy, catalogue_coverage, evaluate_recommendations,
                          explain, exposure_gini, intra_list_diversity, novelty)
from irlib.recsys.beyond import gini
from tests.recsys_data import make_shop

shop = functools.cache(make_shop)


def test_hand_computed_small_case():
    lists = {"ann": ["a", "b", "c"], "bob": ["a", "d"], "cy": ["a", "b"]}
    train = pd.DataFrame({"user_id": ["t1", "t2", "t3", "t4", "t1", "t2", "t3"],
                          "item_id": ["a", "a", "a", "a", "b", "b", "c"]})
    cats = {"a": ["Comedy"], "b": ["Comedy", "Drama"], "c": ["Horror"]}     # d: none
    result = beyond_accuracy(lists, 3, train=train, item_categories=cats,
                             catalogue=["a", "b", "c", "d", "e"])
    # 4 of 5 catalogue items shown
    assert result["Coverage"].value == pytest.approx(4 / 5)
    # exposures a 3, b 2, c 1, d 1, e 0: sorted 0 1 1 2 3, weights -4 -2 0 2 4
    assert result["Gini"].value == pytest.approx((0 - 2 + 0 + 4 + 12) / (5 * 7))
    # N = 4 training users; p(a) = 1, p(b) = 1/2, p(c) = 1/4, p(d) = 0 (unseen)
    assert result["Popularity"].value == pytest.approx(
        ((1 + 0.5 + 0.25) / 3 + (1 + 0) / 2 + (1 + 0.5) / 2) / 3)
    # self-information: a 0, b 1, c 2 bits; d unseen counts as had by one user: 2 bits
    assert result["Novelty"].value == pytest.approx(((0 + 1 + 2) / 3 + (0 + 2) / 2 + 1 / 2) / 3)
    # ann: a-b 1 - 1/2, a-c 1, b-c 1; bob has one categorised item: no value; cy: 1/2
    assert result["ILD"].value == pytest.approx(((0.5 + 1 + 1) / 3 + 0.5) / 2)
    assert np.isnan(result["ILD"].per_user["bob"])
    assert result["ILD"].terms["without_value"] == 1
    assert result["Novelty"].terms["unseen_rows"] == 1


def test_k_cuts_by_score_and_ties_go_to_the_larger_item_id():
    recs = pd.DataFrame({"user_id": ["u"] * 4, "item_id": ["a", "c", "b", "d"],
                         "score": [1.0, 3.0, 3.0, 0.5]})
    # order: c (3.0, "c" > "b"), b (3.0), a, d -> the top 1 is c, the top 2 c and b
    assert catalogue_coverage(recs, 1, catalogue=list("abcd")) == 0.25
    shown = beyond_accuracy(recs, 1, catalogue=list("abcd"))["Gini"].terms["top"]
    assert shown == [{"item": "c", "lists": 1}]
    ranked = recs.assign(rank=[1, 4, 3, 2])                      # the rank column wins
    assert beyond_accuracy(ranked, 1, catalogue=list("abcd"))["Gini"].terms["top"] == \
        [{"item": "a", "lists": 1}]


def test_gini_extremes_and_the_mean_difference_form():
    assert gini(np.array([5, 5, 5])) == 0.0
    assert gini(np.array([0, 0, 0, 9])) == pytest.approx(3 / 4)
    rng = np.random.default_rng(3)
    x = rng.integers(0, 50, 40).astype(float)
    mean_difference = np.abs(x[:, None] - x[None, :]).sum() / (2 * len(x) ** 2 * x.mean())
    assert gini(x) == pytest.approx(mean_difference, abs=1e-12)
    assert exposure_gini({"a": ["x"], "b": ["y"]}, catalogue=["x", "y"]) == 0.0


def reference(lists: dict, k: int, train: pd.DataFrame, cats: dict, catalogue: list) -> dict:
    """Each measure as its definition reads, with Python loops."""
    tops = {u: items[:k] for u, items in lists.items()}
    shown = [i for top in tops.values() for i in top]
    exposure = [shown.count(i) for i in catalogue]
    had = train.groupby("item_id")["user_id"].nunique().to_dict()
    n = train["user_id"].nunique()
    pop = np.mean([np.mean([had.get(i, 0) / n for i in top]) for top in tops.values()])
    nov = np.mean([np.mean([-math.log2(max(had.get(i, 0), 1) / n) for i in top])
                   for top in tops.values()])
    per_list = []
    for top in tops.values():
        known = [i for i in top if cats.get(i)]
        pairs = list(itertools.combinations(known, 2))
        if pairs:
            per_list.append(np.mean([1 - len(set(cats[a]) & set(cats[b]))
                                     / len(set(cats[a]) | set(cats[b])) for a, b in pairs]))
    return {"Coverage": len(set(shown) & set(catalogue)) / len(catalogue),
            "Gini": gini(np.array(exposure)), "Popularity": pop, "Novelty": nov,
            "ILD": np.mean(per_list) if per_list else np.nan}


@pytest.mark.parametrize("seed", range(4))
def test_random_lists_against_the_definitions(seed):
    rng = np.random.default_rng(seed)
    n_items = int(rng.integers(5, 40))
    items = [f"i{j}" for j in range(n_items)]
    lists = {f"u{u}": list(rng.choice(items, size=int(rng.integers(1, min(12, n_items))),
                                      replace=False)) for u in range(int(rng.integers(1, 30)))}
    train = pd.DataFrame({"user_id": rng.choice([f"t{t}" for t in range(15)], 120),
                          "item_id": rng.choice(items[: n_items - 2], 120)})   # 2 never seen
    # many categories (more than one 64-bit word), some items without any
    names = [f"c{c}" for c in range(int(rng.choice([3, 70])))]
    cats = {i: list(rng.choice(names, size=int(rng.integers(0, 4)), replace=False))
            for i in items}
    k = int(rng.integers(1, 8))
    ours = beyond_accuracy(lists, k, train=train, item_categories=cats, catalogue=items)
    for name, value in reference(lists, k, train, cats, items).items():
        if np.isnan(value):
            assert np.isnan(ours[name].value)
        else:
            assert ours[name].value == pytest.approx(value, abs=1e-12), name


def test_rs_metrics_computes_the_same_coverage_popularity_and_novelty():
    data = shop()
    recs = data.mf.rename(columns={"user_id": "user_id"})
    train = data.train.rename(columns={"userId": "user_id", "movieId": "item_id"})
    catalogue = sorted(set(train["item_id"]) | set(recs["item_id"]))
    ours = beyond_accuracy(recs, 5, train=train, catalogue=catalogue)
    assert ours["Coverage"].value == pytest.approx(rs_metrics.coverage(catalogue, recs, 5),
                                                   abs=1e-12)
    assert ours["Popularity"].value == pytest.approx(rs_metrics.popularity(train, recs, 5),
                                                     abs=1e-12)
    assert ours["Novelty"].value == pytest.approx(rs_metrics.surprisal(train, recs, 5),
                                                  abs=1e-12)


def test_every_entry_explains_its_own_number():
    data = shop()
    held = data.heldout.rename(columns={"uid": "user_id", "iid": "item_id", "stars": "rating"})
    train = data.train.rename(columns={"userId": "user_id", "movieId": "item_id"})
    genres = data.genres.assign(genres=data.genres["genres"].str.split("|")).explode("genres")
    genres = genres.rename(columns={"movieId": "item_id", "genres": "category"})
    popular = data.popular.rename(columns={"customer": "user_id", "product": "item_id"})
    result = evaluate_recommendations(popular, held, k=10, train=train, item_categories=genres)
    assert set(result.beyond) == set(BEYOND)
    for name, info in BEYOND.items():
        assert info.label and info.title and info.description.endswith(".")
        assert info.needs in (None, "train", "categories")
        assert info.more_varied in ("higher", "lower")
        value = result.beyond[name]
        e = explain(value)
        assert e.value == value.value and e.k == 10
        assert e.latex.startswith(rf"\text{{{info.label}@10}}")
        shown = f"{value.value:.4f}".rstrip("0").rstrip(".")
        assert f" = {shown}" in e.latex, e.latex
    coverage = explain(result.beyond["Coverage"]).latex
    covered = result.beyond["Coverage"].terms["covered"]
    known = len(set(train["item_id"]) | set(held["item_id"]) | set(popular["item_id"]))
    assert known < data.n_items          # the catalogue: items seen somewhere, not all 500
    assert rf"\frac{{{covered}}}{{{known}}}" in coverage
    assert explain(result.beyond["ILD"]).rows[0]["distance"] >= 0


def test_a_measure_without_its_inputs_says_what_is_missing():
    with pytest.raises(ValueError, match="needs the training interactions: pass train="):
        beyond_accuracy({"u": ["a"]}, 1, measures=["Novelty"])
    with pytest.raises(ValueError, match="needs the items' categories"):
        beyond_accuracy({"u": ["a"]}, 1, measures=["ILD@10"])
    with pytest.raises(ValueError, match="unknown beyond-accuracy measure 'Serendipity'"):
        beyond_accuracy({"u": ["a"]}, 1, measures=["Serendipity"])
    assert novelty({"u": ["a"]}, pd.DataFrame({"user_id": ["t"], "item_id": ["a"]})) == 0.0
    assert intra_list_diversity({"u": ["a", "b"]}, {"a": "x", "b": "x"}) == 0.0
