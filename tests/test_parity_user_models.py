"""RBP (with its residual), INST and ERR against cwl_eval, ir_measures and closed forms.

cwl_eval (the ``cwl-eval`` package) is called on the same gain vectors; ir_measures runs it
(RBP, INST) and TREC's gdeval (ERR@K, printed with 5 decimals) on the same frames as
:func:`irlib.evaluate`. The closed forms are written out here, independent of irlib.
"""
import logging

import ir_measures
import numpy as np
import pandas as pd
import pytest
from cwl.ruler.measures.cwl_inst import INSTCWLMetric
from cwl.ruler.measures.cwl_rbp import RBPCWLMetric
from cwl.ruler.ranking import Ranking

import irlib
from irlib.measures.user_models import err, inst, rbp, rbp_residual, user_model

logging.getLogger("cwl").disabled = True
logging.getLogger("ir_measures").setLevel(logging.ERROR)


def cwl_value(metric, gains, residuals=False):
    metric.residuals = residuals
    ranking = Ranking("q", np.asarray(gains, float), np.full(len(gains), np.nan))
    value = metric.measure(ranking)
    return (value, metric.residual_expected_utility) if residuals else value


def random_grades(rng, n_max=40):
    n = int(rng.integers(1, n_max))
    return rng.integers(0, 5, size=n).astype(float)


@pytest.mark.parametrize("p", [0.5, 0.8, 0.9, 0.95])
def test_rbp_and_residual_equal_cwl_eval(p):
    rng = np.random.default_rng(int(p * 100))
    worst = 0.0
    for i in range(200):
        grades = random_grades(rng, 1300 if i % 20 == 0 else 40)    # some past cwl's 1000
        unjudged = rng.random(len(grades)) < 0.2
        gains = np.where(unjudged, np.nan, (grades >= 2).astype(float))
        value, residual = cwl_value(RBPCWLMetric(p), gains, residuals=True)
        ours = rbp(np.where(unjudged, 0, grades), p=p, rel=2)   # unjudged: not relevant
        ours_residual = rbp_residual(grades, p=p, unjudged=unjudged)
        worst = max(worst, abs(ours - value), abs(ours_residual - residual))
    assert worst < 1e-9


@pytest.mark.parametrize("T", [1.0, 2.0, 3.5])
@pytest.mark.parametrize("max_rel", [1, 3, 4])
def test_inst_equals_cwl_eval(T, max_rel):
    rng = np.random.default_rng(int(T * 10) + max_rel)
    for i in range(150):
        grades = random_grades(rng, 1200 if i % 25 == 0 else 40)
        gains = np.clip(grades, 0, max_rel) / max_rel      # cwl_eval takes gains 0..1
        assert inst(grades, T=T, max_rel=max_rel) == pytest.approx(
            cwl_value(INSTCWLMetric(T), gains), abs=1e-9)


def err_closed_form(grades, k, max_rel=4):
    r = [(2.0 ** min(max(g, 0), max_rel) - 1) / 2.0 ** max_rel for g in grades[:k]]
    return sum(r[i] / (i + 1) * np.prod([1 - x for x in r[:i]]) for i in range(len(r)))


def test_err_equals_its_closed_form():
    rng = np.random.default_rng(7)
    for _ in range(300):
        grades = rng.integers(0, 7, size=int(rng.integers(1, 30))).astype(float)
        k = int(rng.integers(1, 35))
        max_rel = int(rng.integers(1, 6))
        assert err(grades, k, max_rel=max_rel) == pytest.approx(
            err_closed_form(grades, k, max_rel), abs=1e-12)


