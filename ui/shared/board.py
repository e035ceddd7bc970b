"""The ranking board: eight picture cards that learners drag into order and judge.

A Streamlit Components v2 component (``st.components.v2.component``) with inline
HTML/CSS/JS: no frontend build and nothing loaded from a CDN. The drag-and-drop
library, SortableJS 1.15.7 (MIT, ``static/vendor/sortablejs/``), is pasted into the
component's JavaScript when the component is registered.

Usage::

    def _save(change):  # runs before the script, like any widget callback
        st.session_state.order = change["order"]
        st.session_state.grades = change["grades"]

    ranking_board(items, st.session_state.order, st.session_state.grades,
                  mode="binary", key="board", k=3, on_change=_save)

Either use ``on_change`` as above or store the returned dict yourself; in both
cases pass the *current* order and grades on every run.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import streamlit as st

from ui.shared import component_code

__all__ = ["MODES", "OUTCOMES", "board_part", "ranking_board"]

MODES = ("binary", "graded")
OUTCOMES = ("TP", "FP", "FN", "TN", "")

_HERE = Path(__file__).resolve().parent
_BOARD_DIR = _HERE / "board"
_SORTABLE = _HERE.parents[1] / "static" / "vendor" / "sortablejs" / "Sortable.min.js"
_SORTABLE_MARKER = "/*__SORTABLE_JS__*/"
_COMPONENT_NAME = "irlab_ranking_board"
_EVENT = "change"


@functools.cache
def _code() -> tuple[str, str]:
    """The board's JavaScript (SortableJS pasted in) and CSS."""
    js = (_BOARD_DIR / "board.js").read_text(encoding="utf-8")
    if _SORTABLE_MARKER not in js:  # pragma: no cover - guards against edits
        raise RuntimeError("board.js lost its SortableJS marker")
    # The min file's banner ends with a newline; add one so a trailing
    # comment can never swallow the code after the marker.
    sortable = _SORTABLE.read_text(encoding="utf-8")
    js = js.replace(_SORTABLE_MARKER, sortable + "\n")
    return js, (_BOARD_DIR / "board.css").read_text(encoding="utf-8")


def _clean_change(raw: Any, ids: set[str], mode: str) -> dict | None:
    """Validate what the browser sent; return {"order", "grades", "seq"} or None."""
    if not isinstance(raw, Mapping):
        return None
    order = raw.get("order")
    grades = raw.get("grades")
    if not isinstance(order, list) or not isinstance(grades, Mapping):
        return None
    order = [str(i) for i in order]
    if sorted(order) != sorted(ids):
        return None
    top = 1 if mode == "binary" else 4
    clean_grades: dict[str, int] = {}
    for item_id in order:
        try:
            g = int(grades.get(item_id, 0))
        except (TypeError, ValueError):
            g = 0
        clean_grades[item_id] = min(max(g, 0), top)
    seq = raw.get("seq")
    return {"order": order, "grades": clean_grades, "seq": seq if isinstance(seq, int) else 0}


def ranking_board(
    items: list[dict],
    order: list[str],
    grades: dict[str, int],
    *,
    mode: str,
    key: str,
    k: int | None = None,
    outcomes: list[str] | None = None,
    height: int | None = None,
    size: str = "normal",
    preview: dict | component_code.Encoded | None = None,
    send_images: bool = True,
    send_code: bool = True,
    on_change: Callable[[dict], None] | None = None,
) -> dict | None:
    """Show the draggable, gradable ranking board.

    Parameters
    ----------
    items
        ``[{"id", "title", "image", "alt"}]``. ``title`` may be user text: the
        browser only ever sets it as text, never as HTML. ``image`` is a
        ``data:`` URI or ``""``: a text card, its title in the picture's place
        (a lecturer's own results, ``ui/lessons/playground/example_editor.py``). More than eight
        items take two rows on a wide board.
    order
        Item ids in rank order (rank 1 first). Every item id exactly once.
    grades
        Item id -> grade (0/1 in ``"binary"`` mode, 0-4 in ``"graded"``).
        Missing ids count as 0.
    mode
        ``"binary"`` (badge toggles relevant / not relevant) or ``"graded"``
        (badge opens a 0-4 picker; keys 0-4 set the grade).
    key
        Required widget key; keeps the board (and keyboard focus) across reruns.
    k
        Draw a "top K = k" cut-off line after rank ``k``.
    outcomes
        Aligned with ``order``: ``"TP"``, ``"FP"``, ``"FN"``, ``"TN"`` or ``""``,
        shown as a labelled, colour-coded tag on each card.
    height
        Fixed pixel height (the board scrolls); default fits the content.
    size
        ``"normal"``, ``"small"`` for several boards on a page (smaller pictures), or
        ``"large"`` for a projector (bigger pictures and text), or ``"present"``: ``"large"``
        whose type stays at least 20 px on a laptop's screen too, the cards more compact (a
        lecturer's own example of up to 12 results on the playground's presenter view), or
        ``"compact"``: a wide board's two rows of 9 to 12 cards as tall as one row of eight (a
        lecturer's own example in the playground's learning view).
    preview
        ``ui.lessons.playground.preview.Preview.for_board(key)`` (or ``board_json(key)``, the same encoded
        once per state): the outcome tags of every state one action
        away. With it the board tells the page's live charts (``ui.shared.live_chart``) which state
        the learner is looking at — while a card is held, or the moment a badge is clicked —
        so they can show its numbers before Python's rerun.
    send_images
        False: leave the items' pictures out of this run's message; the board keeps the ones
        it has. For reruns of a fragment holding the board: its pictures never change, and
        they are most of its bytes (27 kB for the playground's eight).
    send_code
        False: send a stub instead of the board's 62 kB of JavaScript, for the same reruns
        (``ui/shared/component_code.py``).
    on_change
        Called as ``on_change(change)`` with the same dict this function
        returns, before the script reruns (like a widget callback).

    Returns
    -------
    dict or None
        ``{"order": [...], "grades": {...}}``, the full new state, on the run
        caused by a drag, move or grade change; ``None`` on every other run.
    """
    part, change = board_part(items, order, grades, mode=mode, key=key, k=k, outcomes=outcomes,
                              fixed_height=height is not None, size=size, preview=preview,
                              send_images=send_images, on_change=on_change)
    component_code.mount_part(part, key=key, send_code=send_code,
                              height=height if height is not None else "content")
    return change


