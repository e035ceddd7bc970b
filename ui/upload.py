"""Widgets and helpers of the "Your own judgments" page (pages/upload.py).

Two halves:

* plain functions (no Streamlit): read one file's bytes, turn the files of an input kind
  into a :class:`Dataset` (judgments + one or two runs), score it and build the per-query
  table. The benchmark and the tests call these directly.
* Streamlit parts: settings from and to the URL, the uploaders (a bad file shows a message
  and leaves the data loaded before in place), the tables, the one-query view and the
  comparison of two systems.

Session state (all keys start with ``upload_``): ``upload_files`` maps a slot ("qrels",
"run_a", ...) to the :class:`LoadedFile` in use, ``upload_errors`` a slot to the message
of the last file that failed there. ``upload_inject`` is a seam for tests and scripts:
a list of ``(slot, file name, bytes)`` handled exactly like uploads on the next run.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import irlib
from irlib import io as irio
from irlib.compare import (Comparison, compare_systems, format_p, per_query_ranking,
                           randomization_floor, summary_sentence, t_test_caveat)
from ui.charts import _layout
from ui import page_state as ps
from ui.downloads import DOWNLOAD_NOTE, csv_bytes
from ui.formula import show_explanation
from ui.texts import METRIC_TEXT, md_escape

SAMPLES_DIR = Path(__file__).resolve().parents[1] / "assets" / "samples"

# --------------------------------------------------------------------------- what can be loaded

INPUT_KINDS = {"ratings": "Ratings sheet", "trec": "TREC qrels + runs",
               "table": "Results table (CSV/TSV/Parquet)"}


@dataclass(frozen=True)
class Slot:
    """One file the page can hold: which reader reads it and what it is for."""
    id: str
    label: str
    reader: str          # "ratings" | "qrels" | "run" | "table" | "judgments"
    required: bool
    help: str


SLOTS = {
    "ratings": (
        Slot("ratings", "Ratings sheet", "ratings", True,
             "CSV or TSV with queryid, query, document, position, rating_1 … rating_n: one "
             "row per shown result, one column per rater."),
    ),
    "trec": (
        Slot("qrels", "Qrels (judgments)", "qrels", True,
             "TREC qrels: `qid iter docno rel` (or `qid docno rel`), one line per judged "
             "document."),
        Slot("run_a", "Run A (baseline)", "run", True,
             "TREC run: `qid Q0 docno rank score tag` (or `qid docno score`). Order comes "
             "from the score, as in trec_eval."),
        Slot("run_b", "Run B (to compare, optional)", "run", False,
             "A second TREC run over the same queries, to see whether it beats run A."),
    ),
    "table": (
        Slot("table_a", "Results table A", "table", True,
             "CSV, TSV or Parquet with query_id, doc_id and score (higher = better) or "
             "position (1 = top); an optional relevance column can hold the judgments."),
        Slot("table_b", "Results table B (to compare, optional)", "table", False,
             "A second results table over the same queries."),
        Slot("judgments", "Judgments (optional if table A has relevance)", "judgments", False,
             "TREC qrels or a ratings sheet. Without it, table A's relevance column is used."),
    ),
}
SLOT_BY_ID = {s.id: s for slots in SLOTS.values() for s in slots}

SAMPLE_FILES = {
    "ratings": {"ratings": "ratings_notebook.csv"},
    "trec": {"qrels": "qrels.txt", "run_a": "run_control.txt", "run_b": "run_test.txt"},
    "table": {"table_a": "results.csv", "judgments": "ratings_notebook.csv"},
}

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

# --------------------------------------------------------------------------- measures

MEASURE_KEYS = ("nDCG", "DCG", "AP", "RR", "P", "R")
_USES_K = {"nDCG", "DCG", "P", "R"}
_USES_GAIN = {"nDCG", "DCG"}
GAINS = {"exponential": "2^grade − 1", "linear": "grade"}
AGGREGATES = ("median", "mean", "min", "max")
DEFAULTS = {"input": "ratings", "measures": ("nDCG", "DCG", "AP"), "by": "nDCG", "k": 10,
            "gain": "exponential", "agg": "median"}
#: TREC files are read as trec_eval reads them (gain = grade); the ratings sheet and the
#: results table keep the DCG notebook's 2^grade − 1.
DEFAULT_GAIN = {"ratings": "exponential", "trec": "linear", "table": "exponential"}
K_MAX = 1000


def measure_name(key: str, k: int, gain: str) -> str:
    """The ir_measures name irlib.evaluate takes, e.g. ``nDCG(dcg='exp-log2')@4``.

    >>> measure_name("nDCG", 4, "exponential"), measure_name("AP", 4, "linear")
    ("nDCG(dcg='exp-log2')@4", 'AP')
    """
    name = key
    if key in _USES_GAIN and gain == "exponential":
        name += "(dcg='exp-log2')"
    return name + (f"@{k}" if key in _USES_K else "")


GAIN_TAGS = {"exponential": "gain 2^g−1", "linear": "gain g"}


def measure_label(key: str, k: int | str, gain: str | None = None) -> str:
    """The column title: ``NDCG@4 (gain 2^g−1)``, ``DCG@4 (gain g)``, ``AP``, ``P@4``, ``R@4``.

    DCG and NDCG name their gain, so a number is never read under the other convention
    (trec_eval's is the grade itself).

    >>> measure_label("nDCG", 10, "linear"), measure_label("P", 5, "linear")
    ('NDCG@10 (gain g)', 'P@5')
    """
    label = {"nDCG": f"NDCG@{k}", "DCG": f"DCG@{k}", "P": f"P@{k}", "R": f"R@{k}"}.get(key, key)
    if key in _USES_GAIN and gain in GAIN_TAGS:
        label += f" ({GAIN_TAGS[gain]})"
    return label


def mean_label(key: str, k: int, gain: str | None = None) -> str:
    """What the mean over queries is called: MAP, MRR, mean NDCG@4 (gain g), ..."""
    return {"AP": "MAP", "RR": "MRR"}.get(key, f"mean {measure_label(key, k, gain)}")


@dataclass(frozen=True)
class Settings:
    measures: tuple[str, ...]
    by: str
    k: int
    gain: str

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(measure_name(m, self.k, self.gain) for m in self.measures)

    def label(self, key: str) -> str:
        return measure_label(key, self.k, self.gain)


# --------------------------------------------------------------------------- reading files

@dataclass(frozen=True)
class LoadedFile:
    """A file that parsed: its bytes (kept so settings such as the aggregate can re-read it)."""
    name: str
    data: bytes
    digest: str

    @property
    def size_text(self) -> str:
        return _size_text(len(self.data))


def _size_text(nbytes: int) -> str:
    if nbytes < 1024:
        return f"{nbytes} bytes"
    if nbytes < 1 << 20:
        return f"{nbytes / 1024:.0f} KB"
    return f"{nbytes / (1 << 20):.1f} MB"


def read_upload(reader: str, name: str, data: bytes, aggregate: str = "median") -> pd.DataFrame:
    """Parse one file with the irlib reader for ``reader``; raises irlib.InputError.

    ``"judgments"`` is a qrels file or a ratings sheet, whichever the first lines look like.
    """
    if reader == "judgments":
        reader = "ratings" if irio.sniff_kind(data, name=name) == "ratings" else "qrels"
    if reader == "ratings":
        return irio.read_ratings(data, name=name, aggregate=aggregate)
    if reader == "qrels":
        return irio.read_qrels(data, name=name)
    if reader == "run":
        return irio.read_run(data, name=name)
    if reader == "table":
        return irio.read_table(data, name=name)
    raise ValueError(f"unknown reader {reader!r}")


def check_size(name: str, nbytes: int) -> str | None:
    """The message for a file over the upload limit, else None (checked before reading)."""
    limit = irio.MAX_UPLOAD_MB * (1 << 20)
    if nbytes > limit:
        return (f"{name}: the file is {_size_text(nbytes)}; the limit is "
                f"{irio.MAX_UPLOAD_MB} MB. Split it (e.g. by query) or gzip it.")
    return None


def error_message(name: str, err: Exception) -> str:
    """What to tell the user about ``err``: irlib's messages already name file and line."""
    if isinstance(err, irlib.InputError):
        return str(err)
    if isinstance(err, ValueError):
        return f"{name}: {err}"
    # Anything else is a reader bug or an exotic file; still a message, never a crash.
    return f"{name}: could not be read ({type(err).__name__}: {err})"


# --------------------------------------------------------------------------- the dataset

@dataclass(frozen=True)
class Dataset:
    """Judgments and one or two systems' rankings, ready for irlib.evaluate."""
    kind: str
    qrels: pd.DataFrame
    runs: dict[str, pd.DataFrame]           # system name -> run, A first
    query_text: pd.Series | None            # query text by query id (ratings sheets)
    ratings: pd.DataFrame | None            # the ratings sheet's rows (rater columns)
    notes: tuple[str, ...]                  # things worth knowing, shown as warnings
    key: tuple                              # identifies the inputs, for caching

    @property
    def rater_columns(self) -> list[str]:
        if self.ratings is None:
            return []
        return [c for c in self.ratings.columns if re.fullmatch(r"rating_\d+", c.lower())]


def system_name(file_name: str) -> str:
    """A short system name from a file name: ``run_control.txt`` -> ``control``.

    >>> system_name("run_test.txt.gz"), system_name("bm25.run"), system_name("run.txt")
    ('test', 'bm25', 'run')
    """
    stem = Path(file_name).name
    for suffix in (".gz", ".txt", ".tsv", ".csv", ".parquet", ".pq", ".run", ".trec"):
        stem = stem.removesuffix(suffix)
    short = re.sub(r"^(run|results?)[_\-. ]+", "", stem, flags=re.IGNORECASE)
    return short or stem or file_name


def _two_names(first: str, second: str) -> tuple[str, str]:
    if first == second:
        return f"{first} (A)", f"{second} (B)"
    return first, second


def _qrels_from(frame: pd.DataFrame) -> pd.DataFrame:
    return frame[["query_id", "doc_id", "relevance"]].reset_index(drop=True)


def _texts(ratings: pd.DataFrame) -> pd.Series:
    first = ratings.drop_duplicates("query_id")
    return pd.Series(first["query"].to_numpy(), index=first["query_id"].to_numpy(), name="query")


def _negative_note(qrels: pd.DataFrame, name: str) -> str | None:
    negative = qrels["relevance"].to_numpy() < 0
    if not negative.any():
        return None
    row = qrels.iloc[int(np.flatnonzero(negative)[0])]
    return (f"{name} has {int(negative.sum()):,} negative grades (first: query "
            f"{row['query_id']!r}, document {row['doc_id']!r}); they count as not relevant "
            "and gain nothing, as in trec_eval.")


def build_dataset(kind: str, files: Mapping[str, tuple[str, pd.DataFrame]],
                  key: tuple = ()) -> tuple[Dataset | None, str | None]:
    """The dataset of input ``kind`` from parsed ``files`` (slot -> (file name, frame)).

    Returns ``(dataset, None)`` or ``(None, what is still missing)``.
    """
    notes: list[str] = []
    if kind == "ratings":
        if "ratings" not in files:
            return None, "Upload a ratings sheet, or load the sample."
        name, sheet = files["ratings"]
        run = irio.to_run_from_positions(sheet)
        return Dataset(kind, _qrels_from(sheet), {system_name(name): run}, _texts(sheet), sheet,
                       (), key), None

    if kind == "trec":
        if "qrels" not in files or "run_a" not in files:
            need = [label for slot, label in (("qrels", "a qrels file"), ("run_a", "run A"))
                    if slot not in files]
            return None, f"Still needed: {' and '.join(need)} (or load the samples)."
        qname, qrels = files["qrels"]
        runs = {"run_a": files["run_a"]}
        if "run_b" in files:
            runs["run_b"] = files["run_b"]
        judgments, texts, sheet = qrels, None, None
    elif kind == "table":
        if "table_a" not in files:
            return None, "Upload results table A, or load the samples."
        runs = {"table_a": files["table_a"]}
        if "table_b" in files:
            runs["table_b"] = files["table_b"]
        tname, table_a = files["table_a"]
        texts = sheet = None
        if "judgments" in files:
            qname, judged = files["judgments"]
            judgments = _qrels_from(judged)
            if "disagreement" in judged.columns:          # a ratings sheet: keep its texts
                texts, sheet = _texts(judged), judged
            if "relevance" in table_a.columns:
                notes.append(f"{tname} has a relevance column; the judgments from {qname} "
                             "are used instead.")
        elif "relevance" in table_a.columns:
            qname, judgments = tname, _qrels_from(table_a)
        else:
            return None, (f"{tname} has no relevance column: add judgments (a qrels file "
                          "or a ratings sheet).")
    else:
        raise ValueError(f"unknown input kind {kind!r}")

    names = [system_name(files[slot][0]) for slot in runs]
    if len(names) == 2:
        names = list(_two_names(*names))
    systems = {n: files[slot][1][["query_id", "doc_id", "score"]] for n, slot in zip(names, runs)}
    note = _negative_note(judgments, qname)
    if note:
        notes.append(note)
    return Dataset(kind, _qrels_from(judgments), systems, texts, sheet, tuple(notes), key), None


def score(dataset: Dataset, names: Sequence[str]) -> dict[str, irlib.Evaluation]:
    """irlib.evaluate of every system of ``dataset`` with the measures ``names``.

    Scored as ``trec_eval -c`` (an unanswered query is a 0 row); the page's switch then
    leaves those rows out of the table, the means and the comparison for trec_eval's
    default (:func:`per_query_table`, ``include_missing``), so switching needs no rescoring.
    """
    return {system: irlib.evaluate(dataset.qrels, run, list(names), complete=True)
            for system, run in dataset.runs.items()}


def _id_sort_key(ids: pd.Index) -> np.ndarray:
    """Numeric order when every id is a number ("2" before "10"), else text order."""
    numbers = pd.to_numeric(pd.Series(ids), errors="coerce")
    if numbers.notna().all():
        return np.argsort(numbers.to_numpy(), kind="stable")
    return np.argsort(np.asarray(ids, dtype=str), kind="stable")


def per_query_table(dataset: Dataset, evaluation: irlib.Evaluation, settings: Settings, *,
                    system: str, include_missing: bool = True) -> pd.DataFrame:
    """One row per query: id, text, every measure, results and relevant counts; worst first.

    Sorted by ``settings.by`` ascending (the weakest query first), ties by query id.
    ``include_missing=False`` drops queries the run does not answer (trec_eval without -c).
    """
    per_query = evaluation.per_query
    if not include_missing and evaluation.missing_queries:
        per_query = per_query.drop(index=list(evaluation.missing_queries))
    ids = per_query.index
    table = pd.DataFrame({"query_id": ids.to_numpy(dtype=str)})
    if dataset.query_text is not None:
        table["query"] = dataset.query_text.reindex(ids).fillna("").to_numpy()
    # The measure that orders the rows comes first, next to the query.
    ordered = sorted(zip(settings.measures, settings.names), key=lambda m: m[0] != settings.by)
    for key, name in ordered:
        table[settings.label(key)] = per_query[name].to_numpy()
    run = dataset.runs[system]
    table["results"] = run["query_id"].value_counts().reindex(ids, fill_value=0).to_numpy()
    relevant = dataset.qrels.loc[dataset.qrels["relevance"].to_numpy() >= 1, "query_id"]
    table["relevant"] = relevant.value_counts().reindex(ids, fill_value=0).to_numpy()
    if dataset.ratings is not None and "disagreement" in dataset.ratings.columns:
        spread = dataset.ratings.groupby("query_id")["disagreement"].max()
        table["rater spread"] = spread.reindex(ids).to_numpy()
    table = table.iloc[_id_sort_key(ids)]
    by = settings.label(settings.by)
    return table.sort_values(by, kind="stable").reset_index(drop=True)


# --------------------------------------------------------------------------- page state

def _measure_list() -> ps.Codec:
    canonical = {m.lower(): m for m in MEASURE_KEYS}

    def parse(text: str) -> list[str]:
        wanted = [m.strip().lower() for m in text.split(",") if m.strip()]
        if not wanted or any(m not in canonical for m in wanted):
            raise ValueError(text)
        return list(dict.fromkeys(canonical[m] for m in wanted))
    return ps.Codec(parse, ",".join, "a comma-separated list of " + ", ".join(MEASURE_KEYS))


@functools.cache
def page_state() -> ps.PageState:
    """The page's settings (not the files: they stay in the browser session)."""
    return ps.PageState("upload_", [
        ps.Field("input", DEFAULTS["input"], ps.one_of(tuple(INPUT_KINDS))),
        ps.Field("measures", DEFAULTS["measures"], _measure_list()),
        ps.Field("by", DEFAULTS["by"], ps.one_of(MEASURE_KEYS)),
        ps.Field("k", DEFAULTS["k"], ps.whole_number(1, K_MAX)),
        ps.Field("gain", DEFAULTS["gain"], ps.one_of(tuple(GAINS))),
        ps.Field("agg", DEFAULTS["agg"], ps.one_of(AGGREGATES)),
        ps.Field("missing_zero", False, ps.switch(), "complete"),
        ps.Field("view", "rows", ps.one_of(("rows", "cards"))),
    ])


def init_state() -> None:
    """Seed the settings once per session from the URL.

    K follows the data, and the gain the input kind, until the learner (or the link) sets
    them.
    """
    state, ss = page_state(), st.session_state
    if state.key("k") not in ss:
        params = st.query_params.to_dict()
        ss["upload_k_auto"] = "k" not in params
        ss["upload_gain_auto"] = "gain" not in params
        if "gain" not in params and params.get("input") in DEFAULT_GAIN:
            params["gain"] = DEFAULT_GAIN[params["input"]]
        state.start(params)
    else:
        state.start()


def _on_input_change() -> None:
    if st.session_state.get("upload_gain_auto", True):
        page_state().set("gain", DEFAULT_GAIN[page_state()["input"]])


def settings_link(query: str) -> None:
    st.markdown(f":material/link: [Link to these settings](?{query}) — reopens this page "
                "with the same measures, K, gain and input kind (not the files: they stay in "
                "your browser session). The address bar holds it too.")


# --------------------------------------------------------------------------- markdown safety



# --------------------------------------------------------------------------- cached steps

#: Parsed uploads and their scores are kept for a while so reruns are instant, then dropped:
#: a 700,000-line run takes ~230 MB, and a class's uploads must not pile up in the server.
CACHE_TTL = "20m"


@st.cache_data(max_entries=8, ttl=CACHE_TTL, show_spinner=False)
def cached_read(reader: str, name: str, digest: str, _data: bytes,
                aggregate: str = "median") -> pd.DataFrame:
    """read_upload, keyed on the file's SHA-256 (not on the bytes: hashing is done once)."""
    return read_upload(reader, name, _data, aggregate)


@st.cache_data(max_entries=8, ttl=CACHE_TTL, show_spinner=False)
def cached_score(key: tuple, names: tuple[str, ...], _dataset: Dataset):
    return score(_dataset, names)


@st.cache_data(max_entries=16, ttl=CACHE_TTL, show_spinner=False)
def cached_table(key: tuple, settings: Settings, system: str, include_missing: bool,
                 _dataset: Dataset, _evaluation) -> pd.DataFrame:
    return per_query_table(_dataset, _evaluation, settings, system=system,
                           include_missing=include_missing)


@st.cache_data(max_entries=16, ttl=CACHE_TTL, show_spinner=False)
def cached_compare(key: tuple, _a: pd.Series, _b: pd.Series) -> Comparison:
    """compare_systems, keyed on (dataset key, measure, include_missing)."""
    return compare_systems(_a, _b)


# --------------------------------------------------------------------------- loading files

def _state() -> tuple[dict, dict, dict]:
    state = st.session_state
    return (state.setdefault("upload_files", {}), state.setdefault("upload_errors", {}),
            state.setdefault("upload_seen", {}))


def _aggregate_for(reader: str) -> str:
    # Only rating sheets depend on the aggregate; a fixed value for the other readers keeps
    # a big run's cache entry valid when the aggregate changes.
    if reader in ("ratings", "judgments"):
        return st.session_state.get("upload_agg", DEFAULTS["agg"])
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
                with st.spinner(f"Reading {name} ({_size_text(len(data))})…", show_time=True):
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
    return True


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


def _summary(reader: str, frame: pd.DataFrame) -> str:
    n_queries = frame["query_id"].nunique()
    if "disagreement" in frame.columns:          # read_ratings adds it
        raters = sum(1 for c in frame.columns if re.fullmatch(r"rating_\d+", c.lower()))
        return f"{len(frame):,} rated results, {n_queries:,} queries, {raters} raters"
    if reader in ("qrels", "judgments"):
        return f"{len(frame):,} judgments, {n_queries:,} queries"
    return f"{len(frame):,} results, {n_queries:,} queries"


def input_kind_picker() -> str:
    return st.radio("What do you have?", list(INPUT_KINDS), format_func=INPUT_KINDS.get,
                    horizontal=True, on_change=_on_input_change, **page_state().bind("input"))


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
               f"({loaded.size_text}) — {_summary(slot.reader, frame)}")
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


