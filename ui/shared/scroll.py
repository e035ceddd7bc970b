"""Bring a result into view once, when the user's action produced it.

A tool page puts its inputs above its results: after *Load the samples* on a laptop the
scores start below the fold, and nothing the user can see has changed. This Components v2
element draws nothing; it scrolls the page to a heading's anchor when its ``token`` changes.
The token belongs to the action (a counter the action raises), so a rerun from a setting,
a trip to a lesson and back, or a shared link does not move the page; a shared link that
names the heading (``#anchor``) is followed to it once, as the page fills.
"""
from __future__ import annotations

import functools

import streamlit as st

from ui.shared.layout import hide_element

# The last token each element scrolled for lives on ``window``: it outlives the element
# when the user goes to another page and back (one browser tab, one Streamlit app).
_SCROLL_JS = """
export default function (component) {
  const {anchor, token, key, box, align} = component.data || {};
  const seen = (window.__irlabScrolled = window.__irlabScrolled || {});
  // A shared link that names this heading (…#scores): Streamlit scrolls there once, when the
  // heading is first drawn; what is drawn above it later pushed it out of view on a slow
  // machine. Once per tab, follow it as for an action's token.
  const linked = !box && anchor && window.location.hash === "#" + anchor && !seen["#" + key];
  if (linked) seen["#" + key] = true;
  else if (!token || seen[key] === token) return;
  if (token) seen[key] = token;
  // a heading's anchor, or a keyed container (Streamlit's class st-key-<key>)
  const target = box ? document.querySelector(".st-key-" + box) : document.getElementById(anchor);
  if (!target) return;
  const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  target.scrollIntoView({block: align || "start",
                         behavior: reduce || linked ? "auto" : "smooth"});
  if (box) return;                     // a box is drawn before this element: it is all there
  // The results below the heading arrive after this element: while the page is still too
  // short to bring the heading up, scroll again as it grows, until the user scrolls
  // themselves or a few seconds pass.
  const block = document.querySelector('[data-testid="stMainBlockContainer"]');
  if (!block || typeof ResizeObserver === "undefined") return;
  const stop = () => {
    grown.disconnect();
    for (const name of USER_SCROLLS) window.removeEventListener(name, stop, true);
  };
  let first = true;     // an observer reports once at the start: the smooth scroll goes on
  const grown = new ResizeObserver(() => {
    if (!first && target.isConnected) target.scrollIntoView({block: "start", behavior: "auto"});
    first = false;
  });
  grown.observe(block);
  for (const name of USER_SCROLLS) window.addEventListener(name, stop, {capture: true, passive: true});
  setTimeout(stop, 5000);
}
const USER_SCROLLS = ["wheel", "touchstart", "keydown", "mousedown"];
"""

#: Streamlit's header bar (3.75rem) lies over the top of the page: stop the heading below it.
_MARGIN_CSS = "<style>#{anchor} {{ scroll-margin-top: 4.5rem; }}</style>"


@functools.cache
def _mount():
    return st.components.v2.component("irlab_scroll", js=_SCROLL_JS)


def scroll_to_anchor(anchor: str, token: int, key: str) -> None:
    """Scroll to the heading drawn with ``anchor=anchor`` when ``token`` is new to this tab.

    Draw it after the heading. ``token`` 0 never scrolls. ``key`` is a plain CSS class
    name (letters, digits, ``_``, ``-``), as is ``anchor``.
    """
    hide_element(key)
    st.html(_MARGIN_CSS.format(anchor=anchor))
    _mount()(key=key, data={"anchor": anchor, "token": token, "key": key}, height="content")


def scroll_to_box(box: str, token: int, key: str, *, align: str = "nearest") -> None:
    """Scroll the nearest scrolling box (a popover's, or the page) to the container drawn
    with ``st.container(key=box)`` when ``token`` is new to this tab: just enough to show it
    (``align="nearest"``: a message that answers a button deep in a long popover), or its top
    to the top, below Streamlit's header bar (``"start"``: what a button just put there).
    Draw it after the container. ``token`` 0 never scrolls; ``box`` and ``key`` are plain
    CSS class names."""
    hide_element(key)
    st.html(f"<style>.st-key-{box} {{ scroll-margin-top: 4.5rem; }}</style>")
    _mount()(key=key, data={"box": box, "token": token, "key": key, "align": align},
             height="content")
