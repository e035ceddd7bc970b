"""Evaluate a whole run against qrels, per query, with trec_eval's conventions.

DataFrames use ir_measures' columns: qrels ``query_id, doc_id, relevance``; run
``query_id, doc_id, score``. Conventions (all as trec_eval):

* the run is ordered by score descending, ties by doc_id descending (the rank column is ignored);
* binary measures count grade >= rel; nDCG's gains are the grades, negative grades count as 0,
  and IDCG comes from all judged documents of the query;
* averaging: by default the mean is over the queries that are in both the run and the qrels
  (trec_eval's default); ``complete=True`` also counts every qrels query missing from the run
  as 0 (``trec_eval -c``). Queries only in the run are ignored in both; a query in both
  without relevant documents scores 0 and counts.

Speed: the run is never sorted. Every measure needs only the ranks of the judged documents
the run returned, and a rank is 1 + the number of the query's rows that outrank it
(:mod:`irlib._judged`); the measures are NumPy segment sums over those few rows
(:mod:`irlib._batch_measures`): no per-query loop.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from irlib._batch_measures import Context
from irlib._codes import factorize, positions_in
from irlib._judged import judged_ranks, match_judged
from irlib.measures import MEASURES, parse_measure

QRELS_COLUMNS = ("query_id", "doc_id", "relevance")
RUN_COLUMNS = ("query_id", "doc_id", "score")


@dataclass(frozen=True)
class Evaluation:
    """What :func:`evaluate` found; see there for what each field holds in each mode."""
    per_query: pd.DataFrame            # rows: every qrels query (id order); columns: measures
    means: pd.Series                   # per_query.mean(), NaN rows skipped
    missing_queries: tuple[str, ...]   # in the qrels, not in the run: NaN (default) or 0 (-c)
    ignored_queries: tuple[str, ...]   # in the run, not in the qrels: no row, never averaged
    complete: bool = False             # True: averaged like ``trec_eval -c``

    @property
    def n_averaged(self) -> int:
        """How many queries the means are over (trec_eval's ``num_q``)."""
        return len(self.per_query) if self.complete else \
            len(self.per_query) - len(self.missing_queries)


def _check_columns(df, columns, what) -> None:
    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"{what} must be a pandas DataFrame, got {type(df).__name__}")
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"{what} is missing column {missing[0]!r} "
                         f"(needs {', '.join(columns)}; found: {', '.join(map(str, df.columns))})")


def _numeric(df, column, what) -> np.ndarray:
    values = pd.to_numeric(df[column], errors="coerce").to_numpy(dtype=float)
    bad = ~np.isfinite(values)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        shown = df[column].iloc[i]
        shown = repr(shown) if isinstance(shown, str) else str(shown)
        raise ValueError(f"{what} row {i}: {column} is {shown} "
                         f"(query {df['query_id'].iloc[i]!r}, doc {df['doc_id'].iloc[i]!r}); "
                         "it must be a finite number")
    return values


def _ids(df: pd.DataFrame, column: str, what: str) -> pd.Series:
    """``df[column]`` as text ids, as trec_eval reads them from a file.

    Numbers become the text a file would hold: ``1``, ``1.0`` (a float column) and ``"1"``
    are one id, so integer ids in the qrels and the same ids read as floats in the run
    still match. Text ids are kept as they are ("1.0" and "1" stay different ids).
    """
    ids = df[column]
    missing = ids.isna().to_numpy()
    if missing.any():
        i = int(np.flatnonzero(missing)[0])
        raise ValueError(f"{what} row {i}: {column} is empty")
    kind = pd.api.types.infer_dtype(ids, skipna=False) if ids.dtype == object else None
    if pd.api.types.is_bool_dtype(ids.dtype) or kind == "boolean":
        raise ValueError(f"{what}: {column} holds True/False, not ids")
    if pd.api.types.is_float_dtype(ids.dtype) or kind in ("floating", "mixed-integer-float"):
        numbers = ids.to_numpy(dtype=float)
        integral = np.isfinite(numbers) & (numbers == np.round(numbers))
        text = ids.astype(str).to_numpy(dtype=object)
        text[integral] = numbers[integral].astype(np.int64).astype(str)
        return pd.Series(text, index=ids.index, dtype=object)
    if pd.api.types.is_string_dtype(ids.dtype) and ids.dtype != object:
        return ids
    return ids.astype(str)


