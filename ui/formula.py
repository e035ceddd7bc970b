"""The formula view: irlib's explanation rendered as LaTeX plus its per-rank table."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from irlib import Explanation
from ui.texts import METRIC_TEXT


def dcg_table(rows: list[dict]) -> pd.DataFrame:
    """The notebook's table: rank, grade, gain, discount, discounted gain, running DCG."""
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    table = table.rename(columns={"discounted_gain": "discounted gain", "running_dcg": "DCG so far",
                                  "discount": "discount log2(rank+1)"})
    return table.astype({"rank": int})


def ap_table(rows: list[dict]) -> pd.DataFrame:
    table = pd.DataFrame(rows).rename(columns={"rel": "rel_k", "precision": "Precision@k",
                                               "term": "Precision@k · rel_k"})
    return table


def show_explanation(expl: Explanation, *, table: bool = True, pros_cons: bool = True) -> None:
    """Draw the substituted formula, then the per-rank terms and the metric's pros and cons."""
    st.latex(expl.latex)
    if table and expl.metric == "AP" and expl.rows:
        st.dataframe(ap_table(expl.rows), hide_index=True, width="stretch",
                     column_config={c: st.column_config.NumberColumn(format="%.3f")
                                    for c in ("Precision@k", "Precision@k · rel_k")})
    if table and expl.metric in ("DCG", "IDCG", "nDCG", "CG") and expl.rows:
        # One above the other: side by side, six columns each get clipped on most screens.
        fmt = {c: st.column_config.NumberColumn(format="%.3f")
               for c in ("gain", "discount log2(rank+1)", "discounted gain", "DCG so far")}
        st.caption("This ranking")
        st.dataframe(dcg_table(expl.rows), hide_index=True, column_config=fmt, width="stretch")
        st.caption("Ideal ranking (best grades first)")
        st.dataframe(dcg_table(expl.ideal_rows), hide_index=True, column_config=fmt,
                     width="stretch")
    if pros_cons and expl.metric in METRIC_TEXT:
        text = METRIC_TEXT[expl.metric]
        aware = "order-aware" if text.order_aware else "order-unaware"
        st.markdown(f"**{text.label}** is *{aware}*.  \n**For:** {text.pros}  \n**Against:** {text.cons}")
