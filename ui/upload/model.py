"""The data model of the "Your own judgments" page, without Streamlit.

What can be loaded (input kinds and their file :class:`Slot` s), the page's
:class:`Settings`, one file's bytes to a frame (:func:`read_upload`), the files of an
input kind to a :class:`Dataset` (judgments + one or two runs), its scores and the tables
the page shows: per query (:func:`per_query_table`), one query's ranking and the
comparison of two systems. The benchmark and the tests call these directly; the view
modules beside this one draw them.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

import irlib
from irlib import io as irio
from irlib.compare import Comparison, per_query_ranking
from ui.upload.measures import DEFAULT_MEASURES, measure_label, measure_name

SAMPLES_DIR = Path(__file__).resolve().parents[2] / "assets" / "samples"

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


# --------------------------------------------------------------------------- settings

AGGREGATES = ("median", "mean", "min", "max")
DEFAULTS = {"input": "ratings", "measures": DEFAULT_MEASURES, "by": DEFAULT_MEASURES[0], "k": 10,
            "gain": "exponential", "agg": "median"}
#: TREC files are read as trec_eval reads them (gain = grade); the ratings sheet and the
#: results table keep the DCG notebook's 2^grade − 1.
DEFAULT_GAIN = {"ratings": "exponential", "trec": "linear", "table": "exponential"}
K_MAX = 1000


@dataclass(frozen=True)
class Settings:
    """What the page scores: the measures shown, the one that orders and compares, K, gain."""
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
        return size_text(len(self.data))


def size_text(nbytes: int) -> str:
    """A file's size as people say it.

    >>> size_text(512), size_text(3 << 20)
    ('512 bytes', '3.0 MB')
    """
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
        return (f"{name}: the file is {size_text(nbytes)}; the limit is "
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


def judgments_name(files: Mapping[str, tuple[str, pd.DataFrame]]) -> str:
    """The name of the file the judgments come from (table A when it holds them)."""
    return next((files[s][0] for s in ("ratings", "qrels", "judgments") if s in files),
                files.get("table_a", ("the judgments",))[0])


def default_k(dataset: Dataset) -> int:
    """The longest ranking, up to 10: K = 4 for the notebook's four results per query."""
    longest = max(int(run["query_id"].value_counts().max()) if len(run) else 1
                  for run in dataset.runs.values())
    return int(min(10, max(1, longest)))


def file_summary(reader: str, frame: pd.DataFrame) -> str:
    """What a parsed file holds, e.g. ``12 judgments, 3 queries``."""
    n_queries = frame["query_id"].nunique()
    if "disagreement" in frame.columns:          # read_ratings adds it
        raters = sum(1 for c in frame.columns if re.fullmatch(r"rating_\d+", c.lower()))
        return f"{len(frame):,} rated results, {n_queries:,} queries, {raters} raters"
    if reader in ("qrels", "judgments"):
        return f"{len(frame):,} judgments, {n_queries:,} queries"
    return f"{len(frame):,} results, {n_queries:,} queries"


def file_safe(text: str) -> str:
    """``text`` as part of a download's file name.

    >>> file_safe("run B (test)")
    'run_B_test'
    """
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_") or "system"


# --------------------------------------------------------------------------- one query

def ranking_frame(dataset: Dataset, system: str, query_id: str) -> pd.DataFrame:
    """The query's ranking with grades, plus the raters' columns for a ratings sheet."""
    ranking = per_query_ranking(dataset.qrels, dataset.runs[system], query_id)
    if dataset.ratings is not None and len(ranking):
        sheet = dataset.ratings.loc[dataset.ratings["query_id"] == query_id]
        raters = sheet.set_index("doc_id")[dataset.rater_columns + ["disagreement"]]
        ranking = ranking.join(raters, on="doc_id")
    return ranking


# --------------------------------------------------------------------------- two systems

def score_columns(names: tuple[str, str]) -> tuple[str, str]:
    """The comparison table's columns of the two systems' scores.

    Prefixed so a system named like a fixed column ("query_id", "difference") cannot clash.

    >>> score_columns(("control", "test"))
    ('A: control', 'B: test')
    """
    a, b = names
    return f"A: {a}", f"B: {b}"


def comparison_frame(comparison: Comparison, names: tuple[str, str],
                     query_text: pd.Series | None = None) -> pd.DataFrame:
    """Per query: both scores, the difference and who won; sorted by the difference."""
    b = names[1]
    frame = pd.DataFrame({"query_id": comparison.deltas.index.to_numpy(dtype=str)})
    if query_text is not None:
        frame["query"] = query_text.reindex(comparison.deltas.index).fillna("").to_numpy()
    column_a, column_b = score_columns(names)
    frame[column_a] = comparison.a.to_numpy()
    frame[column_b] = comparison.b.to_numpy()
    frame["difference"] = comparison.deltas.to_numpy()
    frame["outcome"] = np.select([frame["difference"] > 0, frame["difference"] < 0],
                                 [f"{b} better", f"{b} worse"], "tie")
    return frame.sort_values("difference", kind="stable").reset_index(drop=True)


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
