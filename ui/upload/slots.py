"""What the "Your own judgments" page can load, without Streamlit: the input kinds, the file
:class:`Slot` s of each (up to :data:`MAX_SYSTEMS` runs, tables or recommenders) and the app's
sample files, known by their SHA-256 however they are loaded."""
from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from pathlib import Path

SAMPLES_DIR = Path(__file__).resolve().parents[2] / "assets" / "samples"


@functools.cache
def sample_digests() -> frozenset[str]:
    """The SHA-256 of every sample file: the samples are sample data however they are
    loaded (the button, or the files downloaded and uploaded again)."""
    return frozenset(hashlib.sha256(path.read_bytes()).hexdigest()
                     for path in SAMPLES_DIR.iterdir() if path.is_file())


#: How many runs (or result tables) the page compares at once.
MAX_SYSTEMS = 10

# --------------------------------------------------------------------------- what can be loaded

INPUT_KINDS = {"ratings": "Ratings sheet", "trec": "TREC qrels + runs",
               "table": "Results tables (CSV/TSV/Parquet)",
               "recsys": "Recommendations + held-out interactions"}
#: What a row of the scores is, by input kind: a search query, or a recommender's user.
UNITS = {"ratings": "query", "trec": "query", "table": "query", "recsys": "user"}


@dataclass(frozen=True)
class Slot:
    """A kind of file the page can hold: which reader reads it and what it is for.

    A slot for systems (``systems=True``) holds up to :data:`MAX_SYSTEMS` files, kept as
    ``<id>_1`` … ``<id>_10`` in load order; the others hold one.
    """
    id: str
    label: str
    reader: str          # "ratings" | "qrels" | "run" | "table" | "judgments" |
                         # "recommendations" | "interactions" | "categories" (any column names)
    required: bool
    help: str
    systems: bool = False

    def positions(self) -> list[str]:
        """The ids this slot's files are kept under."""
        if not self.systems:
            return [self.id]
        return [f"{self.id}_{i}" for i in range(1, MAX_SYSTEMS + 1)]


SLOTS = {
    "ratings": (
        Slot("ratings", "Ratings sheet", "ratings", True,
             "CSV or TSV with queryid, query, document, position, rating_1 … rating_n: one "
             "row per shown result, one column per rater."),
    ),
    "trec": (
        Slot("qrels", "Qrels (judgments)", "qrels", True,
             "TREC qrels: `qid iter docno rel` (or `qid docno rel`), one line per judged "
             "document; lines starting with # are comments."),
        Slot("run", f"Runs (1 to {MAX_SYSTEMS}; the first is the baseline)", "run", True,
             "TREC runs: `qid Q0 docno rank score tag` (or `qid docno score`). Order comes "
             "from the score, as in trec_eval; each run is named after its tag.", systems=True),
    ),
    "table": (
        Slot("table", f"Results tables (1 to {MAX_SYSTEMS})", "table", True,
             "CSV, TSV or Parquet with query_id, doc_id and score (higher = better) or "
             "position (1 = top); an optional relevance column can hold the judgments.",
             systems=True),
        Slot("judgments", "Judgments (optional if the first table has relevance)", "judgments",
             False, "TREC qrels or a ratings sheet. Without it, the first table's relevance "
                    "column is used."),
    ),
    "recsys": (
        Slot("recs", f"Recommendations (1 to {MAX_SYSTEMS} systems; the first is the baseline)",
             "recommendations", True,
             "Each system's top-K lists: a user, an item and a score (higher first) or a rank "
             "(1 = first), CSV, TSV or Parquet, with any column names.", systems=True),
        Slot("heldout", "Held-out interactions (what users did later)", "interactions", True,
             "The test split: a user and an item, and optionally a rating and a time. These "
             "are the relevant items, including the ones no system recommended."),
        Slot("train", "Training interactions (optional)", "interactions", False,
             "What the systems learned from: gives popularity and novelty, and the catalogue "
             "for coverage."),
        Slot("categories", "Item categories (optional)", "categories", False,
             "An item and its category or genres ('Action|Comedy'): gives diversity."),
        Slot("catalogue", "Catalogue (optional)", "catalogue", False,
             "The items that could be recommended (an item column): what coverage and Gini "
             "divide by, the same for every system. Default: the training and held-out "
             "items."),
    ),
}
SLOT_BY_ID = {slot_id: s for slots in SLOTS.values() for s in slots for slot_id in s.positions()}

SAMPLE_FILES = {
    "ratings": {"ratings": "ratings_notebook.csv"},
    "trec": {"qrels": "qrels.txt", "run_1": "run_control.txt", "run_2": "run_test.txt",
             "run_3": "run_rm3.txt", "run_4": "run_dense.txt"},
    "table": {"table_1": "results.csv", "judgments": "ratings_notebook.csv"},
    "recsys": {"recs_1": "shop_recs_popular.tsv", "recs_2": "shop_recs_mf.csv",
               "heldout": "shop_test.csv", "train": "shop_train.csv",
               "categories": "shop_movies.csv"},
}


def slot_rows(kind: str) -> list[tuple[Slot, ...]]:
    """The uploaders' rows for input ``kind``: one row, unless it has more than four slots
    (recommenders: five); then the required ones above and the optional ones below, so that
    no uploader's column, nor the column pickers under it, is squeezed on a laptop.

    >>> [[s.id for s in row] for row in slot_rows("recsys")]
    [['recs', 'heldout'], ['train', 'categories', 'catalogue']]
    >>> [[s.id for s in row] for row in slot_rows("trec")]
    [['qrels', 'run']]
    """
    slots = SLOTS[kind]
    if len(slots) <= 4:
        return [tuple(slots)]
    return [tuple(s for s in slots if s.required), tuple(s for s in slots if not s.required)]
