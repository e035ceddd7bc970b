"""ui.shared.print_style's paper copy of a dataframe: every cell escaped, the grid's number formats
and labels, at most PRINT_ROWS rows and a count of the rest."""
import math
import re

import pandas as pd
import streamlit as st

from ui.shared.print_style import print_table_html


def cells(html_text: str) -> list[str]:
    return re.findall(r"<t[dh](?: [^>]*)?>(.*?)</t[dh]>", html_text)


def test_cells_are_escaped_and_numbers_formatted_as_on_screen():
    frame = pd.DataFrame({"query": ["<img src=x onerror=alert(1)>", "q&2"],
                          "AP": [0.5, math.nan], "n": [3, 4]})
    text = print_table_html(frame, hide_index=True, column_config={
        "AP": st.column_config.NumberColumn("AP (mean)", format="%.3f")})
    assert "<img" not in text
    assert cells(text) == ["query", "AP (mean)", "n",
                           "&lt;img src=x onerror=alert(1)&gt;", "0.500", "3",
                           "q&amp;2", "", "4"]


def test_the_index_prints_unless_hidden_and_column_order_is_kept():
    frame = pd.DataFrame({"a": [1.23456], "b": ["x"]}, index=["row"])
    assert cells(print_table_html(frame)) == ["index", "a", "b", "row", "1.2346", "x"]
    assert cells(print_table_html(frame, hide_index=True, column_order=["b", "a"]))[:2] == \
        ["b", "a"]


def test_a_long_table_prints_its_first_rows_and_counts_the_rest():
    frame = pd.DataFrame({"q": range(250)})
    text = print_table_html(frame, hide_index=True, max_rows=200)
    assert text.count("<tr>") == 201                    # the header and 200 rows
    assert "and 50 more rows" in text
    assert "more rows" not in print_table_html(frame.head(200), hide_index=True)
