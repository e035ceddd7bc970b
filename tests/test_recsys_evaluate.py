"""evaluate_recommendations on the issue's shop: its traps, and parity with ranx.

The shop (tests/recsys_data.py): 200 users x 500 popularity-skewed items, 1-5 star ratings
held out, an MF-like model's top 10 and a most-popular baseline's. Accuracy is checked against
ranx on the same files, user by user; the traps of issue 24 are each a test.
"""
import functools
import warnings

import numpy as np
import pandas as pd
import pytest
import ranx

import irlib
from irlib import InputError
from irlib.measures.registry import MEASURES, RUN_MEASURES
from irlib.recsys import (SELF_JUDGED_MEASURES, Finding, compare_recommenders,
                          evaluate_recommendations, read_interactions, read_item_categories,
                          read_recommendations, self_judged_problem)
from tests.recsys_data import make_shop, write_shop

RANX = {"HitRate": "hit_rate", "Recall": "recall", "Precision": "precision", "NDCG": "ndcg",
        "MAP": "map", "MRR": "mrr"}


@functools.cache
def shop_frames(folder):
    paths = write_shop(make_shop(), folder)
    return (read_recommendations(paths["mf"]), read_recommendations(paths["popular"]),
            read_interactions(paths["heldout"]), read_interactions(paths["train"]),
            read_item_categories(paths["genres"]))


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    return shop_frames(tmp_path_factory.mktemp("shop"))


