"""Streamlit widgets, charts and state helpers shared by the pages."""
import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

# Streamlit runs the first session of a fresh server in its legacy "pages/ directory" mode
# when that folder exists, so a shared link to /playground would skip app.py's
# st.navigation (wrong sidebar). The first page run imports this package: switch the flag
# off the way st.navigation itself does and rerun through app.py.
if PagesManager.uses_pages_directory:
    PagesManager.uses_pages_directory = False
    st.rerun()
