"""irlib.evaluate against trec_eval (pytrec-eval-terrier) and ranx, per query, on random data.

The reference libraries are imported directly: requirements-dev.txt installs them, and a
broken install must fail these tests, not skip them.
"""
import numpy as np
import pandas as pd
import pytest
import pytrec_eval
import ranx

import irlib

# irlib measure -> trec_eval measure (pytrec_eval's result key)
PAIRS = {
    "P@5": "P_5", "P@10": "P_10", "R@5": "recall_5", "R@20": "recall_20",
    "AP": "map", "AP@5": "map_cut_5", "AP@10": "map_cut_10", "RR": "recip_rank",
    "nDCG": "ndcg", "nDCG@5": "ndcg_cut_5", "nDCG@10": "ndcg_cut_10", "Rprec": "Rprec",
}


def random_case(seed: int, n_queries: int = 320):
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for qi in range(n_queries):
        q = f"q{qi}"
        pool = [f"d{j}" for j in rng.choice(60, size=40, replace=False)]
        pool += ["D7", "d7a", "z", "a"]                       # ids whose string order matters
        judged = rng.choice(len(pool), size=rng.integers(1, 16), replace=False)
        kind = rng.random()
        for j in judged:
            if kind < 0.1:
                grade = int(rng.choice([-1, 0]))              # no relevant document at all
            else:
                grade = int(rng.choice([-1, 0, 0, 1, 2, 3]))
            qrels.append((q, pool[j], grade))
        if rng.random() < 0.08:
            continue                                           # query missing from the run
        retrieved = rng.choice(len(pool), size=rng.integers(1, 30), replace=False)
        # multiples of 1/4 are exact in float32, and collide often: exact ties
        scores = rng.integers(0, 12, size=len(retrieved)) / 4.0
        run.extend((q, pool[j], float(s)) for j, s in zip(retrieved, scores))
    run += [("run-only", "d1", 1.0), ("run-only", "d2", 0.5)]   # ignored: not in the qrels
    qrels = pd.DataFrame(qrels, columns=["query_id", "doc_id", "relevance"])
    run = pd.DataFrame(run, columns=["query_id", "doc_id", "score"])
    return qrels, run


def as_dicts(qrels, run):
    """The frames as pytrec_eval takes them: {query: {doc: grade}}, {query: {doc: score}}."""
    qd, rd = {}, {}
    for q, d, r in qrels.itertuples(index=False):
        qd.setdefault(q, {})[d] = int(r)
    for q, d, s in run.itertuples(index=False):
        rd.setdefault(q, {})[d] = float(s)
    return qd, rd


def trec_eval_values(qrels, run):
    qd, rd = as_dicts(qrels, run)
    evaluator = pytrec_eval.RelevanceEvaluator(qd, set(PAIRS.values()) - {"ndcg"} | {"ndcg"})
    return evaluator.evaluate(rd)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_per_query_value_matches_trec_eval(seed):
    qrels, run = random_case(seed)
    ours = irlib.evaluate(qrels, run, list(PAIRS)).per_query
    theirs = trec_eval_values(qrels, run)
    assert len(ours) >= 300
    compared = 0
    for q in ours.index:
        for measure, key in PAIRS.items():
            if q not in theirs:                                   # missing from the run
                assert np.isnan(ours.at[q, measure]), (q, measure)
                continue
            assert ours.at[q, measure] == pytest.approx(theirs[q][key], abs=1e-9), (q, measure)
            compared += 1
    assert compared == len(theirs) * len(PAIRS)
    # the case exercised what it claims to
    assert (ours.index.isin(run.query_id) == False).any()          # noqa: E712 missing queries
    assert (qrels.groupby("query_id").relevance.max() <= 0).any()  # queries without relevant
    assert run.duplicated(["query_id", "score"]).any()             # exact ties


def test_relevance_level_matches_trec_eval_l2():
    qrels, run = random_case(7, n_queries=300)
    ours = irlib.evaluate(qrels, run, ["AP(rel=2)", "P(rel=2)@5", "Rprec(rel=2)"]).per_query
    qd, rd = as_dicts(qrels, run)
    theirs = pytrec_eval.RelevanceEvaluator(qd, {"map", "P_5", "Rprec"}, relevance_level=2).evaluate(rd)
    for q in theirs:
        t = theirs[q]
        assert ours.at[q, "AP(rel=2)"] == pytest.approx(t["map"], abs=1e-9)
        assert ours.at[q, "P(rel=2)@5"] == pytest.approx(t["P_5"], abs=1e-9)
        assert ours.at[q, "Rprec(rel=2)"] == pytest.approx(t["Rprec"], abs=1e-9)


