"""irlib.precision_recall_batch: many rankings' precision–recall points at once, and the
interpolated envelope to draw, against the one-ranking functions.

Every row of the batch must be the one-ranking ``precision_recall_points`` of that row, its
points irlib's precision and recall at each K, and its envelope, read where a reader of the
chart reads it, trec_eval's interpolated precision at the 11 recall levels.
"""
import numpy as np
import pytest

import irlib
from irlib.measures.interpolated import (ELEVEN_LEVELS, interpolated_precision,
                                         precision_recall_batch, precision_recall_points,
                                         relevant_needed)
from tests.test_batch_curves import BINARY, GRADED, JUDGED_MODES, judged_for, random_state

TOL = dict(rtol=0, atol=1e-12)
EDGES = [[0, 0, 0], [1, 1, 1], [1], [0], [0, 1, 0, 1, 1, 0, 1, 0], [1, 0, 0, 0, 0, 1],
         [3, 0, 4, 1, 2]]


def states(seed: int, levels, count: int = 25):
    """Random rankings of one length (a batch holds rows of equal length) and their levels."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 10))
    return rng, np.array([random_state(rng, levels, n) for _ in range(count)])


def curve_at(envelope_recall, envelope_precision, level_recall) -> float:
    """The envelope as a chart shows it: its value at the first point at or past a recall."""
    reached = np.flatnonzero(envelope_recall >= level_recall)
    return float(envelope_precision[reached[0]]) if reached.size else 0.0


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("levels, rel", [(BINARY, 1), (GRADED, 1), (GRADED, 3)])
@pytest.mark.parametrize("mode", JUDGED_MODES)
def test_each_row_is_precision_recall_points_and_irlibs_p_and_r(seed, levels, rel, mode):
    rng, rows = states(seed, levels)
    judged, pools = judged_for(mode, rows, rng, levels)
    batch = precision_recall_batch(rows, judged=judged, rel=rel)
    n = rows.shape[1]
    assert batch["rank"].tolist() == list(range(1, n + 1))
    for r, (row, pool) in enumerate(zip(rows, pools)):
        one = precision_recall_points(row, judged=pool, rel=rel)
        for name in ("recall", "precision", "interpolated"):
            np.testing.assert_allclose(batch[name][r], one[name], **TOL, err_msg=name)
        for k in range(1, n + 1):
            assert batch["precision"][r, k - 1] == pytest.approx(
                irlib.precision_at_k(row, k, rel=rel), abs=1e-12)
            assert batch["recall"][r, k - 1] == pytest.approx(
                irlib.recall_at_k(row, k, judged=pool, rel=rel), abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("levels, rel", [(BINARY, 1), (GRADED, 1), (GRADED, 2), (GRADED, 4)])
@pytest.mark.parametrize("mode", JUDGED_MODES)
def test_the_envelope_reads_trec_evals_interpolated_precision_at_the_11_levels(seed, levels,
                                                                               rel, mode):
    """At recall level L trec_eval needs c relevant documents found (``relevant_needed``):
    the chart's envelope at recall c / R is ``interpolated_precision(L)``; 0 where the
    ranking never gets there."""
    rng, rows = states(100 + seed, levels)
    judged, pools = judged_for(mode, rows, rng, levels)
    batch = precision_recall_batch(rows, judged=judged, rel=rel)
    for r, (row, pool) in enumerate(zip(rows, pools)):
        n_relevant = int(np.count_nonzero(np.asarray(row if pool is None else pool) >= rel))
        for level in ELEVEN_LEVELS:
            needed = relevant_needed(level, n_relevant)
            shown = curve_at(batch["envelope_recall"][r], batch["envelope_precision"][r],
                             needed / n_relevant if n_relevant else 0.0)
            assert shown == pytest.approx(interpolated_precision(row, level, judged=pool, rel=rel),
                                          abs=1e-12), (row.tolist(), pool, level)


@pytest.mark.parametrize("grades", EDGES + [random_state(np.random.default_rng(s), GRADED, 9)
                                            for s in range(20)])
@pytest.mark.parametrize("rel", [1, 2])
def test_the_envelope_is_the_best_precision_at_a_recall_or_beyond(grades, rel):
    """Drawn through its points, the envelope starts on the precision axis, never rises as
    recall grows, lies on or above every point, and where a recall is reached it is the best
    precision at that recall or beyond (brute force); its last point repeats after the last
    relevant result."""
    batch = precision_recall_batch([grades], rel=rel)
    x, y = batch["envelope_recall"][0], batch["envelope_precision"][0]
    recall, precision = batch["recall"][0], batch["precision"][0]
    assert len(x) == len(y) == len(grades) + 1 and x[0] == 0
    assert np.all(np.diff(x) >= 0) and np.all(np.diff(y) <= 1e-15)
    for r, p in zip(recall, precision):
        best = max(q for s, q in zip(recall, precision) if s >= r)
        assert curve_at(x, y, r) == pytest.approx(best, abs=1e-12)
        assert p <= curve_at(x, y, r) + 1e-12
    assert y[0] == pytest.approx(max(precision, default=0.0), abs=1e-12)
    relevant = np.flatnonzero(np.asarray(grades) >= rel)
    if relevant.size:
        last = relevant[-1] + 1                        # its point is number `last` after the start
        assert np.all(y[last:] == y[last]) and np.all(x[last:] == x[last])


def test_rows_of_a_batch_and_a_shared_pool():
    """Two rankings, one judged pool with four relevant documents never shown: recall halves,
    precision stays, and each row is its own ranking's curve."""
    rows = [[0, 1, 0, 1, 1, 0, 1, 0], [1, 0, 0, 1, 1, 0, 1, 0]]
    batch = precision_recall_batch(rows, judged=[1] * 8)
    assert batch["recall"][:, -1].tolist() == [0.5, 0.5]
    assert batch["envelope_precision"][:, 0].round(3).tolist() == [0.6, 1.0]
    assert batch["envelope_recall"].shape == batch["envelope_precision"].shape == (2, 9)


