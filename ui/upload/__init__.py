"""The "Your own judgments" page (pages/upload.py): load judged results, score every query,
look at one up close, compare two systems.

* :mod:`ui.upload.model` — the data model, without Streamlit: input kinds and file slots,
  settings, reading a file, the dataset, its scores and the tables shown.
* :mod:`ui.upload.measures` — every place the page names a measure: irlib names, column
  titles, help, worked formulas.
* views, in page order: :mod:`~ui.upload.settings` (URL fields, settings row),
  :mod:`~ui.upload.files` (uploaders, samples; :mod:`~ui.upload.cache` keeps parsed files
  and scores), :mod:`~ui.upload.scores` (per-query table), :mod:`~ui.upload.query` (one
  query), :mod:`~ui.upload.compare` (two systems).

Session-state keys all start with ``upload_``.
"""
from ui.upload.cache import cached_score, cached_table
from ui.upload.compare import comparison_section
from ui.upload.files import (data_section, dataset_key, input_kind_picker, new_data_token,
                             parsed_files, process_injected)
from ui.upload.model import (SLOT_BY_ID, Settings, build_dataset, check_size, error_message,
                             judgments_name, per_query_table, read_upload, score, system_name)
from ui.upload.query import query_view
from ui.upload.scores import control_test_note, data_notes, table_section
from ui.upload.settings import init_state, page_state, settings_link, settings_row

# What pages/upload.py draws with, and the model's entry points the tests and benchmarks call.
__all__ = [
    "build_dataset", "cached_score", "cached_table", "check_size", "comparison_section",
    "control_test_note", "data_notes", "data_section", "dataset_key", "error_message",
    "init_state", "input_kind_picker", "judgments_name", "new_data_token", "page_state",
    "parsed_files",
    "per_query_table", "process_injected", "query_view", "read_upload", "score", "Settings",
    "settings_link", "settings_row", "SLOT_BY_ID", "system_name", "table_section",
]
