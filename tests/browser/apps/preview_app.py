"""A board and live tiles whose preview table is wrong on purpose: Python must win.

The page's look-up table (ui/lessons/playground/preview.py) says every neighbour's Recall@2 is "wrong"; the
tile shows that at the click, and Python's rerun replaces it with the real number.
"""
import streamlit as st

import irlib
from ui.shared.numbers import fmt
from ui.shared.board import ranking_board
from ui.shared.catalog import board_items, load_catalog
from ui.shared.live_chart import live_charts
from ui.lessons.playground.preview import neighbour_preview

query = load_catalog().queries["cat-in-a-box"]
ss = st.session_state
ss.setdefault("order", list(query.order))
ss.setdefault("grades", dict(query.grades))


def save(change: dict) -> None:
    ss.order, ss.grades = change["order"], change["grades"]


near = neighbour_preview(ss.order, ss.grades, (0, 1), k=2, rel=1, gain="linear", tiles=["R"],
                         charts=[], note=lambda *counts: "looked up")
for entry in near.numbers.values():
    entry["tiles"] = ["wrong"]                 # the forced disagreement
ranking_board(board_items(), ss.order, ss.grades, mode="binary", key="board", k=2,
              on_change=save, preview=near.for_board("board"))
recall = irlib.recall_at_k([ss.grades[i] for i in ss.order], 2)
live_charts([], key="numbers", tiles=[("Recall@2", fmt(recall))], note="from Python",
            preview=near.for_charts("board"))