@pytest.mark.parametrize("bad, message", [
    ([0, 1], "two-dimensional"), ([[0, -1]], "must be >= 0"), ([[0, np.nan]], "finite"),
    ("01", "string"),
])
def test_bad_rankings_are_refused_with_the_reason(bad, message):
    with pytest.raises(ValueError, match=message):
        precision_recall_batch(bad)
    with pytest.raises(ValueError, match="rel"):
        precision_recall_batch([[0, 1]], rel=0)


def test_interpolated_precision_is_exact_whatever_the_number_of_queries():
    """500,000 queries, each with one relevant document at rank 3: IPrec@0 and the 11-point
    average of every query are the single query's, to the last bit (a lift of 2·(n − q)
    added to the precision and taken off again left 0.33333333337213844)."""
    import pandas as pd
    n = 500_000
    measures = ["IPrec@0", "IPrec@0.5", "IPrecAvg"]
    one = irlib.evaluate(pd.DataFrame({"query_id": [0], "doc_id": [2], "relevance": [1]}),
                         pd.DataFrame({"query_id": [0, 0, 0], "doc_id": [0, 1, 2],
                                       "score": [3.0, 2.0, 1.0]}), measures).means
    assert one["IPrec@0"] == 1 / 3
    queries = np.arange(n)
    qrels = pd.DataFrame({"query_id": queries, "doc_id": np.full(n, 2), "relevance": 1})
    run = pd.DataFrame({"query_id": np.repeat(queries, 3), "doc_id": np.tile([0, 1, 2], n),
                        "score": np.tile([3.0, 2.0, 1.0], n)})
    per_query = irlib.evaluate(qrels, run, measures).per_query
    for name in measures:
        assert (per_query[name].to_numpy() == one[name]).all(), name
