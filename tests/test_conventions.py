"""irlib.measures.conventions against the real libraries (pytrec_eval, ranx, scikit-learn) and against
the published source of those not installed (torchmetrics, Kaggle's apk, Microsoft
Recommenders, RecBole), transcribed below. Spark's record is checked against real pyspark in
tests/test_spark_conventions.py."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
import pytrec_eval
import ranx
from sklearn import metrics

from irlib.measures.conventions import (CONVENTIONS, ROWS, TIE_RULES, conventions_table,
                                        score_under, tie_scores)

GRADED = [0, 4, 1, 3, 4, 1, 3, 2]          # the video's "white cat in a box", grades 0-4
IDS = [f"d{i}" for i in range(1, 9)]


# --------------------------------------------------------------------------- transcriptions

def apk(actual, predicted, k=10):
    """benhamner/Metrics, Python/ml_metrics/average_precision.py (current source), verbatim
    logic: precision at each new hit in the top k, divided by min(len(actual), k)."""
    if len(predicted) > k:
        predicted = predicted[:k]
    score = 0.0
    num_hits = 0.0
    for i, p in enumerate(predicted):
        if p in actual and p not in predicted[:i]:
            num_hits += 1.0
            score += num_hits / (i + 1.0)
    if not actual:
        return 0.0
    return score / min(len(actual), k)


def tm_retrieval_average_precision(preds, target, top_k=None):
    """torchmetrics.functional.retrieval_average_precision (1.x) in NumPy: the top_k by
    score, then the mean of (hits so far / position) over the hits found there."""
    preds, target = np.asarray(preds, float), np.asarray(target)
    if not set(np.unique(target)) <= {0, 1}:
        raise ValueError("target must be binary")          # _check_retrieval_functional_inputs
    top_k = top_k or len(preds)
    idx = np.argsort(-preds, kind="stable")[:min(top_k, len(preds))]
    idx = idx[preds[idx] > 0]                               # main branch: scores <= 0 dropped
    t = target[idx]
    if not t.sum():
        return 0.0
    positions = np.arange(1, len(t) + 1, dtype=float)[t > 0]
    return float(np.mean((np.arange(len(positions)) + 1) / positions))


def _tm_dcg_sample_scores(target, preds, top_k, ignore_ties):
    discount = 1.0 / np.log2(np.arange(len(target)) + 2.0)
    discount[top_k:] = 0.0
    if ignore_ties:
        ranked = target[np.argsort(-preds, kind="stable")]
        return float((discount * ranked).sum())
    # _tie_average_dcg: each group of tied scores gets its mean gain over its positions
    _, inv, counts = np.unique(-preds, return_inverse=True, return_counts=True)
    ranked = np.zeros(len(counts))
    np.add.at(ranked, inv, target)
    ranked = ranked / counts
    groups = counts.cumsum() - 1
    discount_cumsum = discount.cumsum()
    sums = np.diff(np.concatenate([[0.0], discount_cumsum[groups]]))
    return float((ranked * sums).sum())


def tm_retrieval_normalized_dcg(preds, target, top_k=None):
    """torchmetrics.functional.retrieval_normalized_dcg (recent 1.x) in NumPy."""
    preds, target = np.asarray(preds, float), np.asarray(target, float)
    top_k = len(preds) if top_k is None else top_k
    gain = _tm_dcg_sample_scores(target, preds, top_k, ignore_ties=False)
    ideal = _tm_dcg_sample_scores(target, target, top_k, ignore_ties=True)
    return 0.0 if ideal == 0 else gain / ideal


def recommenders_user(shown, true_ratings, k, *, score_type="binary"):
    """recommenders 1.2.1, recommenders/evaluation/python_evaluation.py, for one user:
    ``map``, ``map_at_k`` and ``ndcg_at_k`` (relevancy_method="top_k", discfun "loge").
    ``shown``: item ids by prediction, best first; ``true_ratings``: {item: rating} of
    rating_true, every row of which is relevant. Not installed in CI: the package pins
    pandas < 3 and pulls cornac, lightgbm, transformers, notebook... (its Requires-Dist);
    this transcription was checked against the real functions, imported from the wheel
    with --no-deps, on ~300 random cases while it was written.

    merge_ranking_true_pred keeps users in both frames, takes each one's top k by prediction
    and ranks them 1..k; the hits are the top-k rows also in rating_true. _get_reciprocal_rank
    sums (hits so far) / rank over the hits; map divides by ``actual`` (the user's
    rating_true rows), map_at_k by min(actual, k). ndcg_at_k: gain 1 ('binary'), the rating
    ('raw') or 2^rating - 1 ('exp') over log(1 + rank); the ideal from every rating_true row
    sorted by rating, its first k; 0 when there is no hit at all."""
    if not true_ratings:                         # not a common user: no user, map = 0.0
        return {"map": 0.0, "map_at_k": 0.0, "ndcg": 0.0}
    top = list(shown)[:k]
    hits = [(i + 1, item) for i, item in enumerate(top) if item in true_ratings]
    rr = sum((j + 1) / rank for j, (rank, _) in enumerate(hits))
    actual = len(true_ratings)
    rel = {"binary": lambda r: 1.0, "raw": lambda r: float(r),
           "exp": lambda r: 2.0 ** r - 1}[score_type]
    if not hits:
        ndcg = 0.0
    else:
        dcg = sum(rel(true_ratings[item]) / np.log(1 + rank) for rank, item in hits)
        ideal = sorted(true_ratings.values(), reverse=True)[:k]
        idcg = sum(rel(r) / np.log(1 + i + 1) for i, r in enumerate(ideal))
        ndcg = dcg / idcg
    return {"map": rr / actual, "map_at_k": rr / min(actual, k), "ndcg": ndcg}


def recbole_user(hits, pos_len, k):
    """RecBole, recbole/evaluator/metrics.py (MAP, NDCG, Hit ``metric_info``) for one user at
    topk K. Not installed: RecBole needs PyTorch (the PyPI wheel brings the CUDA libraries,
    gigabytes). ``hits``: pos_index, True where the i-th recommended item is a test item;
    ``pos_len``: the user's test items."""
    pos_index = np.asarray(list(hits[:k]) + [False] * max(0, k - len(hits)), bool)[None, :]
    pos_len = np.asarray([pos_len])
    pre = pos_index.cumsum(axis=1) / np.arange(1, pos_index.shape[1] + 1)
    sum_pre = np.cumsum(pre * pos_index.astype(float), axis=1)
    len_rank = np.full_like(pos_len, pos_index.shape[1])
    actual_len = np.where(pos_len > len_rank, len_rank, pos_len)
    ranges = np.arange(1, pos_index.shape[1] + 1)
    ranges[actual_len[0]:] = ranges[actual_len[0] - 1]
    ap = (sum_pre[0] / ranges)[k - 1]
    idcg = np.cumsum(1.0 / np.log2(np.arange(1, k + 1) + 1))
    idcg[actual_len[0]:] = idcg[actual_len[0] - 1]
    dcg = np.cumsum(np.where(pos_index[0], 1.0 / np.log2(np.arange(1, k + 1) + 1), 0))
    hit = (np.cumsum(pos_index[0]) > 0).astype(int)
    return {"MAP": float(ap), "NDCG": float((dcg / idcg)[k - 1]), "Hit": float(hit[k - 1])}