def random_frames(seed, n_queries=150):
    """Numeric query ids and grades -1..4 (gdeval's rules); distinct scores, plus ties."""
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for q in range(1, n_queries + 1):
        pool = [f"d{j}" for j in rng.choice(80, size=50, replace=False)]
        for j in rng.choice(50, size=int(rng.integers(1, 25)), replace=False):
            qrels.append((str(q), pool[j], int(rng.choice([-1, 0, 0, 1, 2, 3, 4]))))
        if rng.random() < 0.05:
            continue
        shown = rng.choice(50, size=int(rng.integers(1, 45)), replace=False)
        scores = rng.permutation(len(shown)) + rng.random() * 0.5
        run.extend((str(q), pool[j], float(s)) for j, s in zip(shown, scores))
    return (pd.DataFrame(qrels, columns=["query_id", "doc_id", "relevance"]),
            pd.DataFrame(run, columns=["query_id", "doc_id", "score"]))


def compare(measures, irm_measures, seed, tol):
    qrels, run = random_frames(seed)
    ev = irlib.evaluate(qrels, run, list(measures))
    ours = ev.per_query.drop(index=list(ev.missing_queries))   # no value: not in the run
    assert np.isfinite(ours.to_numpy()).all()
    theirs = {}
    for m in ir_measures.iter_calc(list(irm_measures), qrels, run):
        theirs[(m.query_id, str(m.measure))] = m.value
    worst, n = 0.0, 0
    for column, irm in zip(ours.columns, irm_measures):
        for q in ours.index:
            if (q, str(irm)) in theirs:
                worst = max(worst, abs(ours.at[q, column] - theirs[(q, str(irm))]))
                n += 1
    assert n >= 100 * len(measures)
    assert worst < tol, worst
    return worst


@pytest.mark.parametrize("seed", [0, 1])
def test_evaluate_equals_ir_measures_cwl_eval(seed):
    compare(["RBP(rel=1)", "RBP(rel=2,p=0.9)", "INST(T=2)", "INST(T=1,max_rel=3)"],
            [ir_measures.RBP(rel=1), ir_measures.RBP(rel=2, p=0.9),
             ir_measures.INST(T=2.0, max_rel=4), ir_measures.INST(T=1.0, max_rel=3)], seed, 1e-9)


def test_evaluate_equals_ir_measures_gdeval_err():
    """gdeval prints ERR with 5 decimals: equal to its rounding (the closed form is exact)."""
    compare(["ERR@5", "ERR@20"], [ir_measures.ERR @ 5, ir_measures.ERR @ 20], 3, 5e-6 + 1e-12)


def test_evaluate_equals_the_per_ranking_functions_with_ties_and_unjudged():
    """The run kernels against the one-ranking functions on each query's ranking, ordered by
    score descending then doc id descending (trec_eval), unjudged results gaining 0."""
    qrels, run = random_frames(5)
    run["score"] = np.floor(run["score"] / 4)            # many ties
    names = ["RBP(p=0.7)@10", "RBP(rel=3)", "RBPResidual(p=0.6)", "RBPResidual@5",
             "INST(T=2.5)", "ERR@10", "ERR(max_rel=3)"]
    ours = irlib.evaluate(qrels, run, names).per_query
    judged = qrels.set_index(["query_id", "doc_id"])["relevance"]
    worst = 0.0
    for q, rows in run.groupby("query_id"):
        rows = rows.sort_values(["score", "doc_id"], ascending=False)
        g = np.array([judged.get((q, d), np.nan) for d in rows["doc_id"]])
        unjudged = np.isnan(g) | (g < 0)
        grades = np.where(unjudged, 0.0, g)
        want = [rbp(grades, 10, p=0.7), rbp(grades, rel=3), rbp_residual(grades, p=0.6,
                unjudged=unjudged), rbp_residual(grades, 5, unjudged=unjudged),
                inst(grades, T=2.5), err(grades, 10), err(grades, max_rel=3)]
        worst = max(worst, max(abs(v - w) for v, w in zip(ours.loc[q], want)))
    assert worst < 1e-12