def ranx_scores(recs, heldout, k, relevant_from=None, gain=None):
    """ranx's means and per-user values, every held-out user with a relevant item counted."""
    held = heldout if relevant_from is None else heldout[heldout["rating"] >= relevant_from]
    grade = np.ones(len(held), int) if gain is None else gain(held["rating"]).astype(int)
    qrels = ranx.Qrels.from_df(held[["user_id", "item_id"]].astype(object).assign(g=grade),
                               "user_id", "item_id", "g")
    run = ranx.Run.from_df(recs[["user_id", "item_id"]].astype(object).assign(
        s=recs["score"].astype(float)), "user_id", "item_id", "s")
    metrics = [f"{m}@{k}" for m in RANX.values()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        means = ranx.evaluate(qrels, run, metrics, make_comparable=True)
    return means, run.scores


@pytest.mark.parametrize("system, k, relevant_from", [("mf", 10, None), ("mf", 5, 4),
                                                     ("popular", 10, 4), ("popular", 3, None)])
def test_accuracy_agrees_with_ranx_user_by_user(shop, system, k, relevant_from):
    mf, popular, held, _, _ = shop
    recs = mf if system == "mf" else popular
    result = evaluate_recommendations(recs, held, k=k, relevant_from=relevant_from)
    means, per_query = ranx_scores(recs, held, k, relevant_from)
    for ours, theirs in RANX.items():
        assert result.accuracy[f"{ours}@{k}"] == pytest.approx(means[f"{theirs}@{k}"], abs=1e-12)
        mine = result.per_user[f"{ours}@{k}"]
        their = pd.Series(per_query[f"{theirs}@{k}"]).reindex(mine.index)
        np.testing.assert_allclose(mine.to_numpy(), their.to_numpy(), atol=1e-12)


def test_a_one_star_rating_is_not_a_hit_with_relevant_from_4(shop):
    mf, _, held, _, _ = shop
    user = "u007"
    first = mf.loc[mf["user_id"] == user].sort_values("score").iloc[-1]["item_id"]
    held = pd.concat([held.loc[held["user_id"] != user],
                      pd.DataFrame({"user_id": [user, user], "item_id": [first, "m0499"],
                                    "rating": [1.0, 5.0]})], ignore_index=True)
    everything = evaluate_recommendations(mf, held, k=10)
    liked = evaluate_recommendations(mf, held, k=10, relevant_from=4)
    assert everything.per_user.loc[user, "MRR@10"] == 1.0          # the dislike is "hit"
    assert liked.per_user.loc[user, "HitRate@10"] == 0.0
    assert liked.per_user.loc[user, "relevant"] == 1
    assert liked.relevance == "a held-out item rated 4 or more is relevant (gain 1)"
    assert everything.relevance == ("every held-out item is relevant (gain 1), whatever its "
                                    "rating (1 to 5): a 1 counts as much as a 5")


def test_users_without_recommendations_count_0_and_are_named(shop):
    mf, _, held, _, _ = shop
    gone = ["u000", "u001", "u002"]
    partial = mf.loc[~mf["user_id"].isin(gone)]
    result = evaluate_recommendations(partial, held, k=10)
    assert result.users.without_recommendations == tuple(gone)
    assert result.users.evaluated == 200
    assert (result.per_user.loc[gone, ["HitRate@10", "NDCG@10", "recommended"]] == 0).all().all()
    full = evaluate_recommendations(mf, held, k=10).per_user
    kept = full.drop(index=gone)["NDCG@10"]
    assert result.accuracy["NDCG@10"] == pytest.approx(kept.sum() / 200, abs=1e-12)
    assert result.users.sentences()[1] == (
        "3 users ('u000', 'u001', 'u002') have relevant held-out items but no recommendations: "
        "they score 0 on every accuracy measure and count in the means.")
    # the beyond-accuracy measures describe the lists that exist
    assert result.beyond["Coverage"].terms["lists"] == 197


def test_users_only_in_the_recommendations_are_reported_and_left_out(shop):
    mf, _, held, _, _ = shop
    ghosts = pd.DataFrame({"user_id": ["zed", "zed", "amy"], "item_id": ["m0001", "m0490",
                                                                          "m0491"],
                           "score": [2.0, 1.0, 1.0]})
    with_ghosts = evaluate_recommendations(pd.concat([mf, ghosts], ignore_index=True), held, k=10)
    plain = evaluate_recommendations(mf, held, k=10)
    assert with_ghosts.users.recommendations_only == ("amy", "zed")
    assert "zed" not in with_ghosts.per_user.index
    pd.testing.assert_series_equal(with_ghosts.accuracy, plain.accuracy)
    assert with_ghosts.beyond["Coverage"].terms["covered"] == \
        plain.beyond["Coverage"].terms["covered"]          # their items are not counted


def test_users_with_only_disliked_items_are_left_out(shop):
    mf, _, held, _, _ = shop
    held = held.copy()
    held.loc[held["user_id"] == "u010", "rating"] = 2.0
    result = evaluate_recommendations(mf, held, k=10, relevant_from=4)
    assert "u010" in result.users.without_relevant
    assert "u010" not in result.per_user.index
    assert result.users.evaluated == len(result.per_user)


def test_ids_that_never_match_show_both_sides(shop):
    mf, _, held, _, _ = shop
    renamed = held.assign(user_id="user_" + held["user_id"])
    with pytest.raises(InputError) as err:
        evaluate_recommendations(mf, renamed, k=10)
    assert str(err.value).startswith("no user of the recommendations is in the held-out "
                                     "interactions: the ids never match. Recommendations' "
                                     "users look like 'u000', 'u001', 'u002'; held-out users "
                                     "look like 'user_u")
    with pytest.raises(InputError, match="no item of the recommendations.*held-out items look "
                                         "like '0"):
        evaluate_recommendations(mf, held.assign(item_id=held["item_id"].str[1:]), k=10)


def test_graded_gain_is_rating_minus_threshold_plus_one(shop):
    mf, _, held, _, _ = shop
    result = evaluate_recommendations(mf, held, k=10, relevant_from=4, gain="graded")
    means, _ = ranx_scores(mf, held, 10, 4, gain=lambda r: r - 4 + 1)
    assert result.accuracy["NDCG@10"] == pytest.approx(means["ndcg@10"], abs=1e-12)
    binary = evaluate_recommendations(mf, held, k=10, relevant_from=4)
    assert result.accuracy["NDCG@10"] != pytest.approx(binary.accuracy["NDCG@10"])
    assert result.accuracy["HitRate@10"] == binary.accuracy["HitRate@10"]
    with pytest.raises(ValueError, match="gain='graded' needs relevant_from"):
        evaluate_recommendations(mf, held, k=10, gain="graded")


def test_relevant_from_needs_ratings(shop):
    mf, _, held, _, _ = shop
    with pytest.raises(ValueError, match=r"relevant_from=4 needs ratings, but the held-out "
                                         r"interactions have none \(columns: user_id, item_id\)"):
        evaluate_recommendations(mf, held[["user_id", "item_id"]], k=10, relevant_from=4)


def test_worst_users_first_and_the_rank_column_orders_lists(shop):
    mf, _, held, _, _ = shop
    result = evaluate_recommendations(mf, held, k=10)
    ndcg = result.per_user["NDCG@10"].to_numpy()
    assert (np.diff(ndcg) >= 0).all() and result.by == "NDCG@10"
    zeros = result.per_user.index[ndcg == 0]
    assert list(zeros) == sorted(zeros)
    # a rank column wins over a score that says the opposite
    reversed_rank = mf.assign(rank=mf.groupby("user_id").cumcount(ascending=False) + 1)
    by_rank = evaluate_recommendations(reversed_rank, held, k=3)
    by_score = evaluate_recommendations(mf.assign(score=-mf["score"]), held, k=3)
    pd.testing.assert_series_equal(by_rank.accuracy, by_score.accuracy)


def test_the_table_route_is_refused_for_the_measures_it_inflates(shop):
    """The issue's silent trap: ratings as a relevance column of the recommendations."""
    mf, _, held, _, _ = shop
    table = mf.merge(held, on=["user_id", "item_id"], how="left").fillna({"rating": 0})
    qrels = table.rename(columns={"user_id": "query_id", "item_id": "doc_id",
                                  "rating": "relevance"})[["query_id", "doc_id", "relevance"]]
    run = table.rename(columns={"user_id": "query_id", "item_id": "doc_id"})
    inflated = irlib.evaluate(qrels, run, ["R@10", "Success@10"]).means
    true = evaluate_recommendations(mf, held, k=10).accuracy
    assert inflated["R@10"] > 2 * true["Recall@10"]           # the trap is real
    problem = self_judged_problem(["HitRate@10", "Recall@10", "NDCG@10", "MAP@10",
                                   "Precision@10", "MRR@10"], source="recs.csv")
    assert problem.startswith("recs.csv judges only the items it lists (its own relevance "
                              "column), so Recall@10, NDCG@10 and MAP@10 would be inflated")
    assert self_judged_problem(["P@10", "Success@5", "RR", "HitRate@10"]) is None


@pytest.mark.parametrize("name", RUN_MEASURES)
def test_the_self_judged_list_is_what_irlib_evaluate_does(name):
    """A measure is refused exactly when a relevant document the run missed changes it."""
    info = MEASURES[name]
    measure = name + ("@0.5" if info.cutoff == "level" else "@3" if info.cutoff == "required"
                      else "")
    run = pd.DataFrame({"query_id": ["q"] * 4, "doc_id": ["a", "b", "c", "d"],
                        "score": [4.0, 3.0, 2.0, 1.0]})
    shown = pd.DataFrame({"query_id": ["q"] * 4, "doc_id": ["a", "b", "c", "d"],
                          "relevance": [1, 0, 1, 0]})
    missed = pd.concat([shown, pd.DataFrame({"query_id": ["q"], "doc_id": ["z"],
                                             "relevance": [1]})], ignore_index=True)
    before = irlib.evaluate(shown, run, [measure]).means.iloc[0]
    after = irlib.evaluate(missed, run, [measure]).means.iloc[0]
    assert (before != after) == (name in SELF_JUDGED_MEASURES)


def test_the_popular_baseline_wins_accuracy_by_collapsing(shop):
    mf, popular, held, train, genres = shop
    e_mf = evaluate_recommendations(mf, held, k=10, train=train, item_categories=genres)
    e_pop = evaluate_recommendations(popular, held, k=10, train=train, item_categories=genres)
    for measure in ("HitRate@10", "Recall@10", "NDCG@10", "MAP@10", "MRR@10"):
        assert e_pop.accuracy[measure] > e_mf.accuracy[measure]
    assert e_pop.beyond["Coverage"].value < 0.1 < 0.4 < e_mf.beyond["Coverage"].value
    comparison = compare_recommenders(e_mf, e_pop, ("MF", "most popular"))
    assert comparison.winner == "most popular" and comparison.collapsed
    cover = [f"{100 * e.beyond['Coverage'].value:.1f}".rstrip("0").rstrip(".") + " %"
             for e in (e_pop, e_mf)]
    # a winner only because the paired test over the 200 users finds the difference
    assert comparison.finding.significant and comparison.finding.p_value < 0.001
    assert comparison.sentence.startswith(
        f"most popular wins on NDCG@10 ({e_pop.accuracy['NDCG@10']:.3f} vs "
        f"{e_mf.accuracy['NDCG@10']:.3f}; paired randomization test over the users, at 0.05: "
        f"p < 0.001) by collapsing onto popular items: its top-10 lists "
        f"cover {cover[0]} of the catalogue against {cover[1]} for MF")
    assert comparison.warning                  # a collapse is styled as a warning
    assert list(comparison.table.index) == list(e_mf.overall.index)
    assert comparison.table.loc["Gini@10", "most popular"] > comparison.table.loc["Gini@10", "MF"]


#: A test that found the difference (four users never can): the wording of a found win.
FOUND = Finding(0.01, 0.01, True, "a test")


def _verdict_on_few_items(shown: str, finding=FOUND) -> str:
    """The verdict when the winner recommends one item, ``shown``, to everyone (and each user
    held out) and the rival one different item to each ("hit", "a", "c", "d"): four users, a
    catalogue of five, "hit" had by all four training users and "a".."d" by one each."""
    users = ["u1", "u2", "u3", "u4"]
    train = pd.DataFrame({"user_id": ["t1", "t2", "t3", "t4", "t1", "t2", "t3", "t4"],
                          "item_id": ["hit"] * 4 + ["a", "b", "c", "d"]})
    heldout = pd.DataFrame({"user_id": users, "item_id": [shown] * 4})
    catalogue = ["hit", "a", "b", "c", "d"]
    rival_items = ["hit", "a", "c", "d"]
    lists = {"same": {u: [shown] for u in users},
             "varied": {u: [i] for u, i in zip(users, rival_items)}}
    found = {n: evaluate_recommendations(lists[n], heldout, k=1, train=train,
                                         catalogue=catalogue) for n in lists}
    comparison = compare_recommenders(found["varied"], found["same"], ("varied", "same"),
                                      finding=finding)
    if finding is None:
        return comparison.sentence
    assert comparison.winner == "same" and comparison.collapsed
    return comparison.sentence


def test_a_narrow_winner_is_said_to_win_by_popularity_only_when_its_items_are_popular():
    # the winner shows an item only one training user had, the rival mostly such items too
    # but also the hit: one item for everyone, yet a less popular one
    rare = _verdict_on_few_items("a")
    assert rare == (
        "same wins on NDCG@1 (1.000 vs 0.250; a test: p = 0.010) but shows everyone the same few "
        "items: its top-1 lists cover 20 % of the catalogue against 80 % for varied, yet its "
        "recommended items are less popular: on average 25 % of users had them in training, "
        "against 43.8 % for varied's.")
    assert "collapsing onto popular" not in rare and "more popular" not in rare
    hit = _verdict_on_few_items("hit")
    assert hit.startswith("same wins on NDCG@1 (1.000 vs 0.250; a test: p = 0.010) by collapsing "
                          "onto popular items:")
    assert hit.endswith("its recommended items are more popular: on average 100 % of users "
                        "had them in training, against 43.8 % for varied's.")


def test_four_users_name_no_winner_and_a_tie_is_a_tie(shop):
    """Issue 33: "wins" only where the paired test finds the difference; a difference below
    irlib.stats.ties' tolerance is a tie whatever a test says, and neither is a warning."""
    alone = _verdict_on_few_items("hit", finding=None)
    assert alone.startswith("No clear winner on NDCG@1: same 1.000 vs varied 0.250, a difference "
                            "that could be chance (paired randomization test over the users, "
                            "at 0.05: p = 0.250).")
    assert "wins" not in alone and "collapsing" not in alone
    mf, popular, held, train, _ = shop
    e_mf = evaluate_recommendations(mf, held, k=10, train=train)
    e_pop = evaluate_recommendations(popular, held, k=10, train=train)
    # the case: means 1.4e-5 apart, which every table prints alike, and a test
    # that (on some page) marked it
    tie = compare_recommenders(e_pop, e_mf, ("recs_pop", "recs_pers"),
                               finding=Finding(1e-9, 1e-9, True, "a test",
                                               means=(0.102014, 0.102)))
    assert tie.tie and tie.winner is None and not tie.warning
    assert tie.sentence.startswith("recs_pop and recs_pers are tied on NDCG@10 (0.102 vs "
                                   "0.102, a difference below 0.0005): no clear winner.")
    assert "collapsing" not in tie.sentence



def test_a_winner_that_keeps_its_range_is_not_called_a_collapse(shop):
    mf, _, held, train, _ = shop
    # the same lists, each user's order reversed: the same items, worse ranks
    worse = mf.assign(score=-mf["score"])
    e_mf = evaluate_recommendations(mf, held, k=10, train=train)
    e_worse = evaluate_recommendations(worse, held, k=10, train=train)
    comparison = compare_recommenders(e_worse, e_mf, ("reversed", "MF"))
    assert comparison.winner == "MF" and not comparison.collapsed
    assert "without narrowing its recommendations" in comparison.sentence
    tie = compare_recommenders(e_mf, e_mf, ("MF", "MF"))
    assert tie.winner is None and tie.sentence.startswith("MF (A) and MF (B) are tied")