def random_cases(n_cases=150, seed=7):
    """(grades shown in rank order, grades of judged documents never retrieved, k, rel)."""
    rng = np.random.default_rng(seed)
    for _ in range(n_cases):
        n = int(rng.integers(2, 12))
        grades = rng.integers(0, 5, n).tolist()
        missed = rng.integers(0, 5, int(rng.integers(0, 4))).tolist()
        yield grades, missed, int(rng.integers(1, n + 3)), int(rng.integers(1, 4))


# --------------------------------------------------------------------------- documented numbers

def test_documented_ap_at_2_of_the_graded_pictures():
    ap = {lib: score_under(lib, GRADED, 2)["AP"] for lib in CONVENTIONS}
    assert ap["trec_eval"] == pytest.approx(0.0714, abs=5e-5)      # 0.5 / 7
    assert ap["ranx"] == pytest.approx(0.0714, abs=5e-5)
    assert ap["apk"] == 0.25                                        # 0.5 / min(7, 2)
    assert ap["torchmetrics"] == 0.5 and ap["sklearn"] == 0.5      # 0.5 / 1 found


def test_documented_ndcg_at_8_linear_and_exponential():
    for lib in ("trec_eval", "ranx", "sklearn", "torchmetrics"):
        assert score_under(lib, GRADED, 8)["NDCG"] == pytest.approx(0.7283, abs=5e-5), lib
    for lib in ("trec_eval", "ranx"):      # ir_measures nDCG(dcg='exp-log2'), ranx ndcg_burges
        assert score_under(lib, GRADED, 8, gain="exponential")["NDCG"] == \
            pytest.approx(0.6829, abs=5e-5)
    for lib in ("sklearn", "torchmetrics", "apk"):
        assert score_under(lib, GRADED, 8, gain="exponential")["NDCG"] is None
    assert score_under("apk", GRADED, 8)["NDCG"] is None


