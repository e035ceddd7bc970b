"""The playground's per-state view (ui.lessons.playground.session.board_view): kept per state for a class's
reruns, it must show exactly what irlib computes for that state, whatever changed."""
from __future__ import annotations

import random

import numpy as np
import pytest

import irlib
from ui.lessons.playground import session as pg
from ui.lessons.playground import state as url_state
from ui.shared.charts import curves_figure, precision_recall_figure
from ui.shared.live_chart import figure_look


def _states(n: int, seed: int = 7):
    rng = random.Random(seed)
    for _ in range(n):
        yield dict(grades=[rng.randint(0, 4) for _ in range(8)], k=rng.randint(1, 8),
                   rel=rng.randint(1, 4), gain=rng.choice(url_state.GAINS),
                   metric=rng.choice(url_state.METRICS), chart=rng.choice(tuple(url_state.CHARTS)),
                   height=rng.choice((240, 270)))


@pytest.mark.parametrize("state", list(_states(25)))
def test_the_view_is_what_irlib_computes_for_its_state(state):
    # the cache filled by every state before, in an order no other test uses
    view = pg.board_view(**state)
    grades, k, rel, gain = state["grades"], state["k"], state["rel"], state["gain"]
    curves = irlib.metric_curves(grades, rel=rel, gain=gain, measures=pg.tile_measures())
    assert view.curves.keys() == curves.keys()
    for name, values in curves.items():
        np.testing.assert_array_equal(view.curves[name], values)
    assert view.confusion == irlib.confusion_at_k(grades, k, rel=rel)
    assert view.explanation.latex == irlib.explain(state["metric"], grades, k, rel=rel,
                                                   gain=gain).latex
    scores, dcg = pg.chart_measures()
    second = (precision_recall_figure(irlib.precision_recall_batch([grades], rel=rel), k,
                                      height=state["height"]) if state["chart"] == "pr" else
              curves_figure(curves, dcg, k, y_title="DCG at K", unit_interval=False,
                            dash={"IDCG": "dash"}, height=state["height"]))
    first = curves_figure(curves, scores, k, y_title="score at K", height=state["height"])
    assert [c.figure for c in view.charts] == [first, second]
    assert [c.look for c in view.charts] == [figure_look(first), figure_look(second)]


def test_every_input_is_part_of_the_state():
    """Changing any one input gives another view (a key that left one out would show a
    number of the state before); the same inputs give the view already kept."""
    base = dict(grades=[0, 4, 1, 3, 4, 1, 3, 2], k=3, rel=2, gain="linear", metric="AP",
                chart="dcg", height=240)
    view = pg.board_view(**base)
    assert pg.board_view(**{**base, "grades": tuple(base["grades"])}) is view
    for change in (dict(grades=[4, 0, 1, 3, 4, 1, 3, 2]), dict(k=4), dict(rel=3),
                   dict(gain="exponential"), dict(metric="nDCG"), dict(chart="pr"),
                   dict(height=270)):
        other = pg.board_view(**{**base, **change})
        assert other is not view, change
        assert (other.explanation.latex, [c.figure for c in other.charts]) != (
            view.explanation.latex, [c.figure for c in view.charts]), change


def test_kept_curves_cannot_be_changed_by_a_reader():
    view = pg.board_view([1, 0, 1, 0, 0, 1, 0, 0], k=2, rel=1, gain="linear", metric="P",
                         chart="dcg", height=240)
    with pytest.raises(ValueError):
        view.curves["P"][0] = 0.5