# --------------------------------------------------------------------------- settings row

def _on_k_change() -> None:
    st.session_state["upload_k_auto"] = False


def _on_gain_change() -> None:
    st.session_state["upload_gain_auto"] = False


def default_k(dataset: Dataset) -> int:
    """The longest ranking, up to 10: K = 4 for the notebook's four results per query."""
    longest = max(int(run["query_id"].value_counts().max()) if len(run) else 1
                  for run in dataset.runs.values())
    return int(min(10, max(1, longest)))


def settings_row(dataset: Dataset) -> Settings:
    state = st.session_state
    fields = page_state()
    if state.pop("upload_k_pending", False) and state.get("upload_k_auto", True):
        fields.set("k", default_k(dataset))
    c_measures, c_by, c_k, c_gain = st.columns([3, 2, 1, 2])
    with c_measures:
        chosen = st.multiselect("Measures", MEASURE_KEYS, **fields.bind("measures"),
                                format_func=lambda m: measure_label(m, "K"),
                                help="AP and RR use the whole ranking, like trec_eval; the "
                                     "others stop at K.")
    measures = tuple(m for m in chosen if m in MEASURE_KEYS) or ("nDCG",)
    if not chosen:
        st.caption("No measure chosen: showing NDCG@K.")
    if fields["by"] not in measures:
        fields.set("by", measures[0])
    with c_by:
        by = st.selectbox("Rank queries and compare by", measures, **fields.bind("by"),
                          format_func=lambda m: measure_label(m, "K"))
    with c_k:
        k = st.number_input("K", min_value=1, max_value=K_MAX, step=1, **fields.bind("k"),
                            on_change=_on_k_change,
                            help="Cut-off: how many top results count. Starts at the longest "
                                 "ranking, up to 10.")
    with c_gain:
        gain = st.radio("Gain of a grade", list(GAINS), format_func=GAINS.get, horizontal=True,
                        on_change=_on_gain_change, **fields.bind("gain"),
                        help="2^grade − 1 is the DCG notebook's (and Burges et al.'s) gain; "
                             "'grade' is trec_eval's. Only DCG and NDCG use it.")
    return Settings(measures, by, int(k), gain)


