"""Uses the board's return value instead of on_change, and shows two boards."""

from __future__ import annotations

import streamlit as st

from ui.shared.board import ranking_board

ITEMS = [{"id": f"i{n}", "title": f"Item {n}", "image": "", "alt": ""} for n in range(1, 9)]
ss = st.session_state
ss.setdefault("order", [it["id"] for it in ITEMS])
ss.setdefault("grades", {})

result = ranking_board(ITEMS, ss.order, ss.grades, mode="graded", key="first")
if result is not None:
    ss.order, ss.grades = result["order"], result["grades"]
st.text(f"order={','.join(ss.order)}")
st.text(f"grades={','.join(f'{i}:{ss.grades.get(i, 0)}' for i in ss.order)}")

# A second, independent board on the same page.
ss.setdefault("order2", [it["id"] for it in reversed(ITEMS)])
second = ranking_board(ITEMS, ss.order2, {}, mode="binary", key="second", k=2)
if second is not None:
    ss.order2 = second["order"]
st.text(f"order2={','.join(ss.order2)}")
st.button("Rerun")
