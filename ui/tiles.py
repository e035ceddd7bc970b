"""The metric tiles' shared look: bordered tiles of one width, wrapping in a row.

Four fit across a desktop's main column and two across a 390 px phone. The lesson pages
draw them with ``st.metric`` (``ui.lessons.tiles``); the playground's tiles are drawn by its
live-chart component (``ui/live_chart.py``), in the same frame as its curves, at this width.
"""
from __future__ import annotations

TILE_WIDTH = 170    # px; fits "Precision@8" (st.metric's tiles on the lesson pages)
#: The playground's tiles, two columns beside its curves (ui/live_chart.py).
COMPACT_TILE_WIDTH = 122
