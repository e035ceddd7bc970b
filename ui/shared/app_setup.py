"""What app.py makes once per server process instead of on every run.

app.py runs before every page of every session, and a session's first run is all that a
session refused by the class rooms' limits costs the server (docs/rooms-security.md,
"Measured"). py-spy on a server refusing a flood of new sessions found a third of that run
in app.py's own lines, each redone per run though its result never changes:

* :func:`navigation_pages`: making an ``st.Page`` resolves its file on disk (a realpath and
  two stats), sixteen times a run;
* :func:`page_icon`: ``st.set_page_config`` read and encoded the icon's SVG file on each run;
* :func:`freeze_imported_objects`: an ``@st.cache_resource`` written in app.py is a new
  cached function on each run, and making one reads its source (``inspect.getsource``).
"""
from __future__ import annotations

import base64
import copy
import functools
import gc
import threading
from pathlib import Path

import streamlit as st

from ui.shared.course import HOME, sections

ROOT = Path(__file__).resolve().parents[2]

@functools.cache
def page_icon() -> str:
    """The app's icon (a white cat in a box) as the data address ``st.set_page_config`` would
    make of the SVG file each run; read on the first call, not at import. A local picture: a
    Material icon as page_icon makes the browser fetch the favicon from Google's font CDN, and
    the app must work with no internet."""
    svg = (ROOT / "assets" / "cats" / "white-cat-box.svg").read_bytes()
    return "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")


_PAGES: dict[str, dict[str, list]] = {}
_PAGES_LOCK = threading.Lock()


def navigation_pages(root: Path) -> dict[str, list]:
    """app.py's ``st.navigation`` pages by section: every page of :func:`sections` whose file
    exists under ``root``, the home page the default.

    Made by the process's first run (an ``st.Page`` needs a script run), then copied for each
    run: ``st.navigation`` marks the page it returns as the one that may run, once, and a
    run's copy keeps that mark to itself."""
    key = str(root)
    with _PAGES_LOCK:
        if key not in _PAGES:
            _PAGES[key] = {
                section: [st.Page(p.path, title=p.title, icon=p.icon, default=True)
                          if p is HOME else
                          st.Page(p.path, title=p.title, icon=p.icon, url_path=p.url_path)
                          for p in pages if (root / p.path).exists()]
                for section, pages in sections().items()}
        made = _PAGES[key]
    return {section: [copy.copy(page) for page in pages] for section, pages in made.items()}


@st.cache_resource(show_spinner=False)
def freeze_imported_objects() -> None:
    """Once per server process: leave the garbage collector only what reruns allocate.

    One server process lives for the whole class. Streamlit, pandas, plotly and scipy are
    some 160,000 objects that never become garbage, yet each full collection walks them all:
    about 100 ms on the 2-core development machine, landing in a random rerun and holding
    back its messages to the browser (seen as a stalled drag).
    """
    import plotly.graph_objects  # noqa: F401  (loaded before the freeze, so frozen too)
    import scipy.stats  # noqa: F401

    import irlib  # noqa: F401
    gc.freeze()