def test_published_apk_examples():
    # benhamner/Metrics' own tests: apk(range(1,6), [6,4,7,1,2], 2) == 0.25, mapk ... == 0.26
    assert apk(list(range(1, 6)), [6, 4, 7, 1, 2], 2) == pytest.approx(0.25)
    grades = [0, 1, 0, 1, 1]                      # 6, 4, 7, 1, 2 against relevant 1..5
    judged = grades + [1, 1]                      # 3 and 5 never retrieved: R = 5
    assert score_under("apk", grades, 2, judged=judged)["AP"] == pytest.approx(0.25)


def test_published_torchmetrics_examples():
    # docstrings: AP of preds [0.2, 0.3, 0.5], target [T, F, T] is 0.8333;
    # NDCG of preds [.1, .2, .3, 4, 70], target [10, 0, 0, 1, 5] is 0.6957
    assert tm_retrieval_average_precision([0.2, 0.3, 0.5], [1, 0, 1]) == pytest.approx(0.8333,
                                                                                       abs=5e-5)
    assert score_under("torchmetrics", [1, 0, 1], 3)["AP"] == pytest.approx(0.8333, abs=5e-5)
    assert tm_retrieval_normalized_dcg([.1, .2, .3, 4, 70], [10, 0, 0, 1, 5]) == \
        pytest.approx(0.6957, abs=5e-5)
    assert score_under("torchmetrics", [5, 1, 0, 0, 10], 5)["NDCG"] == \
        pytest.approx(0.6957, abs=5e-5)


# --------------------------------------------------------------------------- real libraries

def test_trec_eval_record_matches_pytrec_eval():
    for grades, missed, k, rel in random_cases():
        ids = [f"d{i:02d}" for i in range(len(grades))]
        qrels = {"q": {**{d: g for d, g in zip(ids, grades)},
                       **{f"m{i}": g for i, g in enumerate(missed)}}}
        run = {"q": {d: float(len(ids) - i) for i, d in enumerate(ids)}}
        got = pytrec_eval.RelevanceEvaluator(qrels, {f"map_cut.{k}", f"ndcg_cut.{k}"},
                                             relevance_level=rel).evaluate(run)["q"]
        ours = score_under("trec_eval", grades, k, judged=grades + missed, rel=rel)
        assert ours["AP"] == pytest.approx(got[f"map_cut_{k}"], abs=1e-9), (grades, missed, k)
        assert ours["NDCG"] == pytest.approx(got[f"ndcg_cut_{k}"], abs=1e-9), (grades, missed, k)


def test_ranx_record_matches_ranx():
    for grades, missed, k, rel in random_cases(60, seed=11):
        ids = [f"d{i:02d}" for i in range(len(grades))]
        judged = {**{d: g for d, g in zip(ids, grades)},
                  **{f"m{i}": g for i, g in enumerate(missed)}}
        qrels = ranx.Qrels({"q": judged})
        run = ranx.Run({"q": {d: float(len(ids) - i) for i, d in enumerate(ids)}})
        names = [f"map@{k}-l{rel}", f"ndcg@{k}-l{rel}", f"ndcg_burges@{k}-l{rel}"]
        got = ranx.evaluate(qrels, run, names)
        kw = dict(judged=grades + missed, rel=rel)
        assert score_under("ranx", grades, k, **kw)["AP"] == pytest.approx(got[names[0]],
                                                                          abs=1e-9)
        assert score_under("ranx", grades, k, **kw)["NDCG"] == pytest.approx(got[names[1]],
                                                                            abs=1e-9)
        assert score_under("ranx", grades, k, gain="exponential", **kw)["NDCG"] == \
            pytest.approx(got[names[2]], abs=1e-9)


