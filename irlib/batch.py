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

Speed: the run is sorted once (score, then query id with a radix sort) and every measure
is computed from the few rows that are judged, with NumPy segment sums: no per-query loop.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from irlib.measures import Measure, parse_measure

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


def _raise_duplicate(keys: np.ndarray, df: pd.DataFrame, what: str) -> None:
    """Raise if any key repeats, naming the first repeated (query, doc) pair and its rows."""
    sorted_keys = np.sort(keys)
    repeated = sorted_keys[1:][sorted_keys[1:] == sorted_keys[:-1]]
    if repeated.size:
        rows = np.flatnonzero(keys == repeated[0])[:2]
        q, d = df["query_id"].iloc[rows[0]], df["doc_id"].iloc[rows[0]]
        raise ValueError(f"{what} has duplicate rows {rows[0]} and {rows[1]}: query {q!r}, "
                         f"doc {d!r} appear more than once")


def _stable_argsort_codes(codes: np.ndarray) -> np.ndarray:
    """Stable argsort of non-negative int codes, as LSD radix passes of 16 bits (fast in NumPy)."""
    order = np.argsort((codes & 0xFFFF).astype(np.uint16), kind="stable")
    high = codes >> 16
    if high.any():
        order = order[np.argsort((high[order] & 0xFFFF).astype(np.uint16), kind="stable")]
    return order


def _rank_order(qcode, score, doc_names) -> np.ndarray:
    """Row order by query, then score descending, then doc id descending (trec_eval)."""
    order = np.argsort(-score)                       # fast, unstable; ties fixed below
    order = order[_stable_argsort_codes(qcode[order])]
    q, s = qcode[order], score[order]
    tie = (q[1:] == q[:-1]) & (s[1:] == s[:-1])
    if tie.any():
        in_tie = np.zeros(len(order), bool)
        in_tie[1:] |= tie
        in_tie[:-1] |= tie
        positions = np.flatnonzero(in_tie)
        group = np.concatenate([[0], np.cumsum(~tie)])[positions]
        ties = pd.DataFrame({"group": group, "doc": doc_names(order[positions]),
                             "row": order[positions]})
        ties = ties.sort_values(["group", "doc"], ascending=[True, False], kind="stable")
        order[positions] = ties["row"].to_numpy()
    return order


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
        ``query_id, doc_id, relevance`` (integer grades; <= 0 is not relevant).
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
    parsed = [parse_measure(m) for m in measures]
    if not parsed:
        raise ValueError("measures must name at least one measure, e.g. ['nDCG@10', 'AP']")
    _check_columns(qrels, QRELS_COLUMNS, "qrels")
    _check_columns(run, RUN_COLUMNS, "run")
    if len(qrels) == 0:
        raise ValueError("qrels is empty: there is nothing to evaluate against")
    grades = _numeric(qrels, "relevance", "qrels")
    score = _numeric(run, "score", "run")

    # One code space for queries (from the qrels) and one for docs (shared by both frames).
    q_ids = np.sort(pd.unique(qrels["query_id"].astype(str)).astype(object))
    q_index = pd.Index(q_ids)
    qrels_q = q_index.get_indexer(qrels["query_id"].astype(str))
    run_codes, run_q_names = pd.factorize(run["query_id"].astype(str))
    run_q = q_index.get_indexer(run_q_names)[run_codes] if len(run) else np.empty(0, np.int64)
    doc_codes, doc_names = pd.factorize(pd.concat([run["doc_id"], qrels["doc_id"]],
                                                  ignore_index=True).astype(str))
    run_d, qrels_d = doc_codes[:len(run)], doc_codes[len(run):]
    n_docs = max(len(doc_names), 1)
    _raise_duplicate(qrels_q.astype(np.int64) * n_docs + qrels_d, qrels, "qrels")
    _raise_duplicate(run_codes.astype(np.int64) * n_docs + run_d, run, "run")

    kept = run_q >= 0
    ignored = tuple(sorted(set(run_q_names[q_index.get_indexer(run_q_names) < 0])))
    run_q, run_d, score = run_q[kept], run_d[kept], score[kept]
    n_queries = len(q_ids)
    retrieved = np.bincount(run_q, minlength=n_queries)

    # Ranks of the judged documents that were retrieved.
    order = _rank_order(run_q, score, lambda rows: np.asarray(doc_names)[run_d[rows]])
    position = np.empty(len(order), np.int64)
    position[order] = np.arange(len(order))
    starts = np.concatenate([[0], np.cumsum(retrieved)[:-1]])
    qrels_keys = pd.Index(qrels_q.astype(np.int64) * n_docs + qrels_d)
    judged_row = qrels_keys.get_indexer(run_q.astype(np.int64) * n_docs + run_d)
    hit_rows = np.flatnonzero(judged_row >= 0)
    hit_q = run_q[hit_rows]
    hit_rank = position[hit_rows] - starts[hit_q] + 1
    hit_grade = grades[judged_row[hit_rows]]
    by_rank = np.lexsort((hit_rank, hit_q))             # judged hits in rank order per query
    hit_q, hit_rank, hit_grade = hit_q[by_rank], hit_rank[by_rank], hit_grade[by_rank]

    # The ideal ranking of each query: its judged grades sorted high to low.
    ideal_rank = _segment_rank(grades, qrels_q, n_queries, -grades)
    context = _Context(n_queries, hit_q, hit_rank, hit_grade, qrels_q, grades, ideal_rank)
    values = {str(m): _MEASURE_FUNCS[m.name](context, m) for m in parsed}
    per_query = pd.DataFrame(values, index=pd.Index(q_ids.astype(str), name="query_id"))
    missing = tuple(str(q) for q in q_ids[retrieved == 0])
    if not complete:
        per_query.loc[retrieved == 0] = np.nan
    return Evaluation(per_query, per_query.mean(), missing, ignored, bool(complete))


