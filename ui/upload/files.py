"""Loading files: the uploaders, the sample buttons, the files in use and their messages.

Session state: ``upload_files`` maps a slot ("qrels", "run_a", ...) to the
:class:`~ui.upload.model.LoadedFile` in use, ``upload_errors`` a slot to the message of the
last file that failed there (the slot keeps its earlier file). ``upload_inject`` is a seam
for tests and scripts: a list of ``(slot, file name, bytes)`` handled exactly like uploads
on the next run.
"""
from __future__ import annotations

import hashlib

import pandas as pd
import streamlit as st

from irlib import io as irio
from ui.texts import md_escape
from ui.upload.cache import cached_read
from ui.upload.model import (AGGREGATES, DEFAULTS, INPUT_KINDS, SAMPLE_FILES, SAMPLES_DIR,
                             SLOT_BY_ID, SLOTS, LoadedFile, Slot, check_size, error_message,
                             file_summary, size_text)
from ui.upload.settings import on_input_change, page_state

FORMAT_HELP = {
    "ratings": "One row per result a person saw, with every rater's grade — the DCG "
               "notebook's layout: `queryid,query,document,position,rating_1,rating_2,…`. "
               "The raters' median (or mean, min, max) becomes the relevance; the "
               "`position` column is the system's ranking.",
    "trec": "Judgments as TREC **qrels** and one or two TREC **runs** (like trec_eval's "
            "input). With two runs the page tests whether run B beats run A.",
    "table": "A table of results with `query_id`, `doc_id` and `score` or `position` "
             "(CSV, TSV or Parquet), judged by its own `relevance` column or by a qrels "
             "file or ratings sheet.",
}


def _state() -> tuple[dict, dict, dict]:
    state = st.session_state
    return (state.setdefault("upload_files", {}), state.setdefault("upload_errors", {}),
            state.setdefault("upload_seen", {}))


def _aggregate_for(reader: str) -> str:
    # Only rating sheets depend on the aggregate; a fixed value for the other readers keeps
    # a big run's cache entry valid when the aggregate changes.
    if reader in ("ratings", "judgments"):
        return page_state().get("agg")
    return DEFAULTS["agg"]


def _parsed(slot: Slot, loaded: LoadedFile) -> pd.DataFrame:
    return cached_read(slot.reader, loaded.name, loaded.digest, loaded.data,
                       _aggregate_for(slot.reader))


def ingest(slot_id: str, name: str, data: bytes) -> bool:
    """Parse ``data`` for ``slot_id``; on success it replaces the slot's file, on failure
    the slot keeps its file and the message is stored for display. Never raises."""
    files, errors, _ = _state()
    slot = SLOT_BY_ID[slot_id]
    message = check_size(name, len(data))
    if message is None:
        digest = hashlib.sha256(data).hexdigest()
        try:
            if len(data) > 2 << 20:    # big files take a moment: say what is happening
                with st.spinner(f"Reading {name} ({size_text(len(data))})…", show_time=True):
                    _parsed(slot, LoadedFile(name, data, digest))
            else:
                _parsed(slot, LoadedFile(name, data, digest))
        except Exception as err:  # noqa: BLE001 - every bad file must end in a message
            message = error_message(name, err)
    if message is not None:
        errors[slot_id] = message
        return False
    files[slot_id] = LoadedFile(name, data, digest)
    errors.pop(slot_id, None)
    st.session_state["upload_k_pending"] = True        # K may follow the new data
    # the scores will change: bring them into view (pages/upload.py, ui/scroll.py)
    st.session_state["upload_new_data"] = st.session_state.get("upload_new_data", 0) + 1
    return True


def new_data_token() -> int:
    """How many files were loaded in this session: raised by every file that loads."""
    return st.session_state.get("upload_new_data", 0)


def process_injected() -> None:
    """The test seam: ``st.session_state["upload_inject"] = [(slot, name, bytes), ...]``."""
    for slot_id, name, data in st.session_state.pop("upload_inject", None) or []:
        ingest(slot_id, name, bytes(data))


def _bump_uploaders() -> None:
    # New widget keys empty the uploaders, so a removed or replaced file is not shown.
    st.session_state["upload_uploader_version"] = st.session_state.get(
        "upload_uploader_version", 0) + 1


def load_samples(kind: str) -> None:
    """Callback of the 'Load the samples' buttons: the kind's sample files, nothing else."""
    files, errors, _ = _state()
    for slot in SLOTS[kind]:
        files.pop(slot.id, None)
        errors.pop(slot.id, None)
    for slot_id, file_name in SAMPLE_FILES[kind].items():
        ingest(slot_id, file_name, (SAMPLES_DIR / file_name).read_bytes())
    _bump_uploaders()


