"""Wide tables that a phone reads without a sideways scroll: the table as it is on a laptop,
and on a phone (≤ 640 px) the same cells turned so that the many columns become rows.

Both are drawn; CSS shows one. The laptop's is an ``st.table``; the phone's is HTML from
:meth:`pandas.DataFrame.to_html` with every cell escaped (text stays text).
"""
from __future__ import annotations

import pandas as pd
import streamlit as st

PHONE_WIDTH = 640

_CSS = """<style>
@media (max-width: {phone}px) {{ .st-key-{key}_wide {{ display: none; }} }}
@media (min-width: {above}px) {{ .st-key-{key}_phone {{ display: none; }} }}
.st-key-{key}_phone table {{ border-collapse: collapse; width: 100%; font-size: .9rem;
  margin: 0 0 .6rem; }}
.st-key-{key}_phone :is(th, td) {{ text-align: left; vertical-align: top; padding: .3rem .4rem;
  border-bottom: 1px solid rgba(128, 128, 128, .3); overflow-wrap: anywhere; }}
.st-key-{key}_phone caption {{ text-align: left; font-weight: 700; padding: .2rem 0; }}
</style>"""


def turned(table: pd.DataFrame) -> list[pd.DataFrame]:
    """The phone's tables: the transpose when it has at most five columns then (a table of
    numbers: the libraries as rows), else one two-column table per row (a table of phrases:
    each row's cells down the screen, named by the column they came from).

    >>> t = pd.DataFrame({"a": [1, 2], "b": [3, 4]}, index=pd.Index(["x", "y"], name="m"))
    >>> [list(part.columns) for part in turned(t)]
    [['x', 'y']]
    """
    if len(table.index) <= 5:
        return [table.T]
    return [table.loc[[row]].T for row in table.index]


def table(frame: pd.DataFrame, key: str) -> None:
    """``frame`` as ``st.table`` on a laptop, :func:`turned` on a phone."""
    with st.container(key=f"{key}_wide"):
        st.table(frame)
    with st.container(key=f"{key}_phone"):
        st.markdown("".join(part.to_html(escape=True, border=0) for part in turned(frame))
                    .replace("\n", ""), unsafe_allow_html=True)
    st.html(_CSS.format(phone=PHONE_WIDTH, above=PHONE_WIDTH + 1, key=key))
