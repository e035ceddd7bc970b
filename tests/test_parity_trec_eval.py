"""trec_eval's own measures (bpref, infAP, gm_map, iprec_at_recall, the counts, set_*), its -l, -J
and -M, and its names, against pytrec_eval (trec_eval 9's C code) on random data.

The random case (tests/test_parity.py) has negative grades (judged "unjudged in pool"), queries
without relevant documents, queries missing from the run, run-only queries and exact ties.
"""
import math

import numpy as np
import pandas as pd
import pytest
import pytrec_eval

import irlib
from irlib.measures.trec_names import trec_eval_measures, trec_eval_name
from tests.test_parity import as_dicts, random_case

# irlib measure -> pytrec_eval's key; every per-query value of these must agree
NEW_PAIRS = {
    "NumRet": "num_ret", "NumRel": "num_rel", "NumRelRet": "num_rel_ret",
    "NumNonrelRet": "num_nonrel_judged_ret", "Bpref": "bpref", "infAP": "infAP",
    "IPrecAvg": "11pt_avg",
    "SetP": "set_P", "SetR": "set_recall", "SetF": "set_F",
    "Success@1": "success_1", "Success@5": "success_5", "Success@10": "success_10",
    **{f"IPrec@{level:g}": f"iprec_at_recall_{level:3.2f}" for level in
       irlib.measures.interpolated.ELEVEN_LEVELS},
    "AP@5": "map_cut_5", "nDCG@20": "ndcg_cut_20", "P@1000": "P_1000",
}
# per query, trec_eval keeps log(max(value, 1e-5)) and prints only the geometric mean
GEOMETRIC = {"GMAP": "gm_map", "GMBpref": "gm_bpref"}


def pytrec(qrels, run, keys, **options):
    qd, rd = as_dicts(qrels, run)
    base = {key.rsplit("_", 1)[0] if key[-1].isdigit() else key for key in keys}
    names = {"iprec_at_recall" if b.startswith("iprec_at_recall") else b for b in base}
    return pytrec_eval.RelevanceEvaluator(qd, names, **options).evaluate(rd)


def assert_per_query_agree(ours, theirs, pairs):
    compared = 0
    for q in ours.index:
        if q not in theirs:
            assert ours.loc[q].isna().all(), q                   # missing from the run
            continue
        for measure, key in pairs.items():
            assert ours.at[q, measure] == pytest.approx(theirs[q][key], abs=1e-9), (q, measure)
            compared += 1
    assert compared == len(theirs) * len(pairs)


@pytest.mark.parametrize("seed", [0, 5])
def test_trec_eval_measures_per_query(seed):
    qrels, run = random_case(seed, n_queries=250)
    ours = irlib.evaluate(qrels, run, list(NEW_PAIRS) + list(GEOMETRIC)).per_query
    theirs = pytrec(qrels, run, list(NEW_PAIRS.values()) + list(GEOMETRIC.values()))
    assert_per_query_agree(ours, theirs, NEW_PAIRS)
    for measure, key in GEOMETRIC.items():               # irlib keeps the value itself
        for q in theirs:
            assert math.log(max(ours.at[q, measure], 1e-5)) == pytest.approx(theirs[q][key])
    # the case holds what bpref is about: unjudged results (never in the qrels) and
    # negative grades (in the pool, unjudged) above judged ones
    assert (qrels.relevance < 0).any()


@pytest.mark.parametrize("level", [2, 3])
def test_relevance_level_for_every_binary_measure(level):
    qrels, run = random_case(11, n_queries=200)
    pairs = {"Bpref": "bpref", "NumRel": "num_rel", "NumRelRet": "num_rel_ret",
             "IPrec@0.3": "iprec_at_recall_0.30", "SetF": "set_F", "RR": "recip_rank",
             "NumNonrelRet": "num_nonrel_judged_ret", "AP": "map", "nDCG@10": "ndcg_cut_10"}
    measures = [str(irlib.parse_measure(m, rel=level)) for m in pairs]
    ours = irlib.evaluate(qrels, run, measures).per_query
    ours.columns = list(pairs)              # nDCG takes no rel: the grade is its gain
    assert_per_query_agree(ours, pytrec(qrels, run, pairs.values(), relevance_level=level),
                           pairs)


def test_judged_only_is_trec_eval_minus_J():
    qrels, run = random_case(12, n_queries=200)
    pairs = {"P@5": "P_5", "AP": "map", "Bpref": "bpref", "nDCG@10": "ndcg_cut_10",
             "NumRet": "num_ret", "RR": "recip_rank", "IPrecAvg": "11pt_avg"}
    ours = irlib.evaluate(qrels, run, list(pairs), judged_only=True).per_query
    theirs = pytrec(qrels, run, pairs.values(), judged_docs_only_flag=True)
    # A query left with no results: trec_eval divides 0 by 0 for 11pt_avg (and prints nan,
    # which makes its mean nan too); irlib scores it 0, as every other measure does.
    emptied = [q for q in theirs if theirs[q]["num_ret"] == 0]
    assert emptied and all(math.isnan(theirs[q]["11pt_avg"]) for q in emptied)
    assert (ours.loc[emptied, "IPrecAvg"] == 0).all()
    for q in emptied:
        theirs[q]["11pt_avg"] = 0.0
    assert_per_query_agree(ours, theirs, pairs)
    plain = irlib.evaluate(qrels, run, ["NumRet"]).per_query
    assert (ours["NumRet"] < plain["NumRet"]).any()      # -J really dropped results