def _remove(slot_id: str) -> None:
    files, errors, _ = _state()
    files.pop(slot_id, None)
    errors.pop(slot_id, None)
    _bump_uploaders()


def parsed_files(kind: str) -> dict[str, tuple[str, pd.DataFrame]]:
    """slot -> (file name, parsed frame) for the files of ``kind`` in use (from the cache)."""
    files, _, _ = _state()
    return {slot.id: (files[slot.id].name, _parsed(slot, files[slot.id]))
            for slot in SLOTS[kind] if slot.id in files}


def dataset_key(kind: str) -> tuple:
    files, _, _ = _state()
    aggregate = _aggregate_for("ratings") if kind != "trec" else DEFAULTS["agg"]
    # names too: the system names shown (and keyed on) come from the file names
    return (kind, aggregate) + tuple((s.id, files[s.id].name, files[s.id].digest)
                                     for s in SLOTS[kind] if s.id in files)


def input_kind_picker() -> str:
    return st.radio("What do you have?", list(INPUT_KINDS), format_func=INPUT_KINDS.get,
                    horizontal=True, on_change=on_input_change, **page_state().bind("input"))


def data_section(kind: str) -> None:
    """Uploaders, sample downloads and buttons, the files in use and their messages."""
    files, errors, seen = _state()
    st.markdown(FORMAT_HELP[kind])
    version = st.session_state.get("upload_uploader_version", 0)
    slots = SLOTS[kind]
    columns = st.columns(len(slots))
    for slot, column in zip(slots, columns):
        with column:
            uploaded = st.file_uploader(slot.label, key=f"upload_file_{slot.id}_{version}",
                                        help=slot.help, max_upload_size=irio.MAX_UPLOAD_MB)
            if uploaded is not None and seen.get(slot.id) != uploaded.file_id:
                seen[slot.id] = uploaded.file_id
                ingest(slot.id, uploaded.name, uploaded.getvalue())
            _slot_status(slot, files.get(slot.id), errors.get(slot.id))
    if kind == "ratings" or (kind == "table" and _holds_ratings("judgments")):
        st.radio("Combine the raters with the", AGGREGATES, horizontal=True,
                 **page_state().bind("agg"),
                 help="The DCG notebook takes the median and drops the decimals "
                      "(`.median(axis=1).astype(int)`); so does this page.")
    _samples_row(kind)


def _holds_ratings(slot_id: str) -> bool:
    """Whether the slot holds a ratings sheet (then the raters' aggregate matters)."""
    loaded = _state()[0].get(slot_id)
    if loaded is None:
        return False
    return "disagreement" in _parsed(SLOT_BY_ID[slot_id], loaded).columns


def _slot_status(slot: Slot, loaded: LoadedFile | None, error: str | None) -> None:
    if error:
        # The message quotes the file's name and cells: show them literally.
        st.error(md_escape(error), icon=":material/error:")
        if loaded is not None:
            st.caption(f"Still using the file loaded before: {md_escape(loaded.name)}.")
    if loaded is None:
        if not slot.required:
            st.caption("Optional.")
        return
    frame = _parsed(slot, loaded)
    st.caption(f":material/check_circle: In use: **{md_escape(loaded.name)}** "
               f"({loaded.size_text}) — {file_summary(slot.reader, frame)}")
    for note in frame.attrs.get("notes", ()):   # how irlib read it, e.g. as cp1252
        st.caption(f":material/info: {md_escape(note)}")
    if not slot.required:     # a new upload replaces a required file; optional ones can go
        st.button(f"Remove {md_escape(loaded.name)}", key=f"upload_remove_{slot.id}",
                  icon=":material/close:", on_click=_remove, args=(slot.id,), type="tertiary")


def _samples_row(kind: str) -> None:
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        st.button("Load the samples", key=f"upload_sample_{kind}", type="secondary",
                  icon=":material/folder_open:", on_click=load_samples, args=(kind,),
                  help="Use the sample files below, as if you had uploaded them.")
        for file_name in dict.fromkeys(SAMPLE_FILES[kind].values()):
            st.download_button(file_name, (SAMPLES_DIR / file_name).read_bytes(),
                               file_name=file_name, icon=":material/download:",
                               mime="text/csv" if file_name.endswith(".csv") else "text/plain",
                               key=f"upload_dl_{kind}_{file_name}", on_click="ignore")

