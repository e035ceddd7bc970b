"""One input contract for irlib.evaluate and irlib.spark.evaluate (irlib._columns), and
trec_eval's measure names in the API exactly as the CLI takes them."""
import pandas as pd
import pytest

import irlib
from irlib._columns import QUERY_COLUMNS, choose_columns
from irlib.cli.trec_eval import measure_lines
from irlib.measures.registry import TREC_EVAL_NAMES


def _frames():
    qrels = pd.DataFrame({"query_id": ["1", "1", "1", "2"], "doc_id": ["a", "b", "c", "a"],
                          "relevance": [2, 0, 1, 1]})
    run = pd.DataFrame({"query_id": ["1", "1", "1", "2"], "doc_id": ["b", "a", "c", "a"],
                        "score": [3.0, 2.0, 1.0, 5.0]})
    return qrels, run


def test_spark_reads_the_same_column_names():
    import irlib.spark
    assert irlib.spark.QUERY_COLUMNS is QUERY_COLUMNS
    assert irlib.spark.choose_columns is choose_columns


@pytest.mark.parametrize("names", [("qid", "docno", "rel"), ("user_id", "item_id", "rating"),
                                   ("QUERY", "Doc", "Grade")])
def test_aliases_and_a_rank_column_give_the_same_numbers(names):
    qrels, run = _frames()
    want = irlib.evaluate(qrels, run, ["AP", "nDCG@2", "P@1"]).per_query
    q = qrels.set_axis(list(names), axis=1)
    r = run.assign(rank=[1, 2, 3, 1]).drop(columns="score").set_axis(
        [names[0], names[1], "rank"], axis=1)
    pd.testing.assert_frame_equal(irlib.evaluate(q, r, ["AP", "nDCG@2", "P@1"]).per_query, want)
    named = run.set_axis(["q", "d", "s"], axis=1)
    got = irlib.evaluate(qrels.set_axis(["q", "d", "g"], axis=1), named, ["AP", "nDCG@2", "P@1"],
                         query_col="q", doc_col="d", relevance_col="g", score_col="s")
    pd.testing.assert_frame_equal(got.per_query, want)


def test_text_and_boolean_values_are_refused_as_on_spark():
    qrels, run = _frames()
    with pytest.raises(ValueError, match=r"run: column 'score' holds .*, not numbers"):
        irlib.evaluate(qrels, run.assign(score=run["score"].astype(str)), ["AP"])
    with pytest.raises(ValueError, match=r"qrels: column 'relevance' holds .*, not numbers"):
        irlib.evaluate(qrels.assign(relevance=["2", "0", "1", "1"]), run, ["AP"])
    with pytest.raises(ValueError, match="not numbers"):
        irlib.evaluate(qrels.assign(relevance=[True, False, True, True]), run, ["AP"])
    with pytest.raises(ValueError, match="score or rank column: tried score, prediction"):
        irlib.evaluate(qrels, run.drop(columns="score"), ["AP"])
    with pytest.raises(ValueError, match="a score column or a rank column, not both"):
        irlib.evaluate(qrels, run, ["AP"], score_col="score", rank_col="rank")


def test_half_a_grade_is_not_relevant_but_gains():
    qrels, run = _frames()
    qrels = qrels.assign(relevance=[0.5, 0, 0, 0.5])
    ev = irlib.evaluate(qrels, run, ["P@3", "nDCG@3"]).per_query
    assert ev["P@3"].tolist() == [0.0, 0.0]
    assert (ev["nDCG@3"] > 0).all()


@pytest.mark.parametrize("name", ["P", "recall", "map_cut", "ndcg_cut", "iprec_at_recall",
                                  "success", "map", "Rprec", "P.5,10", "recall_10",
                                  "set_F.0.5", "official"])
def test_evaluate_takes_trec_eval_names_as_the_cli_does(name):
    qrels, run = _frames()
    lines, _ = measure_lines([name], None, None)
    cli = [str(line.measure) for line in lines if line.measure is not None]
    got = irlib.evaluate(qrels, run, [name]).per_query
    assert sorted(got.columns) == sorted(cli) and len(cli) >= 1


@pytest.mark.parametrize("name", ["recall", "map_cut", "iprec_at_recall", "ndcg_cut", "foo",
                                  "Recall"])
def test_a_refused_name_is_never_listed_as_known(name):
    with pytest.raises(ValueError) as error:
        irlib.parse_measure(name)
    message = str(error.value)
    known = message.split("known:", 1)[1] if "known:" in message else ""
    assert name not in [part.strip(" ;") for part in known.replace(";", ",").split(",")]
    if name in TREC_EVAL_NAMES:
        assert f"{name}_" in message           # says how to name one cut-off


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_a_score_that_is_not_finite_is_refused_and_huge_ones_are_scored(bad):
    """One sum tells finite scores apart (NaN and inf carry through it); a sum that only
    overflows (scores near the largest float) falls back to the row-by-row check."""
    qrels, run = _frames()
    with pytest.raises(ValueError, match=r"run row 2: score is (nan|inf|-inf) .*finite"):
        irlib.evaluate(qrels, run.assign(score=[3.0, 2.0, bad, 5.0]), ["AP"])
    with pytest.raises(ValueError, match=r"run row 0: score is inf"):
        irlib.evaluate(qrels, run.assign(score=[float("inf"), -float("inf"), 1.0, 1.0]),
                       ["AP"])
    huge = run.assign(score=[1.7e308, 1.6e308, 1.5e308, 1.7e308])
    pd.testing.assert_frame_equal(irlib.evaluate(qrels, huge, ["AP"]).per_query,
                                  irlib.evaluate(qrels, run, ["AP"]).per_query)