def _raise_duplicate(df: pd.DataFrame, what: str) -> None:
    """Name the first repeated (query, doc) pair of ``df`` and its rows."""
    pairs = pd.DataFrame({"q": df["query_id"].astype(str).to_numpy(),
                          "d": df["doc_id"].astype(str).to_numpy()})
    later = np.flatnonzero(pairs.duplicated().to_numpy())[0]
    q, d = pairs.iloc[later]
    first = np.flatnonzero(((pairs["q"] == q) & (pairs["d"] == d)).to_numpy())[0]
    raise ValueError(f"{what} has duplicate rows {first} and {later}: query "
                     f"{df['query_id'].iloc[later]!r}, doc {df['doc_id'].iloc[later]!r} "
                     "appear more than once")


def _segment_rank(values, q, n_queries, key):
    """Per query, the 1-based position of each row when sorted by key within its query."""
    order = np.lexsort((key, q))
    q_sorted = q[order]
    starts = np.searchsorted(q_sorted, np.arange(n_queries))
    pos = np.empty(len(order), np.int64)
    pos[order] = np.arange(len(order)) - starts[q_sorted] + 1
    return pos


def evaluate(qrels: pd.DataFrame, run: pd.DataFrame, measures: Iterable, *,
             complete: bool = False) -> Evaluation:
    """Score every qrels query of ``run`` with each of ``measures`` (ir_measures names).

    Parameters
    ----------
    qrels : DataFrame
        ``query_id, doc_id, relevance`` (integer grades; <= 0 is not relevant). Ids compare
        as text, as trec_eval reads them; numeric id columns become the text a file would
        hold, so ``1``, ``1.0`` and ``"1"`` are one id (``"1.0"`` in a text column is not).
    run : DataFrame
        ``query_id, doc_id, score``; ranks come from the scores (ties: doc id descending).
    measures : iterable of str or Measure
        e.g. ``["nDCG@10", "AP", "P(rel=2)@5", "nDCG(dcg='exp-log2')@10"]``.
    complete : bool, default False
        How queries of the qrels that the run does not answer are averaged.
        ``False`` (trec_eval's default): they are left out, the means are over the queries
        the run answers. ``True`` (``trec_eval -c``): they score 0 and count, so a system
        cannot look better by skipping hard queries.

    Returns
    -------
    Evaluation
        ``per_query``: one row per qrels query (sorted by id), one column per measure. A
        query the run answers has its value (0 when it has no relevant document). A query
        missing from the run is NaN by default (trec_eval prints no row for it) and 0 with
        ``complete=True``.
        ``means``: ``per_query.mean()`` (NaN skipped): trec_eval's ``all`` line, over
        ``n_averaged`` queries; NaN by default when the run answers no qrels query.
        ``missing_queries``: the qrels queries missing from the run, in id order.
        ``ignored_queries``: the run's queries that have no judgments (no row in either mode).
        ``complete``: the mode used.

    Examples
    --------
    >>> qrels = pd.DataFrame({"query_id": ["1", "1", "2"], "doc_id": ["a", "b", "c"],
    ...                       "relevance": [1, 2, 1]})
    >>> run = pd.DataFrame({"query_id": ["1", "1", "1"], "doc_id": ["x", "a", "b"],
    ...                     "score": [3.0, 2.0, 1.0]})
    >>> ev = evaluate(qrels, run, ["P@2", "AP", "RR"])
    >>> ev.per_query.round(4).to_dict("index")   # query 2 is missing from the run: no value
    {'1': {'P@2': 0.5, 'AP': 0.5833, 'RR': 0.5}, '2': {'P@2': nan, 'AP': nan, 'RR': nan}}
    >>> ev.means.round(4).to_dict(), ev.missing_queries, ev.n_averaged   # trec_eval
    ({'P@2': 0.5, 'AP': 0.5833, 'RR': 0.5}, ('2',), 1)
    >>> evaluate(qrels, run, ["AP"], complete=True).means.round(4).to_dict()   # trec_eval -c
    {'AP': 0.2917}
    """
    if not isinstance(complete, (bool, np.bool_)):
        raise ValueError(f"complete must be True or False, got {complete!r}")
    parsed = [parse_measure(m) for m in measures]
    if not parsed:
        raise ValueError("measures must name at least one measure, e.g. ['nDCG@10', 'AP']")
    _check_columns(qrels, QRELS_COLUMNS, "qrels")
    _check_columns(run, RUN_COLUMNS, "run")
    if len(qrels) == 0:
        raise ValueError("qrels is empty: there is nothing to evaluate against")
    grades = _numeric(qrels, "relevance", "qrels")
    score = _numeric(run, "score", "run")

    qrels_qid, qrels_doc = _ids(qrels, "query_id", "qrels"), _ids(qrels, "doc_id", "qrels")
    run_qid, run_doc = _ids(run, "query_id", "run"), _ids(run, "doc_id", "run")

    # Queries: the qrels' ids in sorted order, the run's in its own order; docs: the run's
    # distinct ids, each qrels doc looked up among them (-1: never returned).
    qrels_codes, qrels_names = factorize(qrels_qid)
    q_ids = np.sort(qrels_names.to_numpy(dtype=object))
    q_index = pd.Index(q_ids)
    qrels_q = q_index.get_indexer(qrels_names)[qrels_codes]
    run_codes, run_q_names = factorize(run_qid, grouped=True)
    run_to_qrels = q_index.get_indexer(run_q_names)
    qrels_doc_codes, qrels_doc_names = factorize(qrels_doc)
    if match_judged(qrels_q, qrels_doc_codes, qrels_q[:0], qrels_q[:0], len(q_ids))[0] >= 0:
        _raise_duplicate(qrels, "qrels")
    run_d, doc_names = factorize(run_doc)
    qrels_d = positions_in(doc_names, qrels_doc_names)[qrels_doc_codes]
    qrels_to_run = pd.Index(run_q_names).get_indexer(q_ids)[qrels_q]
    rows_per_query = np.bincount(run_codes, minlength=len(run_q_names))
    duplicate, hit_rows, judged_row = match_judged(
        run_codes, run_d, qrels_to_run, np.where(qrels_to_run >= 0, qrels_d, -1),
        len(run_q_names), rows_per_query)
    if duplicate >= 0:
        _raise_duplicate(run, "run")

    ignored = tuple(sorted(run_q_names[run_to_qrels < 0]))
    n_queries = len(q_ids)
    retrieved = np.zeros(n_queries, np.int64)
    answered = run_to_qrels >= 0
    retrieved[run_to_qrels[answered]] = rows_per_query[answered]

    # The ranks of the judged documents the run returned (hits).
    hit_rank = judged_ranks(run_codes, score, run_d, doc_names, hit_rows)
    hit_q = run_to_qrels[run_codes[hit_rows]]
    hit_grade = grades[judged_row]
    by_rank = np.lexsort((hit_rank, hit_q))             # judged hits in rank order per query
    hit_q, hit_rank, hit_grade = hit_q[by_rank], hit_rank[by_rank], hit_grade[by_rank]

    # The ideal ranking of each query: its judged grades sorted high to low.
    ideal_rank = _segment_rank(grades, qrels_q, n_queries, -grades)
    context = Context(n_queries, hit_q, hit_rank, hit_grade, qrels_q, grades, ideal_rank)
    values = {str(m): MEASURES[m.name].kernel(context, m) for m in parsed}
    per_query = pd.DataFrame(values, index=pd.Index(q_ids.astype(str), name="query_id"))
    missing = tuple(str(q) for q in q_ids[retrieved == 0])
    if not complete:
        per_query.loc[retrieved == 0] = np.nan
    return Evaluation(per_query, per_query.mean(), missing, ignored, bool(complete))


