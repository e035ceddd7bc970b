"""The data model of the "Your own judgments" page, without Streamlit.

What can be loaded (input kinds, file :class:`Slot` s: :mod:`ui.upload.slots`), the page's :class:`Settings`, a file's bytes to a frame (:mod:`ui.upload.reading`),
the files of an input kind to a :class:`Dataset` (judgments and the systems' rankings, named
after their run tags, with where every file came from) and its scores. The tables the page
shows are built in :mod:`ui.upload.tables`; the views beside this module draw them.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

import irlib
from irlib import io as irio
from irlib import recsys
from ui.upload.measures import DEFAULT_MEASURES, measure_label, measure_name
from ui.upload.reading import (READER_ROLES, RECSYS_READERS, LoadedFile,  # noqa: F401
                               check_size, error_message, file_safe, file_summary, read_upload,
                               size_text)   # the model's names for files, where callers look
from ui.upload.slots import (INPUT_KINDS, MAX_SYSTEMS, SAMPLE_FILES, SAMPLES_DIR,  # noqa: F401
                             SLOT_BY_ID, SLOTS, UNITS, Slot, sample_digests)

# --------------------------------------------------------------------------- settings

AGGREGATES = ("median", "mean", "min", "max")
DEFAULTS = {"input": "ratings", "measures": DEFAULT_MEASURES, "by": DEFAULT_MEASURES[0], "k": 10,
            "gain": "exponential", "agg": "median", "rel": 1}
#: TREC files are read as trec_eval reads them (gain = grade); the ratings sheet and the
#: results table keep the DCG notebook's 2^grade − 1.
DEFAULT_GAIN = {"ratings": "exponential", "trec": "linear", "table": "exponential",
                "recsys": "linear"}
K_MAX = 1000
REL_MAX = 100


@dataclass(frozen=True)
class Settings:
    """What the page scores: the measures shown, the one that orders and compares, K, the
    gain, and the lowest grade that counts as relevant for binary measures (``rel``);
    ``graded``: the judgments have more than two levels, so labels name ``rel``."""
    measures: tuple[str, ...]
    by: str
    k: int
    gain: str
    rel: int = 1
    graded: bool = False
    recsys: bool = False       # recommenders: every measure at K, their names (HitRate@10)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.name(m) for m in self.measures)

    def name(self, key: str) -> str:
        return measure_name(key, self.k, self.gain, self.rel, self.recsys)

    def label(self, key: str) -> str:
        return measure_label(key, self.k, self.gain, self.rel if self.graded else None,
                             self.recsys)


# --------------------------------------------------------------------------- the dataset

@dataclass(frozen=True)
class Source:
    """Where a file of the dataset came from: what the report's provenance lists."""
    role: str            # "judgments", or the system's name
    name: str
    size: int
    sha256: str
    rows: int
    queries: int
    sample: bool


@dataclass(frozen=True)
class Parsed:
    """A file in use and its frame, as :func:`build_dataset` takes them."""
    name: str
    frame: pd.DataFrame
    digest: str = ""
    size: int = 0
    sample: bool = False


@dataclass(frozen=True)
class Dataset:
    """Judgments and one to ten systems' rankings, ready for irlib.evaluate."""
    kind: str
    qrels: pd.DataFrame
    runs: dict[str, pd.DataFrame]           # system name -> run, in load order
    query_text: pd.Series | None            # query text by query id (ratings sheets)
    ratings: pd.DataFrame | None            # the ratings sheet's rows (rater columns)
    notes: tuple[str, ...]                  # things worth knowing, shown as warnings
    key: tuple                              # identifies the inputs, for caching
    sources: tuple[Source, ...] = ()
    default_names: tuple[str, ...] = field(default=())   # before the user renamed any
    extras: dict = field(default_factory=dict)   # recommenders: the frames irlib.recsys takes

    @property
    def unit(self) -> str:
        """What a row of the scores is: a ``"query"``, or a recommender's ``"user"``."""
        return UNITS[self.kind]

    @property
    def units(self) -> str:
        return {"query": "queries", "user": "users"}[self.unit]

    @property
    def rater_columns(self) -> list[str]:
        if self.ratings is None:
            return []
        return [c for c in self.ratings.columns if re.fullmatch(r"rating_\d+", c.lower())]

    @property
    def sample(self) -> bool:
        """Every file is one of the app's samples: numbers must say "sample data"."""
        return bool(self.sources) and all(s.sample for s in self.sources)

    @property
    def graded(self) -> bool:
        """More than two grade levels: the relevance threshold is a real choice."""
        return bool(len(self.qrels)) and float(self.qrels["relevance"].max()) > 1

    @property
    def max_grade(self) -> int:
        return max(1, int(self.qrels["relevance"].max())) if len(self.qrels) else 1


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


