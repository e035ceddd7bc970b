"""Every bad input raises a ValueError that says what is wrong."""
import math

import pandas as pd
import pytest

import irlib


@pytest.mark.parametrize("k", [0, -1, 2.5, "3", None, True])
def test_bad_k(k):
    with pytest.raises(ValueError, match="k must be"):
        irlib.precision_at_k([1, 0], k)


@pytest.mark.parametrize("fn", [irlib.precision_at_k, irlib.recall_at_k, irlib.ndcg_at_k,
                                irlib.average_precision, irlib.reciprocal_rank])
def test_nan_grade(fn):
    with pytest.raises(ValueError, match=r"grades\[1\] is nan"):
        fn([1, math.nan, 0], 2)


def test_negative_and_non_numeric_grades():
    with pytest.raises(ValueError, match=r"grades\[0\] is -1; grades must be >= 0"):
        irlib.dcg_at_k([-1, 2], 2)
    with pytest.raises(ValueError, match="sequence of numbers"):
        irlib.dcg_at_k("0123", 2)
    with pytest.raises(ValueError, match="sequence of numbers"):
        irlib.dcg_at_k([1, "a"], 2)


def test_bad_switches():
    with pytest.raises(ValueError, match="gain must be one of"):
        irlib.dcg_at_k([1], 1, gain="cubic")
    with pytest.raises(ValueError, match="denominator must be one of"):
        irlib.average_precision([1], 1, denominator="all")
    with pytest.raises(ValueError, match="ideal must be one of"):
        irlib.ndcg_at_k([1], 1, ideal="best")
    with pytest.raises(ValueError, match="rel must be a whole number >= 1"):
        irlib.precision_at_k([1], 1, rel=0)
    with pytest.raises(ValueError, match="metric must be one of"):
        irlib.explain("MAP", [1], 1)
    with pytest.raises(ValueError, match="at least one query"):
        irlib.mean_reciprocal_rank([])


def _frames():
    qrels = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "relevance": [1, 0]})
    run = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "score": [1.0, 0.5]})
    return qrels, run


def test_nan_score_names_the_row():
    qrels, run = _frames()
    run.loc[1, "score"] = math.nan
    with pytest.raises(ValueError, match=r"run row 1: score is nan .*query '1', doc 'b'"):
        irlib.evaluate(qrels, run, ["AP"])


def test_duplicate_rows_are_named():
    qrels, run = _frames()
    run = pd.concat([run, run.iloc[[0]]], ignore_index=True)
    with pytest.raises(ValueError, match=r"run has duplicate rows 0 and 2: query '1', doc 'a'"):
        irlib.evaluate(qrels, run, ["AP"])
    qrels = pd.concat([qrels, qrels.iloc[[1]]], ignore_index=True)
    with pytest.raises(ValueError, match=r"qrels has duplicate rows 1 and 2"):
        irlib.evaluate(qrels, _frames()[1], ["AP"])


def test_missing_columns_and_empty_frames():
    qrels, run = _frames()
    with pytest.raises(ValueError, match=r"run has no score or rank column: tried score"):
        irlib.evaluate(qrels, run.drop(columns="score"), ["AP"])
    with pytest.raises(ValueError, match="qrels is empty"):
        irlib.evaluate(qrels.iloc[:0], run, ["AP"])
    with pytest.raises(ValueError, match="at least one measure"):
        irlib.evaluate(qrels, run, [])


@pytest.mark.parametrize("text, message", [
    ("P", "P needs a cut-off"), ("nDCG@0", "cut-off .* must be a positive integer"),
    ("MAP@x", "unknown measure 'MAP'"), ("nDCG(dcg='cubic')@5", "dcg in .* must be one of"),
    ("AP(rel=0)", "rel in .* must be a positive integer"), ("AP(gain=2)", "AP has no parameter"),
    ("P@5@3", "cannot read measure|must be a positive integer"),
])
def test_bad_measure_names(text, message):
    with pytest.raises(ValueError, match=message):
        irlib.parse_measure(text)


def test_empty_run_is_not_an_error():
    qrels, run = _frames()
    ev = irlib.evaluate(qrels, run.iloc[:0], ["AP", "nDCG@5"])   # trec_eval: nothing to average
    assert ev.means.isna().all() and ev.missing_queries == ("1",) and ev.n_averaged == 0
    ev = irlib.evaluate(qrels, run.iloc[:0], ["AP", "nDCG@5"], complete=True)   # -c: all 0
    assert ev.means.tolist() == [0.0, 0.0] and ev.n_averaged == 1


@pytest.mark.parametrize("complete", ["yes", 1, None])
def test_complete_must_be_a_bool(complete):
    qrels, run = _frames()
    with pytest.raises(ValueError, match="complete must be True or False"):
        irlib.evaluate(qrels, run, ["AP"], complete=complete)
