"""Evaluate TREC files read as Arrow columns, without pandas: the command line's path.

:func:`evaluate_files` reads the qrels and the run with
:func:`irlib.io.trec_columns.trec_columns`, codes the ids with pyarrow and scores them with
:func:`irlib.batch.core.score_coded`, the function :func:`irlib.evaluate` ends in: the same
numbers, without importing pandas (whose import alone cost more than evaluating a
700,000-line run). It returns None for anything it does not handle itself (a line that is
not plainly well-formed, a repeated (query, document) pair): then the caller reads the files
with :func:`irlib.io.read_run` and evaluates with :func:`irlib.evaluate`, which word the
message.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from irlib._arrow import CastOptions, SetLookupOptions, booleans, call_function, int64_array
from irlib.batch._judged import match_judged
from irlib.batch.core import score_coded, summary_value
from irlib.io.trec_columns import (QRELS_LAYOUTS, RUN_LAST_READ, RUN_LAYOUTS, load_trec,
                                   numpy_of, plain_file_columns, trec_columns,
                                   valid_of)


@dataclass(frozen=True)
class Scores:
    """What :func:`evaluate_files` found, as :class:`irlib.batch.engine.Evaluation` holds it."""
    query_ids: list[str]                 # every qrels query, in id order
    values: dict[str, np.ndarray]        # str(measure) -> per query (NaN: missing, not -c)
    means: dict[str, float]              # trec_eval's 'all' line
    missing_queries: tuple[str, ...]
    complete: bool
    run_id: str | None                   # the tag of the run's last line

    @property
    def n_averaged(self) -> int:
        return len(self.query_ids) if self.complete else \
            len(self.query_ids) - len(self.missing_queries)


def _encode(column: pa.ChunkedArray | pa.Array, *,
            grouped: bool = False) -> tuple[np.ndarray, pa.Array]:
    """Codes (first-seen order) and the distinct values.

    ``grouped``: the values usually come in runs (a run file lists each query's rows
    together); then only the first value of each run is hashed, the same codes.
    """
    whole = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    if grouped and len(whole) > 1:
        change = np.empty(len(whole), bool)
        change[0] = True
        change[1:] = booleans(call_function("not_equal", [whole[1:], whole[:-1]]))
        starts = np.flatnonzero(change)
        if len(starts) * 8 < len(whole):
            codes, names = _encode(call_function("take", [whole, int64_array(starts)]))
            return np.repeat(codes, np.diff(np.append(starts, len(whole)))), names
    encoded = call_function("dictionary_encode", [whole])
    return numpy_of(encoded.indices).astype(np.int32, copy=False), encoded.dictionary


def _positions(names: pa.Array, wanted: pa.Array) -> np.ndarray:
    """Where each of ``wanted`` (distinct) is among ``names`` (distinct); -1: absent."""
    if wanted.type != names.type:
        wanted = call_function("cast", [wanted], CastOptions.safe(names.type))
    at = call_function("index_in", [names], SetLookupOptions(wanted))
    found = np.flatnonzero(valid_of(at))
    out = np.full(len(wanted), -1, np.int64)
    if found.size:      # the values under nulls are never read
        values = np.frombuffer(at.buffers()[1], np.int32, count=at.offset + len(at))
        out[values[at.offset:][found].astype(np.int64)] = found
    return out


def evaluate_files(qrels_src, run_src, measures, *, complete: bool = False,
                   depth: int | None = None, judged_only: bool = False,
                   run_name: str | None = None) -> Scores | None:
    """``measures`` (parsed) over a qrels and a run file, or None (see the module)."""
    data, _, _, _ = load_trec(qrels_src, None)
    qrels = trec_columns(data, QRELS_LAYOUTS, "relevance", threads=False)[0]
    if qrels is None:
        return None
    plain = plain_file_columns(run_src, RUN_LAYOUTS, "score", last_read=RUN_LAST_READ,
                               threads=False)       # pyarrow reads the file: less memory
    if plain is not None:
        run, tag = plain
    else:
        data, _, _, tag = load_trec(run_src, run_name, last_read=RUN_LAST_READ)
        run = trec_columns(data, RUN_LAYOUTS, "score", RUN_LAST_READ, threads=False)[0]
        del data                               # the text (30 MB a 700,000-line run)
        if run is None:
            return None
    qrels_qid, qrels_doc, grades = qrels
    grades = grades.astype(float)
    run_qid, run_doc, score = run

    qrels_codes, qrels_names = _encode(qrels_qid)
    names = qrels_names.to_pylist()
    q_ids = np.sort(np.array(names, dtype=object))
    place = {q: i for i, q in enumerate(q_ids.tolist())}
    qrels_q = np.array([place[q] for q in names], np.int64)[qrels_codes]
    qrels_doc_codes, qrels_doc_names = _encode(qrels_doc)
    if match_judged(qrels_q, qrels_doc_codes, qrels_q[:0], qrels_q[:0], len(q_ids))[0] >= 0:
        return None
    run_codes, run_q_names = _encode(run_qid, grouped=True)
    run_to_qrels = np.array([place.get(q, -1) for q in run_q_names.to_pylist()], np.int64)
    run_d, doc_names = _encode(run_doc)
    qrels_d = _positions(doc_names, qrels_doc_names)[qrels_doc_codes]
    duplicate, values, retrieved = score_coded(
        measures, grades=grades, qrels_q=qrels_q, n_queries=len(q_ids), qrels_d=qrels_d,
        run_q=run_codes, run_to_qrels=run_to_qrels, score=score, run_d=run_d,
        doc_names=doc_names, depth=depth, judged_only=judged_only)
    if duplicate >= 0:
        return None
    answered = retrieved > 0
    values = {column: v.astype(float) for column, v in values.items()}
    if not complete:
        for v in values.values():
            v[~answered] = np.nan
    relevant_judgments = int(np.count_nonzero(grades > 0))
    parsed = {str(m): m for m in measures}
    means = {column: summary_value(v, parsed[column], complete=bool(complete),
                                   relevant_judgments=relevant_judgments)
             for column, v in values.items()}
    q_text = [str(q) for q in q_ids]
    missing = tuple(q for q, a in zip(q_text, answered) if not a)
    return Scores(q_text, values, means, missing, bool(complete), tag)
