"""The formula view drawn by a Components v2 part: the playground's formula and its tables.

``ui.shared.formula.show_explanation`` draws irlib's formula with ``st.latex`` and its per-rank
tables with ``st.dataframe``: three to five Streamlit elements that each rerun re-sends and
each browser re-renders. The playground draws them in its one joint element instead
(``ui.shared.component_code.mount_parts``), under a heading and the Metric switch, so that

- a badge click's rerun sends no extra element (and no add-block message for a container
  outside the fragment);
- the formula follows a click at once, looked up in the neighbour table
  (``ui.lessons.playground.preview.formula_preview``), like the tiles;
- a rerun that brings what the preview showed changes nothing (the browser compares).

KaTeX (npm ``katex``, MIT, ``static/vendor/katex/``: its code, stylesheet and fonts) is loaded
once per tab from the app's own static folder; the LaTeX is irlib's ``Explanation.latex``, as
``st.latex`` gets it, and the tables' cells are text (:func:`ui.shared.formula.explanation_tables`).
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from pathlib import Path

import streamlit as st

from irlib import Explanation
from ui.shared import component_code
from ui.shared.formula import explanation_tables

KATEX_VERSION = "0.16.47"
_KATEX = "vendor/katex/"
_HERE = Path(__file__).resolve().parent / "formula_view"
_EVENT = "metric"
NAME = "irlab_formula"


@functools.cache
def _code() -> tuple[str, str]:
    """The part's JavaScript (with the preview table's) and CSS."""
    return (component_code.load_script_js() + component_code.preview_table_js()
            + (_HERE / "formula_view.js").read_text(encoding="utf-8"),
            (_HERE / "formula_view.css").read_text(encoding="utf-8"))


def _static(file: str) -> str:
    base = str(st.get_option("server.baseUrlPath") or "").strip("/")
    prefix = f"/{base}" if base else ""
    return f"{prefix}/app/static/{_KATEX}{file}?v={KATEX_VERSION}"


def formula_entry(expl: Explanation) -> dict:
    """What the view draws for one explanation: its LaTeX and its tables as text."""
    return {"latex": expl.latex, "tables": explanation_tables(expl)}


def encode_formula(expl: Explanation) -> component_code.Encoded:
    """:func:`formula_entry` encoded once (a page that keeps its explanation per state)."""
    return component_code.encoded(formula_entry(expl))


def formula_part(formula: Explanation | component_code.Encoded, *, heading: str,
                 choice: tuple[str, Mapping[str, str], str],
                 on_choose: Callable[[str], None], key: str,
                 preview: str | None = None) -> component_code.Part:
    """The formula view as a part of the element whose key is ``key``: ``heading``, the
    switch ``choice`` (``(label, {value: text}, chosen)``; ``on_choose(value)`` runs before
    the rerun when another option is clicked), then the formula and its tables. ``preview``:
    ``ui.lessons.playground.preview.formula_preview`` (each neighbour's formula)."""
    options = dict(choice[1])

    def _on_choice() -> None:
        value = st.session_state.get(key)
        chosen = value.get(_EVENT) if isinstance(value, Mapping) else None
        if isinstance(chosen, str) and chosen in options:
            on_choose(chosen)

    js, css = _code()
    return component_code.Part(
        NAME, js, css, False,       # not isolated: Streamlit's KaTeX styles and FORMULA_CSS apply
        {"src": _static("katex.min.js"), "css": _static("katex.min.css"), "heading": heading,
         "choice": {"label": choice[0], "value": choice[2],
                    "options": [{"value": v, "text": t} for v, t in options.items()]},
         "formula": formula if isinstance(formula, component_code.Encoded)
                    else encode_formula(formula),
         "preview": preview},
        {f"on_{_EVENT}_change": _on_choice})
