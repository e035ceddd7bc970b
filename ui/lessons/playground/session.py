"""The playground's session state: defaults from the sources, the URL, and the board's changes.

State flows one way: URL (first run) -> st.session_state -> irlib -> figures; every run
writes the state back to the address bar, so it is always a shareable link. The fields and
their URL codecs are declared once (:func:`page_state`); ``ui/shared/page_state.py`` keeps them
across page switches.
"""
from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import streamlit as st

import irlib
from irlib.measures.registry import MEASURES
from ui.shared import formula_view, live_chart
from ui.lessons.playground import predict
from ui.lessons.playground import example_data as own_data, example_goal as own_goal
from ui.shared import page_state as ps
from ui.lessons.playground import state as url_state
from ui.shared.catalog import load_catalog
from ui.shared.charts import curves_figure, precision_recall_figure
from ui.shared.numbers import fmt
from ui.shared.texts import SCORES

PREFIX = "pg_"
EXAMPLE = PREFIX + "ex"                # the lecturer's own example (ui/lessons/playground/example_data.py), or None
CATS_KEPT = PREFIX + "cats_kept"       # the cats' board while an own example is shown
BINARY_QUERY, GRADED_QUERY = "cat-in-a-box", "white-cat-in-a-box"


def defaults() -> url_state.PlaygroundState:
    """The board's starting order and judgments (:func:`defaults_of` the example shown)."""
    return defaults_of(own_example())


def defaults_of(example: own_data.OwnExample | None) -> url_state.PlaygroundState:
    """The sources' order and judgments (article: relevant at 2, 4, 5, 7; video: grades 0-4),
    or the lecturer's own example's (:mod:`ui.lessons.playground.example_data`; its binary labels: grade 1 or more
    counts as relevant). An own example whose grades go beyond 0 and 1 opens in graded mode:
    the lecturer typed grades, and binary mode would show them as ✓/✗."""
    if example is not None:
        grades = example.grades
        return url_state.PlaygroundState(order=tuple(example.ids), grades=grades,
                                         labels={i: int(g >= 1) for i, g in grades.items()},
                                         mode="graded" if max(grades.values()) > 1 else "binary")
    catalog = load_catalog()
    binary, graded = catalog.queries[BINARY_QUERY], catalog.queries[GRADED_QUERY]
    return url_state.PlaygroundState(order=tuple(binary.order), labels=dict(binary.grades),
                                     grades=dict(graded.grades))


def own_example() -> own_data.OwnExample | None:
    """The lecturer's own example on the board, or None: the cats."""
    return st.session_state.get(EXAMPLE)


def item_ids() -> list[str]:
    return item_ids_of(own_example())


def page_state() -> ps.PageState:
    """The page's fields for the example on the board: the cats, or the lecturer's own (its
    item ids, K up to its length, and the example itself in the link as ``ex``).

    An own example's fields are kept in its session only (nothing of it outlives the session
    on the server); the cats' are made once.
    """
    example = own_example()
    if example is None:
        return _cats_state()
    kept = st.session_state.get(PREFIX + "own_state")
    if kept is None or kept[0] != example.key:
        kept = st.session_state[PREFIX + "own_state"] = (example.key, _page_state(example))
    return kept[1]


@functools.cache
def _cats_state() -> ps.PageState:
    return _page_state(None)


def _page_state(example: own_data.OwnExample | None) -> ps.PageState:
    ids, start = item_ids_of(example), defaults_of(example)
    symbols = None if example is None else own_data.SYMBOLS[:len(ids)]
    own = [] if example is None else [
        ps.Field("ex", example, ps.Codec(own_data.from_link, own_data.to_link,
                                         "an example made on this page")),
        ps.Field("goal", None, own_goal.codec(len(ids)))]      # a Practice-style goal
    return ps.PageState(PREFIX, [
        ps.Field("order", start.order, ps.ordering(ids, symbols)),
        ps.Field("labels", start.labels, ps.judgments(ids, 1)),
        ps.Field("grades", start.grades, ps.judgments(ids, 4)),
        ps.Field("mode", start.mode, ps.one_of(url_state.MODES)),
        ps.Field("k", start.k, ps.whole_number(1, len(ids))),
        ps.Field("metric", start.metric, ps.one_of(url_state.METRICS)),
        ps.Field("gain", start.gain, ps.one_of(url_state.GAINS)),
        ps.Field("rel", start.rel, ps.whole_number(1, 4)),
        ps.Field("chart", start.chart, ps.one_of(tuple(url_state.CHARTS))),
        # the presenter view in a link: view=present (or view=learn)
        ps.Field("present", False, ps.switch(on="present", off="learn"), "view"),
        *predict.fields(),                 # predict, then see (ui/lessons/playground/predict.py)
        *own,
    ])


