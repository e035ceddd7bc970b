"""Your own judgments: upload ratings or TREC files, find the weak queries, compare up to ten
systems, hand a report on.

Thin page: read state -> call irlib (through ui.upload's cached model) -> draw.
"""

from ui.shared.course import through_app_navigation

through_app_navigation()   # first, before the slow imports (ui/shared/course.py)

import streamlit as st

from ui import upload as ui
from ui.shared.course import lesson_links
from ui.lessons.judgments import offer_upload
from ui.shared.layout import board_page
from ui.shared.scroll import scroll_to_anchor
from ui.upload.beyond import seen_option
from ui.upload.tables import interpolated_measures
from ui.shared.texts import md_escape


board_page()      # the lessons' margins: more of the table and the scores on a laptop
st.title("Your own judgments")
st.markdown(
    "Explaining metrics to stakeholders works better with *their* data. Load the judgments "
    "people made and the rankings your systems produced: the page scores every query, "
    "lists the weakest first, compares up to ten systems with the first (the baseline), "
    "says whether a difference could be chance, and makes a report to send. Files stay in "
    "your browser session; nothing is stored."
)
ui.init_state()
ui.link_without_data_note()
jump = st.empty()          # links to the sections below, once files are in use

st.subheader("1. Load your data")
kind = ui.input_kind_picker()
ui.process_injected()
with st.container(border=True):
    ui.data_section(kind)

files = ui.parsed_files(kind)
names = ui.system_names(kind, files)
relevant_from, drop_seen = 0, False
if kind == "recsys" and "heldout" in files:        # what counts as relevant: all, or t and up
    relevant_from = ui.relevance_rule("rating" in files["heldout"].frame.columns)
    drop_seen = seen_option(files, ui.page_state()["k"])   # items users had in training
dataset, missing = None, ui.unmatched(kind)     # recommenders' ids that never meet: no scores
if missing is not None:
    st.error(md_escape(missing), icon=":material/error:")
else:
    dataset, missing = ui.build_dataset(kind, files, ui.dataset_key(kind, names)
                                        + (relevant_from, drop_seen), names, relevant_from,
                                        drop_seen)
    if dataset is None:
        st.info(md_escape(missing), icon=":material/upload_file:")
if dataset is None:
    lesson_links("pages/upload.py")
    ui.page_state().keep_address()
    st.stop()
ui.rename_systems(kind, files, names)

st.subheader(ui.section_heading("scores", dataset.unit), anchor="scores")
scroll_to_anchor("scores", ui.new_data_token(), key="upload_scroll")   # after a load
settings = ui.self_judged_guard(dataset, ui.settings_row(dataset))
if settings is None:          # every measure asked for would be inflated: nothing to show
    lesson_links("pages/upload.py")
    ui.page_state().keep_address()
    st.stop()
ui.section_links(jump, dataset.unit)
n_rows = sum(len(run) for run in dataset.runs.values())
with st.spinner(f"Scoring {n_rows:,} results…", show_time=True):
    evaluations = ui.cached_score(dataset.key, settings.names + tuple(
        interpolated_measures(settings.rel)), dataset)
include_missing = ui.data_notes(dataset, evaluations)
# Lesson 9 asks how many queries a comparison needs: of these, in this session only
offer_upload(evaluations, settings.name(settings.by), settings.label(settings.by),
             include_missing)
systems = list(dataset.runs)
result = ui.systems_section(dataset, evaluations, settings, include_missing)
baseline = result.baseline if result is not None else systems[0]
beyond = None
if dataset.kind == "recsys":
    st.markdown("**Beyond accuracy**: what the lists hold")
    beyond = ui.beyond_section(dataset, settings, baseline, result)

st.subheader(ui.section_heading("by-unit", dataset.unit), anchor="by-unit")
system = systems[0]
if len(systems) > 1:
    ui.position("system", systems)       # a valid one, before its picker
    choice = st.selectbox("Scores of", list(range(1, len(systems) + 1)),
                          format_func=lambda i: systems[i - 1], **ui.page_state().bind("system"))
    system = systems[choice - 1]
table = ui.cached_table(dataset.key, settings, system, include_missing, dataset,
                        evaluations[system])
ui.table_section(dataset, table, evaluations[system], settings, system, include_missing)
ui.control_test_note(table, settings)

st.subheader(ui.section_heading("up-close", dataset.unit), anchor="up-close")
ui.query_view(dataset, table, settings, system)

pair = None
st.subheader(ui.section_heading("baseline", dataset.unit), anchor="baseline")
if len(systems) < 2:
    st.caption("Load a second run (or results table) to compare two systems query by query, "
               "with a randomization test and a paired t-test. The TREC samples hold a "
               "control and a test run.")
else:
    pair = ui.comparison_section(dataset, evaluations, settings, include_missing, result)

st.subheader(ui.section_heading("hand-on", dataset.unit), anchor="hand-on")
ui.report_section(dataset, settings, include_missing, result, pair, beyond)
ui.settings_link(ui.page_state().address())

lesson_links("pages/upload.py")
ui.page_state().keep_address()
