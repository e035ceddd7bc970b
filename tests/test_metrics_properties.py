"""Properties that hold for every ranking (hypothesis), and curves == per-K functions."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import irlib

grades_lists = st.lists(st.integers(0, 4), min_size=1, max_size=20)
gains = st.sampled_from(irlib.GAINS)


@given(grades_lists, st.integers(1, 25), gains)
def test_values_are_in_unit_interval(grades, k, gain):
    values = [irlib.precision_at_k(grades, k), irlib.recall_at_k(grades, k),
              irlib.f1_at_k(grades, k), irlib.success_at_k(grades, k),
              irlib.reciprocal_rank(grades, k), irlib.ndcg_at_k(grades, k, gain=gain)]
    values += [irlib.average_precision(grades, k, denominator=d) for d in irlib.DENOMINATORS]
    assert all(0.0 <= v <= 1.0 + 1e-12 for v in values)


@given(grades_lists, st.integers(1, 25), gains)
def test_ideal_order_has_ndcg_one(grades, k, gain):
    ideal = sorted(grades, reverse=True)
    expected = 1.0 if any(ideal[:k]) else 0.0
    assert irlib.ndcg_at_k(ideal, k, gain=gain) == pytest.approx(expected)


@given(grades_lists, st.data())
def test_moving_a_relevant_item_up_never_lowers_rr_ap_ndcg(grades, data):
    relevant = [i for i, g in enumerate(grades) if g > 0]
    if not relevant:
        return
    i = data.draw(st.sampled_from(relevant))
    j = data.draw(st.integers(0, i))
    moved = list(grades)
    moved.insert(j, moved.pop(i))
    k = data.draw(st.integers(1, len(grades)))
    assert irlib.reciprocal_rank(moved, k) >= irlib.reciprocal_rank(grades, k)
    # binary AP: moving a relevant document up cannot hurt
    assert irlib.average_precision(moved, k) >= irlib.average_precision(grades, k) - 1e-12
    # NDCG: only a swap past a lower grade is guaranteed not to hurt
    swapped = list(grades)
    if i > 0 and swapped[i - 1] < swapped[i]:
        swapped[i - 1], swapped[i] = swapped[i], swapped[i - 1]
        assert irlib.ndcg_at_k(swapped, k) >= irlib.ndcg_at_k(grades, k) - 1e-12


@given(grades_lists)
def test_recall_is_non_decreasing_in_k(grades):
    recalls = [irlib.recall_at_k(grades, k) for k in range(1, len(grades) + 2)]
    assert all(a <= b for a, b in zip(recalls, recalls[1:]))


# exactness, not time: no deadline (a loaded machine ran an example past hypothesis' 200 ms)
@settings(max_examples=60, deadline=None)
@given(grades_lists, st.integers(1, 3), gains, st.sampled_from(irlib.DENOMINATORS),
       st.sampled_from(irlib.IDEALS))
def test_curves_equal_per_k_functions(grades, rel, gain, denominator, ideal):
    judged = grades + [3, 0]                      # two judged documents never shown
    c = irlib.metric_curves(grades, judged=judged, rel=rel, gain=gain, ideal=ideal,
                            denominator=denominator)
    for k in range(1, len(grades) + 1):
        assert c["P"][k - 1] == pytest.approx(irlib.precision_at_k(grades, k, rel=rel))
        assert c["R"][k - 1] == pytest.approx(irlib.recall_at_k(grades, k, judged=judged, rel=rel))
        assert c["F1"][k - 1] == pytest.approx(irlib.f1_at_k(grades, k, judged=judged, rel=rel))
        assert c["Success"][k - 1] == irlib.success_at_k(grades, k, rel=rel)
        assert c["RR"][k - 1] == pytest.approx(irlib.reciprocal_rank(grades, k, rel=rel))
        assert c["AP"][k - 1] == pytest.approx(irlib.average_precision(
            grades, k, judged=judged, rel=rel, denominator=denominator))
        assert c["CG"][k - 1] == pytest.approx(irlib.cg_at_k(grades, k))
        assert c["DCG"][k - 1] == pytest.approx(irlib.dcg_at_k(grades, k, gain=gain))
        assert c["IDCG"][k - 1] == pytest.approx(irlib.idcg_at_k(grades, k, judged=judged,
                                                                 gain=gain, ideal=ideal))
        assert c["nDCG"][k - 1] == pytest.approx(irlib.ndcg_at_k(grades, k, judged=judged,
                                                                 gain=gain, ideal=ideal))
        e = irlib.explain("nDCG", grades, k, judged=judged, gain=gain, ideal=ideal)
        assert e.value == pytest.approx(c["nDCG"][k - 1])


def test_batch_agrees_with_per_ranking_functions():
    rng = np.random.default_rng(3)
    import pandas as pd
    qrels, run = [], []
    for q in range(40):
        grades = rng.integers(0, 4, 12)
        for d, g in enumerate(grades):
            qrels.append((f"q{q}", f"d{d}", int(g)))
            run.append((f"q{q}", f"d{d}", float(100 - d)))     # shown in doc order
    qrels = pd.DataFrame(qrels, columns=["query_id", "doc_id", "relevance"])
    run = pd.DataFrame(run, columns=["query_id", "doc_id", "score"])
    ev = irlib.evaluate(qrels, run, ["DCG(dcg='exp-log2')@4", "F1@3", "Success@2", "RR@3"])
    for q, group in qrels.groupby("query_id"):
        g = group.relevance.tolist()
        assert ev.per_query.at[q, "DCG(dcg='exp-log2')@4"] == pytest.approx(
            irlib.dcg_at_k(g, 4, gain="exponential"))
        assert ev.per_query.at[q, "F1@3"] == pytest.approx(irlib.f1_at_k(g, 3))
        assert ev.per_query.at[q, "Success@2"] == irlib.success_at_k(g, 2)
        assert ev.per_query.at[q, "RR@3"] == pytest.approx(irlib.reciprocal_rank(g, 3))


def test_batch_ranks_right_with_more_than_65536_queries():
    """Past 65,536 queries, interleaved: codes and hash regions must not wrap."""
    import pandas as pd
    rng = np.random.default_rng(5)
    n_queries = 70_000
    q = np.repeat([f"q{i:05d}" for i in range(n_queries)], 3)
    docs = np.tile(["a", "b", "c"], n_queries)
    run = pd.DataFrame({"query_id": q, "doc_id": docs, "score": rng.random(3 * n_queries)})
    run = run.sample(frac=1, random_state=1)                 # queries interleaved
    qrels = pd.DataFrame({"query_id": q[::3], "doc_id": "b", "relevance": 1})
    rr = irlib.evaluate(qrels, run, ["RR"]).per_query["RR"]
    expected = (run.sort_values(["query_id", "score", "doc_id"], ascending=[True, False, False])
                .assign(rank=lambda d: d.groupby("query_id").cumcount() + 1)
                .query("doc_id == 'b'").set_index("query_id")["rank"].rdiv(1.0))
    pd.testing.assert_series_equal(rr.sort_index(), expected.sort_index(), check_names=False)
