"""Keep the browser's address bar at a link to what the page shows (``history.replaceState``).

``st.query_params`` would do the same, but Streamlit's frontend answers it with
``history.pushState`` — every drag would become a step of the Back button — and re-renders
the whole app. This Components v2 element draws nothing; it only rewrites the address.
Streamlit keeps its own copy of the query string and does not see the change, so pages
read the URL only while seeding their state (``ui/page_state.py``).
"""
from __future__ import annotations

import functools
from pathlib import Path

import streamlit as st



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