def test_sklearn_record_matches_scikit_learn():
    for grades, missed, k, rel in random_cases(100, seed=3):
        scores = np.arange(len(grades), 0, -1, dtype=float)
        ours = score_under("sklearn", grades, k, judged=grades + missed, rel=rel)
        assert ours["NDCG"] == pytest.approx(metrics.ndcg_score([grades], [scores], k=k),
                                             abs=1e-9)
        y_true = (np.asarray(grades[:k]) >= rel).astype(int)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")      # "No positive class found in y_true"
            expected = metrics.average_precision_score(y_true, scores[:k]) if len(y_true) > 1 \
                else float(y_true[0])
        assert ours["AP"] == pytest.approx(expected, abs=1e-9), (grades, k, rel)


def test_torchmetrics_and_apk_records_match_their_source():
    for grades, missed, k, rel in random_cases(200, seed=5):
        preds = np.arange(len(grades), 0, -1, dtype=float)
        binary = (np.asarray(grades) >= rel).astype(int)
        tm = score_under("torchmetrics", grades, k, judged=grades + missed, rel=rel)
        assert tm["AP"] == pytest.approx(tm_retrieval_average_precision(preds, binary, k),
                                         abs=1e-9)
        assert tm["NDCG"] == pytest.approx(tm_retrieval_normalized_dcg(preds, grades, k),
                                           abs=1e-9)
        ids = [f"d{i}" for i in range(len(grades))]
        actual = [d for d, g in zip(ids, grades) if g >= rel] + \
                 [f"m{i}" for i, g in enumerate(missed) if g >= rel]
        ours = score_under("apk", grades, k, judged=grades + missed, rel=rel)["AP"]
        assert ours == pytest.approx(apk(actual, ids, k), abs=1e-9)


def test_recommenders_and_recbole_records_match_their_source():
    for grades, missed, k, rel in random_cases(200, seed=13):
        ids = [f"d{i}" for i in range(len(grades))]
        # rating_true: the held-out items a recommender engineer keeps (rating >= rel),
        # including those never recommended
        true = {**{d: g for d, g in zip(ids, grades) if g >= rel},
                **{f"m{i}": g for i, g in enumerate(missed) if g >= rel}}
        kw = dict(judged=grades + missed, rel=rel)
        want = recommenders_user(ids, true, k)
        assert score_under("recommenders", grades, k, **kw)["AP"] == pytest.approx(
            want["map_at_k"], abs=1e-12)
        assert score_under("recommenders", grades, k, denominator="relevant", **kw)["AP"] == \
            pytest.approx(want["map"], abs=1e-12)
        assert score_under("recommenders", grades, k, **kw)["NDCG"] == pytest.approx(
            want["ndcg"], abs=1e-12)
        for gain, score_type in (("linear", "raw"), ("exponential", "exp")):
            assert score_under("recommenders", grades, k, gain=gain, **kw)["NDCG"] == \
                pytest.approx(recommenders_user(ids, true, k, score_type=score_type)["ndcg"],
                              abs=1e-12), (grades, missed, k, rel, gain)
        if not true:
            continue                             # RecBole evaluates users with test items only
        rb = recbole_user([g >= rel for g in grades], len(true), k)
        ours = score_under("recbole", grades, k, **kw)
        assert (ours["AP"], ours["NDCG"], ours["HitRate"]) == pytest.approx(
            (rb["MAP"], rb["NDCG"], rb["Hit"]), abs=1e-12), (grades, missed, k, rel)


