"""Page-level layout for the board pages: less padding so board, numbers and curves share
one screen, and the presenter view for a projector.

Style only (``st.html`` with a ``<style>`` takes no space on the page). The selectors are
Streamlit's ``data-testid`` attributes, the same ones its own tests use.
"""
from __future__ import annotations

import streamlit as st

#: Streamlit's wide layout keeps 6rem above and 5rem beside the page: a sixth of a laptop's
#: height. The header bar (3.75rem) still needs its room.
COMPACT_CSS = """<style>
@media (min-width: 640px) {
  [data-testid="stMainBlockContainer"] { padding: 3.75rem 2rem 4rem; }
}
[data-testid="stMainBlockContainer"] h1 { font-size: 1.75rem; padding: 0.25rem 0; }
</style>"""

#: Presenter view: more room for the board; the sidebar is hidden unless asked for
#: (:data:`HIDE_SIDEBAR_CSS`).
PRESENT_CSS = """<style>
@media (min-width: 640px) {
  [data-testid="stMainBlockContainer"] { padding: 3.75rem 2.5rem 4rem; max-width: none; }
}
/* a laptop's screen on the projector: the board's text keeps its size, the gaps give (half a
   rem: a lecturer's own example of 9-12 results keeps the line under its charts on a 768 px
   screen, tests/browser/test_own_example.py) */
@media (min-width: 640px) and (max-height: 900px) {
  [data-testid="stMainBlockContainer"] [data-testid="stVerticalBlock"] { gap: 0.5rem; }
}
[data-testid="stMainBlockContainer"] h1 { font-size: 1.75rem; padding: 0.25rem 0; }
/* a projector's width: nothing the class reads under 20 px from the back of a 200-seat hall
   (``max``: larger text keeps its size; tests/browser/test_room_screen.py measures it) */
@media (min-width: 1600px) {
  [data-testid="stMainBlockContainer"] :is(p, li, label, figcaption, td, th, input) {
    font-size: max(1.25rem, 1em); }
  /* the playground's formula view (ui/shared/formula_view.py): its label, switch and captions */
  [data-testid="stMainBlockContainer"] :is(.fm-label, .fm-option, .fm-caption) {
    font-size: max(1.25rem, 1em); }
  [data-testid="stMainBlockContainer"] .katex-display > .katex { font-size: 1.6rem; }
  /* the slider's value grows with the text (a paragraph) but keeps Streamlit's place above the
     thumb: at its 1.6 line height the larger digit sat on the thumb */
  [data-testid="stSliderThumbValue"] { line-height: 1.2; }
}
</style>"""


#: The presenter view hides the sidebar and Streamlit's button that opens it ...
HIDE_SIDEBAR_CSS = """<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"],
[data-testid="stExpandSidebarButton"] { display: none !important; }
</style>"""
#: ... and puts its own "Sidebar" toggle in the header bar, beside Streamlit's menu: the
#: lecturer reaches the course's pages without leaving the presenter view.
SIDEBAR_TOGGLE_KEY = "present_sidebar"
SIDEBAR_TOGGLE_CSS = f"""<style>
.st-key-{SIDEBAR_TOGGLE_KEY} {{ position: fixed; top: 0.85rem; right: 4rem; z-index: 999991;
                               width: auto; }}
</style>"""


#: A short screen (a 1366x768 laptop) holding a lecturer's own example: half a rem between the
#: page's parts, as the presenter view has, keeps the line under the charts in view when a
#: long query takes the heading to two lines (tests/browser/test_one_screen.py).
TIGHT_CSS = """<style>
@media (min-width: 640px) and (max-height: 900px) {
  [data-testid="stMainBlockContainer"] [data-testid="stVerticalBlock"] { gap: 0.5rem; }
}
</style>"""


#: Metric tiles a size smaller, so a tile pair fits beside a board's row of cards.
COMPACT_METRICS_CSS = """<style>
[data-testid="stMetricValue"] { font-size: 1.75rem; }
[data-testid="stMetric"] { padding: 0.5rem 0.75rem; }
</style>"""


#: Streamlit fades every element of a running fragment to a third after 0.5 s (``data-stale``,
#: a 1 s opacity transition). The playground's live part shows the new numbers before the
#: rerun (ui/lessons/playground/preview.py), so the fade would mark the right numbers as outdated; with a class
#: on one server it also makes every student's browser animate the whole part while waiting.
STEADY_CSS = """<style>
[data-testid="stElementContainer"][data-stale="true"] { opacity: 1; transition: none; }
</style>"""


def board_page(present: bool = False, *, compact_metrics: bool = False,
               steady: bool = False, tight: bool = False) -> None:
    """Tighten the page around its boards; ``present`` is the view for a projector (the sidebar
    hidden until its toggle in the header bar shows it); ``steady`` keeps elements from fading
    while a rerun runs (:data:`STEADY_CSS`); ``tight`` halves the gaps on a short screen
    (:data:`TIGHT_CSS`, the presenter view's own)."""
    sidebar = present and st.toggle(
        "Sidebar", key=SIDEBAR_TOGGLE_KEY,
        help="Show the course's pages beside the presenter view (it hides them).")
    st.html((PRESENT_CSS + SIDEBAR_TOGGLE_CSS if present else COMPACT_CSS)
            + (HIDE_SIDEBAR_CSS if present and not sidebar else "")
            + (COMPACT_METRICS_CSS if compact_metrics else "") + (STEADY_CSS if steady else "")
            + (TIGHT_CSS if tight and not present else ""))


def hide_element(key: str) -> None:
    """Hide the element drawn with ``key`` (a plain CSS class name): for components that
    only talk to the browser. Hidden, not zero-height, so the page does not move up by the
    layout's gap when such an element goes."""
    st.html(f"<style>.st-key-{key} {{ display: none; }}</style>")


def keep_in_view(key: str) -> None:
    """Pin the container drawn with ``key`` under the header bar while the page scrolls under
    it: for the numbers a page's lower boards change (Practice's check, Lesson 2's MRR and
    MAP). On a laptop or projector only; a phone has no room for it.

    Sticky on the container's wrapper: the container itself is only as tall as its content.
    """
    # the app's own background in each theme (Streamlit's, measured: no CSS variable holds it)
    ground = "#171614" if getattr(st.context.theme, "type", "light") == "dark" else "#ffffff"
    st.html(f"""<style>
@media (min-width: 640px) and (min-height: 600px) {{
  div:has(> .st-key-{key}) {{ position: sticky; top: 3.75rem; z-index: 5;
                              background: {ground}; }}
}}</style>""")
