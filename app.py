"""Entry point: `streamlit run app.py`. Builds the course's navigation; each page is a file in pages/."""
import gc
from pathlib import Path

import streamlit as st

from ui.shared.course import HOME, app_navigation_running, sections

ROOT = Path(__file__).resolve().parent
ICON = str(ROOT / "assets" / "cats" / "white-cat-box.svg")
# A local picture: a Material icon as page_icon makes the browser fetch the favicon from
# Google's font CDN, and the app must work with no internet.
st.set_page_config(page_title="Ranking metrics lab", page_icon=ICON, layout="wide")

# The course's navigation before anything slow. A fresh server's first visit runs in
# Streamlit's legacy "pages/ folder" mode, which shows the folder's raw file list (app,
# beyond, choosing …) until this call replaces it: the imports below took seconds there.
navigation = st.navigation(
    {section: [st.Page(p.path, title=p.title, icon=p.icon, default=True) if p is HOME else
               st.Page(p.path, title=p.title, icon=p.icon, url_path=p.url_path)
               for p in pages if (ROOT / p.path).exists()]
     for section, pages in sections().items()},
    position="sidebar", expanded=True)

from ui.shared.formula import formula_style  # noqa: E402  (after the navigation: see above)
from ui.shared.print_style import print_style  # noqa: E402

formula_style()
print_style()


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


freeze_imported_objects()
with app_navigation_running():   # the page then knows it was reached through app.py
    navigation.run()