def default_names(files: Sequence[Parsed]) -> list[str]:
    """Each system's name: its run tag (trec_eval's runid), else from its file name; a name
    used twice gets the file name, then a number.

    >>> frame = pd.DataFrame(columns=["query_id", "doc_id", "score"])
    >>> tagged = frame.copy(); tagged.attrs["run_id"] = "bm25"
    >>> default_names([Parsed("a.txt", tagged), Parsed("b.txt", tagged), Parsed("c.csv", frame)])
    ['bm25 (a)', 'bm25 (b)', 'c']
    """
    names = [f.frame.attrs.get("run_id") or system_name(f.name) for f in files]
    counts = Counter(names)
    names = [f"{n} ({system_name(f.name)})" if counts[n] > 1 else n for n, f in zip(names, files)]
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            names[i] = f"{name} ({seen[name]})"
    return names


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


def _source(role: str, parsed: Parsed) -> Source:
    frame = parsed.frame
    ids = "query_id" if "query_id" in frame.columns else \
        "user_id" if "user_id" in frame.columns else "item_id"
    return Source(role, parsed.name, parsed.size, parsed.digest, len(frame),
                  int(frame[ids].nunique()), parsed.sample)


def _systems(files: Mapping[str, Parsed], slot_id: str) -> list[Parsed]:
    return [files[p] for p in SLOTS_BY_SYSTEM[slot_id].positions() if p in files]


SLOTS_BY_SYSTEM = {s.id: s for slots in SLOTS.values() for s in slots if s.systems}


def build_dataset(kind: str, files: Mapping[str, Parsed], key: tuple = (),
                  names: Sequence[str] | None = None,
                  relevant_from: int = 0,
                  drop_seen: bool = False) -> tuple[Dataset | None, str | None]:
    """The dataset of input ``kind`` from parsed ``files`` (slot position -> :class:`Parsed`).

    ``names``: the systems' names in load order (default: :func:`default_names`);
    ``relevant_from``: recommenders, the lowest rating that makes a held-out item relevant
    (0: every held-out item). Returns ``(dataset, None)`` or ``(None, what is still missing)``.
    """
    if kind == "recsys":
        return _recommender_dataset(files, key, names, relevant_from, drop_seen)
    notes: list[str] = []
    if kind == "ratings":
        if "ratings" not in files:
            return None, "Upload a ratings sheet, or load the sample."
        sheet_file = files["ratings"]
        sheet = sheet_file.frame
        run = irio.to_run_from_positions(sheet)
        name = (list(names) if names else default_names([sheet_file]))[0]
        return Dataset(kind, _qrels_from(sheet), {name: run}, _texts(sheet), sheet, (), key,
                       (_source(name, sheet_file),), (system_name(sheet_file.name),)), None

    texts = sheet = self_judged = None
    if kind == "trec":
        systems = _systems(files, "run")
        if "qrels" not in files or not systems:
            need = [label for ok, label in (("qrels" in files, "a qrels file"),
                                            (bool(systems), "a run")) if not ok]
            return None, f"Still needed: {' and '.join(need)} (or load the samples)."
        judged_file = files["qrels"]
        judgments = judged_file.frame
    elif kind == "table":
        systems = _systems(files, "table")
        if not systems:
            return None, "Upload a results table, or load the samples."
        first = systems[0]
        if "judgments" in files:
            judged_file = files["judgments"]
            judged = judged_file.frame
            judgments = _qrels_from(judged)
            if "disagreement" in judged.columns:          # a ratings sheet: keep its texts
                texts, sheet = _texts(judged), judged
            if "relevance" in first.frame.columns:
                notes.append(f"{first.name} has a relevance column; the judgments from "
                             f"{judged_file.name} are used instead.")
        elif "relevance" in first.frame.columns:
            # every table's own labels, pooled: a second table's are never silently
            # replaced by the first's (issue 33); labels that disagree are refused
            judgments, problem = recsys.pooled_labels(
                {f.name: f.frame for f in systems}, notes)
            if problem:
                return None, problem
            judged_file = first
            labelled = [f.name for f in systems if "relevance" in f.frame.columns]
            self_judged = labelled[0] if len(labelled) == 1 else \
                ", ".join(labelled[:-1]) + " and " + labelled[-1]
        else:
            return None, (f"{first.name} has no relevance column: add judgments (a qrels "
                          "file or a ratings sheet).")
    else:
        raise ValueError(f"unknown input kind {kind!r}")

    automatic = default_names(systems)
    chosen = list(names) if names and len(names) == len(systems) else automatic
    runs = {n: f.frame[["query_id", "doc_id", "score"]] for n, f in zip(chosen, systems)}
    note = _negative_note(judgments, judged_file.name)
    if note:
        notes.append(note)
    sources = (_source("judgments", judged_file),) + tuple(
        _source(n, f) for n, f in zip(chosen, systems))
    return Dataset(kind, _qrels_from(judgments), runs, texts, sheet, tuple(notes), key,
                   sources, tuple(automatic), {"self_judged": self_judged}), None