def test_user_model_closed_forms():
    p = 0.75
    m = user_model([1, 0, 1, 1], irlib.parse_measure(f"RBP(p={p})"))
    i = np.arange(1, 5)
    np.testing.assert_allclose(m.continuation, p)
    np.testing.assert_allclose(m.weight, (1 - p) * p ** (i - 1))
    np.testing.assert_allclose(m.stopping, (1 - p) * p ** (i - 1))
    assert m.expected_gain == pytest.approx(rbp([1, 0, 1, 1], p=p))

    m = user_model([0, 2, 1], "P", 5)
    np.testing.assert_array_equal(m.continuation, [1, 1, 1, 1, 0])
    np.testing.assert_allclose(m.weight, 0.2)
    np.testing.assert_array_equal(m.stopping, [0, 0, 0, 0, 1])
    assert m.expected_gain == pytest.approx(irlib.precision_at_k([0, 2, 1], 5))

    m = user_model([0, 0, 3, 1, 2], "RR")
    np.testing.assert_allclose(m.weight, [1 / 3, 1 / 3, 1 / 3, 0, 0])
    np.testing.assert_array_equal(m.stopping, [0, 0, 1, 0, 0])
    assert m.expected_gain == pytest.approx(1 / 3)

    m = user_model([3, 0, 2, 1], "nDCG", 4)
    disc = 1 / np.log2(i + 1)
    np.testing.assert_allclose(m.weight, disc / disc.sum())
    np.testing.assert_allclose(m.continuation[:3], np.log2(i[:3] + 1) / np.log2(i[:3] + 2))
    assert m.expected_gain == pytest.approx(irlib.dcg_at_k([3, 0, 2, 1], 4) / disc.sum())

    grades = [2, 4, 0, 1]
    m = user_model(grades, "ERR", 4)
    r = (2.0 ** np.array(grades) - 1) / 16
    np.testing.assert_allclose(m.continuation, 1 - r)
    np.testing.assert_allclose(m.stopping, r * np.concatenate([[1], np.cumprod(1 - r)[:-1]]))
    assert float(m.stopping @ (1 / i)) == pytest.approx(err_closed_form(grades, 4))

    grades = [4, 0, 3, 0, 0, 1]
    m = user_model(grades, "INST", T=2)
    g = np.zeros(1000)
    g[:6] = np.array(grades) / 4
    t_i = 2 - np.cumsum(g)
    c = ((np.arange(1, 1001) + 2 + t_i - 1) / (np.arange(1, 1001) + 2 + t_i)) ** 2
    reach = np.concatenate([[1], np.cumprod(c[:-1])])
    np.testing.assert_allclose(m.continuation, c[:6])
    np.testing.assert_allclose(m.weight, (reach / reach.sum())[:6])
    assert m.expected_gain == pytest.approx(inst(grades, T=2))


def test_explain_gives_the_user_model_steps():
    e = irlib.explain("RBP", [1, 0, 1], 3, p=0.5)
    assert e.value == 0.625 and e.details["residual"] == 0.125
    assert [r["weight"] for r in e.rows] == [0.5, 0.25, 0.125]
    e = irlib.explain("ERR", [4, 0, 2], 3)
    assert e.value == pytest.approx(err([4, 0, 2], 3))
    assert e.rows[0]["stopping"] == 15 / 16
    e = irlib.explain("INST", [4, 0, 0], 3, T=2)
    assert e.value == pytest.approx(inst([4, 0, 0], T=2))
    assert sum(r["term"] for r in e.rows) == pytest.approx(e.value)


def test_parameters_are_checked():
    with pytest.raises(ValueError, match="below 1"):
        irlib.parse_measure("RBP(p=1)")
    with pytest.raises(ValueError, match="p must be"):
        rbp([1], p=1.5)
    with pytest.raises(ValueError, match="T must be"):
        inst([1], T=0)
    with pytest.raises(ValueError, match="max_rel"):
        irlib.parse_measure("ERR(max_rel=0)@5")
