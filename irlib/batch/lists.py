"""Score queries held one per row, their judgments and results as lists: irlib.spark's path.

Each row of the Arrow table is one query: ``query_id`` and four lists, ``qrels_doc`` and
``qrels_value`` (its judged documents and their grades), ``run_doc`` and ``run_value`` (its
results and their scores); a query on one side only has null lists on the other. The rows
are the queries' codes already, so :func:`score_lists` builds
:func:`irlib.batch.core.score_coded`'s arrays straight from the lists (integer document ids
are their own 64-bit keys), without pandas frames and without coding the query ids again:
the same numbers as :func:`irlib.evaluate`, from the same kernels. Anything it does not
handle itself (a grade or score that is not a finite number, a document listed twice in a
query, other id types) returns None: the caller then scores the rows with
:func:`irlib.evaluate`, which words the message.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from irlib._arrow import CastOptions, call_function
from irlib._codes import _chunk_keys
from irlib.batch._judged import match_judged
from irlib.batch.arrow import _encode, _positions
from irlib.batch.core import all_finite, score_coded
from irlib.io.trec_columns import numpy_of
from irlib.measures.registry import Measure


@dataclass(frozen=True)
class ListScores:
    """:func:`score_lists`' answer: the qrels queries' values, and the run's other queries."""
    query_ids: pa.Array                  # the qrels queries, as text, in the table's order
    answered: np.ndarray                 # per qrels query: the run has a result for it
    values: dict[str, np.ndarray]        # str(measure) -> per qrels query (NaN: missing, not -c)
    ignored_ids: pa.Array                # the run's queries without judgments, as text


def list_lengths(lists: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """Each row's list length, 0 for a null list (a query on the outer join's other side)."""
    lengths = call_function("list_value_length", [lists])
    return numpy_of(call_function("coalesce", [lengths, pa.scalar(0, lengths.type)]))


def _finite(lists: pa.Array) -> np.ndarray | None:
    """The lists' values as floats, or None when one is not a finite number."""
    values = call_function("list_flatten", [lists])
    if values.null_count:
        return None
    out = numpy_of(values).astype(float, copy=False)
    return out if all_finite(out) else None


def _documents(qrels_doc: pa.Array, run_doc: pa.Array):
    """``score_coded``'s document arguments ``(qrels_d, run_d, doc_names, qrels_keyed)``
    and a code per judged document (equal codes: the same document), or None for ids of
    another type (the caller's general path)."""
    if qrels_doc.type != run_doc.type:
        return None
    if pa.types.is_int64(run_doc.type):
        # an integer is its own key; ties compare the run's ids as text, row by row
        import pandas as pd
        run_ids = numpy_of(run_doc)
        qrels_d = numpy_of(qrels_doc).view(np.uint64)
        return (qrels_d, run_ids.view(np.uint64), pd.Index(run_ids, copy=False),
                np.ones(len(qrels_d), bool)), qrels_d
    if pa.types.is_string(run_doc.type) or pa.types.is_large_string(run_doc.type):
        qrels_doc_codes, qrels_doc_names = _encode(qrels_doc)
        run_keys = np.empty(len(run_doc), np.uint64)
        if len(run_doc) and _chunk_keys(run_doc, run_keys, strict=True) is not None:
            # ids of up to 8 bytes are their own keys (irlib._codes.short_keys)
            qrels_d = np.zeros(len(qrels_doc), np.uint64)
            keyed = _chunk_keys(qrels_doc, qrels_d, strict=False)
            return (qrels_d, run_keys, run_doc, keyed), qrels_doc_codes
        run_d, doc_names = _encode(run_doc)
        qrels_d = _positions(doc_names, qrels_doc_names)[qrels_doc_codes]
        return (qrels_d, run_d, doc_names, None), qrels_doc_codes
    return None


def score_lists(table: pa.Table, measures: Sequence[Measure], *, complete: bool = False,
                depth: int | None = None, judged_only: bool = False) -> ListScores | None:
    """``measures`` (parsed) for the queries of ``table`` (see the module), or None."""
    table = table.combine_chunks()
    if table["query_id"].null_count:
        return None                          # an empty query id: irlib.evaluate names it
    qrels_value, run_value = table["qrels_value"].chunk(0), table["run_value"].chunk(0)
    qrels_lengths, run_lengths = list_lengths(qrels_value), list_lengths(run_value)
    if not (np.array_equal(qrels_lengths, list_lengths(table["qrels_doc"].chunk(0)))
            and np.array_equal(run_lengths, list_lengths(table["run_doc"].chunk(0)))):
        return None                          # an empty doc id: irlib.evaluate names it
    has_qrels, has_run = qrels_lengths > 0, run_lengths > 0
    n_queries = int(np.count_nonzero(has_qrels))
    grades, score = _finite(qrels_value), _finite(run_value)
    if n_queries == 0 or not has_run.any() or grades is None or score is None:
        return None
    documents = _documents(call_function("list_flatten", [table["qrels_doc"].chunk(0)]),
                           call_function("list_flatten", [table["run_doc"].chunk(0)]))
    if documents is None:
        return None
    (qrels_d, run_d, doc_names, qrels_keyed), judged_codes = documents

    qrels_q = np.repeat(np.arange(n_queries), qrels_lengths[has_qrels])
    if match_judged(qrels_q, judged_codes, qrels_q[:0], qrels_q[:0], n_queries)[0] >= 0:
        return None                          # a document judged twice in a query
    qrels_of_row = np.cumsum(has_qrels) - 1
    run_rows = np.flatnonzero(has_run)
    run_q = np.repeat(np.arange(len(run_rows), dtype=np.int32), run_lengths[run_rows])
    run_to_qrels = np.where(has_qrels[run_rows], qrels_of_row[run_rows], -1)
    duplicate, values, retrieved = score_coded(
        measures, grades=grades, qrels_q=qrels_q, n_queries=n_queries, qrels_d=qrels_d,
        run_q=run_q, run_to_qrels=run_to_qrels, score=score, run_d=run_d,
        doc_names=doc_names, depth=depth, judged_only=judged_only, qrels_keyed=qrels_keyed)
    if duplicate >= 0:
        return None                          # a document listed twice in a query's results
    answered = retrieved > 0
    values = {column: v.astype(float) for column, v in values.items()}
    if not complete:
        for v in values.values():
            v[~answered] = np.nan
    ids = call_function("cast", [table["query_id"].chunk(0)], CastOptions.safe(pa.string()))
    return ListScores(ids.filter(pa.array(has_qrels)), answered, values,
                      ids.filter(pa.array(has_run & ~has_qrels)))