def _recommender_dataset(files: Mapping[str, Parsed], key: tuple, names, relevant_from: int,
                         drop_seen: bool = False) -> tuple[Dataset | None, str | None]:
    """Recommendation lists as runs and held-out interactions as judgments: a user is a
    query, an item a document. Relevant: every held-out item, or those rated
    ``relevant_from`` or more (then 1, the others 0: binary, so no rating is worth 31 as
    2^5 − 1 would make it). A user with no relevant held-out item is left out (said in a
    note); one with relevant items and no list scores 0 (the page counts such users)."""
    systems = _systems(files, "recs")
    if "heldout" not in files or not systems:
        need = [label for ok, label in (("heldout" in files, "the held-out interactions"),
                                        (bool(systems), "a recommendations file"))
                if not ok]
        return None, f"Still needed: {' and '.join(need)} (or load the samples)."
    held_file = files["heldout"]
    held = held_file.frame
    notes = list(held.attrs.get("notes", ()))
    if relevant_from and "rating" not in held.columns:
        notes.append(f"{held_file.name} has no rating column: every held-out item counts as "
                     "relevant.")
        relevant_from = 0
    relevant = held["rating"].to_numpy() >= relevant_from if relevant_from else \
        np.ones(len(held), bool)
    qrels = pd.DataFrame({"query_id": held["user_id"].to_numpy(),
                          "doc_id": held["item_id"].to_numpy(),
                          "relevance": relevant.astype(np.int64)})
    has_relevant = qrels.groupby("query_id")["relevance"].transform("max") > 0
    if not has_relevant.all():
        dropped = qrels.loc[~has_relevant, "query_id"].nunique()
        notes.append(f"{dropped:,} users have no held-out item rated {relevant_from} or more: "
                     "with nothing relevant to find they are left out.")
        qrels = qrels[has_relevant.to_numpy()].reset_index(drop=True)
    if qrels.empty:
        return None, (f"No held-out item in {held_file.name} is rated {relevant_from} or "
                      "more: lower the threshold.")
    automatic = default_names(systems)
    chosen = list(names) if names and len(names) == len(systems) else automatic
    runs = {}
    for name, f in zip(chosen, systems):
        recs = f.frame
        if drop_seen and "train" in files:     # "remove seen": before the top K is taken
            recs = recs[~recsys.seen_in_training(recs, files["train"].frame)]
        # the list's order is its rank when the file has one (the order the user saw)
        order = -recs["rank"].to_numpy(dtype=float) if "rank" in recs.columns else \
            recs["score"].to_numpy()
        runs[name] = pd.DataFrame({"query_id": recs["user_id"].to_numpy(),
                                   "doc_id": recs["item_id"].to_numpy(), "score": order})
        notes += [f"{f.name}: {n}" for n in recs.attrs.get("notes", ())]
    extras = {"lists": {n: f.frame for n, f in zip(chosen, systems)},
              "heldout": held, "relevant_from": relevant_from,
              "drop_seen": drop_seen and "train" in files,
              "train": files["train"].frame if "train" in files else None,
              "categories": files["categories"].frame if "categories" in files else None,
              "catalogue": files["catalogue"].frame["item_id"] if "catalogue" in files
              else None}
    sources = tuple(_source(role, files[role]) for role in ("heldout", "train", "categories",
                                                            "catalogue")
                    if role in files) + tuple(_source(n, f) for n, f in zip(chosen, systems))
    return Dataset("recsys", qrels, runs, None, None, tuple(notes), key, sources,
                   tuple(automatic), extras), None


@dataclass(frozen=True)
class BeyondSummary:
    """Recommenders beyond accuracy, as the page shows them and the report repeats them."""
    table: pd.DataFrame          # system x coverage, Gini, popularity, novelty, diversity
    sentence: str | None         # irlib's: did the accuracy winner collapse onto popular items
    relevance: str               # irlib's rule in words ("a held-out item rated 4 or more ...")
    warning: bool = False        # the sentence is a win by collapsing (styled as a warning)
    notes: tuple[str, ...] = ()  # the catalogue's size, items seen in training per system


def score(dataset: Dataset, names: Sequence[str]) -> dict[str, irlib.Evaluation]:
    """irlib.evaluate of every system of ``dataset`` with the measures ``names``.

    Scored as ``trec_eval -c`` (an unanswered query is a 0 row); the page's switch then
    leaves those rows out of the table, the means and the comparison for trec_eval's
    default (:func:`ui.upload.tables.per_query_table`, ``include_missing``), so switching
    needs no rescoring.
    """
    return {system: irlib.evaluate(dataset.qrels, run, list(names), complete=True)
            for system, run in dataset.runs.items()}


def default_k(dataset: Dataset) -> int:
    """The longest ranking, up to 10: K = 4 for the notebook's four results per query."""
    longest = max(int(run["query_id"].value_counts().max()) if len(run) else 1
                  for run in dataset.runs.values())
    return int(min(10, max(1, longest)))


def judgments_name(dataset: Dataset) -> str:
    """The name of the file the judgments come from."""
    return next((s.name for s in dataset.sources if s.role in ("judgments", "heldout")),
                "the judgments")