# --------------------------------------------------------------------------- notes

def data_notes(dataset: Dataset, evaluations: Mapping[str, irlib.Evaluation],
               qrels_name: str) -> bool:
    """Warnings about how the files fit together; returns whether to count missing queries."""
    for note in dataset.notes:
        st.warning(md_escape(note), icon=":material/warning:")
    include_missing = True
    missing_any = False
    # Systems usually miss the same queries: say it once for all of them.
    by_missing: dict[tuple, list[str]] = {}
    for system, ev in evaluations.items():
        by_missing.setdefault(ev.missing_queries, []).append(system)
    for system, ev in evaluations.items():
        if ev.ignored_queries:
            n = len(ev.ignored_queries)
            shown = ", ".join(repr(q) for q in ev.ignored_queries[:5])
            more = f" and {n - 5:,} more" if n > 5 else ""
            st.warning(f"{md_escape(system)}: {n:,} {'query is' if n == 1 else 'queries are'} "
                       f"not in {md_escape(qrels_name)} ({md_escape(shown)}{more}); "
                       "without judgments they are left out.", icon=":material/warning:")
    for missing, systems in by_missing.items():
        if not missing:
            continue
        who = " and ".join(md_escape(s) for s in systems)
        verb = "answers" if len(systems) == 1 else "answer"
        n_qrels = len(evaluations[systems[0]].per_query)
        if len(missing) == n_qrels:
            st.error(f"{who} {verb} none of the {n_qrels:,} queries in "
                     f"{md_escape(qrels_name)}: every score is 0. Are these the right files "
                     "(same query ids)?", icon=":material/error:")
            continue
        missing_any = True
        n = len(missing)
        shown = ", ".join(repr(q) for q in missing[:5])
        more = f" and {n - 5:,} more" if n > 5 else ""
        st.warning(f"{who} {'does' if len(systems) == 1 else 'do'} not answer {n:,} of the "
                   f"{n_qrels:,} judged {'query' if n_qrels == 1 else 'queries'} "
                   f"({md_escape(shown)}{more}).", icon=":material/warning:")
    if missing_any:
        include_missing = st.toggle(
            "Count unanswered queries as 0 (trec_eval -c)", **page_state().bind("missing_zero"),
            help="On: a query the system does not answer scores 0 and pulls the mean down "
                 "(ir_measures, trec_eval -c). Off: it is left out of the table and the means "
                 "(trec_eval's default).")
        st.caption("Off, as trec_eval by default: the means cover the queries the system "
                   "answered — how well it ranks what it returns. On, as `trec_eval -c`: an "
                   "unanswered query counts as 0 — what a stakeholder asking about the whole "
                   "test set, failures included, needs to see.")
    return include_missing


