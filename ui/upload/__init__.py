"""The "Your own judgments" page (pages/upload.py): load judged results, score every query,
look at one up close, compare up to ten systems, hand a report on.

* :mod:`ui.upload.model` — the data model, without Streamlit: input kinds and file slots,
  settings, reading a file, the dataset (systems named after their run tags), its scores.
* :mod:`ui.upload.tables` — the tables and chart data, without Streamlit;
  :mod:`ui.upload.figures` — the charts; :mod:`ui.upload.report` — the HTML report.
* :mod:`ui.upload.measures` — every place the page names a measure: irlib names, column
  titles, help, worked formulas.
* views, in page order: :mod:`~ui.upload.settings` (URL fields, settings row),
  :mod:`~ui.upload.files` (uploaders, samples, names; :mod:`~ui.upload.cache` keeps parsed
  files and scores), :mod:`~ui.upload.systems` (the systems table),
  :mod:`~ui.upload.scores` (per-query table and precision-recall graph),
  :mod:`~ui.upload.query` (one query), :mod:`~ui.upload.compare` (two systems),
  :mod:`~ui.upload.handoff` (the report, what a link carries).

Session-state keys all start with ``upload_``.
"""
from ui.upload.beyond import beyond_section
from ui.upload.cache import cached_score, cached_table
from ui.upload.compare import comparison_section
from ui.upload.files import (
                             data_section,
                             dataset_key,
                             new_data_token,
                             parsed_files,
                             process_injected,
                             unmatched,
)
from ui.upload.handoff import (
                             link_without_data_note,
                             report_section,
                             section_heading,
                             section_links,
                             settings_link,
)
from ui.upload.model import (
                             SLOT_BY_ID,
                             Settings,
                             build_dataset,
                             check_size,
                             error_message,
                             read_upload,
                             score,
                             system_name,
)
from ui.upload.names import rename_systems, system_names
from ui.upload.query import query_view
from ui.upload.scores import control_test_note, data_notes, table_section
from ui.upload.settings import (
                             init_state,
                             input_kind_picker,
                             page_state,
                             relevance_rule,
                             self_judged_guard,
                             settings_row,
)
from ui.upload.systems import position, systems_section
from ui.upload.tables import per_query_table

# What pages/upload.py draws with, and the model's entry points the tests and benchmarks call.
__all__ = [
    "beyond_section", "relevance_rule", "self_judged_guard", "build_dataset", "cached_score", "cached_table", "check_size", "comparison_section",
    "control_test_note", "data_notes", "data_section", "dataset_key", "error_message",
    "init_state", "input_kind_picker", "link_without_data_note", "new_data_token",
    "page_state", "parsed_files", "per_query_table", "position", "process_injected",
    "query_view", "read_upload", "rename_systems", "report_section", "score", "section_heading", "section_links", "Settings",
    "settings_link", "settings_row", "SLOT_BY_ID", "system_name", "system_names",
    "systems_section", "table_section", "unmatched",
]