@pytest.mark.parametrize("seed", [3, 4])
def test_means_match_trec_eval_default_and_complete(seed):
    """Default: the mean over the queries trec_eval returns (those in run and qrels);
    complete=True: their sum over every qrels query, as ``trec_eval -c`` divides."""
    qrels, run = random_case(seed)
    theirs = trec_eval_values(qrels, run)
    n_qrels_queries = qrels["query_id"].nunique()
    default = irlib.evaluate(qrels, run, list(PAIRS))
    complete = irlib.evaluate(qrels, run, list(PAIRS), complete=True)
    assert default.n_averaged == len(theirs) < n_qrels_queries == complete.n_averaged
    assert set(default.missing_queries) == set(qrels.query_id) - set(theirs)
    assert default.ignored_queries == complete.ignored_queries == ("run-only",)
    for measure, key in PAIRS.items():
        values = [theirs[q][key] for q in theirs]
        assert default.means[measure] == pytest.approx(np.mean(values), abs=1e-9), measure
        assert complete.means[measure] == pytest.approx(sum(values) / n_qrels_queries,
                                                        abs=1e-9), measure
        missing = list(complete.missing_queries)
        assert (complete.per_query.loc[missing, measure] == 0).all()


def test_issue_example_map_default_and_complete():
    """qrels {1: a rel, b not; 2: c, d not; 3: e rel}; run {1: x > a; 2: c > d}."""
    qrels = pd.DataFrame([("1", "a", 1), ("1", "b", 0), ("2", "c", 0), ("2", "d", 0),
                          ("3", "e", 1)], columns=["query_id", "doc_id", "relevance"])
    run = pd.DataFrame([("1", "x", 2.0), ("1", "a", 1.0), ("2", "c", 2.0), ("2", "d", 1.0)],
                       columns=["query_id", "doc_id", "score"])
    theirs = trec_eval_values(qrels, run)
    assert sorted(theirs) == ["1", "2"]                       # query 3: no row in trec_eval
    assert irlib.evaluate(qrels, run, ["AP"]).means["AP"] == (1 / 2 + 0) / 2
    assert irlib.evaluate(qrels, run, ["AP"], complete=True).means["AP"] == (1 / 2 + 0 + 0) / 3
    assert np.mean([theirs[q]["map"] for q in theirs]) == 0.25


def test_exponential_gain_ndcg_matches_ranx_ndcg_burges():
    """nDCG(dcg='exp-log2'): gain 2^grade - 1, as ranx's ndcg_burges (trec_eval has none)."""
    rng = np.random.default_rng(21)
    qrels, run = [], []
    for qi in range(200):
        pool = [f"d{j}" for j in range(60)]
        for d in rng.choice(pool, int(rng.integers(1, 20)), replace=False):
            qrels.append((f"q{qi}", d, int(rng.choice([0, 1, 2, 3, 4]))))
        retrieved = rng.choice(pool, int(rng.integers(5, 40)), replace=False)
        # distinct scores: ranx keeps tied documents in input order, trec_eval does not
        scores = rng.permutation(len(retrieved)) + rng.random()
        run.extend((f"q{qi}", d, float(s)) for d, s in zip(retrieved, scores))
    qrels = pd.DataFrame(qrels, columns=["query_id", "doc_id", "relevance"])
    run = pd.DataFrame(run, columns=["query_id", "doc_id", "score"])
    measures = {"nDCG(dcg='exp-log2')@10": "ndcg_burges@10", "nDCG(dcg='exp-log2')": "ndcg_burges"}
    ours = irlib.evaluate(qrels, run, list(measures)).per_query
    ranx_run = ranx.Run.from_df(run.astype({"query_id": object, "doc_id": object}),
                                q_id_col="query_id", doc_id_col="doc_id", score_col="score")
    ranx_qrels = ranx.Qrels.from_df(qrels.astype({"query_id": object, "doc_id": object}),
                                    q_id_col="query_id", doc_id_col="doc_id",
                                    score_col="relevance")
    ranx.evaluate(ranx_qrels, ranx_run, list(measures.values()), save_results_in_run=True)
    compared = 0
    for measure, theirs in measures.items():
        for q, value in ranx_run.scores[theirs].items():
            assert ours.at[q, measure] == pytest.approx(value, abs=1e-9), (q, measure)
            compared += 1
    assert compared == 2 * 200 and ((0 < ours) & (ours < 1)).any().all()
