"""The browser's look-up table (ui/lessons/playground/preview.py): every neighbour's numbers are irlib's
per-ranking numbers for that neighbour, as the page would show them after a rerun."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import irlib
from ui.shared.numbers import fmt
from ui.lessons.playground.session import confusion_note
from ui.lessons.playground.preview import DECIMALS, neighbour_preview, signature

TILES = ["P", "R", "F1", "RR", "AP", "DCG", "IDCG", "nDCG"]
CHARTS = (["P", "R", "F1", "RR", "AP", "nDCG"], ["DCG", "IDCG"])


def _apply(order, grades, key):
    """The state a key names, by hand: "move:i:j" pops rank i and inserts at j."""
    kind, i, j = key.split(":")
    order, grades = list(order), dict(grades)
    if kind == "move":
        order.insert(int(j), order.pop(int(i)))
    else:
        grades[order[int(i)]] = int(j)
    return order, grades


@pytest.mark.parametrize("levels, rel, gain, k", [
    ((0, 1), 1, "linear", 2), ((0, 1), 1, "exponential", 5),
    (range(5), 1, "linear", 2), (range(5), 3, "exponential", 4), (range(5), 2, "linear", 8),
])
def test_every_neighbour_matches_the_per_ranking_functions(levels, rel, gain, k):
    rng = np.random.default_rng(k * 10 + rel)
    ids = [f"d{n}" for n in range(8)]
    order = list(rng.permutation(ids))
    grades = {i: int(rng.choice(list(levels))) for i in ids}
    table = neighbour_preview(order, grades, levels, k=k, rel=rel, gain=gain, tiles=TILES,
                              charts=CHARTS, note=confusion_note)
    moves = 8 * 7
    assert len(table.numbers) == moves + 8 * (len(list(levels)) - 1)
    assert table.base == signature(order, grades)
    for key, shown in table.numbers.items():
        new_order, new_grades = _apply(order, grades, key)
        ranked = [new_grades[i] for i in new_order]
        curves = irlib.metric_curves(ranked, rel=rel, gain=gain)
        assert shown["tiles"] == [fmt(curves[name][k - 1]) for name in TILES], key
        for chart, traces in zip(CHARTS, shown["charts"]):
            for name, y in zip(chart, traces):
                assert y == pytest.approx(curves[name], abs=10 ** -DECIMALS / 2 + 1e-9), (key, name)
        c = irlib.confusion_at_k(ranked, k, rel=rel)
        assert shown["note"] == confusion_note(k, c.tp, c.fp, c.fn, c.tn)
        assert table.outcomes[key] == list(c.outcomes)
        # spot checks against the one-number functions too
        assert shown["tiles"][1] == fmt(irlib.recall_at_k(ranked, k, rel=rel))
        assert shown["tiles"][7] == fmt(irlib.ndcg_at_k(ranked, k, gain=gain))


def test_keys_are_what_the_board_sends():
    order, grades = ["a", "b", "c"], {"a": 0, "b": 1, "c": 0}
    table = neighbour_preview(order, grades, (0, 1), k=1, rel=1, gain="linear", tiles=["P"],
                              charts=[["P"]], note=lambda *c: "")
    moves = {f"move:{i}:{j}" for i, j in itertools.permutations(range(3), 2)}
    grades_ = {f"grade:{i}:{1 - grades[order[i]]}" for i in range(3)}
    assert set(table.numbers) == moves | grades_
    assert table.numbers["move:1:0"]["tiles"] == ["1"]         # b to the top: P@1 = 1
    assert table.numbers["grade:0:1"]["tiles"] == ["1"]        # a judged relevant
