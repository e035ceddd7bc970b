"""The batch curves of every one-move neighbour == irlib's per-ranking functions on that neighbour.

States are random (seeded numpy) or edge cases; each neighbour row is checked against
``metric_curves`` on the full grid of parameters, and against the per-K functions
(precision_at_k, ..., confusion_at_k) on a random draw of parameters per state.
"""
import itertools

import numpy as np
import pytest

import irlib

BINARY, GRADED = (0, 1), tuple(range(5))
JUDGED_MODES = ("own", "shared", "own+unshown")
TOL = dict(rtol=0, atol=1e-12)


def judged_for(mode, rows, rng, levels):
    """The ``judged`` argument of the batch call and the pool of each row for the reference."""
    if mode == "own":
        return None, [None] * len(rows)
    unshown = rng.choice(levels, size=rng.integers(0, 6))
    if mode == "shared":
        # One pool for every row: each grade as often as the row that shows it most (a pool
        # must hold the shown documents, irlib's check), plus documents no row shows.
        most = [np.repeat(v, max(int(np.sum(np.asarray(r) == v)) for r in rows)) for v in levels]
        pool = np.concatenate(most + [unshown]).astype(float)
        return pool, [pool] * len(rows)
    pools = np.hstack([rows, np.broadcast_to(unshown, (len(rows), len(unshown)))])
    return pools, list(pools)


def random_state(rng, levels, n=None):
    n = n if n is not None else int(rng.integers(1, 10))
    return rng.choice(levels, size=n).astype(float)


def check_against_metric_curves(rows, judged, pools, **params):
    batch = irlib.metric_curves_batch(rows, judged=judged, **params)
    assert set(batch) == set(irlib.CURVE_NAMES)
    reference = [irlib.metric_curves(row, judged=pool, **params) for row, pool in zip(rows, pools)]
    for name in irlib.CURVE_NAMES:
        expected = np.array([one[name] for one in reference]).reshape(rows.shape)
        assert batch[name].shape == rows.shape
        np.testing.assert_allclose(batch[name], expected, **TOL, err_msg=name)


def check_against_per_k(rows, judged, pools, *, rel, gain, ideal, denominator):
    curves = irlib.metric_curves_batch(rows, judged=judged, rel=rel, gain=gain, ideal=ideal,
                                       denominator=denominator)
    counts = irlib.confusion_curves_batch(rows, judged=judged, rel=rel)
    n = rows.shape[1]
    for k in range(1, n + 1):
        labels = irlib.outcomes_at_k_batch(rows, k, rel=rel)
        for r, (row, pool) in enumerate(zip(rows, pools)):
            expected = {
                "P": irlib.precision_at_k(row, k, rel=rel),
                "R": irlib.recall_at_k(row, k, judged=pool, rel=rel),
                "F1": irlib.f1_at_k(row, k, judged=pool, rel=rel),
                "Success": irlib.success_at_k(row, k, rel=rel),
                "RR": irlib.reciprocal_rank(row, k, rel=rel),
                "AP": irlib.average_precision(row, k, judged=pool, rel=rel,
                                              denominator=denominator),
                "CG": irlib.cg_at_k(row, k),
                "DCG": irlib.dcg_at_k(row, k, gain=gain),
                "IDCG": irlib.idcg_at_k(row, k, judged=pool, gain=gain, ideal=ideal),
                "nDCG": irlib.ndcg_at_k(row, k, judged=pool, gain=gain, ideal=ideal),
            }
            for name, value in expected.items():
                assert abs(curves[name][r, k - 1] - value) <= 1e-12, f"{name}@{k}, row {r}"
            confusion = irlib.confusion_at_k(row, k, judged=pool, rel=rel)
            got = tuple(int(counts[name][r, k - 1]) for name in irlib.CONFUSION_NAMES)
            assert got == (confusion.tp, confusion.fp, confusion.fn, confusion.tn), f"@{k}, row {r}"
            assert tuple(labels[r].tolist()) == confusion.outcomes


GRID = list(itertools.product(
    (BINARY, GRADED), (1, 2, 3), irlib.GAINS, irlib.IDEALS, irlib.DENOMINATORS, JUDGED_MODES))


@pytest.mark.parametrize("seed, levels, rel, gain, ideal, denominator, mode",
                         [(seed, *params) for seed, params in enumerate(GRID)])
def test_neighbours_match_metric_curves(seed, levels, rel, gain, ideal, denominator, mode):
    rng = np.random.default_rng(seed)
    for n in (8, None):    # the playground's eight cards, then a random length
        state = random_state(rng, levels, n)
        rows = irlib.one_move_neighbours(state, levels).grades
        judged, pools = judged_for(mode, rows, rng, levels)
        check_against_metric_curves(rows, judged, pools, rel=rel, gain=gain, ideal=ideal,
                                    denominator=denominator)


@pytest.mark.parametrize("levels", (BINARY, GRADED), ids=("binary", "graded"))
@pytest.mark.parametrize("mode", JUDGED_MODES)
@pytest.mark.parametrize("seed", range(3))
def test_neighbours_match_per_k_functions(levels, mode, seed):
    rng = np.random.default_rng(1000 * seed + len(levels) + 10 * JUDGED_MODES.index(mode))
    state = random_state(rng, levels, 8 if seed == 0 else None)
    rows = irlib.one_move_neighbours(state, levels).grades
    judged, pools = judged_for(mode, rows, rng, levels)
    params = dict(rel=int(rng.choice([1, 2, 3])), gain=str(rng.choice(irlib.GAINS)),
                  ideal=str(rng.choice(irlib.IDEALS)),
                  denominator=str(rng.choice(irlib.DENOMINATORS)))
    check_against_per_k(rows, judged, pools, **params)


