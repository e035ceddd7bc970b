"""The measure registry (irlib.measures.registry.MEASURES): every entry's functions agree with each other.

One table feeds the parser, evaluate, the curves, explain and the app; these tests walk it, so
a new entry is checked without a new test: its curve against its one-ranking function at every
K, its explainer against the same number, its parser name round-trip.
"""
import inspect

import numpy as np
import pytest

import irlib
import irlib.measures.interpolated
from irlib.measures.registry import CUTOFFS, FAMILIES, MEASURES, RUN_MEASURES, parse_measure


def per_ranking(info, grades, k, *, judged, rel, gain):
    """Call a measure's one-ranking function with the options it takes (and K if it takes K)."""
    fn = info.per_ranking
    accepted = inspect.signature(fn).parameters
    options = {name: value for name, value in
               (("judged", judged), ("rel", rel), ("gain", gain)) if name in accepted}
    return fn(grades, k, **options) if info.takes_k else fn(grades, **options)


def random_rankings(seed, n=40):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        length = int(rng.integers(1, 10))
        grades = rng.integers(0, 5, size=length).astype(float)
        extra = rng.integers(0, 5, size=int(rng.integers(0, 4))).astype(float)
        yield grades, (np.concatenate([grades, extra]) if rng.random() < 0.5 else None)


@pytest.mark.parametrize("name", [n for n, info in MEASURES.items() if info.curve is not None])
def test_curve_explainer_and_function_agree_at_every_k(name):
    info = MEASURES[name]
    for seed in range(3):
        for grades, judged in random_rankings(seed):
            for rel, gain in ((1, "linear"), (2, "exponential")):
                curve = irlib.metric_curves(grades, judged=judged, rel=rel, gain=gain,
                                            measures=[name])[name]
                for k in range(1, len(grades) + 1):
                    want = per_ranking(info, grades, k, judged=judged, rel=rel, gain=gain)
                    assert curve[k - 1] == pytest.approx(want, abs=1e-12), (name, k)
                    got = irlib.explain(name, grades, k, judged=judged, rel=rel, gain=gain)
                    assert got.value == pytest.approx(want, abs=1e-12), (name, k)
                    assert got.metric == name


@pytest.mark.parametrize("name", [n for n, info in MEASURES.items() if info.cutoff == "level"])
def test_level_measures_explainer_and_function_agree_at_every_level(name):
    """IPrec's parameter is a recall level (0 to 1), not a rank: no curve over K."""
    info = MEASURES[name]
    assert info.curve is None
    for seed in range(3):
        for grades, judged in random_rankings(seed):
            for rel in (1, 2):
                for level in irlib.measures.interpolated.ELEVEN_LEVELS + (0.25, 0.05):
                    want = info.per_ranking(grades, level, judged=judged, rel=rel)
                    got = irlib.explain(name, grades, level, judged=judged, rel=rel)
                    assert got.value == pytest.approx(want, abs=1e-12), (name, level)


@pytest.mark.parametrize("name", list(MEASURES))
def test_entry_is_complete(name):
    info = MEASURES[name]
    assert info.family in FAMILIES and info.cutoff in CUTOFFS
    assert info.label and info.description and not hasattr(info, "colour")   # the app's: ui
    assert set(info.params) <= set(irlib.PARAMS)
    assert info.label_at(3) == (f"{info.label}@3" if info.takes_k else info.label)


@pytest.mark.parametrize("name", RUN_MEASURES)
def test_run_measures_parse_back_to_their_name(name):
    info = MEASURES[name]
    text = {"required": f"{name}@5", "level": f"{name}@0.5"}.get(info.cutoff, name)
    assert str(parse_measure(text)) == text


def test_parser_says_why_a_measure_is_refused():
    with pytest.raises(ValueError, match="takes no cut-off"):
        parse_measure("Rprec@5")
    with pytest.raises(ValueError, match="not a run measure"):
        parse_measure("CG@5")
    with pytest.raises(ValueError, match="needs a cut-off"):
        parse_measure("P")


def test_r_precision_from_its_definition():
    # R = 4 relevant (one of them never shown): the top 4 hold 3 of them
    assert irlib.r_precision([1, 0, 1, 1], judged=[1, 0, 1, 1, 1, 0]) == pytest.approx(3 / 4)
    assert irlib.r_precision([1, 0, 1], judged=[1, 0, 1, 1]) == pytest.approx(2 / 3)
    assert irlib.r_precision([0, 0]) == 0.0
    # a list shorter than R: what it found, over R
    assert irlib.r_precision([1], judged=[1, 1, 1]) == pytest.approx(1 / 3)
