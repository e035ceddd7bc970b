"""Your own judgments: upload ratings or TREC files, find the weak queries, compare two systems.

Thin page: read state -> call irlib (through ui.upload's cached model) -> draw.
"""
import streamlit as st

from ui import upload as ui
from ui.course import lesson_links, through_app_navigation
from ui.layout import board_page
from ui.scroll import scroll_to_anchor
from ui.texts import md_escape

through_app_navigation()   # first: a deep link on a fresh server (ui/course.py)

board_page()      # the lessons' margins: more of the table and the scores on a laptop
st.title("Your own judgments")
st.markdown(
    "Explaining metrics to stakeholders works best with *their* data. Load the judgments "
    "people made and the rankings your system produced: the page scores every query, "
    "lists the weakest first, and — with two systems — says whether B beats A or the "
    "difference could be chance. Files stay in your browser session; nothing is stored."
)
ui.init_state()

st.subheader("1. Load your data")
kind = ui.input_kind_picker()
ui.process_injected()
with st.container(border=True):
    ui.data_section(kind)

files = ui.parsed_files(kind)
dataset, missing = ui.build_dataset(kind, files, ui.dataset_key(kind))
if dataset is None:
    st.info(md_escape(missing), icon=":material/upload_file:")
    lesson_links("pages/upload.py")
    ui.page_state().keep_address()
    st.stop()

st.subheader("2. Scores per query", anchor="scores")
scroll_to_anchor("scores", ui.new_data_token(), key="upload_scroll")   # after a load
settings = ui.settings_row(dataset)
n_rows = sum(len(run) for run in dataset.runs.values())
with st.spinner(f"Scoring {n_rows:,} results…", show_time=True):
    evaluations = ui.cached_score(dataset.key, settings.names, dataset)
include_missing = ui.data_notes(dataset, evaluations, ui.judgments_name(files))

systems = list(dataset.runs)
system = systems[0]
if len(systems) > 1:
    system = st.radio("Scores of", systems, horizontal=True, key="upload_system",
                      persist_state="session", format_func=md_escape)
table = ui.cached_table(dataset.key, settings, system, include_missing, dataset,
                        evaluations[system])
ui.table_section(table, settings, system)
ui.control_test_note(table, settings)
ui.settings_link(ui.page_state().address())

st.subheader("3. One query up close")
ui.query_view(dataset, table, settings, system)

st.subheader("4. Does B beat A?")
if len(systems) < 2:
    st.caption("Load a second run (or results table B) to compare two systems query by "
               "query, with a paired t-test and a randomization test. The TREC samples hold "
               "a control and a test run.")
else:
    ui.comparison_section(dataset, evaluations, settings, include_missing)

lesson_links("pages/upload.py")
ui.page_state().keep_address()