# --------------------------------------------------------------------------- per-query table

def _number_columns(table: pd.DataFrame, settings: Settings) -> dict:
    config = {"query_id": st.column_config.TextColumn("query id"),
              "query": st.column_config.TextColumn("query"),
              "results": st.column_config.NumberColumn(
                  "results", help="Documents the system returned for this query", format="%d"),
              "relevant": st.column_config.NumberColumn(
                  "relevant", format="%d",
                  help="Judged documents with grade ≥ 1. With 0, every measure is 0 whatever "
                       "the system does."),
              "rater spread": st.column_config.NumberColumn(
                  "rater spread", format="%g",
                  help="Largest max − min of the raters' grades over this query's results")}
    for key in settings.measures:
        label = settings.label(key)
        config[label] = st.column_config.NumberColumn(
            label, format="%.4f", help=METRIC_TEXT[key].short if key in METRIC_TEXT else None)
    return {c: v for c, v in config.items() if c in table.columns}


def _on_table_select() -> None:
    # A clicked row picks the query shown below (the table is worst first).
    rows = st.session_state["upload_table"]["selection"]["rows"]
    order = st.session_state.get("upload_table_order", [])
    if rows and rows[0] < len(order):
        st.session_state["upload_query"] = order[rows[0]]


def means_row(table: pd.DataFrame, settings: Settings) -> None:
    with st.container(horizontal=True, gap="small"):
        for key in settings.measures:
            label = settings.label(key)
            value = table[label].mean() if len(table) else float("nan")
            st.metric(mean_label(key, settings.k, settings.gain), "–" if np.isnan(value) else f"{value:.4f}",
                      border=True, help=f"Mean over the {len(table):,} queries in the table",
                      width="stretch")


