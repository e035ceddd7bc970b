"""infAP (trec_eval's m_infap.c) against pytrec_eval on random data, to 1e-9, and its
one-ranking function and explainer against irlib.evaluate.

The random case (tests/test_parity.py) has negative grades (in the pool, not judged: the
sampled pool's mark), documents not in the qrels (outside the pool), exact ties (broken by
doc id descending), queries without relevant documents and queries missing from the run.
"""
import numpy as np
import pandas as pd
import pytest
import pytrec_eval

import irlib
from irlib.measures.infap import infap
from tests.test_cli import run_cli, write_trec
from tests.test_parity import as_dicts, random_case


def pytrec_infap(qrels, run, **options):
    qd, rd = as_dicts(qrels, run)
    values = pytrec_eval.RelevanceEvaluator(qd, {"infAP"}, **options).evaluate(rd)
    return {q: v["infAP"] for q, v in values.items()}


def test_per_query_and_means_match_trec_eval_default_and_complete():
    qrels, run = random_case(31, n_queries=250)
    theirs = pytrec_infap(qrels, run)
    default = irlib.evaluate(qrels, run, ["infAP"])
    complete = irlib.evaluate(qrels, run, ["infAP"], complete=True)
    ours = default.per_query["infAP"]
    assert all(ours[q] == pytest.approx(v, abs=1e-9) for q, v in theirs.items())
    assert ours.drop(index=list(theirs)).isna().all()           # missing from the run
    assert default.means["infAP"] == pytest.approx(np.mean(list(theirs.values())), abs=1e-9)
    n_all = qrels.query_id.nunique()
    assert n_all > len(theirs)
    assert complete.means["infAP"] == pytest.approx(sum(theirs.values()) / n_all, abs=1e-9)
    # the case holds what infAP is about, and what trec_eval's conventions decide
    assert (qrels.relevance < 0).any() and run.duplicated(["query_id", "score"]).any()
    assert (qrels.groupby("query_id").relevance.max() <= 0).any()
    unpooled = run.merge(qrels, on=["query_id", "doc_id"], how="left").relevance.isna()
    assert unpooled.any()
    assert 0 < sum(v > 0 for v in theirs.values()) < len(theirs)


@pytest.mark.parametrize("measure, options, theirs_options", [
    ("infAP(rel=2)", {}, {"relevance_level": 2}),
    ("infAP", {"judged_only": True}, {"judged_docs_only_flag": True}),
], ids=["-l 2", "-J"])
def test_relevance_level_and_judged_only(measure, options, theirs_options):
    qrels, run = random_case(32, n_queries=150)
    ours = irlib.evaluate(qrels, run, [measure], **options).per_query[measure]
    theirs = pytrec_infap(qrels, run, **theirs_options)
    assert all(ours[q] == pytest.approx(v, abs=1e-9) for q, v in theirs.items())


def test_one_ranking_and_explain_agree_with_evaluate():
    """Each query as one ranking: grades in trec_eval's order, the documents not in the
    qrels marked unjudged (outside the pool), the negative grades unjudged and pooled."""
    qrels, run = random_case(33, n_queries=60)
    ours = irlib.evaluate(qrels, run, ["infAP"]).per_query["infAP"]
    ranked = (run.merge(qrels, on=["query_id", "doc_id"], how="left")
              .sort_values(["query_id", "score", "doc_id"], ascending=[True, False, False]))
    for q, rows in ranked.groupby("query_id"):
        if q not in ours.index:
            continue
        grade = rows.relevance.to_numpy()
        unjudged = np.isnan(grade) | (grade < 0)
        pooled = grade < 0
        shown = np.where(unjudged, 0.0, grade)
        judged = qrels[(qrels.query_id == q) & (qrels.relevance >= 0)].relevance.to_numpy()
        want = ours[q]
        got = infap(shown, judged=judged, unjudged=unjudged, pooled=pooled)
        assert got == pytest.approx(want, abs=1e-12), q
        e = irlib.explain("infAP", shown, len(shown), judged=judged, unjudged=unjudged,
                          pooled=pooled)
        assert e.value == got and e.metric == "infAP"
        terms = [row["term"] for row in e.rows if "term" in row]
        assert sum(terms) == pytest.approx(got * e.details["n_relevant"], abs=1e-12)


