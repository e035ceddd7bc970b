"""The part of :func:`irlib.evaluate` after the ids are coded: NumPy only, no pandas.

:func:`irlib.batch.engine.evaluate` checks and codes DataFrames, then calls
:func:`score_coded`; the command line (:mod:`irlib.cli.trec_eval`) codes the columns it reads
with pyarrow and calls the same function, and so does irlib.spark's partition function with
its lists (:mod:`irlib.batch.lists`), so all of them give the same numbers from one
implementation of every measure. :func:`summary_value` makes trec_eval's ``all`` line.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irlib._common import GEOMETRIC_FLOOR
from irlib.batch._judged import judged_ranks, match_judged
from irlib.batch._pieces import grouped
from irlib.measures._batch_kernels import Context
from irlib.measures.registry import MEASURES, Measure
from irlib.measures.trec_names import expand_measures


def check_options(measures, *, complete, depth, judged_only) -> list[Measure]:
    """:func:`evaluate`'s options checked, and its measures parsed (also for irlib.spark)."""
    for flag, value in (("complete", complete), ("judged_only", judged_only)):
        if not isinstance(value, (bool, np.bool_)):
            raise ValueError(f"{flag} must be True or False, got {value!r}")
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, (int, np.integer))
                              or depth < 1):
        raise ValueError(f"depth must be a positive integer (trec_eval -M), got {depth!r}")
    parsed = expand_measures([measures] if isinstance(measures, (str, Measure)) else measures)
    if not parsed:
        raise ValueError("measures must name at least one measure, e.g. ['nDCG@10', 'AP']")
    return parsed


def all_finite(values: np.ndarray) -> bool:
    """Whether every value is a finite number: one sum first (NaN and inf propagate; ~2 ms on
    7,000,000 values against ~3.3 for ``isfinite``), the values themselves only when it is
    not (an overflow)."""
    with np.errstate(over="ignore", invalid="ignore"):     # inf - inf, an overflow: quiet
        total = np.add.reduce(values)
    return bool(np.isfinite(total)) or bool(np.isfinite(values).all())


def segment_rank(q, n_queries, key):
    """Per query, the 1-based position of each row when sorted by key within its query."""
    order = np.lexsort((key, q))
    q_sorted = q[order]
    starts = np.searchsorted(q_sorted, np.arange(n_queries))
    pos = np.empty(len(order), np.int64)
    pos[order] = np.arange(len(order)) - starts[q_sorted] + 1
    return pos


def _rows_per_query(run_q: np.ndarray, n_run_queries: int, is_grouped: bool) -> np.ndarray:
    """How many rows each run query has. A run that lists each query's rows together (as
    files do; codes in first-seen order then never decrease: ``is_grouped``) is counted by
    a search: ``bincount`` first copies every code to 64 bits (20 ms against 4 on 7,000,000
    rows; so would ``searchsorted`` for values of another type than the codes')."""
    if len(run_q) > 1 and is_grouped:
        bounds = np.arange(n_run_queries + 1, dtype=run_q.dtype)
        return np.diff(np.searchsorted(run_q, bounds)).astype(np.int64)
    return np.bincount(run_q, minlength=n_run_queries)