@dataclass(frozen=True)
class _Context:
    """The judged hits (query, rank, grade; sorted by query then rank) and the qrels."""
    n_queries: int
    hit_q: np.ndarray
    hit_rank: np.ndarray
    hit_grade: np.ndarray
    qrels_q: np.ndarray
    qrels_grade: np.ndarray
    ideal_rank: np.ndarray

    def per_query_sum(self, q, weights) -> np.ndarray:
        return np.bincount(q, weights=weights, minlength=self.n_queries)

    def n_relevant(self, rel) -> np.ndarray:
        return self.per_query_sum(self.qrels_q, self.qrels_grade >= rel)

    def hits_at(self, m: Measure) -> np.ndarray:
        mask = (self.hit_grade >= m.rel) & (self.hit_rank <= (m.k or np.inf))
        return self.per_query_sum(self.hit_q[mask], None)


def _ratio(num, den):
    out = np.zeros_like(num, dtype=float)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _precision(c: _Context, m: Measure):
    return c.hits_at(m) / m.k


def _recall(c: _Context, m: Measure):
    return _ratio(c.hits_at(m), c.n_relevant(m.rel))


def _f1(c: _Context, m: Measure):
    p, r = _precision(c, m), _recall(c, m)
    return _ratio(2 * p * r, p + r)


def _success(c: _Context, m: Measure):
    return (c.hits_at(m) > 0).astype(float)


def _reciprocal_rank(c: _Context, m: Measure):
    mask = (c.hit_grade >= m.rel) & (c.hit_rank <= (m.k or np.inf))
    first = np.full(c.n_queries, np.inf)
    np.minimum.at(first, c.hit_q[mask], c.hit_rank[mask])
    return 1.0 / first


def _average_precision(c: _Context, m: Measure):
    relevant = c.hit_grade >= m.rel
    q, rank = c.hit_q[relevant], c.hit_rank[relevant]
    # the i-th relevant hit of a query (rows are in rank order) has precision i / rank
    nth = np.arange(len(q)) - np.searchsorted(q, q) + 1
    within = rank <= (m.k or np.inf)
    return _ratio(c.per_query_sum(q[within], (nth / rank)[within]), c.n_relevant(m.rel))


def _gain(grades, m: Measure):
    grades = np.maximum(grades, 0.0)       # trec_eval: negative judgments gain nothing
    return grades if m.dcg == "log2" else np.exp2(grades) - 1.0


def _dcg(c: _Context, m: Measure):
    within = c.hit_rank <= (m.k or np.inf)
    gains = _gain(c.hit_grade[within], m) / np.log2(c.hit_rank[within] + 1.0)
    return c.per_query_sum(c.hit_q[within], gains)


def _ndcg(c: _Context, m: Measure):
    within = c.ideal_rank <= (m.k or np.inf)
    gains = _gain(c.qrels_grade[within], m) / np.log2(c.ideal_rank[within] + 1.0)
    return _ratio(_dcg(c, m), c.per_query_sum(c.qrels_q[within], gains))


_MEASURE_FUNCS = {"P": _precision, "R": _recall, "F1": _f1, "Success": _success,
                  "RR": _reciprocal_rank, "AP": _average_precision, "DCG": _dcg, "nDCG": _ndcg}
