"""Tiny app for the ranking-board browser tests (no dependency on assets/).

Query parameters: ``?xss=1`` gives item 8 a title that looks like HTML;
``?k=0`` hides the cut-off line (default k=3).
"""

from __future__ import annotations

import base64

import streamlit as st

from ui.shared.board import ranking_board

COLOURS = ["#e4572e", "#29335c", "#f3a712", "#a8c686", "#669bbc", "#8e7dbe", "#2a9d8f", "#d62828"]


def _square(colour: str) -> str:
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="{colour}"/></svg>'
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


ITEMS = [
    {"id": f"i{n}", "title": f"Item {n}", "image": _square(COLOURS[n - 1]), "alt": f"Colour square {n}"}
    for n in range(1, 9)
]
if st.query_params.get("xss"):
    ITEMS[7] = {**ITEMS[7], "title": "<img src=x onerror=alert(1)> Item 8", "image": ""}

ss = st.session_state
ss.setdefault("order", [it["id"] for it in ITEMS])
ss.setdefault("grades", {it["id"]: 1 if n % 3 == 0 else 0 for n, it in enumerate(ITEMS)})
ss.setdefault("runs", 0)
ss.setdefault("changes", 0)
ss.runs += 1

mode = st.radio("Mode", ["binary", "graded"], key="mode", horizontal=True)
if mode == "binary":
    ss.grades = {i: min(g, 1) for i, g in ss.grades.items()}
k = int(st.query_params.get("k", 3))


def _save(change: dict) -> None:
    ss.order = change["order"]
    ss.grades = change["grades"]
    ss.changes += 1


def _outcome(rank: int, grade: int) -> str:
    returned, relevant = rank <= k, grade > 0
    return {(True, True): "TP", (True, False): "FP", (False, True): "FN", (False, False): "TN"}[
        (returned, relevant)
    ]


outcomes = [_outcome(r, ss.grades[i]) for r, i in enumerate(ss.order, 1)] if k else None
result = ranking_board(
    ITEMS, ss.order, ss.grades, mode=mode, key="board", k=k or None, outcomes=outcomes, on_change=_save
)

st.text(f"order={','.join(ss.order)}")
st.text(f"grades={','.join(f'{i}:{ss.grades[i]}' for i in ss.order)}")
st.text(f"result={'none' if result is None else 'change'}")
st.text(f"runs={ss.runs} changes={ss.changes}")
st.toggle("Bare toggle", key="bare")
