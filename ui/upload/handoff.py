"""Handing results on: the report to download, and what a link carries."""
from __future__ import annotations

import functools

import streamlit as st

from irlib.compare_many import ManyComparison
from ui.upload.model import BeyondSummary, Dataset, Settings
from ui.upload.report import report_file_name, report_html


def link_without_data_note() -> None:
    """A link opened without its files: say in one line where the data is."""
    if st.session_state.get("upload_from_link") and not st.session_state.get("upload_files"):
        st.info("This link carries the settings (measures, K, gain, threshold), not the data: "
                "the files stayed with whoever sent it. Ask them for the report (with their "
                "files loaded, **Download the report** at the end of this page makes it), or "
                "load your own files below.", icon=":material/link_off:")


def report_section(dataset: Dataset, settings: Settings, include_missing: bool,
                   result: ManyComparison | None, pair,
                   beyond: BeyondSummary | None = None) -> None:
    """One button: a self-contained HTML report (built when clicked)."""
    build = functools.partial(report_html, dataset, settings, include_missing, result, pair,
                              beyond=beyond)
    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        st.download_button("Download the report (HTML)", build,
                           file_name=report_file_name(settings, pair), mime="text/html",
                           icon=":material/description:", key="upload_dl_report",
                           on_click="ignore", type="secondary",
                           help="One file that opens offline in any browser and prints: the "
                                "question, the verdict, the systems table, the chart, the "
                                "measures, the settings and where the numbers come from.")
        st.caption("For a product team: it holds everything on this page they need, the data "
                   "files' fingerprints (SHA-256) included. Print it from the browser for a PDF.")