def score_coded(measures: Sequence[Measure], *, grades, qrels_q, n_queries: int, qrels_d,
                run_q, run_to_qrels, score, run_d, doc_names, depth: int | None = None,
                judged_only: bool = False, qrels_keyed=None):
    """Each measure's value for every qrels query, from coded ids.

    ``grades, qrels_q, qrels_d``: per qrels row, its grade (float), its query (0 to
    ``n_queries - 1``, the qrels' queries in id order) and its document's code among the
    run's documents (-1: never returned). ``run_q, score, run_d``: per run row, its query's
    code (first-seen order, 0 to ``len(run_to_qrels) - 1``), score and document code;
    ``run_to_qrels``: each run query's qrels query (-1: none). ``doc_names``: the documents
    by code (``take`` gives them; used for tied scores only). Or the documents by key:
    ``run_d`` and ``qrels_d`` their 64-bit keys (:func:`irlib._codes.short_keys`),
    ``qrels_keyed`` which qrels documents have one (the others are in no keyed run) and
    ``doc_names`` the run's documents row by row.

    Returns ``(duplicate, values, retrieved)``: a run row whose (query, document) another
    row has too (-1 when none; then nothing else is computed and the rest is None), the
    values (``str(measure)`` -> one float per qrels query) and the rows each qrels query has
    in the run (0: missing from the run).
    """
    n_run_queries = len(run_to_qrels)
    answered = run_to_qrels >= 0
    run_of_query = np.full(n_queries, -1, np.int64)       # each qrels query's run query
    run_of_query[run_to_qrels[answered]] = np.flatnonzero(answered)
    qrels_to_run = run_of_query[qrels_q]
    keyed = run_d.dtype == np.uint64
    if keyed:                                 # a judgment without a key matches no row
        judged_q, judged_d = np.where(qrels_keyed, qrels_to_run, -1), qrels_d
    else:
        judged_q, judged_d = qrels_to_run, np.where(qrels_to_run >= 0, qrels_d, -1)
    is_grouped = grouped(run_q)              # one pass, for the three steps that ask
    rows_per_query = _rows_per_query(run_q, n_run_queries, is_grouped)
    duplicate, hit_rows, judged_row = match_judged(
        run_q, run_d, judged_q, judged_d, n_run_queries, rows_per_query, is_grouped)
    if duplicate >= 0:
        return duplicate, None, None
    retrieved = np.zeros(n_queries, np.int64)
    retrieved[run_to_qrels[answered]] = rows_per_query[answered]
    in_run = retrieved.copy()

    # The ranks of the judged documents the run returned (hits).
    hit_rank = judged_ranks(run_q, score, None if keyed else run_d, doc_names, hit_rows,
                            is_grouped)
    hit_q = run_to_qrels[run_q[hit_rows]]
    hit_grade = grades[judged_row]
    # judged hits in rank order per query: one key, (query, rank) distinct (lexsort 9-13 ms);
    # found piece by piece, so mostly in order already: timsort ("stable") ~1 ms, quicksort ~3
    by_rank = np.argsort(hit_q.astype(np.int64) * (len(run_q) + 1) + hit_rank, kind="stable")
    hit_q, hit_rank, hit_grade = hit_q[by_rank], hit_rank[by_rank], hit_grade[by_rank]
    if depth is not None:                                # trec_eval -M: the first N results
        kept = hit_rank <= depth
        hit_q, hit_rank, hit_grade = hit_q[kept], hit_rank[kept], hit_grade[kept]
        retrieved = np.minimum(retrieved, depth)
    if judged_only:                                      # trec_eval -J: judged results only
        kept = hit_grade >= 0
        hit_q, hit_grade = hit_q[kept], hit_grade[kept]
        hit_rank = np.arange(len(hit_q)) - np.searchsorted(hit_q, hit_q) + 1
        retrieved = np.bincount(hit_q, minlength=n_queries)

    # The ideal ranking of each query: its judged grades sorted high to low.
    ideal_rank = segment_rank(qrels_q, n_queries, -grades)
    context = Context(n_queries, hit_q, hit_rank, hit_grade, qrels_q, grades, ideal_rank,
                      retrieved)
    values = {str(m): MEASURES[m.name].kernel(context, m) for m in measures}
    return -1, values, in_run


def summary_value(x: np.ndarray, m: Measure, *, complete: bool,
                  relevant_judgments: int | None = None) -> float:
    """One measure's ``all`` value from its per-query values ``x`` (NaN rows left out); see
    :func:`irlib.batch.engine.summarize`."""
    x = np.asarray(x, dtype=float)
    x = x[~np.isnan(x)]
    how = MEASURES[m.name].aggregate
    if not len(x):
        return np.nan
    if how == "mean":
        return float(x.mean())
    if how == "gmean":
        return float(np.exp(np.log(np.maximum(x, GEOMETRIC_FLOOR)).mean()))
    if how == "count":
        return float(len(x))
    if m.name == "NumRel" and complete and relevant_judgments is not None:
        return float(relevant_judgments)
    return float(x.sum())
