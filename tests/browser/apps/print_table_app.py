"""A long table, boxes kept together, a button, an uploader and a download, with the app's
print stylesheet: what tests/browser/test_print.py prints to check ui/shared/print_style.dataframe,
keep_together and the widgets paper leaves out."""
import pandas as pd
import streamlit as st

from ui.shared.print_style import dataframe, keep_together, print_style

print_style()
st.title("Forty queries")
st.button("Does nothing on paper")
st.file_uploader("Upload a run")
st.download_button("Download the table", "query,AP\n", file_name="table.csv")
rows = pd.DataFrame({"query": [f"q{n:02d}" for n in range(1, 41)],
                     "AP": [n / 40 for n in range(1, 41)]})
dataframe(rows, hide_index=True, column_config={"AP": st.column_config.NumberColumn(
    "AP (mean precision)", format="%.3f")})
# Three groups of four elements, each about half a page: without keep_together at least one
# of them would run across a page break.
for n in (1, 2, 3):
    with keep_together(f"group{n}"):
        st.markdown(f"GROUP{n} START")
        st.success("The change helps on most queries. " * 25)
        st.markdown("Filler sentence for the group. " * 60)
        st.caption(f"GROUP{n} END")
