"""The reference for bench_interaction.py: a page holding one st.toggle (and its run count)."""
import streamlit as st

st.session_state.runs = st.session_state.get("runs", 0) + 1
st.toggle("Bare toggle", key="bare")
st.text(f"runs={st.session_state.runs}")   # shows when the server's run has reached the page
