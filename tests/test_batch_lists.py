"""irlib.batch.lists (irlib.spark's path in each partition) against irlib.evaluate, without
Spark: the same values on random data with ties, missing and ignored queries, for integer,
short-text and long-text ids, and None (the general path, which words the message)
wherever irlib.evaluate would refuse the data."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import irlib
from irlib.batch.core import check_options
from irlib.batch.lists import score_lists
from tests.test_parity import random_case

MEASURES = ["all_trec", "F1@5", "nDCG(dcg='exp-log2')@10", "P(rel=2)@5", "Judged@5",
            "RBP(p=0.9)@10", "INST(T=2)", "ERR@10"]


def as_lists(qrels: pd.DataFrame, run: pd.DataFrame) -> pa.Table:
    """One row per query, as irlib.spark's full outer join of the two sides' lists makes it
    (a query on one side only has null lists on the other)."""
    def side(df, value, name):
        grouped = df.groupby("query_id", sort=False)
        return pd.DataFrame({f"{name}_doc": grouped["doc_id"].agg(list),
                             f"{name}_value": grouped[value].agg(list)})
    both = side(qrels, "relevance", "qrels").join(side(run, "score", "run"), how="outer")
    both = both.sample(frac=1, random_state=0)          # no order to lean on
    doc_type = pa.int64() if pd.api.types.is_integer_dtype(run["doc_id"]) else pa.string()
    query_type = pa.int64() if pd.api.types.is_integer_dtype(run["query_id"]) else pa.string()
    column = {name: [None if not isinstance(v, list) else v for v in both[name]]
              for name in both.columns}
    return pa.table({
        "query_id": pa.array(both.index.tolist(), query_type),
        **{name: pa.array(column[name], pa.list_(doc_type if name.endswith("_doc")
                                                 else pa.float64()))
           for name in ("qrels_doc", "qrels_value", "run_doc", "run_value")}})


def integer_ids(qrels, run, seed=1):
    """The case's doc ids as integers of 1 to 5 digits (ties then order "9" above "10"),
    its query ids as integers too."""
    rng = np.random.default_rng(seed)
    docs = sorted(set(qrels["doc_id"]) | set(run["doc_id"]))
    candidates = np.concatenate([np.arange(1, 10), rng.choice(np.arange(10, 100), 40, False),
                                 rng.choice(np.arange(100, 100_000), 80, False)])
    number = dict(zip(docs, rng.choice(candidates, len(docs), replace=False)))
    queries = sorted(set(qrels["query_id"]) | set(run["query_id"]))
    query = {q: i * 7 for i, q in enumerate(queries)}
    return [df.assign(doc_id=df["doc_id"].map(number).astype(np.int64),
                      query_id=df["query_id"].map(query).astype(np.int64))
            for df in (qrels, run)]


def long_ids(qrels, run):
    return [df.assign(doc_id="document-" + df["doc_id"]) for df in (qrels, run)]


def check(qrels, run, **options):
    expected = irlib.evaluate(qrels, run, MEASURES, **options)
    parsed = check_options(MEASURES, complete=options.get("complete", False),
                           depth=options.get("depth"),
                           judged_only=options.get("judged_only", False))
    got = score_lists(as_lists(qrels, run), parsed, **options)
    assert got is not None
    ids = got.query_ids.to_pylist()
    want = expected.per_query.loc[ids]
    for column in want.columns:
        np.testing.assert_allclose(got.values[column], want[column].to_numpy(float), rtol=0,
                                   atol=1e-12, equal_nan=True, err_msg=column)
    assert sorted(ids) == sorted(expected.per_query.index)
    missing = sorted(q for q, a in zip(ids, got.answered) if not a)
    assert missing == sorted(expected.missing_queries)
    assert sorted(got.ignored_ids.to_pylist()) == sorted(expected.ignored_queries)


@pytest.mark.parametrize("ids", [None, integer_ids, long_ids],
                         ids=["short-text", "integers", "long-text"])
@pytest.mark.parametrize("options", [
    {}, {"complete": True}, {"complete": True, "depth": 8, "judged_only": True}],
    ids=["default", "complete", "complete-depth-judged-only"])
def test_same_values_as_evaluate(ids, options):
    qrels, run = random_case(seed=7, n_queries=150)
    if ids is not None:
        qrels, run = ids(qrels, run)
    check(qrels, run, **options)


def test_integer_ids_tie_as_text():
    """Tied scores order the ids as text, descending: "9" ranks above "10" and "100"."""
    qrels = pd.DataFrame({"query_id": [1, 1], "doc_id": [9, 100], "relevance": [1, 0]})
    run = pd.DataFrame({"query_id": [1, 1, 1], "doc_id": [10, 9, 100],
                        "score": [1.0, 1.0, 1.0]})
    check(qrels, run)
    parsed = check_options(["RR"], complete=False, depth=None, judged_only=False)
    assert score_lists(as_lists(qrels, run), parsed).values["RR"].tolist() == [1.0]


@pytest.mark.parametrize("spoil", ["duplicate run row", "duplicate judgment", "nan score",
                                   "mixed id types", "no run at all"])
def test_what_evaluate_refuses_goes_back_to_the_general_path(spoil):
    qrels = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "relevance": [1, 0]})
    run = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "score": [2.0, 1.0]})
    if spoil == "duplicate run row":
        run.loc[1, "doc_id"] = "a"
    elif spoil == "duplicate judgment":
        qrels.loc[1, "doc_id"] = "a"
    elif spoil == "nan score":
        run.loc[0, "score"] = np.nan
    table = as_lists(qrels, run)
    if spoil == "mixed id types":
        table = table.set_column(1, "qrels_doc", pa.array([[1, 2]], pa.list_(pa.int64())))
    if spoil == "no run at all":
        table = as_lists(qrels, run.iloc[:0])
    parsed = check_options(["AP"], complete=False, depth=None, judged_only=False)
    assert score_lists(table, parsed) is None