def item_ids_of(example: own_data.OwnExample | None) -> list[str]:
    return example.ids if example is not None else list(load_catalog().items)


def init() -> None:
    """Seed the state on the session's first visit (from the URL: an own example first, whose
    ids the board's fields need), show a bad link's notice."""
    if EXAMPLE not in st.session_state:
        example, text = None, st.query_params.get("ex")
        if text:
            try:
                example = own_data.from_link(text)
            except own_data.ExampleError:
                st.session_state[PREFIX + "own_notice"] = (
                    "This link's own example could not be read (the link may have been cut); "
                    "the cats are shown instead.")
        st.session_state[EXAMPLE] = example
    page_state().start()


def current(values: Mapping[str, Any] | None = None) -> url_state.PlaygroundState:
    """The playground's state, from ``values`` (``page_state().values()``) if given."""
    s = page_state().values() if values is None else values
    return url_state.PlaygroundState(
        order=tuple(s["order"]), labels=dict(s["labels"]), grades=dict(s["grades"]),
        mode=s["mode"], k=int(s["k"]), metric=s["metric"], gain=s["gain"], rel=int(s["rel"]),
        present=bool(s["present"]), chart=s["chart"])


def address(values: Mapping[str, Any] | None = None) -> str:
    """The query string of a link that opens the playground as it is now (from ``values``,
    ``page_state().values()``, if given).

    Written by the browser (``ui.shared.live_chart.live_charts(address=...)``), not through
    ``st.query_params`` (see ``ui/shared/address.py``). An own example too long for a link
    (:data:`ui.lessons.playground.example_data.LINK_LIMIT`) leaves it out: the address then opens the cats as they
    were left, and the page says to save the example as a file.
    """
    example = own_example()
    if example is None or own_data.fits_link(example):
        return page_state().address(values)
    values = dict(page_state().values() if values is None else values)
    cats = _cats_state()
    start = defaults_of(None)
    values.update(st.session_state.get(CATS_KEPT) or
                  {"order": start.order, "labels": start.labels, "grades": start.grades})
    values["k"] = min(int(values["k"]), len(item_ids_of(None)))
    return cats.address(values)


def tile_measures() -> list[str]:
    """The measures shown as tiles: the registry's headline numbers, in its order."""
    return [name for name, info in MEASURES.items() if info.tile]


def chart_measures() -> tuple[list[str], list[str]]:
    """The tiles' curves, split by scale: scores between 0 and 1, then DCG-like sums."""
    return list(SCORES), [n for n in tile_measures() if not MEASURES[n].bounded]


@dataclass(frozen=True, eq=False)
class BoardView:
    """What the board's state shows beside the board: irlib's numbers for the tiles, the
    caption and the formula, and the two charts."""
    confusion: irlib.Confusion
    curves: dict[str, np.ndarray]          # read-only: shared by every session in the state
    explanation: irlib.Explanation
    charts: tuple[live_chart.Chart, live_chart.Chart]
    k: int

    @functools.cached_property
    def charts_data(self) -> bytes:
        """:attr:`charts` as the live charts send them, encoded once per state."""
        return live_chart.encode_charts(self.charts)

    @functools.cached_property
    def tiles_data(self) -> bytes:
        """The tiles' labels and numbers at K, encoded once per state (formatting the eight
        numbers was a twentieth of a badge click's script time)."""
        return live_chart.encode_tiles(
            (MEASURES[name].label_at(self.k), fmt(self.curves[name][self.k - 1]))
            for name in tile_measures())

    @functools.cached_property
    def formula_data(self) -> bytes:
        """:attr:`explanation` as the formula view draws it (LaTeX and tables), encoded once."""
        return formula_view.encode_formula(self.explanation)

    @functools.cached_property
    def note(self) -> str:
        """The caption's counts at K (:func:`confusion_note`)."""
        c = self.confusion
        return confusion_note(self.k, c.tp, c.fp, c.fn, c.tn)


def board_view(grades, *, k: int, rel: int, gain: str, metric: str, chart: str,
               height: int) -> BoardView:
    """The view of a board whose grades in rank order are ``grades``; ``chart`` is what the
    second chart shows (``"pr"``: the precision–recall graph, else DCG against K), ``height``
    the charts' height (px).

    Cached per state, like its neighbours' numbers (``ui/lessons/playground/preview.py``): a badge clicked twice
    comes back, and a class's boards pass through the same states; a rerun that finds its
    state sends what was computed once.
    """
    return _board_view(tuple(int(g) for g in grades), k, rel, gain, metric, chart, height)


