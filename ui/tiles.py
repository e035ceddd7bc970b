"""Metric tiles: one compact, wrapping row (8 across on a desktop, 3 across on a phone)."""
from __future__ import annotations

import streamlit as st

TILE_WIDTH = 100


def metric_tiles(tiles: list[tuple[str, str, str | None]]) -> None:
    """Draw ``(label, value, help)`` tiles with the look every page shares."""
    with st.container(horizontal=True, gap="xsmall"):
        for label, value, help_text in tiles:
            st.metric(label, value, help=help_text, border=True, width=TILE_WIDTH)