def test_recommenders_map_vs_map_at_k_on_the_graded_pictures():
    # 7 held-out relevant pictures, the first hit at rank 2: map divides 0.5 by 7, map_at_k
    # by min(7, 2) = 2
    ids = [f"d{i}" for i in range(8)]
    true = {d: g for d, g in zip(ids, GRADED) if g >= 1}
    got = recommenders_user(ids, true, 2)
    assert (got["map"], got["map_at_k"]) == pytest.approx((0.5 / 7, 0.25))
    assert score_under("recommenders", GRADED, 2, denominator="relevant")["AP"] == \
        pytest.approx(score_under("trec_eval", GRADED, 2)["AP"])
    with pytest.raises(ValueError, match="no AP that divides by 'retrieved'"):
        score_under("recommenders", GRADED, 2, denominator="retrieved")


def test_ranx_hit_rate_is_success_at_k():
    for grades, missed, k, rel in random_cases(60, seed=17):
        ids = [f"d{i:02d}" for i in range(len(grades))]
        judged = {**dict(zip(ids, grades)), **{f"m{i}": g for i, g in enumerate(missed)}}
        if not any(g >= rel for g in judged.values()):
            continue                             # ranx refuses qrels without a relevant doc
        got = ranx.evaluate(ranx.Qrels({"q": judged}),
                            ranx.Run({"q": {d: float(len(ids) - i) for i, d in enumerate(ids)}}),
                            f"hit_rate@{k}-l{rel}")
        assert score_under("ranx", grades, k, judged=grades + missed, rel=rel)["HitRate"] == \
            pytest.approx(got)


def test_torchmetrics_rejects_graded_targets_for_ap():
    with pytest.raises(ValueError):
        tm_retrieval_average_precision([3.0, 2.0, 1.0], [0, 2, 1])
    assert "must be 0/1" in CONVENTIONS["torchmetrics"].threshold_note


# --------------------------------------------------------------------------- the six rows

def test_threshold_row_trec_eval_ndcg_ignores_it_ranx_does_not():
    qrels = {"q": dict(zip(IDS, GRADED))}
    run = {"q": {d: float(8 - i) for i, d in enumerate(IDS)}}
    got = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.8", "map_cut.2"},
                                         relevance_level=2).evaluate(run)["q"]
    assert got["ndcg_cut_8"] == pytest.approx(score_under("trec_eval", GRADED, 8)["NDCG"])
    assert got["map_cut_2"] == pytest.approx(0.1)                       # 0.5 / 5
    assert score_under("trec_eval", GRADED, 2, rel=2)["AP"] == pytest.approx(0.1)
    assert score_under("trec_eval", GRADED, 8, rel=2)["NDCG"] == \
        score_under("trec_eval", GRADED, 8)["NDCG"]
    assert score_under("ranx", GRADED, 8, rel=2)["NDCG"] != \
        score_under("ranx", GRADED, 8)["NDCG"]
    assert not CONVENTIONS["trec_eval"].threshold_in_ndcg and CONVENTIONS["ranx"].threshold_in_ndcg


def test_ideal_row_judged_pool_vs_given_list():
    missed = [4, 4]                                    # two excellent pictures never retrieved
    judged = GRADED + missed
    trec = score_under("trec_eval", GRADED, 8, judged=judged)["NDCG"]
    sk = score_under("sklearn", GRADED, 8, judged=judged)["NDCG"]
    assert sk == pytest.approx(0.7283, abs=5e-5)       # cannot see what was never retrieved
    assert trec < sk
    assert CONVENTIONS["trec_eval"].ideal == "judged" and CONVENTIONS["sklearn"].ideal == "shown"


def test_empty_query_row_every_library_scores_zero():
    none = [0, 0, 0]
    for lib in CONVENTIONS:
        values = score_under(lib, none, 3)
        assert all(v in (None, 0.0) for v in values.values()), lib
    qrels = {"q": {"a": 0, "b": 0, "c": 0}, "r": {"a": 1}}
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}, "r": {"a": 1.0}}
    got = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg"}).evaluate(run)
    assert got["q"] == {"map": 0.0, "ndcg": 0.0}
    scores = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), ["map", "ndcg"], return_mean=False)
    assert scores["map"].tolist() == [0.0, 1.0] and scores["ndcg"].tolist() == [0.0, 1.0]
    assert metrics.ndcg_score([none], [[3, 2, 1]]) == 0.0
    with pytest.warns(Warning, match="[Nn]o positive"):
        assert metrics.average_precision_score(none, [3, 2, 1]) == 0.0
    assert apk([], ["a", "b"], 2) == 0.0
    assert tm_retrieval_average_precision([3.0, 2.0, 1.0], none) == 0.0