def table_section(table: pd.DataFrame, settings: Settings, system: str) -> None:
    by = settings.label(settings.by)
    means_row(table, settings)
    st.caption(f"{len(table):,} queries, weakest first by {by}. Click a row to look at that "
               "query below.")
    st.session_state["upload_table_order"] = table["query_id"].tolist()
    st.dataframe(table, hide_index=True, width="stretch", key="upload_table",
                 column_config=_number_columns(table, settings), on_select=_on_table_select,
                 selection_mode="single-row", height=min(38 + 35 * len(table), 420))
    st.download_button("Download the table (CSV)", csv_bytes(table),
                       file_name=f"per_query_{_file_safe(system)}.csv", mime="text/csv",
                       icon=":material/download:", key="upload_dl_table", on_click="ignore",
                       help=DOWNLOAD_NOTE)
    st.caption(DOWNLOAD_NOTE)
    if (table["relevant"] == 0).any():
        n = int((table["relevant"] == 0).sum())
        st.caption(f"{n:,} {'query has' if n == 1 else 'queries have'} no relevant judged "
                   "document: every measure is 0 there, whatever the system does. That is a "
                   "gap in the judgments, not (only) in the system.")
    if settings.by == "DCG":
        st.caption("DCG grows with the number and grades of good results a query has, so a "
                   "low DCG can mean 'few good documents exist'. NDCG divides that out.")


