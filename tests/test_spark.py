"""irlib.spark.evaluate on local[2] against in-memory irlib.evaluate: the same numbers to 1e-12,
per query and over all queries, on random data with ties, queries missing from the run and
queries only in the run. The session is shared (tests/conftest.py, tests/spark_session.py)."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import irlib
import irlib.spark
from irlib.measures.registry import RUN_MEASURES
from irlib.measures.trec_names import expand_measures
from tests.test_parity import random_case

# every run measure of the registry: trec_eval's all_trec, plus those it does not print
MEASURES = ["all_trec", "F1@5", "DCG@5", "nDCG(dcg='exp-log2')@10", "P(rel=2)@5", "AP(rel=2)",
            "Judged@5", "Judged", "RBP(p=0.9)@10", "RBPResidual", "INST(T=2)", "ERR@10"]


def spark_frames(spark, qrels: pd.DataFrame, run: pd.DataFrame):
    return spark.createDataFrame(qrels), spark.createDataFrame(run)


def assert_same(got, expected: irlib.Evaluation) -> None:
    per_query = got.per_query.toPandas().set_index("query_id").sort_index()
    want = expected.per_query.sort_index()
    assert list(per_query.index) == list(want.index)
    assert list(per_query.columns) == list(want.columns)
    np.testing.assert_allclose(per_query.to_numpy(float), want.to_numpy(float), rtol=0,
                               atol=1e-12, equal_nan=True)
    np.testing.assert_allclose(got.means.to_numpy(), expected.means.to_numpy(), rtol=0,
                               atol=1e-12, equal_nan=True)
    assert list(got.means.index) == list(expected.means.index)
    assert got.n_queries == len(want)
    assert got.n_missing == len(expected.missing_queries)
    assert got.n_ignored == len(expected.ignored_queries)
    assert got.n_averaged == expected.n_averaged
    missing = sorted(r.query_id for r in got.missing_queries.collect())
    assert tuple(missing) == expected.missing_queries
    got.unpersist()


def test_the_measures_cover_every_run_measure_of_the_registry():
    assert {m.name for m in expand_measures(MEASURES)} == set(RUN_MEASURES)


@pytest.mark.parametrize("options", [
    {}, {"complete": True}, {"complete": True, "depth": 8, "judged_only": True}],
    ids=["default", "complete", "complete-depth-judged-only"])
def test_same_numbers_as_in_memory_evaluate(spark, options):
    qrels, run = random_case(seed=4, n_queries=240)
    expected = irlib.evaluate(qrels, run, MEASURES, **options)
    assert expected.missing_queries and expected.ignored_queries     # the case has both
    got = irlib.spark.evaluate(*spark_frames(spark, qrels, run), MEASURES, **options)
    assert_same(got, expected)


def test_ranks_integer_ids_and_recommender_column_names(spark):
    """Users and items as numbers (the run's user ids as floats, as a CSV reader may make
    them), ratings, and a rank column where equal scores share a rank: ties go by item id
    descending as text, as in irlib.evaluate."""
    qrels, run = random_case(seed=9, n_queries=120)
    number = lambda ids: ids.str.extract(r"(\d+)")[0].fillna("0").astype(int)
    interactions = pd.DataFrame({"user_id": number(qrels["query_id"]),
                                 "item_id": number(qrels["doc_id"]),
                                 "rating": qrels["relevance"]}).drop_duplicates(
        ["user_id", "item_id"])
    run = run.assign(user_id=number(run["query_id"]).astype(float),
                     item_id=number(run["doc_id"]), rank=(12 - 4 * run["score"]).astype(int))
    run = run.drop_duplicates(["user_id", "item_id"])
    expected = irlib.evaluate(
        interactions.rename(columns={"user_id": "query_id", "item_id": "doc_id",
                                     "rating": "relevance"}),
        run[["user_id", "item_id", "score"]].rename(columns={"user_id": "query_id",
                                                             "item_id": "doc_id"}),
        ["nDCG@10", "R@10", "Success@10", "AP", "P@5"], complete=True)
    got = irlib.spark.evaluate(spark.createDataFrame(interactions),
                               spark.createDataFrame(run[["user_id", "item_id", "rank"]]),
                               ["nDCG@10", "R@10", "Success@10", "AP", "P@5"], complete=True)
    assert_same(got, expected)


def test_one_input_contract_in_memory_and_on_spark(spark):
    """The same aliased frames (qid/docno/rel, a rank column) give the same numbers, and
    text scores are refused with the same message."""
    qrels, run = random_case(seed=11, n_queries=60)
    qrels = qrels.set_axis(["qid", "docno", "rel"], axis=1)
    run = run.assign(rank=(12 - 4 * run["score"]).astype(int))[["query_id", "doc_id", "rank"]]
    run = run.set_axis(["qid", "docno", "rank"], axis=1)
    names = ["nDCG@10", "AP", "RBP", "ERR@5", "recall"]
    got = irlib.spark.evaluate(*spark_frames(spark, qrels, run), names)
    assert_same(got, irlib.evaluate(qrels, run, names))
    text = run.assign(rank=run["rank"].astype(str))
    with pytest.raises(ValueError, match="run: column 'rank' holds .*, not numbers") as memory:
        irlib.evaluate(qrels, text, ["AP"])
    with pytest.raises(ValueError, match="run: column 'rank' holds .*, not numbers") as on_spark:
        irlib.spark.evaluate(*spark_frames(spark, qrels, text), ["AP"])
    assert str(memory.value).split(" holds ")[0] == str(on_spark.value).split(" holds ")[0]


def test_bad_input_is_a_clear_message(spark):
    qrels = spark.createDataFrame(pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "a"],
                                                "relevance": [1, 2]}))
    run = spark.createDataFrame(pd.DataFrame({"query_id": ["1"], "doc_id": ["a"],
                                              "score": [1.0]}))
    with pytest.raises(ValueError, match="qrels has duplicate rows .*doc 'a'"):
        irlib.spark.evaluate(qrels, run, ["AP"])
    with pytest.raises(ValueError, match="run has no score or rank column"):
        irlib.spark.evaluate(qrels, run.withColumnRenamed("score", "s"), ["AP"])
    with pytest.raises(ValueError, match="no column 'uid'"):
        irlib.spark.evaluate(qrels, run, ["AP"], query_col="uid")
    with pytest.raises(ValueError, match="unknown measure .NotAMeasure."):
        irlib.spark.evaluate(qrels, run, ["NotAMeasure@3"])


def test_a_run_that_answers_no_query_has_no_means(spark):
    qrels = spark.createDataFrame(pd.DataFrame({"query_id": ["1"], "doc_id": ["a"],
                                                "relevance": [1]}))
    run = spark.createDataFrame(pd.DataFrame({"query_id": ["2"], "doc_id": ["a"],
                                              "score": [1.0]}))
    got = irlib.spark.evaluate(qrels, run, ["AP", "NumQ"])
    assert got.means.isna().all() and (got.n_averaged, got.n_ignored) == (0, 1)
    got.unpersist()


def test_irlib_and_the_app_never_import_pyspark():
    code = ("import sys, irlib, irlib.spark, irlib.measures.conventions, ui.lessons.libraries; "
            "assert 'pyspark' not in sys.modules, 'pyspark imported'")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120,
                   cwd=str(__import__("pathlib").Path(__file__).resolve().parents[1]))


@pytest.mark.parametrize("ids", [[True, False], [1e20, 1.0]], ids=["boolean", "float-1e20"])
def test_ids_are_refused_alike_in_memory_and_on_spark(spark, ids):
    """True/False would be read as "true" by Spark, and 1e20 overflowed Spark's long: both
    are refused with irlib.evaluate's own message."""
    qrels = pd.DataFrame({"query_id": ids, "doc_id": ["a", "b"], "relevance": [1, 1]})
    run = pd.DataFrame({"query_id": ids, "doc_id": ["a", "b"], "score": [1.0, 2.0]})
    with pytest.raises(ValueError, match="True/False|2\\*\\*53") as in_memory:
        irlib.evaluate(qrels, run, ["AP"])
    with pytest.raises(ValueError) as on_spark:
        irlib.spark.evaluate(*spark_frames(spark, qrels, run), ["AP"])
    assert str(on_spark.value) == str(in_memory.value)


