"""Entry point: `streamlit run app.py`. Builds the course's navigation; each page is a file in pages/."""
import gc
from pathlib import Path

import streamlit as st

from ui.course import HOME, LESSONS
from ui.formula import formula_style
from ui.glossary import URL_PATH as GLOSSARY_URL
from ui.print_style import print_style

ROOT = Path(__file__).resolve().parent
ICON = str(ROOT / "assets" / "cats" / "white-cat-box.svg")
# A local picture: a Material icon as page_icon makes the browser fetch the favicon from
# Google's font CDN, and the app must work with no internet.
st.set_page_config(page_title="Ranking metrics lab", page_icon=ICON, layout="wide")
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

home = st.Page(HOME.path, title=HOME.title, icon=HOME.icon, default=True)
lessons = [st.Page(p.path, title=p.title, icon=p.icon, url_path=p.url_path)
           for p in LESSONS if (ROOT / p.path).exists()]
glossary = st.Page("pages/glossary.py", title="Glossary", icon=":material/menu_book:",
                   url_path=GLOSSARY_URL)
room_pages = [st.Page("pages/room.py", title="Run a class room", icon=":material/co_present:",
                      url_path="room"),
              st.Page("pages/join.py", title="Join a class", icon=":material/login:",
                      url_path="join"),
              st.Page("pages/screen.py", title="Projector screen", icon=":material/cast:",
                      url_path="screen")]
st.navigation({"Start": [home, glossary], "Lessons": lessons, "Class": room_pages},
              position="sidebar", expanded=True).run()
