"""Metric tiles: one compact, wrapping row (8 across on a desktop, 3 across on a phone)."""
from __future__ import annotations

import streamlit as st

TILE_WIDTH = 98


def metric_tiles(tiles: list[tuple[str, str]]) -> None:
    """Draw ``(label, value)`` tiles with the look every page shares.

    No help icons: at this width they would truncate the labels; each metric's meaning is
    in the formula view below the tiles.
    """
    with st.container(horizontal=True, gap="xsmall"):
        for label, value in tiles:
            st.metric(label, value, border=True, width=TILE_WIDTH)