EDGE_STATES = {
    "nothing relevant, binary": ([0] * 8, BINARY, 1),
    "nothing relevant, graded": ([0] * 8, GRADED, 1),
    "grades below rel": ([1, 2, 0, 1, 2, 0, 1, 2], GRADED, 3),
    "one card, relevant": ([1], BINARY, 1),
    "one card, not relevant": ([0], GRADED, 1),
    "all relevant, binary": ([1] * 8, BINARY, 1),
    "all relevant, graded": ([4, 3, 2, 1, 4, 3, 2, 1], GRADED, 1),
}


@pytest.mark.parametrize("state, levels, rel", EDGE_STATES.values(), ids=EDGE_STATES.keys())
@pytest.mark.parametrize("mode", JUDGED_MODES)
def test_edge_states(state, levels, rel, mode):
    rng = np.random.default_rng(7)
    neighbours = irlib.one_move_neighbours(state, levels)
    # the state itself rides along: with nothing relevant anywhere, every value is 0
    rows = np.vstack([np.asarray(state, dtype=float), neighbours.grades])
    judged, pools = judged_for(mode, rows, rng, levels)
    for gain, ideal, denominator in itertools.product(irlib.GAINS, irlib.IDEALS,
                                                      irlib.DENOMINATORS):
        check_against_metric_curves(rows, judged, pools, rel=rel, gain=gain, ideal=ideal,
                                    denominator=denominator)
    check_against_per_k(rows, judged, pools, rel=rel, gain="exponential", ideal="judged",
                        denominator="relevant")


def test_nothing_relevant_scores_zero_everywhere():
    curves = irlib.metric_curves_batch(np.zeros((3, 4)))
    # Judged@K asks whether a result was judged, not whether it is relevant: every result
    # here is judged (grade 0), so it is 1 at every K. RBP's residual is the weight RBP has
    # not seen: with every result judged, the user's chance to read past K, p^K.
    scores = [n for n in irlib.CURVE_NAMES if irlib.MEASURES[n].family != "count"
              and n not in ("Judged", "RBPResidual")]
    assert all(not curves[name].any() for name in scores)
    assert (curves["Judged"] == 1).all()
    assert np.allclose(curves["RBPResidual"], 0.8 ** np.arange(1, 5))
    assert (curves["NumRet"] == 4).all() and (curves["NumNonrelRet"] == 4).all()
    counts = irlib.confusion_curves_batch(np.zeros((3, 4)))
    assert counts["TN"][0].tolist() == [3, 2, 1, 0] and not counts["FN"].any()


def test_all_relevant_is_perfect():
    curves = irlib.metric_curves_batch(np.ones((2, 5)), denominator="min_r_k")
    for name in ("P", "RR", "AP", "nDCG"):
        assert (curves[name] == 1.0).all(), name
    assert curves["R"][0].tolist() == [0.2, 0.4, 0.6, 0.8, 1.0]


def test_no_rows_and_no_columns():
    assert irlib.metric_curves_batch(np.zeros((0, 8)))["nDCG"].shape == (0, 8)
    assert irlib.metric_curves_batch(np.zeros((2, 0)))["AP"].shape == (2, 0)
    assert irlib.confusion_curves_batch(np.zeros((0, 3)))["TN"].shape == (0, 3)


def test_results_are_fresh_arrays():
    """A caller may write into a curve without changing another row or another curve."""
    curves = irlib.metric_curves_batch([[1, 0], [0, 1]], judged=[1, 1, 0])
    counts = irlib.confusion_curves_batch([[1, 0], [0, 1]], judged=[1, 1, 0])
    curves["IDCG"][0, 0] = 99.0
    counts["FN"][0, 0] = 99
    assert curves["IDCG"][1, 0] == 1.0 and counts["FN"][1, 0] == 2


@pytest.mark.parametrize("grades, message", [
    ([0, 1, 0], r"two-dimensional \(one ranking per row\), got shape \(3,\)"),
    ([[0, 1], [1]], "rows of equal length"),
    ("0110", "got a string"),
    ([[0, 1], [1, -2]], r"grades\[1, 1\] is -2; grades must be >= 0"),
    ([[0, np.nan]], r"grades\[0, 1\] is nan; grades must be finite"),
])
def test_bad_grades_say_where(grades, message):
    for call in (irlib.metric_curves_batch, irlib.confusion_curves_batch,
                 lambda g: irlib.outcomes_at_k_batch(g, 1)):
        with pytest.raises(ValueError, match=message):
            call(grades)


@pytest.mark.parametrize("kwargs, message", [
    (dict(judged=[[1, 0]] * 3), "one row per ranking: 3 rows != 2 rankings"),
    (dict(judged=[[[1]]]), "judged must be None, one pool"),
    (dict(judged=[1, -1]), r"judged\[1\] is -1"),
    (dict(rel=0), "rel must be a whole number >= 1"),
    (dict(denominator="R"), "denominator must be one of"),
    (dict(ideal="best"), "ideal must be one of"),
    (dict(gain="log"), "gain must be one of"),
])
def test_bad_parameters_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        irlib.metric_curves_batch([[0, 1], [1, 0]], **kwargs)


def test_bad_k_is_named():
    with pytest.raises(ValueError, match="k must be >= 1"):
        irlib.outcomes_at_k_batch([[0, 1]], 0)