@pytest.mark.parametrize("side, column", [("run", "doc_id"), ("qrels", "doc_id"),
                                          ("run", "score"), ("qrels", "relevance"),
                                          ("run", "query_id")])
def test_an_empty_cell_is_refused_as_in_memory(spark, side, column):
    """A null id, score or grade is refused as irlib.evaluate refuses it (each query's ids
    and values travel as lists, and collect_list drops nulls: a null must not vanish)."""
    schema = {"qrels": "query_id long, doc_id long, relevance double",
              "run": "query_id long, doc_id long, score double"}
    rows = {"qrels": [(1, 1, 1.0), (1, 2, 0.0), (2, 3, 1.0)],
            "run": [(1, 1, 1.0), (1, 2, 2.0), (2, 3, 0.5)]}
    at = schema[side].split(", ").index(next(c for c in schema[side].split(", ")
                                             if c.startswith(column + " ")))
    rows[side][0] = tuple(None if i == at else v for i, v in enumerate(rows[side][0]))
    frames = {k: spark.createDataFrame(v, schema[k]) for k, v in rows.items()}
    memory = {k: v.toPandas() for k, v in frames.items()}
    with pytest.raises(ValueError, match="is empty|is nan") as in_memory:
        irlib.evaluate(memory["qrels"], memory["run"], ["AP"])
    with pytest.raises(ValueError) as on_spark:
        irlib.spark.evaluate(frames["qrels"], frames["run"], ["AP"])
    wanted = str(in_memory.value).split(": ", 1)[1].split(" (")[0]   # "doc_id is empty"
    assert str(on_spark.value).startswith(side) and wanted in str(on_spark.value)
