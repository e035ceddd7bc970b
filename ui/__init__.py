"""Streamlit widgets, charts and state helpers shared by the pages."""
import gc

import numpy  # noqa: F401  (imported before gc.freeze() below, see there)
import pandas  # noqa: F401
import plotly.graph_objects  # noqa: F401
import scipy.stats  # noqa: F401
import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

# One server process lives for the whole class. Streamlit, pandas, plotly and scipy are some
# 160,000 objects that never become garbage, yet each full collection walks them all: about
# 100 ms on the 2-core development machine, landing in a random rerun and holding back its
# messages to the browser (seen as a stalled drag). Freezing them once leaves the collector
# only what the reruns allocate.
gc.freeze()

# Streamlit runs the first session of a fresh server in its legacy "pages/ directory" mode
# when that folder exists, so a shared link to /playground would skip app.py's
# st.navigation (wrong sidebar). The first page run imports this package: switch the flag
# off the way st.navigation itself does and rerun through app.py.
if PagesManager.uses_pages_directory:
    PagesManager.uses_pages_directory = False
    st.rerun()