def test_depth_is_trec_eval_minus_M():
    """pytrec_eval has no -M: the same run cut to each query's first 7 results (in trec_eval's
    order: score, then doc id descending) is what -M 7 evaluates."""
    qrels, run = random_case(13, n_queries=200)
    ordered = run.sort_values(["query_id", "score", "doc_id"], ascending=[True, False, False])
    cut = ordered.groupby("query_id").head(7)
    pairs = {"P@10": "P_10", "AP": "map", "NumRet": "num_ret", "Bpref": "bpref",
             "IPrec@0.5": "iprec_at_recall_0.50", "nDCG": "ndcg", "SetR": "set_recall",
             "infAP": "infAP"}
    ours = irlib.evaluate(qrels, run, list(pairs), depth=7).per_query
    assert_per_query_agree(ours, pytrec(qrels, cut, pairs.values()), pairs)


def test_means_of_counts_geometric_means_and_minus_c():
    """The 'all' line: counts are sums, gm_map a geometric mean, num_q the number of queries;
    with -c every qrels query counts (missing ones score 0, their num_rel still counts) and
    trec_eval's num_rel is the judgments above grade 0, whatever -l says."""
    qrels, run = random_case(14, n_queries=200)
    measures = ["NumQ", "NumRet", "NumRel(rel=2)", "NumRelRet", "GMAP", "AP", "Bpref"]
    theirs = pytrec(qrels, run, ["num_ret", "num_rel_ret", "gm_map", "map", "bpref"])
    theirs2 = pytrec(qrels, run, ["num_rel"], relevance_level=2)
    default = irlib.evaluate(qrels, run, measures)
    complete = irlib.evaluate(qrels, run, measures, complete=True)
    n, n_all = len(theirs), qrels.query_id.nunique()
    assert default.means["NumQ"] == n and complete.means["NumQ"] == n_all > n
    for name, key in (("NumRet", "num_ret"), ("NumRelRet", "num_rel_ret")):
        total = sum(theirs[q][key] for q in theirs)
        assert default.means[name] == complete.means[name] == total
    assert default.means["NumRel(rel=2)"] == sum(theirs2[q]["num_rel"] for q in theirs2)
    assert complete.means["NumRel(rel=2)"] == (qrels.relevance > 0).sum()
    logs = [theirs[q]["gm_map"] for q in theirs]
    assert default.means["GMAP"] == pytest.approx(math.exp(np.mean(logs)))
    padded = logs + [math.log(1e-5)] * (n_all - n)
    assert complete.means["GMAP"] == pytest.approx(math.exp(np.mean(padded)))
    assert complete.means["Bpref"] == pytest.approx(sum(theirs[q]["bpref"] for q in theirs)
                                                    / n_all)
    missing = list(complete.missing_queries)
    relevant = qrels[qrels.relevance >= 2].groupby("query_id").size()
    assert (complete.per_query.loc[missing, "NumRel(rel=2)"]
            == relevant.reindex(missing, fill_value=0)).all()
    assert (complete.per_query.loc[missing, ["NumRet", "AP", "Bpref", "GMAP"]] == 0).all().all()


def test_interpolation_rules_of_trec_eval_9_and_10():
    """R = 3, relevant at ranks 1, 5, 6 (precision 1, 2/5, 1/2): recall 0.4 needs 2 found
    under trec_eval 9 (and pytrec_eval), 1 under trec_eval 10's rounding (lround(1.2) = 1).
    The trec_eval binaries, built from usnistgov/trec_eval v9.0.8 and 10.0, print 0.5000 and
    1.0000 for iprec_at_recall_0.40, and 0.6818 and 0.7273 for 11pt_avg."""
    qrels = pd.DataFrame({"query_id": "q", "doc_id": ["a", "b", "c", "x"],
                          "relevance": [1, 1, 1, 0]})
    run = pd.DataFrame({"query_id": "q", "doc_id": ["a", "y1", "y2", "y3", "b", "c"],
                        "score": [9.0, 8, 7, 6, 5, 4]})
    ev = irlib.evaluate(qrels, run, ["IPrec@0.4", "IPrec(rule='v10')@0.4", "IPrecAvg",
                                     "IPrecAvg(rule='v10')"])
    theirs = pytrec(qrels, run, ["iprec_at_recall_0.40", "11pt_avg"])["q"]
    assert ev.means["IPrec@0.4"] == theirs["iprec_at_recall_0.40"] == 0.5
    assert ev.means["IPrec(rule='v10')@0.4"] == 1.0
    assert ev.means["IPrecAvg"] == pytest.approx(theirs["11pt_avg"]) == pytest.approx(7.5 / 11)
    assert ev.means["IPrecAvg(rule='v10')"] == pytest.approx(8 / 11)


def test_trec_eval_names_round_trip():
    lines, skipped = trec_eval_measures(["all_trec"])
    assert "relstring" in skipped and "infAP" not in skipped
    assert "infAP" in [line.name for line in lines]
    for line in lines:
        if line.measure is not None:
            assert trec_eval_name(line.measure) == line.name
            assert irlib.parse_measure(line.name) == line.measure
    assert [line.name for line in trec_eval_measures(["official"])[0]][:6] == [
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map"]


def test_trec_eval_syntax_in_evaluate():
    qrels, run = random_case(15, n_queries=40)
    ev = irlib.evaluate(qrels, run, ["map", "P.10,5", "ndcg_cut.10", "recip_rank", "P_10"])
    assert list(ev.per_query.columns) == ["AP", "P@5", "P@10", "nDCG@10", "RR"]
    with pytest.raises(ValueError, match="duplicate|repeats"):
        irlib.evaluate(qrels, run, ["P.5,5"])
    with pytest.raises(ValueError, match="relstring"):
        irlib.evaluate(qrels, run, ["relstring"])
    with pytest.raises(ValueError, match="positive integer"):
        irlib.evaluate(qrels, run, ["P.0"])
