"""Metric tiles in a wrapping row: four across on a desktop, two across on a phone."""
from __future__ import annotations

import streamlit as st

TILE_WIDTH = 170    # fits "Precision@8"; 4 per row in the main column, 2 on a 390 px phone


def metric_tiles(tiles: list[tuple[str, str]]) -> None:
    """Draw ``(label, value)`` tiles with the look every page shares.

    No help icons: they would truncate the labels; each metric's meaning is in the formula
    view below the tiles.
    """
    with st.container(horizontal=True, gap="xsmall"):
        for label, value in tiles:
            st.metric(label, value, border=True, width=TILE_WIDTH)
