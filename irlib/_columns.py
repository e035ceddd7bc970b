"""One input contract for :func:`irlib.evaluate` and :func:`irlib.spark.evaluate`: which
columns they read, under which names, and which types they take.

A frame's columns are found by name: the name given (``query_col=`` …), else the first of
these that the frame has, an exact match first, then in any case:

=========  ======================================================================
query      ``query_id, qid, query, user_id, userID, user, userId``
doc        ``doc_id, docno, doc, item_id, itemID, item, itemId``
relevance  ``relevance, rel, grade, label, rating`` (qrels)
score      ``score, prediction, sim`` (run; higher is better)
rank       ``rank`` (run, when it has no score; 1 is best)
=========  ======================================================================

The query and doc names apply to both frames. Relevance, scores and ranks must be numeric
columns: text such as ``"3.0"`` is refused in memory as on Spark, and so are True/False.

Examples
--------
>>> find_column(["qid", "docno", "rel"], None, QUERY_COLUMNS, "query (user) id", "qrels")
'qid'
>>> find_column(["QID", "docno"], None, QUERY_COLUMNS, "query (user) id", "qrels")
'QID'
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

QUERY_COLUMNS = ("query_id", "qid", "query", "user_id", "userID", "user", "userId")
DOC_COLUMNS = ("doc_id", "docno", "doc", "item_id", "itemID", "item", "itemId")
RELEVANCE_COLUMNS = ("relevance", "rel", "grade", "label", "rating")
SCORE_COLUMNS = ("score", "prediction", "sim")
RANK_COLUMNS = ("rank",)


class Columns(NamedTuple):
    """The columns chosen: the qrels' query, doc and relevance; the run's query, doc, and
    its score or (when it has none) its rank; the other of those two is None."""
    qrels_query: str
    qrels_doc: str
    relevance: str
    run_query: str
    run_doc: str
    score: str | None
    rank: str | None


def find_column(columns: Sequence, given: str | None, candidates: Sequence[str], role: str,
                what: str, needed: bool = True) -> str | None:
    """The column for ``role``: ``given``, else the first candidate present (exact, then in
    any case); None when there is none and it is not ``needed``."""
    columns = list(columns)
    if given is not None:
        if given not in columns:
            raise ValueError(f"{what} has no column {given!r} for the {role} "
                             f"(found: {', '.join(map(str, columns))})")
        return given
    for name in candidates:
        if name in columns:
            return name
    lower = {str(c).lower(): c for c in columns}
    for name in candidates:
        if name.lower() in lower:
            return lower[name.lower()]
    if needed:
        raise ValueError(f"{what} has no {role} column: tried {', '.join(candidates)} "
                         f"(found: {', '.join(map(str, columns))}); name yours with "
                         f"{role.split()[0]}_col=...")
    return None


def choose_columns(qrels_columns: Sequence, run_columns: Sequence, *,
                   query_col: str | None = None, doc_col: str | None = None,
                   relevance_col: str | None = None, score_col: str | None = None,
                   rank_col: str | None = None) -> Columns:
    """The columns both evaluates read (see the module's table)."""
    if rank_col is not None and score_col is not None:
        raise ValueError("name a score column or a rank column, not both")
    score = None if rank_col is not None else \
        find_column(run_columns, score_col, SCORE_COLUMNS, "score", "run", needed=False)
    rank = None if score is not None else \
        find_column(run_columns, rank_col, RANK_COLUMNS, "rank", "run", needed=False)
    if score is None and rank is None:
        raise ValueError(f"run has no score or rank column: tried "
                         f"{', '.join(SCORE_COLUMNS + RANK_COLUMNS)} (found: "
                         f"{', '.join(map(str, run_columns))}); name yours with score_col=... "
                         "or rank_col=...")
    return Columns(
        find_column(qrels_columns, query_col, QUERY_COLUMNS, "query (user) id", "qrels"),
        find_column(qrels_columns, doc_col, DOC_COLUMNS, "doc (item) id", "qrels"),
        find_column(qrels_columns, relevance_col, RELEVANCE_COLUMNS, "relevance", "qrels"),
        find_column(run_columns, query_col, QUERY_COLUMNS, "query (user) id", "run"),
        find_column(run_columns, doc_col, DOC_COLUMNS, "doc (item) id", "run"),
        score, rank)


def not_numbers_message(what: str, name: str, dtype: str) -> str:
    """The refusal of a relevance, score or rank column that does not hold numbers."""
    return (f"{what}: column {name!r} holds {dtype}, not numbers (convert it first, e.g. "
            f"pd.to_numeric, or cast it to double on Spark)")
