"""The own example's table: the query and one line of inputs per result (grade, title,
picture), a Components v2 element held in the browser and sent whole.

Everything typed stays in the browser until "Show on the board": then the query and every row
go to Python at once, read from the inputs at the click (``own_table/table.js``). No keystroke
reruns the page, and a rerun that happens meanwhile (a picture uploaded, the board moved)
leaves the inputs as they are; only a new ``version`` (a file loaded) replaces them.

Why not ``st.data_editor`` (issue 44; Streamlit 1.67, read in its frontend and measured in
Chromium on the old table): its grid syncs the table 150 ms after the last edit and a form's
submit does not wait for it, so the last edit before a quick click was lost in every run; and
an Enter right after the typing dropped earlier edits too (2 to 6 of six quick title edits
lost in each of 9 runs; with a 300 ms pause before each Enter, only the last), most likely
because its cell editor commits, from a ``setTimeout(0)`` after Enter, the value of its last
React render rather than the box's text (read in its code, not traced).
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from pathlib import Path

import streamlit as st

from ui.shared import component_code

NAME = "irlab_own_table"
EVENT = "apply"
_HERE = Path(__file__).resolve().parent / "own_table"
#: Rows and characters a sent table may hold: far past what the rules accept (3-12 results,
#: 120 characters a title), so the rules, not this, name what is wrong.
_MAX_ROWS, _MAX_TEXT = 100, 5_000


@functools.cache
def _code() -> tuple[str, str]:
    return ((_HERE / "table.js").read_text(encoding="utf-8"),
            (_HERE / "table.css").read_text(encoding="utf-8"))


def _text(value: object) -> str:
    return value[:_MAX_TEXT] if isinstance(value, str) else ""


def clean(raw: object) -> tuple[str, list[dict]] | None:
    """(query, rows) from what the browser sent, each row ``{"title", "grade", "picture"}`` as
    text (the rules in ``example_data.build_example`` judge them); None if it is not a table."""
    if not isinstance(raw, Mapping) or not isinstance(raw.get("rows"), list):
        return None
    rows = [{"title": _text(row.get("title")), "grade": _text(row.get("grade")),
             "picture": _text(row.get("picture"))}
            for row in raw["rows"][:_MAX_ROWS] if isinstance(row, Mapping)]
    return _text(raw.get("query")), rows


def sent(key: str) -> tuple[str, list[dict]] | None:
    """The table the browser sent with the click that started this run, or None."""
    value = st.session_state.get(key)
    return clean(value.get(EVENT)) if isinstance(value, Mapping) else None


def own_table(query: str, rows: list[dict], *, version: int, pictures: list[str], key: str,
              max_rows: int, max_query: int,
              on_apply: Callable[[str, list[dict]], None]) -> None:
    """Draw the table starting from ``query`` and ``rows`` (``{"title", "grade", "picture"}``)
    for ``version``; ``on_apply(query, rows)`` runs, before the script, with what was sent."""
    def _on_event() -> None:
        table = sent(key)
        if table is not None:
            on_apply(*table)

    js, css = _code()
    component_code.mount(
        NAME, js=js, css=css, key=key, data={
            "query": query, "version": version, "store": key, "pictures": list(pictures),
            "maxRows": max_rows, "maxQuery": max_query,
            "rows": [{"title": str(r.get("title") or ""), "picture": str(r.get("picture") or ""),
                      "grade": "" if r.get("grade") is None else str(r.get("grade"))}
                     for r in rows]},
        **{f"on_{EVENT}_change": _on_event})