def _file_safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_") or "system"


def control_test_note(table: pd.DataFrame, settings: Settings) -> None:
    """The DCG notebook compares 'control' and 'test' as two orderings of one query."""
    if "query" not in table.columns:
        return
    texts = table.set_index(table["query"].str.lower())
    if not {"control", "test"} <= set(texts.index) or texts.index.duplicated().any():
        return
    label = settings.label(settings.by)
    control, test = texts.loc["control", label], texts.loc["test", label]
    st.info(f"The queries **control** and **test** are the notebook's two orderings of the "
            f"same documents: {label} {control:.4g} for control, {test:.4g} for test. One "
            "query is too few to tell whether test is better in general — for that, compare "
            "two runs over many queries under *TREC qrels + runs*.", icon=":material/science:")


# --------------------------------------------------------------------------- one query

GRADE_COLORS = {0: "gray", 1: "orange", 2: "blue"}


def _query_label(table: pd.DataFrame, by: str):
    text = table.set_index("query_id")
    has_text = "query" in text.columns

    def label(qid: str) -> str:
        row = text.loc[qid]
        name = f"{qid} · {row['query']}" if has_text and row["query"] else qid
        return f"{name}  ({by} {row[by]:.3f})"
    return label


def query_picker(table: pd.DataFrame, settings: Settings) -> str | None:
    options = table["query_id"].tolist()
    if not options:
        return None
    if st.session_state.get("upload_query") not in options:
        # The weakest query the system answered and that has something relevant to find:
        # without either it scores 0 whatever happens, and its formula says little.
        judged = table.loc[(table["relevant"] > 0) & (table["results"] > 0), "query_id"]
        st.session_state["upload_query"] = judged.iloc[0] if len(judged) else options[0]
    by = settings.label(settings.by)
    return st.selectbox("Query (weakest first)", options, key="upload_query",
                        persist_state="session",
                        format_func=_query_label(table, by))


def ranking_frame(dataset: Dataset, system: str, query_id: str) -> pd.DataFrame:
    """The query's ranking with grades, plus the raters' columns for a ratings sheet."""
    ranking = per_query_ranking(dataset.qrels, dataset.runs[system], query_id)
    if dataset.ratings is not None and len(ranking):
        sheet = dataset.ratings.loc[dataset.ratings["query_id"] == query_id]
        raters = sheet.set_index("doc_id")[dataset.rater_columns + ["disagreement"]]
        ranking = ranking.join(raters, on="doc_id")
    return ranking


def _explained(key: str, grades: np.ndarray, judged: np.ndarray, settings: Settings):
    grades = np.maximum(grades.astype(float), 0.0)     # negative grades gain nothing
    judged = np.maximum(judged.astype(float), 0.0)
    if key in ("AP", "RR"):
        k = max(len(grades), 1)                          # AP and RR use the whole ranking
    else:
        k = settings.k
    if key == "P" and len(grades) < k:
        # P@K divides by K even for shorter rankings: the empty places count as misses.
        grades = np.concatenate([grades, np.zeros(k - len(grades))])
    gain = "exponential" if settings.gain == "exponential" else "linear"
    expl = irlib.explain(key, grades, k, judged=judged, gain=gain)
    return _shorten(expl)


