"""Loading files: the uploaders, the sample buttons, the files in use and their messages.

Session state: ``upload_files`` maps a slot position ("qrels", "run_1", "run_2", ...) to the
:class:`~ui.upload.model.LoadedFile` in use, ``upload_errors`` a position to the message of
the last file that failed there (the position keeps its earlier file), ``upload_error_files``
a position to the name of the uploaded file its message is about (the message goes when the
uploader no longer lists that file), ``upload_refused`` a systems slot's id to the messages
about its refused uploads by file name (several refused files, each with its own message,
while the uploader lists them; they hold no position), ``upload_names`` a
system file's SHA-256 to the name the user gave it. ``upload_inject`` is a seam for tests
and scripts: a list of ``(slot, file name, bytes)`` handled exactly like uploads on the next
run; ``slot`` is a position ("run_2") or a systems slot ("run": the next free position, or
the position of a file with the same name).
"""
from __future__ import annotations

import hashlib
from dataclasses import replace

import streamlit as st

from irlib import io as irio
from irlib import recsys
from ui.shared.texts import md_escape
from ui.upload.cache import cached_ids_problem, cached_read
from ui.upload.model import (
    AGGREGATES,
    DEFAULTS,
    INPUT_KINDS,
    MAX_SYSTEMS,
    READER_ROLES,
    SAMPLE_FILES,
    SAMPLES_DIR,
    SLOT_BY_ID,
    SLOTS,
    SLOTS_BY_SYSTEM,
    LoadedFile,
    Parsed,
    Slot,
    check_size,
    error_message,
    file_summary,
    sample_digests,
    size_text,
)
from ui.upload.settings import follow_removed_system, page_state
from ui.upload.slots import slot_rows

