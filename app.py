"""Entry point: `streamlit run app.py`. Builds the course's navigation; each page is a file in pages/."""
from pathlib import Path

import streamlit as st

from ui.course import HOME, LESSONS
from ui.formula import formula_style

ROOT = Path(__file__).resolve().parent
ICON = str(ROOT / "assets" / "cats" / "white-cat-box.svg")
# A local picture: a Material icon as page_icon makes the browser fetch the favicon from
# Google's font CDN, and the app must work with no internet.
st.set_page_config(page_title="Ranking metrics lab", page_icon=ICON, layout="wide")
formula_style()

home = st.Page(HOME.path, title=HOME.title, icon=HOME.icon, default=True)
lessons = [st.Page(p.path, title=p.title, icon=p.icon, url_path=p.url_path)
           for p in LESSONS if (ROOT / p.path).exists()]
room_pages = [st.Page("pages/room.py", title="Run a class room", icon=":material/co_present:",
                      url_path="room"),
              st.Page("pages/join.py", title="Join a class", icon=":material/login:",
                      url_path="join")]
st.navigation({"Start": [home], "Lessons": lessons, "Class": room_pages}, position="sidebar",
              expanded=True).run()
