"""The metric tiles' shared look: bordered tiles of one width, wrapping in a row.

Four fit across a desktop's main column and two across a 390 px phone, inside a bordered
box too. The lesson pages draw them with ``st.metric`` (:func:`tiles`); the playground's
tiles are drawn by its live-chart component (``ui/shared/live_chart.py``), in the same frame as its
curves, at this width.
"""
from __future__ import annotations

import streamlit as st

TILE_WIDTH = 160    # px; fits "Precision@10"; two fit in a bordered box on a 390 px phone
#: The playground's tiles, two columns beside its curves (ui/shared/live_chart.py).
COMPACT_TILE_WIDTH = 122


def tiles(rows: list[tuple[str, str, str | None]]) -> None:
    """Metric tiles with the look every page shares (``ui/shared/tiles.py``), widened when a label
    needs it.

    One width for the whole row: at least the shared tile width, and enough for the longest
    label plus its help icon, so no label is cut to "NDC…".
    """
    def needed(label: str) -> int:   # capitals, digits and "@" are wider than the rest
        # + the help icon (22 px) and the tile's padding and border (56 px), as measured
        return sum(8 if (c.isupper() or c.isdigit() or c == "@") else 6 for c in label) + 80
    width = max(TILE_WIDTH, *(needed(label) for label, _, _ in rows))
    with st.container(horizontal=True, gap="xxsmall"):
        for label, value, help_text in rows:
            st.metric(label, value, help=help_text, border=True, width=width)
