"""Handing results on: the report to download, and what a link carries.

A link carries the page's settings (:func:`ui.upload.settings.page_state`), never a user's
files: they stay in the browser session. The app's own samples are no one's private data,
so a link made while they are loaded says so (``samples=1``) and opens them.
"""
from __future__ import annotations

import functools

import streamlit as st

from irlib.stats.compare_many import ManyComparison
from ui.shared.texts import md_escape
from ui.upload.files import load_samples
from ui.upload.model import SAMPLE_FILES, SLOTS, UNITS, BeyondSummary, Dataset, Settings
from ui.upload.report import report_file_name, report_html
from ui.upload.settings import page_state


def samples_in_use(kind: str) -> bool:
    """Whether the files of ``kind`` are exactly the app's samples of that kind."""
    files = st.session_state.get("upload_files", {})
    wanted = SAMPLE_FILES[kind]
    positions = {p for slot in SLOTS[kind] for p in slot.positions()}
    in_use = {p: f for p, f in files.items() if p in positions}
    return set(in_use) == set(wanted) and all(
        f.sample and f.name == wanted[p] for p, f in in_use.items())


def _carried(kind: str) -> str:
    """What a link carries, in words: the settings, and the query (or user) it shows."""
    fields = page_state()
    query = fields.get("query")
    shown = f", and the {UNITS[kind]} shown ({md_escape(query)})" if query else ""
    return ("the input kind, measures, K, gain, threshold, baseline, test and the systems "
            f"compared{shown}")


def link_without_data_note() -> None:
    """A link opened without its files: say in one line where the data is; a link to the
    samples opens them (once, on its first run)."""
    ss = st.session_state
    kind = page_state().get("input")
    if ss.pop("upload_link_samples", False) and not ss.get("upload_files"):
        load_samples(kind, bring_scores_into_view=False)    # a link opens at the top
        return
    if ss.get("upload_from_link") and not ss.get("upload_files"):
        st.info(f"This link carries the settings ({_carried(kind)}), not the data: the files "
                "stayed with whoever sent it. Ask them for the report (with their files "
                "loaded, **Download the report** at the end of this page makes it), or load "
                "your own files below.", icon=":material/link_off:")


def settings_link(query: str | None = None) -> None:
    """The link to this page as it is, saying what it carries: the settings only, or the
    settings and the app's samples."""
    fields = page_state()
    kind = fields.get("input")
    fields.set("samples", samples_in_use(kind))
    query = fields.address()
    if fields.get("samples"):
        st.markdown(f":material/link: [Link to these settings and the samples](?{query}) — "
                    f"opens this page with the app's sample files loaded and {_carried(kind)}."
                    " The samples are the app's own, so the link can carry them.")
    else:
        st.markdown(f":material/link: [Link to these settings](?{query}) — reopens this page "
                    f"with {_carried(kind)}. It carries settings only: the files are not in it; "
                    "they stay in your browser session (send the report for the results).")


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


#: The page's sections after the files: (anchor, heading). ``{Unit}``/``{unit}``: "Query",
#: "query" or "User", "user". pages/upload.py draws each heading with its anchor, and the
#: row of links under the page's introduction points at them.
SECTIONS = (("scores", "2. Scores"), ("by-unit", "3. {Unit} by {unit}"),
            ("up-close", "4. One {unit} up close"), ("baseline", "5. Does it beat the baseline?"),
            ("hand-on", "6. Hand it on"))


def section_heading(anchor: str, unit: str) -> str:
    """The heading of the section ``anchor`` for ``unit`` ("query" or "user")."""
    return dict(SECTIONS)[anchor].format(Unit=unit.capitalize(), unit=unit)


def section_links(where, unit: str) -> None:
    """Links to the sections, drawn in ``where`` (a placeholder near the top): with files in
    use, a reader opening a shared link sees where the scores and the verdict are, five
    screens down a laptop, without scrolling to find them (a product manager's walk)."""
    links = " · ".join(f"[{section_heading(a, unit)}](#{a})" for a, _ in SECTIONS)
    where.markdown(f"**On this page:** {links}")