def test_explain_shows_each_relevant_results_term():
    e = irlib.explain("infAP", [0, 0, 1, 0, 2], 5, unjudged=[1, 1, 0, 0, 0],
                      pooled=[0, 1, 0, 0, 0])
    assert e.value == pytest.approx(0.5)
    assert [row["kind"] for row in e.rows] == ["outside the pool", "pooled, unjudged",
                                               "relevant", "not relevant", "relevant"]
    assert (e.rows[4]["relevant_above"], e.rows[4]["nonrelevant_above"],
            e.rows[4]["unjudged_above"]) == (1, 1, 1)
    assert r"\frac{3}{5}" in e.latex and e.latex.endswith("= 0.5")
    assert irlib.explain("infAP", [0, 0], 2).latex.endswith("scored 0)}")


def test_bad_marks_are_clear():
    with pytest.raises(ValueError, match="rank 2 is marked unjudged but has grade 3"):
        infap([1, 3], unjudged=[False, True])
    with pytest.raises(ValueError, match="pooled must mark each of the 2 results"):
        infap([1, 0], pooled=[True])
    with pytest.raises(ValueError, match="infAP's marks; AP does not read them"):
        irlib.explain("AP", [1, 0], 2, unjudged=[False, True])


def test_command_line_prints_infap_as_trec_eval_does(tmp_path):
    """-m infAP per query and in -m all_trec, at its place in trec_eval's table (after
    recall, before gm_bpref), and no longer among the measures left out."""
    qrels, run = random_case(34, n_queries=30)
    run = run[run.query_id != "run-only"]
    q, r = write_trec(tmp_path, qrels, run)
    theirs = pytrec_infap(qrels, run)
    code, out, err = run_cli(q, r, "-q", "-m", "infAP")
    assert code == 0 and err == ""
    want = "".join(f"{'infAP':<22}\t{qid}\t{theirs[qid]:6.4f}\n" for qid in sorted(theirs))
    assert out == want + f"{'infAP':<22}\tall\t{np.mean(list(theirs.values())):6.4f}\n"
    code, out, err = run_cli(q, r, "-m", "all_trec")
    names = [row.split("\t")[0].strip() for row in out.splitlines()]
    assert names[names.index("infAP") - 1] == "recall_1000"
    assert names[names.index("infAP") + 1] == "gm_bpref"
    assert "infAP" not in err and "relstring" in err


def test_reference_example_of_the_docs():
    """The module's example as trec_eval sees it: d0 outside the pool, d1 sampled out."""
    qrels = pd.DataFrame({"query_id": "q", "doc_id": ["d1", "d2", "d3", "d4"],
                          "relevance": [-1, 1, 0, 2]})
    run = pd.DataFrame({"query_id": "q", "doc_id": ["d0", "d1", "d2", "d3", "d4"],
                        "score": [5.0, 4, 3, 2, 1]})
    assert pytrec_infap(qrels, run)["q"] == pytest.approx(0.5, abs=1e-12)
    assert irlib.evaluate(qrels, run, ["infAP"]).means["infAP"] == pytest.approx(0.5,
                                                                                 abs=1e-12)


def test_the_upload_pages_formula_is_the_tables_number():
    """The page's "How infAP is computed" for a query, from the ranking the page shows (its
    ``judged`` column and the qrels' grades, negative ones included), equals the table's."""
    from irlib.stats.compare import per_query_ranking
    from ui.upload.measures import MEASURE_KEYS, explain_measure
    assert "infAP" in MEASURE_KEYS
    qrels, run = random_case(37, n_queries=40)
    table = irlib.evaluate(qrels, run, ["infAP"]).per_query["infAP"].dropna()
    pooled_seen = 0
    for query_id, value in table.items():
        ranking = per_query_ranking(qrels, run, query_id)
        judged = qrels.loc[qrels.query_id == query_id, "relevance"].to_numpy()
        grades = ranking["relevance"].to_numpy()
        pooled_seen += int((ranking["judged"].to_numpy() & (grades < 0)).sum())
        shown = explain_measure("infAP", grades, judged, 10, "linear", 1,
                                ranking["judged"].to_numpy())
        assert shown.value == pytest.approx(value, abs=1e-12), query_id
    assert pooled_seen > 0           # the case shows sampled-out results on the page
