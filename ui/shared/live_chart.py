"""Plotly charts that update in place: the playground's curves, redrawn on every drag.

``st.plotly_chart`` hashes the figure into its element id, so every new figure is a new
chart, drawn from scratch (~40 ms each in Chromium on the 2-core development machine, with
the page waiting for it). This Components v2 component keeps its charts: when a rerun only
changes the values it moves the points itself, with plotly.js's own axis scale (see
``moveValues`` in ``live_chart/live_chart.js``), otherwise it calls
``Plotly.react``, which redraws only what changed. One component holds several charts, side
by side where they fit and stacked on a phone, so that they update in the same frame
(Streamlit runs each component's code in its own turn). plotly.js (the npm
``plotly.js-basic-dist-min`` bundle, MIT) is served from ``static/vendor/plotly/`` and loaded
once per browser tab.

Usage::

    live_charts([("Metrics against K", rates), ("DCG against K", dcg)], key="curves",
                on_click=set_k)

Each figure is a plain ``{"data": [...], "layout": {...}}`` dict (as
``ui.shared.charts.curves_figure`` builds); ``on_click(x)`` runs before the rerun with the x of the
clicked point (or its ``customdata``, for a figure with ``"click": "customdata"``).
"""
from __future__ import annotations

import functools
import hashlib
import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

import streamlit as st

from ui.shared import component_code
from ui.shared.address import address_js
from ui.shared.tiles import COMPACT_TILE_WIDTH

PLOTLY_VERSION = "4.1.1"
_PLOTLY_FILE = "vendor/plotly/plotly-basic.min.js"
_HERE = Path(__file__).resolve().parent / "live_chart"
_EVENT = "click"
_CHOICE = "choice"


@functools.cache
def _code() -> tuple[str, str]:
    """The component's JavaScript (with ``ui/shared/address``'s and the preview table's)
    and CSS."""
    return (address_js() + component_code.load_script_js() + component_code.preview_table_js()
            + (_HERE / "live_chart.js").read_text(encoding="utf-8"),
            (_HERE / "live_chart.css").read_text(encoding="utf-8"))


def plotly_url() -> str:
    """Where the browser finds plotly.js: ``/app/static/...`` under the server's base path."""
    base = str(st.get_option("server.baseUrlPath") or "").strip("/")
    prefix = f"/{base}" if base else ""
    return f"{prefix}/app/static/{_PLOTLY_FILE}?v={PLOTLY_VERSION}"


def event_choice(value: object, options: Mapping[str, str]) -> str | None:
    """The option the browser's switch reported, or None if it is not one of ``options``."""
    return value if isinstance(value, str) and value in options else None


def event_x(value: object) -> float | None:
    """The clicked point's x from the browser's event, or None if it is not a finite number."""
    if not isinstance(value, Mapping):
        return None
    x = value.get("x")
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        return None
    return float(x)


class Chart(NamedTuple):
    """A chart for :func:`live_charts` whose look (:func:`figure_look`) is computed once: a
    page that keeps its figures per state need not digest them on every rerun."""
    label: str
    figure: dict
    look: str


def chart(label: str, figure: dict) -> Chart:
    return Chart(label, figure, figure_look(figure))


def encode_charts(charts: Sequence[tuple[str, dict] | Chart]) -> component_code.Encoded:
    """The charts as :func:`live_charts` sends them, encoded once: a page that keeps its charts
    per state (``ui.lessons.playground.session.BoardView``) passes this instead of encoding them on every
    rerun."""
    return component_code.encoded(_charts_data(charts))


def encode_tiles(tiles: Iterable[tuple[str, str]]) -> component_code.Encoded:
    """``(label, value)`` tiles as :func:`live_charts` sends them, encoded once: for a page that
    keeps its numbers per state."""
    return component_code.encoded(_tiles_data(tiles))


def _tiles_data(tiles) -> list[dict]:
    return [{"label": str(label), "value": str(value)} for label, value in tiles]


def _charts_data(charts) -> list[dict]:
    return [{"label": c[0], "figure": c[1], "look": c[2] if len(c) > 2 else figure_look(c[1])}
            for c in charts]


def figure_look(figure: Mapping) -> str:
    """A digest of everything in ``figure`` except the points' values (``x`` and ``y``) and
    the y axis's range (the browser compares that itself: a preview may have moved it).

    While it stays the same from one rerun to the next, the browser only moves the points
    (``moveValues`` in ``live_chart/live_chart.js``; along axes with a fixed ``range``);
    otherwise it redraws the chart (``Plotly.react``). Computed here, so the browser compares
    two short strings instead of serialising both figures on every drag.
    """
    traces = [{name: value for name, value in trace.items() if name not in ("x", "y")}
              for trace in figure.get("data", [])]
    layout = dict(figure.get("layout", {}))
    if isinstance(layout.get("yaxis"), Mapping):
        layout["yaxis"] = {n: v for n, v in layout["yaxis"].items() if n != "range"}
    text = json.dumps([layout, traces], sort_keys=True, default=str)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def _theme_key() -> str:
    """Changes when the viewer switches theme, so the chart re-reads the theme's colours."""
    theme = getattr(st.context, "theme", None)
    return str(getattr(theme, "type", "") or "")


