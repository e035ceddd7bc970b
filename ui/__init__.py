"""Streamlit widgets, charts and state helpers shared by the pages (nothing runs on import)."""