@functools.lru_cache(maxsize=256)
def _board_view(grades: tuple[int, ...], k: int, rel: int, gain: str, metric: str,
                chart: str, height: int) -> BoardView:
    scores, dcg = chart_measures()
    curves = irlib.metric_curves(grades, rel=rel, gain=gain, measures=tile_measures())
    for values in curves.values():
        values.setflags(write=False)
    first = live_chart.chart(chart_title(scores), curves_figure(
        curves, scores, k, y_title="score at K", height=height))
    if chart == "pr":
        second = live_chart.chart(PR_TITLE, precision_recall_figure(
            irlib.precision_recall_batch([grades], rel=rel), k, height=height))
    else:
        second = live_chart.chart(chart_title(dcg), curves_figure(
            curves, dcg, k, y_title="DCG at K", unit_interval=False, dash={"IDCG": "dash"},
            height=height))
    return BoardView(irlib.confusion_at_k(grades, k, rel=rel), curves,
                     irlib.explain(metric, grades, k, rel=rel, gain=gain), (first, second), k)


def chart_title(names) -> str:
    """``Precision, Recall, … and NDCG against K``."""
    labels = [MEASURES[n].label for n in names]
    listed = ", ".join(labels[:-1]) + " and " + labels[-1] if len(labels) > 1 else labels[0]
    return f"{listed} against K"


#: The precision–recall chart's name for screen readers (``aria-label``).
PR_TITLE = ("Precision against recall at each rank, and the interpolated precision: the highest "
            "precision at that recall or beyond")


def confusion_note(k: int, tp: int, fp: int, fn: int, tn: int) -> str:
    """``At K = 2: 1 true positive (p·p̂) · 1 false positive (n·p̂) · …``, one line."""
    counts = (("true positive", "p·p̂", tp), ("false positive", "n·p̂", fp),
              ("false negative", "p·n̂", fn), ("true negative", "n·n̂", tn))
    return f"At K = {k}: " + " · ".join(
        f"{n} {name}{'' if n == 1 else 's'} ({sign})" for name, sign, n in counts) + "."


# Callbacks: run before the script reruns, like any widget callback.

def on_board_change(change: dict) -> None:
    s = page_state()
    if predict.stage(s, change):          # "Predict first": held back until the guess
        return
    s.set("order", list(change["order"]))
    s.set("labels" if s["mode"] == "binary" else "grades",
          {i: int(g) for i, g in change["grades"].items()})


def _grades_shown() -> dict[str, int]:
    """The judgments on the board: a change waiting for a prediction's, else the state's."""
    return dict(predict.shown(page_state(), current().current_grades())[1])


def _put_order(order: list[str], grades: dict[str, int]) -> None:
    """A button's new board: applied, or while predicting held back like a drag."""
    s = page_state()
    if not predict.stage(s, {"order": order, "grades": grades}):
        s.set("order", order)


def reset() -> None:
    """Back to the sources' order and judgments (mode, K and the chosen metric stay).

    While predicting, the sources' board of the current mode waits for the guess like a drag.
    """
    s = page_state()
    if s.get("predict"):
        start = defaults()
        _put_order(list(start.order), dict(start.labels if s["mode"] == "binary" else start.grades))
        return
    s.reset("order", "labels", "grades")


def sort_by_grade(best_first: bool) -> None:
    """Ideal (best first) or worst order by the judgments shown; ties keep picture order."""
    grades, ids = _grades_shown(), item_ids()
    sign = -1 if best_first else 1
    _put_order(sorted(ids, key=lambda i: (sign * grades[i], ids.index(i))), grades)


def shuffle() -> None:
    order = item_ids()
    random.shuffle(order)
    _put_order(order, _grades_shown())


def set_chart(chart: str) -> None:
    """The second chart's switch (beside the lines under the charts) chose ``chart``."""
    page_state().set("chart", chart)


def set_k_from_chart(x: float) -> None:
    """A click on a chart point at K = x sets K (only a whole K on the board)."""
    s = page_state()
    if x == int(x) and 1 <= x <= len(item_ids()) and x != s["k"]:
        s.set("k", int(x))
        st.session_state[PREFIX + "whole_run"] = True


def set_metric(metric: str) -> None:
    """The formula view's Metric switch chose ``metric``."""
    s = page_state()
    if metric != s["metric"]:
        s.set("metric", metric)
        st.session_state[PREFIX + "whole_run"] = True


def take_whole_run() -> bool:
    """True once after a change the page outside the live part shows too (a chart click's K:
    the slider; the Metric switch: the metric's pros and cons): the page then reruns whole."""
    return bool(st.session_state.pop(PREFIX + "whole_run", False))