FORMAT_HELP = {
    "ratings": "One row per result a person saw, with every rater's grade — the DCG "
               "notebook's layout: `queryid,query,document,position,rating_1,rating_2,…`. "
               "The raters' median (or mean, min, max) becomes the relevance; the "
               "`position` column is the system's ranking.",
    "trec": "Judgments as TREC **qrels** and up to ten TREC **runs** (what trec_eval reads). "
            "With two or more runs the page compares each with the first (the baseline).",
    "table": "Tables of results with `query_id`, `doc_id` and `score` or `position` "
             "(CSV, TSV or Parquet), judged by the first table's `relevance` column or by a "
             "qrels file or ratings sheet.",
    "recsys": "Each system's **recommendations** (top-K lists) and the **held-out "
              "interactions** (what users did later: the test split), with any column names "
              "(checked below each file). The held-out items are the relevant ones, including "
              "those no system recommended, so recall and NDCG are not inflated. Optional: the "
              "training interactions (popularity, novelty), item categories (diversity) and a "
              "catalogue (what coverage divides by).",
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


def _columns(digest: str) -> tuple:
    """The (role, column) pairs the user chose for a recommender file (none: guessed)."""
    return tuple(sorted(st.session_state.setdefault("upload_columns", {}).get(digest, {})
                        .items()))


def _parsed(slot: Slot, loaded: LoadedFile):
    return cached_read(slot.reader, loaded.name, loaded.digest, loaded.data,
                       _aggregate_for(slot.reader), _columns(loaded.digest))


def _position(slot_id: str, name: str) -> str | None:
    """Where a file for ``slot_id`` goes: a position as given; for a systems slot the
    position of a file with the same name, else the first free one (None: all taken)."""
    if slot_id not in SLOTS_BY_SYSTEM:
        return slot_id
    files, _, _ = _state()
    positions = SLOTS_BY_SYSTEM[slot_id].positions()
    same = [p for p in positions if p in files and files[p].name == name]
    free = [p for p in positions if p not in files]
    return (same or free or [None])[0]


def ingest(slot_id: str, name: str, data: bytes, *, sample: bool = False,
           uploaded: bool = False) -> bool:
    """Parse ``data`` for ``slot_id``; on success it replaces the position's file, on
    failure the position keeps its file and the message is stored for display (with the
    file's name when ``uploaded``: the message is about a file the uploader lists). Never
    raises."""
    files, errors, _ = _state()
    position = _position(slot_id, name)
    if position is None:
        _refuse(f"{slot_id}_{MAX_SYSTEMS}", f"{name}: the page compares up to {MAX_SYSTEMS} "
                "systems; remove one to add another.", name if uploaded else None)
        return False
    slot = SLOT_BY_ID[position]
    message = check_size(name, len(data))
    candidate = None                    # the file, once its size is allowed
    if message is None:
        candidate = LoadedFile(name, data, hashlib.sha256(data).hexdigest())
        try:
            if len(data) > 2 << 20:    # big files take a moment: say what is happening
                with st.spinner(f"Reading {name} ({size_text(len(data))})…", show_time=True):
                    _parsed(slot, candidate)
            else:
                _parsed(slot, candidate)
        except recsys.MissingColumnError as err:
            # irlib's advice is code (columns={...}); the page has pickers for it
            which = f"{' and the '.join(err.roles)} column{'s' if len(err.roles) > 1 else ''}"
            message = f"{err.problem_at}. Pick the {which} below, then “{READ_WITH_COLUMNS}”."
        except Exception as err:  # noqa: BLE001 - every bad file must end in a message
            message = error_message(name, err)
            if "recommender data" in message:      # irlib.io's hint, in the page's words
                message += (f". On this page: pick “{INPUT_KINDS['recsys']}” above and load "
                            "the held-out interactions beside it.")
        else:
            message = _unmatched(position, candidate)
    pending = st.session_state.setdefault("upload_pending", {})
    refused = _refused(slot.id)         # the uploader's slot, as data_section shows it
    if (message is not None and uploaded and slot.systems and position not in files
            and slot.reader not in READER_ROLES):
        refused[name] = message      # a new file: its own message while the uploader lists it
        return False
    refused.pop(name, None)
    if message is not None:
        _refuse(position, message, name if uploaded else None)
        if slot.reader in READER_ROLES and candidate is not None:
            # a recommender file whose columns were not found: keep it for the column picker
            pending[position] = replace(candidate, sample=sample)
        return False
    files[position] = replace(candidate, sample=sample or candidate.digest in sample_digests())
    errors.pop(position, None)
    st.session_state.setdefault("upload_error_files", {}).pop(position, None)
    pending.pop(position, None)
    st.session_state["upload_k_pending"] = True        # K may follow the new data
    # the scores will change: bring them into view (pages/upload.py, ui/shared/scroll.py)
    st.session_state["upload_new_data"] = st.session_state.get("upload_new_data", 0) + 1
    return True


def _refuse(position: str, message: str, uploaded: str | None) -> None:
    """Keep a refused file's message; ``uploaded``: the uploaded file it is about, whose
    removal from the uploader takes the message with it (see :func:`_forget_removed`)."""
    _, errors, _ = _state()
    errors[position] = message
    if uploaded is not None:
        st.session_state.setdefault("upload_error_files", {})[position] = uploaded


def _ids_problem(recommendations: LoadedFile, heldout: LoadedFile) -> str | None:
    """Why these two files share no user or no item, or None (cached on their digests)."""
    key = tuple((f.digest, _columns(f.digest)) for f in (recommendations, heldout))
    return cached_ids_problem(key, _parsed(SLOT_BY_ID["recs_1"], recommendations),
                              _parsed(SLOT_BY_ID["heldout"], heldout))


def _unmatched(position: str, loaded: LoadedFile) -> str | None:
    """Why a recommender file cannot go with the files in use (no user or no item in
    common: every score would be 0), or None. A refused file leaves the earlier one in place."""
    files, _, _ = _state()
    recs = [p for p in SLOTS_BY_SYSTEM["recs"].positions() if p in files and p != position]
    if position == "heldout":
        pairs = [(files[p], loaded, files[p].name) for p in recs]
    elif position in SLOTS_BY_SYSTEM["recs"].positions() and "heldout" in files:
        pairs = [(loaded, files["heldout"], files["heldout"].name)]
    else:
        return None
    for recommendations, heldout, other in pairs:
        problem = _ids_problem(recommendations, heldout)
        if problem:
            return (f"{loaded.name} does not go with {other}, so it was not loaded: {problem} "
                    "To switch to other data, remove the other files first.")
    return None


def unmatched(kind: str) -> str | None:
    """Recommenders: why the files in use cannot be scored together (no user or no item in
    common, e.g. after a column was picked wrongly below a file), or None."""
    files, _, _ = _state()
    if kind != "recsys" or "heldout" not in files:
        return None
    for position in SLOTS_BY_SYSTEM["recs"].positions():
        if position in files:
            problem = _ids_problem(files[position], files["heldout"])
            if problem:
                return f"{files[position].name} and {files['heldout'].name}: {problem}"
    return None


def _refused(slot_id: str) -> dict[str, str]:
    """The messages about a systems slot's refused uploads, by file name."""
    return st.session_state.setdefault("upload_refused", {}).setdefault(slot_id, {})


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


def _clear(kind: str) -> None:
    files, errors, _ = _state()
    pending = st.session_state.setdefault("upload_pending", {})
    about = st.session_state.setdefault("upload_error_files", {})
    for slot in SLOTS[kind]:
        for position in slot.positions():
            for kept in (files, errors, pending, about):
                kept.pop(position, None)
        _refused(slot.id).clear()


def load_samples(kind: str, *, bring_scores_into_view: bool = True) -> None:
    """Callback of the 'Load the samples' buttons: the kind's sample files, nothing else.

    ``bring_scores_into_view=False``: a link that carries the samples loads them on its first
    run, and no action of the reader's did; the page opens at its top, with its title and the
    files, not scrolled to "2. Scores" (:func:`new_data_token`, ui/shared/scroll.py)."""
    token = new_data_token()
    _clear(kind)
    for position, file_name in SAMPLE_FILES[kind].items():
        ingest(position, file_name, (SAMPLES_DIR / file_name).read_bytes(), sample=True)
    _bump_uploaders()
    if not bring_scores_into_view:
        st.session_state["upload_new_data"] = token


def _remove(position: str) -> None:
    """Remove a file; the systems after it move up, so positions stay in load order, and the
    chosen baseline, "Scores of" and "Compare with" move up with their systems (a removed
    one's choice goes back to its default): a choice never lands on another system unseen."""
    files, errors, _ = _state()
    files.pop(position, None)
    errors.pop(position, None)
    st.session_state.setdefault("upload_pending", {}).pop(position, None)
    slot = SLOT_BY_ID[position]
    if slot.systems:
        kept = [files.pop(p) for p in slot.positions() if p in files]
        files.update(zip(slot.positions(), kept))
        follow_removed_system(slot.positions().index(position) + 1)
    _bump_uploaders()


def parsed_files(kind: str) -> dict[str, Parsed]:
    """Position -> :class:`Parsed` for the files of ``kind`` in use (from the cache)."""
    files, _, _ = _state()
    return {p: Parsed(files[p].name, _parsed(slot, files[p]), files[p].digest,
                      len(files[p].data), files[p].sample)
            for slot in SLOTS[kind] for p in slot.positions() if p in files}


def dataset_key(kind: str, names: list[str]) -> tuple:
    files, _, _ = _state()
    aggregate = _aggregate_for("ratings") if kind != "trec" else DEFAULTS["agg"]
    # names too: the system names shown (and keyed on) can be edited
    return (kind, aggregate, tuple(names)) + tuple(
        (p, files[p].name, files[p].digest) for slot in SLOTS[kind] for p in slot.positions()
        if p in files)


def data_section(kind: str) -> None:
    """Uploaders, sample downloads and buttons, the files in use and their messages."""
    files, errors, seen = _state()
    st.markdown(FORMAT_HELP[kind])
    version = st.session_state.get("upload_uploader_version", 0)
    rows = slot_rows(kind)
    columns = [column for row in rows
               for column in st.columns([2 if slot.systems else 1 for slot in row])]
    slots = [slot for row in rows for slot in row]
    for slot, column in zip(slots, columns):
        with column:
            uploaded = st.file_uploader(slot.label, key=f"upload_file_{slot.id}_{version}",
                                        help=slot.help, max_upload_size=irio.MAX_UPLOAD_MB,
                                        accept_multiple_files=slot.systems)
            for item in (uploaded or []) if slot.systems else [uploaded] if uploaded else []:
                if seen.get((slot.id, item.name)) != item.file_id:
                    seen[(slot.id, item.name)] = item.file_id
                    ingest(slot.id, item.name, item.getvalue(), uploaded=True)
            _forget_removed(slot, {item.name for item in uploaded or []} if slot.systems
                            else {uploaded.name} if uploaded else set())
            # a refused file's message right under the uploader (which still lists it),
            # not below the files in use
            refused = [p for p in slot.positions() if p in errors and p not in files]
            for message in [*(errors[p] for p in refused), *_refused(slot.id).values()]:
                st.error(md_escape(message), icon=":material/error:")
            for position in slot.positions():
                _slot_status(position, files.get(position), errors.get(position), slot,
                             error_shown=position in refused)
    if kind == "ratings" or (kind == "table" and _holds_ratings("judgments")):
        st.radio("Combine the raters with the", AGGREGATES, horizontal=True,
                 **page_state().bind("agg"),
                 help="The DCG notebook takes the median and drops the decimals "
                      "(`.median(axis=1).astype(int)`); so does this page.")
    _samples_row(kind)


def _forget_removed(slot: Slot, listed: set[str]) -> None:
    """The message about an uploaded file goes once the uploader no longer lists it (its ✕,
    or a Remove or the samples, which empty the uploaders)."""
    _, errors, _ = _state()
    about = st.session_state.setdefault("upload_error_files", {})
    refused = _refused(slot.id)
    for name in [n for n in refused if n not in listed]:
        del refused[name]
    for position in slot.positions():
        if position in about and about[position] not in listed:
            del about[position]
            errors.pop(position, None)
            st.session_state.setdefault("upload_pending", {}).pop(position, None)


#: The column pickers' button, which the message on a file without a needed column names.
READ_WITH_COLUMNS = "Read with these columns"


def _holds_ratings(slot_id: str) -> bool:
    """Whether the slot holds a ratings sheet (then the raters' aggregate matters)."""
    loaded = _state()[0].get(slot_id)
    if loaded is None:
        return False
    return "disagreement" in _parsed(SLOT_BY_ID[slot_id], loaded).columns


def _slot_status(position: str, loaded: LoadedFile | None, error: str | None,
                 slot: Slot, *, error_shown: bool = False) -> None:
    if error and not error_shown:
        # The message quotes the file's name and cells: show them literally.
        st.error(md_escape(error), icon=":material/error:")
        if loaded is not None:
            st.caption(f"Still using the file loaded before: {md_escape(loaded.name)}.")
    if slot.reader in READER_ROLES:
        waiting = st.session_state.get("upload_pending", {}).get(position)
        shown = waiting if error and waiting is not None else loaded
        if shown is not None:
            column_picker(position, shown, slot, opened=shown is waiting)
    if loaded is None:
        if not slot.required and not slot.systems:
            st.caption("Optional.")
        return
    frame = _parsed(slot, loaded)
    sample = " · sample data" if loaded.sample else ""
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        st.caption(f":material/check_circle: In use: **{md_escape(loaded.name)}** "
                   f"({loaded.size_text}{sample}) — "
                   f"{md_escape(file_summary(slot.reader, frame))}")
        if slot.systems or not slot.required:  # a new upload replaces a single required file
            st.button("Remove", key=f"upload_remove_{position}", icon=":material/close:",
                      on_click=_remove, args=(position,), type="tertiary",
                      help=f"Remove {md_escape(loaded.name)}")
    for note in frame.attrs.get("notes", ()):   # how irlib read it, e.g. as cp1252
        st.caption(f":material/info: {md_escape(note)}")


def _samples_row(kind: str) -> None:
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        st.button("Load the samples", key=f"upload_sample_{kind}", type="secondary",
                  icon=":material/folder_open:", on_click=load_samples, args=(kind,),
                  help="Use the sample files below, as if you had uploaded them. Every number "
                       "computed from them is labelled 'sample data'.")
        for file_name in dict.fromkeys(SAMPLE_FILES[kind].values()):
            st.download_button(file_name, (SAMPLES_DIR / file_name).read_bytes(),
                               file_name=file_name, icon=":material/download:",
                               mime="text/csv" if file_name.endswith(".csv") else "text/plain",
                               key=f"upload_dl_{kind}_{file_name}", on_click="ignore")


def column_picker(position: str, loaded: LoadedFile, slot: Slot, *, opened: bool) -> None:
    """Which column is the user, the item, the rating ... of a recommender file: guessed from
    the header (irlib.recsys.guess_columns), changed here, kept for the file (its SHA-256)."""
    kind = READER_ROLES[slot.reader]
    try:
        header = recsys.read_header(loaded.data, name=loaded.name)
    except Exception as err:  # noqa: BLE001 - a file with no header: its error is shown
        st.caption(md_escape(error_message(loaded.name, err)))
        return
    chosen = st.session_state.setdefault("upload_columns", {}).get(loaded.digest, {})
    guess = {**recsys.guess_columns(header, kind), **chosen}
    roles = recsys.ROLES[kind]
    with st.expander(f"Columns of {md_escape(loaded.name)}", expanded=opened,
                     icon=":material/view_column:"):
        picked = {}
        # a row that wraps: four pickers side by side where there is room, one under the
        # other in a narrow column (a file's column at 1366 px) or on a phone
        row = st.container(horizontal=True, gap="small")
        for role in roles["required"] + roles["optional"]:
            options = ([] if role in roles["required"] else [None]) + list(header)
            current = guess.get(role)
            with row:
                picked[role] = st.selectbox(
                    role, options, index=options.index(current) if current in options else 0,
                    format_func=lambda c: "(none)" if c is None else c,
                    key=f"upload_col_{position}_{loaded.digest[:12]}_{role}",
                    help=recsys.ROLE_HELP[role])
        if st.button(READ_WITH_COLUMNS, key=f"upload_col_apply_{position}",
                     icon=":material/refresh:"):
            st.session_state["upload_columns"][loaded.digest] = picked
            ingest(position, loaded.name, loaded.data, sample=loaded.sample)
            st.rerun()