def board_part(
    items: list[dict],
    order: list[str],
    grades: dict[str, int],
    *,
    mode: str,
    key: str,
    k: int | None = None,
    outcomes: list[str] | None = None,
    fixed_height: bool = False,
    size: str = "normal",
    preview: dict | component_code.Encoded | None = None,
    send_images: bool = True,
    on_change: Callable[[dict], None] | None = None,
) -> tuple[component_code.Part, dict | None]:
    """The board of :func:`ranking_board` (the same arguments) as a part of an element whose
    key is ``key`` (``ui.shared.component_code.mount_parts``: the board and other components
    in one element), and what :func:`ranking_board` returns."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    ids = [str(it["id"]) for it in items]
    id_set = set(ids)
    if len(id_set) != len(ids):
        raise ValueError("item ids must be unique")
    order = [str(i) for i in order]
    if sorted(order) != sorted(ids):
        raise ValueError("order must contain every item id exactly once")
    if outcomes is not None:
        if len(outcomes) != len(order):
            raise ValueError("outcomes must be aligned with order")
        bad = [o for o in outcomes if o not in OUTCOMES]
        if bad:
            raise ValueError(f"unknown outcomes {bad!r}; use one of {OUTCOMES}")
    if k is not None and (int(k) != k or k < 0):
        raise ValueError("k must be a non-negative integer")

    seq_key = f"_ranking_board_seq::{key}"

    def _incoming() -> dict | None:
        # The trigger value is present only in the run that the browser event
        # started, both in callbacks and in the script body (before mounting).
        value = st.session_state.get(key)
        raw = value.get(_EVENT) if isinstance(value, Mapping) else None
        if isinstance(raw, Mapping) and isinstance(raw.get("seq"), int):
            st.session_state[seq_key] = raw["seq"]
        return _clean_change(raw, id_set, mode)

    def _on_event() -> None:
        change = _incoming()
        if change is not None and on_change is not None:
            on_change({"order": list(change["order"]), "grades": dict(change["grades"])})

    # Outcomes belong to items, so key them by id before `order` may change.
    outcome_by_id = dict(zip(order, outcomes)) if outcomes is not None else {}
    change = _incoming()
    if change is not None:
        # Show what the user just did even if the caller stores it only after
        # this call (otherwise the cards would jump back for one run).
        order, grades = change["order"], change["grades"]

    if component_code.code_asked(key):     # a tab without the code lacks the pictures too
        send_images = True
    top = 1 if mode == "binary" else 4
    data = {
        "items": [
            {
                "id": str(it["id"]),
                "title": str(it.get("title", "")),
                "image": str(it.get("image") or "") if send_images else None,
                "alt": str(it.get("alt") or it.get("title", "")),
            }
            for it in items
        ],
        "order": order,
        "grades": {i: min(max(int(grades.get(i) or 0), 0), top) for i in order},
        "mode": mode,
        "k": int(k) if k else None,
        "outcomes": outcome_by_id,
        "seq": st.session_state.get(seq_key, 0),
        "fixedHeight": fixed_height,
        "size": size,
        "preview": preview,
    }
    js, css = _code()
    part = component_code.Part(_COMPONENT_NAME, js, css, True, data,
                               {f"on_{_EVENT}_change": _on_event})
    if change is None:
        return part, None
    return part, {"order": list(change["order"]), "grades": dict(change["grades"])}
