"""The live chart's Python side: what a click may send, the plotly.js address, and the
fixed y range that lets a drag move only the points."""
from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

import irlib
from ui.shared.charts import curves_figure, precision_recall_figure
from ui.shared.live_chart import event_choice, event_x, figure_look, plotly_url


@pytest.mark.parametrize("value, x", [
    ({"x": 5}, 5.0), ({"x": 2.0}, 2.0),
    (None, None), ("5", None), ({"x": "5"}, None), ({"x": True}, None),
    ({"x": math.nan}, None), ({"x": math.inf}, None), ({}, None), ([5], None),
])
def test_only_a_finite_number_is_a_click(value, x):
    assert event_x(value) == x


@pytest.mark.parametrize("value, chosen", [
    ("pr", "pr"), ("dcg", "dcg"), ("other", None), (None, None), (["pr"], None), (1, None),
])
def test_only_an_offered_option_is_a_choice(value, chosen):
    assert event_choice(value, {"dcg": "DCG@K", "pr": "Precision–recall"}) == chosen


def test_plotly_comes_from_the_static_folder(monkeypatch):
    import streamlit as st
    monkeypatch.setattr(st, "get_option", lambda name: "")
    assert plotly_url().startswith("/app/static/vendor/plotly/plotly-basic.min.js?v=")
    monkeypatch.setattr(st, "get_option", lambda name: "/class/a/")
    assert plotly_url().startswith("/class/a/app/static/vendor/plotly/")


def test_a_drag_keeps_the_dcg_axis_and_most_judgment_changes_do_too():
    def dcg_range(grades):
        curves = irlib.metric_curves(grades)
        return curves_figure(curves, ["DCG", "IDCG"], 2, unit_interval=False)["layout"]["yaxis"]["range"]

    grades = [0, 1, 0, 1, 1, 0, 1, 0]
    assert dcg_range(grades) == dcg_range(grades[::-1])                 # a reorder
    assert dcg_range(grades) == dcg_range([0, 1, 1, 1, 1, 0, 1, 0])     # a 5th relevant
    top = dcg_range(grades)[1]
    assert top >= max(irlib.metric_curves(grades)["IDCG"])               # nothing is cut off


def test_no_cdn_address_in_the_front_end_code():
    """Nothing may come from the internet: not even an unused default (static/vendor/README.md)."""
    root = Path(__file__).resolve().parents[1]
    files = [p for folder in ("static", "ui") for p in (root / folder).rglob("*")
             if p.suffix in {".js", ".css", ".html", ".py"}]
    assert any(p.name == "plotly-basic.min.js" for p in files)
    cdn = re.compile(r"https?://[^\s\"'`]*cdn", re.IGNORECASE)
    assert [p.name for p in files if cdn.search(p.read_text(encoding="utf-8"))] == []


def test_a_new_look_only_when_more_than_the_values_change():
    """The browser moves the points while the look stays, and redraws the chart when it changes."""
    def look(grades, k=2):
        return figure_look(curves_figure(irlib.metric_curves(grades), ["P", "R"], k))

    grades = [0, 1, 0, 1, 1, 0, 1, 0]
    assert look(grades) == look(grades[::-1]) == look([1, 1, 1, 1, 0, 0, 0, 0])
    assert look(grades, k=3) != look(grades)           # the K line and label move
    other = curves_figure(irlib.metric_curves(grades), ["P", "R"], 2, y_title="another")
    assert figure_look(other) != look(grades)


def test_the_precision_recall_graph_moves_its_points_until_k_changes():
    """Its points move along both axes (fixed ranges on both), so a drag or a judgment keeps
    its look; a new K enlarges another point, a redraw."""
    def figure(grades, k=2):
        return precision_recall_figure(irlib.precision_recall_batch([grades]), k)

    grades = [0, 1, 0, 1, 1, 0, 1, 0]
    assert figure_look(figure(grades)) == figure_look(figure(grades[::-1])) == \
        figure_look(figure([1, 0, 0, 0, 0, 0, 0, 0]))
    assert figure_look(figure(grades, k=3)) != figure_look(figure(grades))
    layout = figure(grades)["layout"]
    assert layout["xaxis"]["range"] == layout["yaxis"]["range"] == [-0.03, 1.05]
