"""Evaluate a whole run against qrels, per query, with trec_eval's conventions.

DataFrames use ir_measures' columns: qrels ``query_id, doc_id, relevance``; run
``query_id, doc_id, score``. Conventions (all as trec_eval):

* the run is ordered by score descending, ties by doc_id descending (the rank column is ignored);
* binary measures count grade >= rel; nDCG's gains are the grades, negative grades count as 0,
  and IDCG comes from all judged documents of the query;
* averaging: by default the mean is over the queries that are in both the run and the qrels
  (trec_eval's default); ``complete=True`` also counts every qrels query missing from the run
  as 0 (``trec_eval -c``). Queries only in the run are ignored in both; a query in both
  without relevant documents scores 0 and counts. Each measure says in the registry how its
  line over all queries is made (:func:`summarize`): a mean, a geometric mean (GMAP), a sum
  (the counts) or the number of queries;
* ``depth`` keeps each query's first N results (``trec_eval -M N``); ``judged_only`` drops the
  unjudged results before ranking (``trec_eval -J``).

Speed: the run is never sorted. Every measure needs only the ranks of the judged documents
the run returned, and a rank is 1 + the number of the query's rows that outrank it
(:mod:`irlib.batch._judged`); the measures are NumPy segment sums over those few rows
(:mod:`irlib.measures._batch_kernels`): no per-query loop.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from irlib._codes import factorize, integer_ids, name_keys, positions_in, short_keys
from irlib._columns import choose_columns, not_numbers_message
from irlib.batch._judged import match_judged
from irlib.batch.core import (all_finite, check_options, score_coded,  # noqa: F401 (spark)
                              summary_value)
from irlib.measures.registry import Measure

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
    measures: tuple[Measure, ...] = () # what each column is, in column order

    @property
    def n_averaged(self) -> int:
        """How many queries the means are over (trec_eval's ``num_q``)."""
        return len(self.per_query) if self.complete else \
            len(self.per_query) - len(self.missing_queries)


def _check_frame(df, what) -> None:
    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"{what} must be a pandas DataFrame, got {type(df).__name__}")


