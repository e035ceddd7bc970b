"""ui.shared.board's Python side without a browser: validation and event cleaning."""

from __future__ import annotations

import pytest

from ui.shared.board import _clean_change, ranking_board

ITEMS = [{"id": f"i{n}", "title": f"Item {n}", "image": "", "alt": ""} for n in range(1, 4)]
IDS = {"i1", "i2", "i3"}


def test_clean_change_accepts_full_state_and_clamps_grades() -> None:
    got = _clean_change({"order": ["i2", "i1", "i3"], "grades": {"i1": 7, "i2": -1}, "seq": 3}, IDS, "graded")
    assert got == {"order": ["i2", "i1", "i3"], "grades": {"i2": 0, "i1": 4, "i3": 0}, "seq": 3}
    got = _clean_change({"order": ["i1", "i2", "i3"], "grades": {"i1": 4}}, IDS, "binary")
    assert got["grades"]["i1"] == 1


@pytest.mark.parametrize(
    "raw",
    [None, "x", {"order": ["i1", "i2"], "grades": {}}, {"order": ["i1", "i1", "i2"], "grades": {}},
     {"order": ["i1", "i2", "i3"]}, {"order": ["i1", "i2", "i3", "i4"], "grades": {}}],
)
def test_clean_change_rejects_bad_payloads(raw) -> None:
    assert _clean_change(raw, IDS, "binary") is None


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"mode": "stars"}, "mode"),
        ({"order": ["i1", "i2"]}, "order"),
        ({"outcomes": ["TP"]}, "aligned"),
        ({"outcomes": ["TP", "XX", ""]}, "unknown outcomes"),
        ({"k": -1}, "k must"),
    ],
)
def test_ranking_board_validates_arguments(kwargs, message) -> None:
    args = {"order": ["i1", "i2", "i3"], "mode": "binary", **kwargs}
    with pytest.raises(ValueError, match=message):
        ranking_board(ITEMS, args.pop("order"), {}, key="b", **args)