def _shorten(expl: irlib.Explanation, limit: int = 1200) -> irlib.Explanation:
    """Long rankings make formulas with hundreds of terms: keep the first and the result."""
    if len(expl.latex) <= limit:
        return expl
    parts = expl.latex.split(" = ")
    kept = [p if len(p) <= limit // 3 else r"\dots" for p in parts]
    return dataclasses.replace(expl, latex=" = ".join(kept))


def query_view(dataset: Dataset, table: pd.DataFrame, settings: Settings, system: str) -> None:
    query_id = query_picker(table, settings)
    if query_id is None:
        st.info("No query to show.")
        return
    ranking = ranking_frame(dataset, system, query_id)
    judged = dataset.qrels.loc[dataset.qrels["query_id"] == query_id, "relevance"].to_numpy()
    if ranking.empty:
        st.info(f"{md_escape(system)} returned nothing for this query, so every measure is 0. "
                f"It has {len(judged)} judged documents.")
        return
    view = st.segmented_control("Show the ranking as", ["rows", "cards"],
                                **page_state().bind("view"), required=True)
    k = settings.k
    if view == "cards":
        _cards(dataset, ranking, k)
    else:
        _rows(dataset, ranking, k)
    label = settings.label(settings.by)
    st.markdown(f"**How {label} is computed for this query** "
                f"({'gain 2^grade − 1' if settings.gain == 'exponential' else 'gain = grade'})")
    expl = _explained(settings.by, ranking["relevance"].to_numpy(), judged, settings)
    show_explanation(expl)


def _rows(dataset: Dataset, ranking: pd.DataFrame, k: int) -> None:
    shown = ranking.head(max(k, 100)).copy()
    shown.insert(1, f"in top {k}", shown["rank"] <= k)
    columns = ["rank", f"in top {k}", "doc_id", "relevance"]
    if dataset.kind != "ratings":     # a ratings sheet judges every row and has no scores
        columns += ["judged", "score"]
    columns += [c for c in dataset.rater_columns + ["disagreement"] if c in shown.columns]
    config = {"doc_id": st.column_config.TextColumn("document"),
              "relevance": st.column_config.NumberColumn("grade", format="%d"),
              "score": st.column_config.NumberColumn("score", format="%.4f"),
              "disagreement": st.column_config.NumberColumn(
                  "rater spread", format="%g", help="max − min of the raters' grades")}
    st.dataframe(shown[columns], hide_index=True, width="stretch", key="upload_ranking",
                 column_config=config, height=min(38 + 35 * len(shown), 400))
    if len(ranking) > len(shown):
        st.caption(f"Showing the top {len(shown)} of {len(ranking):,} results.")


def _cards(dataset: Dataset, ranking: pd.DataFrame, k: int) -> None:
    shown = ranking.head(max(k, 8) if k <= 20 else 20)
    per_row = 4
    raters = [c for c in dataset.rater_columns if c in shown.columns]
    for start in range(0, len(shown), per_row):
        columns = st.columns(per_row)
        for column, (_, row) in zip(columns, shown.iloc[start:start + per_row].iterrows()):
            with column, st.container(border=True):
                in_top = "" if row["rank"] <= k else f" · below the top {k}"
                st.caption(f"#{int(row['rank'])}{in_top}")
                st.text(str(row["doc_id"]))
                grade = row["relevance"]
                if not row["judged"]:
                    st.badge("unjudged (grade 0)", color="gray")
                else:
                    st.badge(f"grade {grade:g}", color=GRADE_COLORS.get(int(grade), "green"))
                if raters:
                    votes = " · ".join(f"{row[c]:g}" for c in raters)
                    spread = row.get("disagreement", 0)
                    st.caption(f"raters {votes} (spread {spread:g})")
    if len(ranking) > len(shown):
        st.caption(f"Showing the top {len(shown)} of {len(ranking):,} results.")


# --------------------------------------------------------------------------- comparison

WIN, LOSS, TIE = "#009E73", "#D55E00", "#999999"     # Okabe-Ito, as in ui/charts.py


def comparison_frame(comparison: Comparison, names: tuple[str, str],
                     query_text: pd.Series | None = None) -> pd.DataFrame:
    """Per query: both scores, the difference and who won; sorted by the difference."""
    a, b = names
    frame = pd.DataFrame({"query_id": comparison.deltas.index.to_numpy(dtype=str)})
    if query_text is not None:
        frame["query"] = query_text.reindex(comparison.deltas.index).fillna("").to_numpy()
    # prefixed so a system named like a fixed column ("query_id", "difference") cannot clash
    frame[f"A: {a}"] = comparison.a.to_numpy()
    frame[f"B: {b}"] = comparison.b.to_numpy()
    frame["difference"] = comparison.deltas.to_numpy()
    frame["outcome"] = np.select([frame["difference"] > 0, frame["difference"] < 0],
                                 [f"{b} better", f"{b} worse"], "tie")
    return frame.sort_values("difference", kind="stable").reset_index(drop=True)


def deltas_figure(frame: pd.DataFrame, label: str, names: tuple[str, str],
                  mean_delta: float | None) -> go.Figure:
    """Bars of the per-query differences B − A, sorted; green = B better, orange = worse."""
    a, b = names
    d = frame["difference"].to_numpy()
    colors = np.where(d > 0, WIN, np.where(d < 0, LOSS, TIE))
    text = frame["query"] if "query" in frame.columns else frame["query_id"]
    hover = [f"query {html.escape(q)}" + (f" · {html.escape(t)}" if "query" in frame.columns
                                           and t else "")
             for q, t in zip(frame["query_id"], text)]
    x = np.arange(1, len(frame) + 1)
    fig = go.Figure(go.Bar(x=x, y=d, marker_color=colors, customdata=hover,
                           hovertemplate="%{customdata}<br>difference %{y:+.4f}<extra></extra>",
                           showlegend=False))
    ties = d == 0
    if ties.any():   # a tie is a bar of height 0: mark it so it can be seen and hovered
        fig.add_trace(go.Scatter(x=x[ties], y=d[ties], mode="markers", showlegend=False,
                                 marker=dict(color=TIE, size=7, symbol="diamond"),
                                 customdata=np.asarray(hover, dtype=object)[ties],
                                 hovertemplate="%{customdata}<br>tie<extra></extra>"))
    fig.add_hline(y=0, line_width=1, line_color="#888")
    if mean_delta is not None and mean_delta != 0:
        fig.add_hline(y=mean_delta, line_width=2, line_dash="dot", line_color="#0072B2",
                      annotation_text=f"mean {mean_delta:+.3f}", annotation_position="top left")
    fig = _layout(fig, y_title=html.escape(f"{label}: {b} − {a}"),
                  x_title=f"queries, sorted by difference ({len(frame):,})", height=340)
    fig.update_layout(hovermode="closest", bargap=0.15 if len(frame) < 200 else 0)
    fig.update_xaxes(dtick=None, showticklabels=len(frame) <= 40,
                     tickmode="array" if len(frame) <= 40 else "auto",
                     tickvals=list(x) if len(frame) <= 40 else None,
                     ticktext=[html.escape(q) for q in frame["query_id"]] if len(frame) <= 40
                     else None)
    return fig


def coverage_problem(evaluations: Mapping[str, irlib.Evaluation], names: Sequence[str],
                     quote=str) -> str | None:
    """Why two systems must not be compared (one answers none or too few of the judged
    queries), or None.

    A verdict on the few queries a system answered would speak for queries nobody chose.
    """
    for name in names:
        ev = evaluations[name]
        judged = len(ev.per_query.index.union(list(ev.missing_queries)))
        answered = judged - len(ev.missing_queries)
        if answered == 0 or answered * 2 < judged:
            how = "none" if answered == 0 else f"only {answered:,}"
            return (f"No verdict: {quote(name)} answers {how} of the {judged:,} judged queries, so "
                    "a comparison would rest on queries nobody chose. Check that its query ids "
                    "are the judgments' (e.g. '301' and not 'q301'), and that the file is the "
                    "whole run.")
    return None


def comparison_section(dataset: Dataset, evaluations: Mapping[str, irlib.Evaluation],
                       settings: Settings, include_missing: bool) -> Comparison | None:
    names = tuple(dataset.runs)
    if len(names) < 2:
        return None
    name_a, name_b = names
    key = settings.by
    label = settings.label(key)
    measure = measure_name(key, settings.k, settings.gain)
    a = evaluations[name_a].per_query[measure]
    b = evaluations[name_b].per_query[measure]
    if not include_missing:
        gone = set(evaluations[name_a].missing_queries) | set(evaluations[name_b].missing_queries)
        a, b = a.drop(index=list(gone & set(a.index))), b.drop(index=list(gone & set(b.index)))
    blocker = coverage_problem(evaluations, (name_a, name_b), quote=md_escape)
    if blocker:
        st.warning(blocker, icon=":material/block:")
        return None
    comparison = cached_compare((dataset.key, measure, include_missing), a, b)
    sentence = summary_sentence(comparison, label, md_escape(name_a), md_escape(name_b))
    st.info(sentence, icon=":material/record_voice_over:")
    n = comparison.n
    caveat = t_test_caveat(comparison)
    with st.container(horizontal=True, gap="small"):
        st.metric(f"{md_escape(name_b)} better", f"{comparison.wins} of {n}", border=True,
                  width="stretch")
        st.metric(f"{md_escape(name_b)} worse", f"{comparison.losses} of {n}", border=True,
                  width="stretch")
        st.metric("ties", f"{comparison.ties} of {n}", border=True, width="stretch")
    with st.container(horizontal=True, gap="small"):
        ci = (None if comparison.ci_low is None else
              f"95% CI {comparison.ci_low:+.3f} to {comparison.ci_high:+.3f}")
        st.metric(f"mean difference in {label}",
                  "–" if comparison.mean_delta is None else f"{comparison.mean_delta:+.4f}",
                  delta=ci, delta_color="off", delta_arrow="off", border=True, width="stretch",
                  help=f"Mean of {md_escape(name_b)} − {md_escape(name_a)} over the queries, with a t-based 95% "
                       "confidence interval: if it excludes 0, the t-test's p is below 0.05.")
        st.metric("paired t-test p", "not meaningful" if caveat else format_p(comparison.t_pvalue),
                  border=True, width="stretch",
                  help=(f"Not shown: {caveat}. " if caveat else "") +
                       "scipy.stats.ttest_rel on the per-query scores: how often a mean "
                       "difference this large would appear if the systems were equally good "
                       "(assumes roughly normal differences).")
        method = ("all sign patterns, exact" if comparison.exact_randomization
                  else f"{comparison.n_resamples:,} random sign patterns")
        st.metric("randomization test p", format_p(comparison.randomization_pvalue),
                  border=True, width="stretch",
                  help="scipy.stats.permutation_test: swaps each query's two scores at random "
                       f"({method}) and counts how often the mean difference is as large; "
                       "no normality assumption.")
    if caveat and n >= 2:
        st.caption(f"The paired t-test is left out: {caveat}.")
    floor = randomization_floor(n)
    if n and floor >= 0.01:
        st.caption(f"With {n} {'query' if n == 1 else 'queries'} the randomization test cannot "
                   f"give a p below 2/2^{n} = {format_p(floor)}: only the observed signs and "
                   "their mirror image are that extreme, so even a system better on every "
                   "query could be chance. Judge more queries to tell.")
    frame = comparison_frame(comparison, (name_a, name_b), dataset.query_text)
    if n:
        st.plotly_chart(deltas_figure(frame, label, (name_a, name_b), comparison.mean_delta),
                        key="upload_delta_chart", config={"displaylogo": False})
        st.caption("Each bar is one query: how much the score moved from "
                   f"{md_escape(name_a)} to {md_escape(name_b)}. Green: better, orange: "
                   "worse, grey: tie. The camera icon in the chart's toolbar saves it as PNG.")
    with st.expander("Per-query differences"):
        st.dataframe(frame, hide_index=True, width="stretch", key="upload_compare_table",
                     column_config={f"A: {name_a}": st.column_config.NumberColumn(format="%.4f"),
                                    f"B: {name_b}": st.column_config.NumberColumn(format="%.4f"),
                                    "difference": st.column_config.NumberColumn(format="%+.4f"),
                                    "query_id": st.column_config.TextColumn("query id")})
        st.download_button("Download the differences (CSV)",
                           csv_bytes(frame),
                           file_name=f"compare_{_file_safe(name_a)}_{_file_safe(name_b)}.csv",
                           mime="text/csv", icon=":material/download:", key="upload_dl_compare",
                           on_click="ignore", help=DOWNLOAD_NOTE)
        st.caption(DOWNLOAD_NOTE)
    with st.expander("How to read the tests"):
        st.markdown(
            "Both systems answered the same queries, so the comparison is **paired**: only "
            "each query's difference matters. The **t-test** asks whether the mean "
            "difference is far from 0 given how much the differences vary; the "
            "**randomization test** shuffles which system got which score on each query "
            "and counts how often the shuffled mean difference is as large as the real one. "
            "A small p (below 0.05) says the difference is unlikely to be luck of the "
            "query sample; a large p says *this test set cannot tell*, not that the systems "
            "are equal. With few queries, only large differences can be told apart from "
            "chance — judge more queries to be sure.")
    return comparison
