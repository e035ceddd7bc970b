"""Entry point: `streamlit run app.py`. Builds the course's navigation; each page is a file in pages/."""
from pathlib import Path

import streamlit as st

from ui.shared.app_setup import freeze_imported_objects, navigation_pages, page_icon
from ui.shared.course import app_navigation_running

ROOT = Path(__file__).resolve().parent
# What never changes is made once per process (ui/shared/app_setup.py): this file runs before
# every page of every session, and a session refused by the class rooms' limits costs no more.
st.set_page_config(page_title="Ranking metrics lab", page_icon=page_icon(), layout="wide")

# The course's navigation before anything slow. A fresh server's first visit runs in
# Streamlit's legacy "pages/ folder" mode, which shows the folder's raw file list (app,
# beyond, choosing …) until this call replaces it: the imports below took seconds there.
navigation = st.navigation(navigation_pages(ROOT), position="sidebar", expanded=True)

from ui.shared.formula import formula_style  # noqa: E402  (after the navigation: see above)
from ui.shared.print_style import print_style  # noqa: E402

formula_style()
print_style()
freeze_imported_objects()
with app_navigation_running():   # the page then knows it was reached through app.py
    navigation.run()