def live_charts(charts: Sequence[tuple[str, dict] | Chart] | component_code.Encoded, *, key: str,
                on_click: Callable[[float], None] | None = None,
                address: str | None = None,
                tiles: Sequence[tuple[str, str]] | component_code.Encoded = (),
                note: str = "", footer: str = "", size: str = "normal",
                choice: tuple[str, Mapping[str, str], str] | None = None,
                on_choose: Callable[[str], None] | None = None,
                preview: str | None = None, send_code: bool = True) -> None:
    """Draw ``(label, figure)`` charts and keep them across reruns (updated, not redrawn).

    Optionally with a caption (``note``) and a row of metric tiles above the charts and a
    caption below (``footer``): drawn by the same code as the charts, so numbers and curves
    change in the same frame, and each Streamlit element fewer is less for the browser to
    redo on every drag. All text is set as text, never as HTML.

    Parameters
    ----------
    charts
        ``(label, figure)`` pairs (or :class:`Chart`, or all of them :func:`encode_charts`
        once). ``label`` says what the chart shows, for screen readers
        (``aria-label``); ``figure`` is ``{"data": [...], "layout": {...}}`` and
        ``layout["height"]`` sets its height (px). A figure whose x is not K adds
        ``"click": "customdata"``: a click then reports the point's ``customdata``.
    key
        Required: the charts' identity across reruns.
    on_click
        Called as ``on_click(x)`` with the clicked point's x, before the script reruns.
    tiles
        ``(label, value)`` pairs, shown like bordered ``st.metric`` tiles,
        ``ui.shared.tiles.COMPACT_TILE_WIDTH`` wide, two columns beside the charts where they fit;
        or all of them :func:`encode_tiles` once.
    note, footer
        Caption lines above the tiles and below the charts; ``""`` for none.
    size
        ``"normal"``, or ``"large"`` for a projector (bigger numbers and captions), or
        ``"present"``: ``"large"`` with its type at least 20 px on a laptop's screen too, the
        tiles in one row over the charts, and the charts as tall as the rest of the screen
        allows (under a board of up to 12 results).
    choice, on_choose
        ``(label, {value: text}, chosen)``: a small switch at the end of the caption line
        (the playground: what its second chart shows), ``label`` for screen readers;
        ``on_choose(value)`` runs before the script reruns when another option is clicked.
    preview
        ``ui.lessons.playground.preview.Preview.for_charts(board)`` (JSON text): the numbers of every state one
        action away from the board's, shown while a card is held or as soon as a badge is
        clicked.
    address
        A query string (``"k=2&metric=R"``, no ``?``): the browser's address bar is set to it
        (``history.replaceState``), so the address bar is always a link to what the page
        shows. Setting ``st.query_params`` does the same but makes Streamlit's frontend
        re-render the whole app: a badge click took 4.6 ms longer that way (A/B, medians of
        25, the timing of ``benchmarks/bench_interaction.py``).
        Streamlit keeps its own copy of the query string and does not see this change, so
        read the URL (``st.query_params``) only on a session's first run.
    send_code
        False: send a stub instead of the component's 18 kB of JavaScript, on the reruns of
        a fragment whose page's full run sent it (``ui/shared/component_code.py``).
    """
    part = charts_part(charts, key=key, on_click=on_click, address=address, tiles=tiles,
                       note=note, footer=footer, size=size, choice=choice, on_choose=on_choose,
                       preview=preview)
    component_code.mount_part(part, key=key, send_code=send_code)


def charts_part(charts: Sequence[tuple[str, dict] | Chart] | component_code.Encoded, *, key: str,
                on_click: Callable[[float], None] | None = None,
                address: str | None = None,
                tiles: Sequence[tuple[str, str]] | component_code.Encoded = (),
                note: str = "", footer: str = "", size: str = "normal",
                choice: tuple[str, Mapping[str, str], str] | None = None,
                on_choose: Callable[[str], None] | None = None,
                preview: str | None = None) -> component_code.Part:
    """The charts of :func:`live_charts` (the same arguments) as a part of an element whose
    key is ``key`` (``ui.shared.component_code.mount_parts``)."""
    if not st.get_option("server.enableStaticServing"):
        # The tiles, captions and address still work; only plotly.js cannot be loaded.
        st.warning("The charts need the server option `server.enableStaticServing = true` "
                   "(set in `.streamlit/config.toml`): start the app with "
                   "`streamlit run app.py`.")
        charts = []

    def _on_event() -> None:
        value = st.session_state.get(key)
        x = event_x(value.get(_EVENT) if isinstance(value, Mapping) else None)
        if x is not None and on_click is not None:
            on_click(x)

    options = dict(choice[1]) if choice else {}

    def _on_choice() -> None:
        value = st.session_state.get(key)
        chosen = event_choice(value.get(_CHOICE) if isinstance(value, Mapping) else None, options)
        if chosen is not None and on_choose is not None:
            on_choose(chosen)

    js, css = _code()
    return component_code.Part(
        "irlab_live_chart", js, css,
        False,     # not isolated: plotly.js styles its hover labels globally (document.head)
        {"charts": charts if isinstance(charts, component_code.Encoded)
                   else _charts_data(charts),
         "src": plotly_url(), "themeKey": _theme_key(),
         "address": address, "note": note, "footer": footer,
         "tileWidth": COMPACT_TILE_WIDTH * (1.5 if size in ("large", "present") else 1),
         "size": size, "preview": preview,
         "choice": choice and {"label": choice[0], "value": choice[2], "options": [
             {"value": value, "text": text} for value, text in options.items()]},
         "tiles": tiles if isinstance(tiles, component_code.Encoded) else _tiles_data(tiles)},
        {f"on_{_EVENT}_change": _on_event, f"on_{_CHOICE}_change": _on_choice})
