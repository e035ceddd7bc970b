"""A student's anonymous id, kept in the student's browser and never in the address.

The id says "this answer and that one came from the same student": it lets a student answer
once, and a reload, a trip to a lesson and back, or a second tab on the same phone stay the same
student. In the address (``?me=…``) it leaked: a link shared in the class chat, or opened on a
neighbour's phone, handed over the identity — the other person saw the student's own answer
and could answer in their place. So a Components v2 element (``voter.js``) reads it from the
browser's ``localStorage`` (making one there the first time) and sends it to Python as the
element's state ``id``; Python keeps it in session state, so later runs need not wait again.
"""
from __future__ import annotations

import functools
import re
from pathlib import Path

import streamlit as st

from ui.shared.layout import hide_element

#: What an id from the browser must look like (``voter.js`` makes 32 hex digits).
VOTER_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")


def clean(value: object) -> str | None:
    """``value`` when it is a well-formed id, else None (a browser can send anything).

    >>> clean("5f0c8a1e9b2d4c6f8a0b1c2d3e4f5a6b")
    '5f0c8a1e9b2d4c6f8a0b1c2d3e4f5a6b'
    >>> clean("short"), clean("x" * 65), clean("<script>alert(1)</script>"), clean(None)
    (None, None, None, None)
    """
    return value if isinstance(value, str) and VOTER_ID.fullmatch(value) else None


@functools.cache
def _mount():
    js = (Path(__file__).resolve().parent / "voter.js").read_text(encoding="utf-8")
    return st.components.v2.component("irlab_voter", js=js)


def browser_voter(key: str, into: str) -> str | None:
    """The id this browser keeps for the student, or None until the browser has sent it.

    The element (``key``) is drawn only while the id is unknown; once it arrives (one rerun,
    started by the browser) it is kept in ``st.session_state[into]`` for the whole session,
    which a plain key survives (a trip to a lesson and back does not draw the element again).
    ``key`` is a plain CSS class name (letters, digits, ``_``, ``-``).
    """
    ss = st.session_state
    if ss.get(into):
        return ss[into]

    def arrived() -> None:           # the browser's rerun: take the id before the script runs
        voter = clean((ss.get(key) or {}).get("id"))
        if voter:
            ss[into] = voter

    hide_element(key)                # drawn for a moment only, and nothing to see
    state = _mount()(key=key, height="content", on_id_change=arrived)
    voter = clean(state.get("id"))   # set without the callback (a test, a restored state)
    if voter:
        ss[into] = voter
    return ss.get(into)