@pytest.mark.parametrize("missed", [[], [4, 2]], ids=["all-returned", "two-never-returned"])
def test_tie_row_against_pytrec_eval_ranx_and_sklearn(missed):
    # the graded pictures, the first two ("dog", grade 0; "white-cat-box", grade 4) tied;
    # ``missed``: grades of judged documents the run never returned
    ids = ["dog", "white-cat-box", "empty-box", "ginger-cat-box", "white-cat-box-2",
           "two-cats", "dark-cat-box", "dog-box"]
    scores = [8.0, 8.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0]
    qrels = {"q": {**dict(zip(ids, GRADED)),
                   **{f"missed-{i}": g for i, g in enumerate(missed)}}}
    run = {"q": dict(zip(ids, scores))}
    for k in (1, 2, 8):
        r = tie_scores(GRADED, ids, scores, k, missed=missed)
        assert r["doc_id_desc"]["order"][:2] == ["white-cat-box", "dog"]
        assert r["input"]["order"][:2] == ["dog", "white-cat-box"]
        got = pytrec_eval.RelevanceEvaluator(qrels, {f"map_cut.{k}", f"ndcg_cut.{k}"}) \
            .evaluate(run)["q"]
        assert r["doc_id_desc"]["AP"] == pytest.approx(got[f"map_cut_{k}"], abs=1e-9)
        assert r["doc_id_desc"]["NDCG"] == pytest.approx(got[f"ndcg_cut_{k}"], abs=1e-9)
        rx = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), [f"map@{k}", f"ndcg@{k}"])
        assert r["input"]["AP"] == pytest.approx(rx[f"map@{k}"], abs=1e-9)
        assert r["input"]["NDCG"] == pytest.approx(rx[f"ndcg@{k}"], abs=1e-9)
        # scikit-learn and torchmetrics only see the list they are given
        assert r["average"]["NDCG"] == pytest.approx(
            metrics.ndcg_score([GRADED], [scores], k=k), abs=1e-9)
        assert r["average"]["NDCG"] == pytest.approx(
            tm_retrieval_normalized_dcg(scores, GRADED, k), abs=1e-9)
    at2 = tie_scores(GRADED, ids, scores, 2, missed=missed)
    assert at2["doc_id_desc"]["NDCG"] != at2["input"]["NDCG"]       # the tie changes the score
    # the input rule scores the given order exactly as the side-by-side ranx column does
    ranx_record = score_under("ranx", GRADED, 2, judged=GRADED + missed)
    assert (at2["input"]["AP"], at2["input"]["NDCG"]) == pytest.approx(
        (ranx_record["AP"], ranx_record["NDCG"]))


def test_tie_rules_cover_the_records():
    assert {c.ties for c in CONVENTIONS.values()} - {"none"} <= set(TIE_RULES)


# --------------------------------------------------------------------------- the records

def test_every_record_is_complete_and_cited():
    for conv in CONVENTIONS.values():
        for _, field in ROWS:
            assert getattr(conv, field).strip(), (conv.key, field)
        assert conv.sources and all(a and b for a, b in conv.sources), conv.key
        assert conv.version
        assert (conv.ap_call is None) == (conv.ap_denominator is None)
        assert (conv.ndcg_call is None) == (conv.ideal is None) == (not conv.gains)


def test_conventions_table_is_rows_by_libraries():
    table = conventions_table()
    assert list(table.index) == [label for label, _ in ROWS]
    assert list(table.columns) == [c.name for c in CONVENTIONS.values()]
    assert table.loc["AP@K denominator", "Kaggle apk (ml_metrics)"].startswith("min(R, K)")


def test_bad_input_names_the_problem():
    with pytest.raises(ValueError, match="unknown library 'sk'"):
        score_under("sk", GRADED, 2)
    with pytest.raises(ValueError, match="k must be"):
        score_under("ranx", GRADED, 0)
    with pytest.raises(ValueError, match="same length"):
        tie_scores([1, 0], ["a"], [1.0, 1.0], 2)
    with pytest.raises(ValueError, match="unique"):
        tie_scores([1, 0], ["a", "a"], [1.0, 1.0], 2)