def _canonical_frames(qrels, run, names: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """qrels as ``query_id, doc_id, relevance`` and the run as ``query_id, doc_id, score``
    from the columns the contract finds (:mod:`irlib._columns`; a rank r scores −r), the
    values refused unless numeric, as on Spark. No data is copied but a rank's negation."""
    _check_frame(qrels, "qrels")
    _check_frame(run, "run")
    cols = choose_columns(qrels.columns, run.columns, **names)
    for what, frame, name in (("qrels", qrels, cols.relevance),
                              ("run", run, cols.score or cols.rank)):
        dtype = frame[name].dtype
        if not pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_bool_dtype(dtype):
            raise ValueError(not_numbers_message(what, name, str(dtype)))
    ranking = run[cols.score] if cols.score else -run[cols.rank]
    return (pd.DataFrame({"query_id": qrels[cols.qrels_query], "doc_id": qrels[cols.qrels_doc],
                          "relevance": qrels[cols.relevance]}, copy=False),
            pd.DataFrame({"query_id": run[cols.run_query], "doc_id": run[cols.run_doc],
                          "score": ranking}, copy=False))


def _numeric(df, column, what) -> np.ndarray:
    values = df[column].to_numpy(dtype=float, na_value=np.nan)
    if all_finite(values):
        return values
    bad = ~np.isfinite(values)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        shown = df[column].iloc[i]
        shown = repr(shown) if isinstance(shown, str) else str(shown)
        raise ValueError(f"{what} row {i}: {column} is {shown} "
                         f"(query {df['query_id'].iloc[i]!r}, doc {df['doc_id'].iloc[i]!r}); "
                         "it must be a finite number")
    return values


#: From 2**53 on a float no longer holds every integer: it cannot name an id exactly.
FLOAT_ID_LIMIT = 2.0 ** 53


def boolean_ids_message(what: str, column: str) -> str:
    """Why True/False ids are refused (here and by :func:`irlib.spark.evaluate`)."""
    return f"{what}: {column} holds True/False, not ids"


def large_float_ids_message(what: str, column: str) -> str:
    """Why float ids of 2**53 or more are refused (here and by :func:`irlib.spark.evaluate`)."""
    return (f"{what}: {column} holds a float of 2**53 or more, too large to name an id "
            "exactly; give the ids as integers or text")


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
        raise ValueError(boolean_ids_message(what, column))
    if pd.api.types.is_float_dtype(ids.dtype) or kind in ("floating", "mixed-integer-float"):
        numbers = ids.to_numpy(dtype=float)
        integral = np.isfinite(numbers) & (numbers == np.round(numbers))
        if (np.abs(numbers[integral]) >= FLOAT_ID_LIMIT).any():
            raise ValueError(large_float_ids_message(what, column))
        text = ids.astype(str).to_numpy(dtype=object)
        text[integral] = numbers[integral].astype(np.int64).astype(str)
        return pd.Series(text, index=ids.index, dtype=object)
    if pd.api.types.is_string_dtype(ids.dtype) and ids.dtype != object:
        return ids
    if integer_ids(ids.dtype):
        return ids          # factorize names the distinct integers by their text
    return ids.astype(str)


def _raise_duplicate(df: pd.DataFrame, what: str) -> None:
    """Name the first repeated (query, doc) pair of ``df`` and its rows."""
    pairs = pd.DataFrame({"q": df["query_id"].astype(str).to_numpy(),
                          "d": df["doc_id"].astype(str).to_numpy()})
    later = np.flatnonzero(pairs.duplicated().to_numpy())[0]
    q, d = pairs.iloc[later]
    first = np.flatnonzero(((pairs["q"] == q) & (pairs["d"] == d)).to_numpy())[0]
    raise ValueError(f"{what} has duplicate rows {first} and {later}: query {q!r}, doc {d!r} "
                     "appear more than once")       # as text: 7, not np.int64(7)


def summarize(per_query: pd.DataFrame, measures: Iterable[Measure], *, complete: bool,
              relevant_judgments: int | None = None) -> pd.Series:
    """The line over all queries (trec_eval's ``all``) of ``per_query``, one column per measure.

    Rows that are NaN (queries the run misses, without ``complete``) are left out. Each
    measure's registry entry says how: the mean; the geometric mean with values below 1e-5
    counted as 1e-5 (GMAP); the sum (the counts); or the number of queries (``num_q``).
    With ``complete``, trec_eval's ``num_rel`` is the number of judgments with a grade above 0
    in the whole qrels, whatever the relevance level (``relevant_judgments``), as trec_eval -c
    prints it.

    >>> frame = pd.DataFrame({"AP": [0.5, 0.0, np.nan], "NumRet": [10, 3, np.nan]})
    >>> summarize(frame, [Measure("AP"), Measure("NumRet")], complete=False).to_dict()
    {'AP': 0.25, 'NumRet': 13.0}
    """
    values = {column: summary_value(per_query[column].to_numpy(dtype=float), m,
                                    complete=complete, relevant_judgments=relevant_judgments)
              for column, m in zip(per_query.columns, measures)}
    return pd.Series(values, index=per_query.columns, dtype=float)


def evaluate(qrels: pd.DataFrame, run: pd.DataFrame, measures: Iterable, *,
             complete: bool = False, depth: int | None = None, judged_only: bool = False,
             query_col: str | None = None, doc_col: str | None = None,
             relevance_col: str | None = None, score_col: str | None = None,
             rank_col: str | None = None) -> Evaluation:
    """Score every qrels query of ``run`` with each of ``measures`` (ir_measures names).

    Parameters
    ----------
    qrels : DataFrame
        ``query_id, doc_id, relevance`` (or another name of each, below). The relevance is a
        numeric grade. Binary measures count a result relevant when its grade is >= ``rel``,
        1 by default (``P(rel=2)@5``; the CLI's ``-l``): a grade of 0.5 is therefore not
        relevant to P, R, AP, RR …, while graded measures (nDCG, DCG, ERR, INST) gain from
        it as it is; a negative grade is judged-but-unpooled (trec_eval's -2): never
        relevant, no gain. Ids compare as text, as trec_eval reads them; numeric id columns
        become the text a file would hold, so ``1``, ``1.0`` and ``"1"`` are one id
        (``"1.0"`` in a text column is not).
    run : DataFrame
        ``query_id, doc_id, score`` (higher is better), or a ``rank`` column (1 is best)
        instead of the score; ties broken by doc id descending, as trec_eval.
    measures : iterable of str or Measure
        ir_measures' names, e.g. ``["nDCG@10", "AP", "P(rel=2)@5", "nDCG(dcg='exp-log2')@10"]``,
        or trec_eval's exactly as ``irlib-trec-eval -m`` takes them: ``["map", "P",
        "P.5,10", "recall", "map_cut", "iprec_at_recall", "ndcg_cut_10", "official"]``
        (a name alone gives trec_eval's default cut-offs: ``P`` is P@5 … P@1000). Columns
        take the canonical names (``map`` -> ``AP``, ``P.5,10`` -> ``P@5``, ``P@10``).
    complete : bool, default False
        How queries of the qrels that the run does not answer are averaged.
        ``False`` (trec_eval's default): they are left out, the means are over the queries
        the run answers. ``True`` (``trec_eval -c``): they score 0 and count, so a system
        cannot look better by skipping hard queries.
    depth : int, optional
        Only each query's first ``depth`` results count (``trec_eval -M``).
    judged_only : bool, default False
        Drop the results that have no judgment (or a negative one) before ranking
        (``trec_eval -J``): the rest move up.
    query_col, doc_col, relevance_col, score_col, rank_col : str, optional
        The columns to read, as :func:`irlib.spark.evaluate` reads them. By default the
        first of these found (exact name, then any case): queries ``query_id, qid, query,
        user_id, userID, user, userId``; docs ``doc_id, docno, doc, item_id, itemID, item,
        itemId``; relevance ``relevance, rel, grade, label, rating``; the run's ``score,
        prediction, sim``, else ``rank``. The query and doc names apply to both frames.
        Relevance, score and rank must be numeric columns: text such as ``"3.0"`` and
        True/False are refused (convert them first, e.g. ``pd.to_numeric``).

    Returns
    -------
    Evaluation
        ``per_query``: one row per qrels query (sorted by id), one column per measure. A
        query the run answers has its value (0 when it has no relevant document). A query
        missing from the run is NaN by default (trec_eval prints no row for it) and 0 with
        ``complete=True``.
        ``means``: trec_eval's ``all`` line (:func:`summarize`; for most measures the mean
        of ``per_query`` with NaN skipped), over ``n_averaged`` queries; NaN when the run
        answers no qrels query and ``complete`` is off.
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
    parsed = check_options(measures, complete=complete, depth=depth, judged_only=judged_only)
    qrels, run = _canonical_frames(qrels, run, {
        "query_col": query_col, "doc_col": doc_col, "relevance_col": relevance_col,
        "score_col": score_col, "rank_col": rank_col})
    if len(qrels) == 0:
        raise ValueError("qrels is empty: there is nothing to evaluate against")
    grades = _numeric(qrels, "relevance", "qrels")
    score = _numeric(run, "score", "run")

    qrels_qid, qrels_doc = _ids(qrels, "query_id", "qrels"), _ids(qrels, "doc_id", "qrels")
    run_qid, run_doc = _ids(run, "query_id", "run"), _ids(run, "doc_id", "run")

    # Queries: the qrels' ids in sorted order, the run's in its own order. Docs: ids of up
    # to 8 bytes are their own 64-bit keys (irlib._codes.short_keys), else the run's
    # distinct ids with each qrels doc looked up among them (-1: never returned).
    qrels_codes, qrels_names = factorize(qrels_qid)
    q_ids = np.sort(qrels_names.to_numpy(dtype=object))
    q_index = pd.Index(q_ids)
    qrels_q = q_index.get_indexer(qrels_names)[qrels_codes]
    run_codes, run_q_names = factorize(run_qid, grouped=True)
    run_to_qrels = q_index.get_indexer(run_q_names)
    qrels_doc_codes, qrels_doc_names = factorize(qrels_doc)
    if match_judged(qrels_q, qrels_doc_codes, qrels_q[:0], qrels_q[:0], len(q_ids))[0] >= 0:
        _raise_duplicate(qrels, "qrels")
    run_d = short_keys(run_doc)     # ids of up to 8 bytes: keys, no dictionary of the docs
    if run_d is not None:
        doc_keys, keyed = name_keys(qrels_doc_names)
        qrels_d, qrels_keyed = doc_keys[qrels_doc_codes], keyed[qrels_doc_codes]
        doc_names = run_doc.array.__arrow_array__()        # tied docs, row by row
    else:
        run_d, doc_names = factorize(run_doc)
        qrels_d = positions_in(doc_names, qrels_doc_names)[qrels_doc_codes]
        qrels_keyed = None
    duplicate, values, retrieved = score_coded(
        parsed, grades=grades, qrels_q=qrels_q, n_queries=len(q_ids), qrels_d=qrels_d,
        run_q=run_codes, run_to_qrels=run_to_qrels, score=score, run_d=run_d,
        doc_names=doc_names, depth=depth, judged_only=judged_only, qrels_keyed=qrels_keyed)
    if duplicate >= 0:
        _raise_duplicate(run, "run")
    ignored = tuple(sorted(run_q_names[run_to_qrels < 0]))
    answered_queries = retrieved > 0
    per_query = pd.DataFrame(values, index=pd.Index(q_ids.astype(str), name="query_id"))
    missing = tuple(str(q) for q in q_ids[~answered_queries])
    if not complete:
        per_query.loc[~answered_queries] = np.nan
    means = summarize(per_query, parsed, complete=bool(complete),
                      relevant_judgments=int(np.count_nonzero(grades > 0)))
    return Evaluation(per_query, means, missing, ignored, bool(complete), tuple(parsed))


