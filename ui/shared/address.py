"""Keep the browser's address bar at a link to what the page shows (``history.replaceState``;
``history.pushState`` only for :func:`push_address`).

``st.query_params`` would do the same, but Streamlit's frontend answers it with
``history.pushState`` — every drag would become a step of the Back button — and re-renders
the whole app. This Components v2 element draws nothing; it only rewrites the address.
Streamlit keeps its own copy of the query string and does not see the change, so pages
read the URL only while seeding their state (``ui/shared/page_state.py``).
"""
from __future__ import annotations

import functools
from pathlib import Path

import streamlit as st

from ui.shared.layout import hide_element


@functools.cache
def address_js() -> str:
    """``keepAddress(query)``: the JavaScript that rewrites the address bar."""
    return (Path(__file__).resolve().parent / "address" / "address.js").read_text(encoding="utf-8")


_COMPONENT_JS = """
export default function (component) {
  keepAddress(component.data && component.data.address);
}
"""


@functools.cache
def _mount():
    return st.components.v2.component("irlab_address", js=address_js() + _COMPONENT_JS)


def keep_address(query: str) -> None:
    """Set the address bar's query string to ``query`` (``"k=2&gain=linear"``, no ``?``)."""
    _mount()(key="irlab_address", data={"address": query}, height="content")


_PUSH_JS = """
export default function (component) {
  const d = component.data || {};
  pushAddress(d.before, d.after, d.token);
}
"""


@functools.cache
def _push_mount():
    return st.components.v2.component("irlab_push_address", js=address_js() + _PUSH_JS)


def push_address(before: str, after: str, token: str, key: str) -> None:
    """Make the change from the address ``before`` to ``after`` a step of the browser's Back
    button (``history.pushState``), once per ``token`` (new for each such change).

    For the few changes that replace what a page is about (the playground's cats and a
    lecturer's own example), not for a drag: Back then brings back the board that was left.
    The page must follow the address Back lands on (Streamlit reruns it with that query).
    Drawn hidden (``key`` is a plain CSS class name).
    """
    hide_element(key)
    _push_mount()(key=key, data={"before": before, "after": after, "token": token},
                  height="content")


# Sends the address this tab last kept for the page, if it is not the one in the bar.
_RESTORE_JS = """
export default function (component) {
  const kept = keptAddress();
  if (kept && kept !== window.location.search.replace(/^[?]/, "")) {
    component.setStateValue("query", kept);
  }
}
"""


@functools.cache
def _restore_mount():
    return st.components.v2.component("irlab_restore", js=address_js() + _RESTORE_JS)


def restore_from_tab(key: str, on_restore) -> None:
    """Ask the browser for the address this tab last kept for the page (``address.js``).

    For a page seeded with its defaults because it was reached by a bare address (a
    sidebar link after a reload: the session that held its state is gone). If the tab kept
    one, ``on_restore(query)`` runs before the next run. Drawn hidden (``key`` is a plain
    CSS class name): it shows nothing, and the page must not move when it goes.
    """
    def arrived() -> None:
        query = (st.session_state.get(key) or {}).get("query")
        if isinstance(query, str):
            on_restore(query)

    hide_element(key)
    _restore_mount()(key=key, height="content", on_query_change=arrived)
