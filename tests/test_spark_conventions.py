"""irlib.measures.conventions' Spark record against real pyspark (RankingEvaluator, local[2], the shared
session of tests/conftest.py): what its NDCG does with grades, what its MAP divides by, that
ties are the caller's order, and what a query without relevant items scores. The app shows
irlib's reimplementation; these tests are why it can be trusted."""
from __future__ import annotations

import numpy as np
import pytest

from irlib.measures.conventions import CONVENTIONS, score_under
from tests.test_conventions import GRADED, random_cases

METRICS = {"ndcgAtK": ("NDCG", None), "meanAveragePrecisionAtK": ("AP", None),
           "meanAveragePrecision": ("AP", "relevant")}


def evaluate(spark, rows, metric, k):
    """RankingEvaluator's mean over ``rows`` of (prediction ids, label ids), as doubles."""
    from pyspark.ml.evaluation import RankingEvaluator
    df = spark.createDataFrame([([float(x) for x in p], [float(x) for x in lab])
                                for p, lab in rows],
                               "prediction array<double>, label array<double>")
    return RankingEvaluator(metricName=metric, k=k).evaluate(df)


def as_arrays(grades, missed, rel):
    """The ranking as Spark takes it: item ids in rank order, and the relevant items (grade >=
    rel) as the label array, including those never recommended (ids 1000+)."""
    prediction = list(range(len(grades)))
    label = [i for i, g in enumerate(grades) if g >= rel] + \
            [1000 + i for i, g in enumerate(missed) if g >= rel]
    return prediction, label


@pytest.mark.parametrize("k", [1, 3, 8])
def test_spark_record_matches_ranking_evaluator(spark, k):
    """Every RankingEvaluator value is the mean over rows, so each K's random cases are one
    DataFrame, and irlib's per-case values are averaged the same way."""
    cases = list(random_cases(40, seed=100 + k))
    rows = [as_arrays(grades, missed, rel) for grades, missed, _, rel in cases]
    for metric, (field, denominator) in METRICS.items():
        ours = []
        for grades, missed, _, rel in cases:
            kk = len(grades) if metric == "meanAveragePrecision" else k   # no K: whole array
            ours.append(score_under("spark", grades, kk, judged=grades + missed, rel=rel,
                                    denominator=denominator)[field])
        assert evaluate(spark, rows, metric, k) == pytest.approx(np.mean(ours), abs=1e-12), metric


def test_ndcg_ignores_grades_and_map_at_k_divides_by_min_r_k(spark):
    prediction, label = as_arrays(GRADED, [], 1)
    ndcg = evaluate(spark, [(prediction, label)], "ndcgAtK", 8)
    assert ndcg == pytest.approx(score_under("spark", GRADED, 8)["NDCG"], abs=1e-12)
    assert ndcg == pytest.approx(0.8118, abs=5e-5)                   # binary, not 0.7283
    # grades do not matter: every picture relevant at grade 4 gives the same number
    assert evaluate(spark, [(prediction, label)], "ndcgAtK", 8) == pytest.approx(
        score_under("trec_eval", [min(g, 1) * 4 for g in GRADED], 8)["NDCG"], abs=1e-12)
    assert evaluate(spark, [(prediction, label)], "meanAveragePrecisionAtK", 2) == \
        pytest.approx(0.25)                                           # 0.5 / min(7, 2)
    assert evaluate(spark, [(prediction[:2], label)], "meanAveragePrecision", 2) == \
        pytest.approx(0.5 / 7)                                        # 0.5 / R
    assert CONVENTIONS["spark"].gains == ("binary",)


def test_no_relevant_item_scores_zero_and_counts_and_duplicates_count_again(spark):
    both = [([1, 2], []), ([1], [1])]
    for metric in ("ndcgAtK", "meanAveragePrecisionAtK", "meanAveragePrecision"):
        assert evaluate(spark, both, metric, 2) == pytest.approx(0.5), metric   # (0 + 1) / 2
    assert score_under("spark", [0, 0], 2) == {"AP": 0.0, "NDCG": 0.0, "HitRate": None}
    assert evaluate(spark, [([2, 2, 3], [2, 5])], "meanAveragePrecision", 3) == 1.0
    assert "counts again" in CONVENTIONS["spark"].ties_note


def test_ties_are_the_callers_order_and_ids_must_be_numbers(spark):
    from pyspark.ml.evaluation import RankingEvaluator
    label = [1]
    assert evaluate(spark, [([0, 1], label)], "ndcgAtK", 2) != \
        evaluate(spark, [([1, 0], label)], "ndcgAtK", 2)              # same scores, two orders
    df = spark.createDataFrame([(["a", "b"], ["b"])],
                               "prediction array<string>, label array<string>")
    with pytest.raises(Exception, match="array<double>"):
        RankingEvaluator(metricName="ndcgAtK", k=2).evaluate(df)


def test_irlib_spark_in_sparks_convention_is_ranking_evaluator(spark):
    """``irlib.spark.evaluate(..., convention="spark")`` gives RankingEvaluator's five
    numbers on the same rankings: the arrays a Spark user builds (results sorted by score,
    then doc id descending as trec_eval; the relevant doc ids, empty for a query without
    any), one row per query both sides have."""
    import irlib
    import irlib.spark
    from tests.test_parity import random_case
    qrels, run = random_case(seed=21, n_queries=120)
    measures = {"P@5": ("precisionAtK", 5), "R@5": ("recallAtK", 5),
                "nDCG@5": ("ndcgAtK", 5), "AP@5": ("meanAveragePrecisionAtK", 5),
                "AP": ("meanAveragePrecision", 5)}
    got = irlib.spark.evaluate(spark.createDataFrame(qrels), spark.createDataFrame(run),
                               list(measures), convention="spark")
    code = {doc: float(i) for i, doc in enumerate(sorted(set(qrels.doc_id) | set(run.doc_id)))}
    ranked = run.sort_values(["query_id", "score", "doc_id"], ascending=[True, False, False])
    rows = []
    for query, judged in qrels.groupby("query_id"):
        results = ranked[ranked.query_id == query]
        if len(results):
            rows.append(([code[d] for d in results.doc_id],
                         [code[d] for d in judged.doc_id[judged.relevance >= 1]]))
    df = spark.createDataFrame(rows, "prediction array<double>, label array<double>")
    from pyspark.ml.evaluation import RankingEvaluator
    for name, (metric, k) in measures.items():
        assert got.means[name] == pytest.approx(
            RankingEvaluator(metricName=metric, k=k).evaluate(df), abs=1e-12), name
    assert got.n_averaged == len(rows)
    got.unpersist()
    default = irlib.evaluate(qrels, run, ["nDCG@5", "AP@5"]).means   # graded NDCG, AP over R
    assert (default != got.means[["nDCG@5", "AP@5"]]).all()
    with pytest.raises(ValueError, match="RankingEvaluator has no Rprec"):
        irlib.spark.evaluate(spark.createDataFrame(qrels), spark.createDataFrame(run),
                             ["Rprec"], convention="spark")
    with pytest.raises(ValueError, match="convention must be one of"):
        irlib.spark.evaluate(spark.createDataFrame(qrels), spark.createDataFrame(run),
                             ["AP"], convention="ranx")
