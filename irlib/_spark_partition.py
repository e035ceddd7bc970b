"""What irlib.spark's Python workers run on one shuffle partition (no pyspark here).

Each partition is whole queries, one row per query (:func:`irlib.spark.evaluate` builds
them). For a query whose rows are sound, Spark has already ranked the run (trec_eval's
order) and found where each judged document stands: the row holds the qrels' grades, the
rank of each judged document in the run (0: not returned) and how many results the run has
for the query; :func:`irlib.batch.core.score_hits` scores such rows from those alone, the
same function :func:`irlib.evaluate` ends in. A query with something to refuse (an empty
id, a grade or score that is not a finite number, a repeated document) comes with its doc ids
and values as lists instead, and :func:`irlib.evaluate` itself scores it, so that it refuses
it with its own message.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from irlib.measures.registry import Measure

# Where a query's row comes from; the per-query rows carry it until the means are made.
ANSWERED, MISSING, IGNORED = "answered", "missing", "ignored"


def _text(values) -> pd.Series:
    """Ids as an object column: pyspark's Arrow writer cannot take pandas 3's pyarrow-backed
    ``str`` columns (chunked arrays)."""
    return pd.Series(np.asarray(values, dtype=object), dtype=object)


def _spark_convention(ev, qrels: pd.DataFrame, run: pd.DataFrame, options: dict):
    """RankingEvaluator's numbers from irlib's kernels: NDCG@K gains 1 for every relevant
    document (the qrels made 0/1 at the measure's ``rel``: IDCG is min(R, K) gains of 1), and
    AP@K is divided by min(R, K) instead of R. P@K (over K), R@K and AP (over R) are
    trec_eval's already."""
    from irlib.batch.engine import evaluate as evaluate_in_memory
    per_query = ev.per_query.copy()
    for m in ev.measures:
        if m.name == "nDCG":
            binary = qrels.assign(relevance=(qrels["relevance"] >= m.rel).astype(float))
            values = evaluate_in_memory(binary, run, [Measure("nDCG", k=m.k)], **options)
            per_query[str(m)] = values.per_query.iloc[:, 0].reindex(per_query.index)
        elif m.name == "AP" and m.k is not None:
            relevant = evaluate_in_memory(qrels, run, [Measure("NumRel", rel=m.rel)],
                                          **options).per_query.iloc[:, 0]
            r = relevant.reindex(per_query.index).to_numpy(dtype=float)
            per_query[str(m)] = _ap_over_min_r_k(per_query[str(m)].to_numpy(dtype=float),
                                                 r, m.k)
    return per_query


def _ap_over_min_r_k(ap: np.ndarray, r: np.ndarray, k) -> np.ndarray:
    """RankingEvaluator's MAP@K from trec_eval's AP@K (over R): over min(R, K) instead."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(r > 0, ap * r / np.minimum(r, k), ap)


def _ranked_values(measures, names, score, grades, convention: str) -> dict:
    """Each measure's values from ``score(grades, measures)`` (the hits' grades follow the
    qrels'), with RankingEvaluator's nDCG@K and AP@K under ``convention="spark"``, as
    :func:`_spark_convention` makes them in memory."""
    values = score(grades, measures)
    for name, m in zip(names, measures if convention == "spark" else ()):
        if m.name == "nDCG":
            binary = (grades >= m.rel).astype(float)
            values[name] = next(iter(score(binary, [Measure("nDCG", k=m.k)]).values()))
        elif m.name == "AP" and m.k is not None:
            r = next(iter(score(grades, [Measure("NumRel", rel=m.rel)]).values()))
            values[name] = _ap_over_min_r_k(values[name], np.asarray(r, dtype=float), m.k)
    return values


def partition_evaluator(measures: tuple[Measure, ...], names: list[str], complete: bool,
                        depth: int | None, judged_only: bool, schema, convention: str):
    """The function each Spark task runs on one partition's Arrow batches (the module's
    docstring): one row per query with ``query_id``, ``odd``, ``qrels_value`` (grades),
    ``hit_rank`` (each judged document's rank, 0: not returned), ``n_run`` (results; null:
    not in the run) and, for ``odd`` rows only, ``qrels_doc``, ``run_doc``, ``run_value``."""
    options = {"complete": complete, "depth": depth, "judged_only": judged_only}

    def evaluate_lists(qrels: pd.DataFrame, run: pd.DataFrame) -> pd.DataFrame:
        """Queries as rows (``irlib.evaluate``'s path): refuses what it refuses."""
        from irlib.batch.engine import _ids
        from irlib.batch.engine import evaluate as evaluate_in_memory
        if len(qrels) == 0:                      # only queries without judgments here
            ids = pd.unique(_ids(run, "query_id", "run").to_numpy(dtype=object))
            return _frame(ids.astype(str), [IGNORED] * len(ids), {})
        ev = evaluate_in_memory(qrels, run, measures, **options)
        per_query = ev.per_query if convention == "trec_eval" else \
            _spark_convention(ev, qrels, run, options)
        status = np.where(per_query.index.isin(list(ev.missing_queries)), MISSING, ANSWERED)
        out = _frame(per_query.index.astype(str), status,
                     {name: per_query[name].to_numpy(dtype=float) for name in names})
        ignored = list(ev.ignored_queries)
        return pd.concat([out, _frame(ignored, [IGNORED] * len(ignored), {})],
                         ignore_index=True)

    def _frame(ids, status, values: dict) -> pd.DataFrame:
        out = pd.DataFrame({"query_id": _text(ids), "status": _text(status)})
        for name in names:
            out[name] = values.get(name, np.nan)
        return out

    def evaluate_ranked(table) -> pd.DataFrame:
        """Queries as Spark ranked them: grades, judged ranks, result counts."""
        import pyarrow.compute as pc

        from irlib.batch.core import score_hits
        judged = table["qrels_value"].is_valid().to_numpy(zero_copy_only=False)
        ids = table["query_id"].cast("string").to_numpy(zero_copy_only=False)
        out = [_frame(ids[~judged], [IGNORED] * int((~judged).sum()), {})]
        table = table.filter(judged)
        if table.num_rows:
            lengths = pc.list_value_length(table["qrels_value"]).to_numpy(zero_copy_only=False)
            grades = pc.list_flatten(table["qrels_value"]).to_numpy(zero_copy_only=False)
            ranks = pc.list_flatten(table["hit_rank"]).to_numpy(zero_copy_only=False)
            retrieved = pc.fill_null(table["n_run"], 0).to_numpy(zero_copy_only=False)
            n = table.num_rows
            qrels_q = np.repeat(np.arange(n), lengths)
            hit = ranks > 0

            def score(values, wanted):
                return score_hits(wanted, n_queries=n, qrels_q=qrels_q, grades=values,
                                  hit_q=qrels_q[hit], hit_rank=ranks[hit],
                                  hit_grade=values[hit], retrieved=retrieved,
                                  depth=depth, judged_only=judged_only)
            values = _ranked_values(measures, names, score, grades.astype(float), convention)
            missing = retrieved == 0
            if not complete:
                values = {k: np.where(missing, np.nan, v) for k, v in values.items()}
            out.append(_frame(ids[judged], np.where(missing, MISSING, ANSWERED), values))
        return pd.concat(out, ignore_index=True)

    def evaluate_partition(batches):
        import pyarrow as pa
        import pyarrow.compute as pc
        batches = [b for b in batches if b.num_rows]
        if not batches:
            return
        table = pa.Table.from_batches(batches)   # one row per query
        odd = table["odd"].to_numpy(zero_copy_only=False)
        if odd.any():
            rows = table.filter(odd)

            def flat(side: str, value: str, what: str) -> pd.DataFrame:
                # a query on one side only has null lists on the other (the outer join)
                docs, values = rows[f"{side}_doc"], rows[f"{side}_value"]
                lengths = pc.fill_null(pc.list_value_length(values), 0).to_numpy(
                    zero_copy_only=False)
                doc_lengths = pc.fill_null(pc.list_value_length(docs), 0).to_numpy(
                    zero_copy_only=False)
                if not np.array_equal(lengths, doc_lengths):   # collect_list drops nulls
                    query = rows["query_id"][int(np.flatnonzero(lengths != doc_lengths)[0])]
                    raise ValueError(f"{what} row of query {query}: doc_id is empty")
                owner = pa.array(np.repeat(np.arange(len(lengths)), lengths))
                return pa.table({"query_id": pc.take(rows["query_id"], owner),
                                 "doc_id": pc.list_flatten(docs),
                                 value: pc.list_flatten(values)}).to_pandas()
            out = evaluate_lists(flat("qrels", "relevance", "qrels"), flat("run", "score", "run"))
            yield pa.RecordBatch.from_pandas(out, schema=schema, preserve_index=False)
        if not odd.all():                        # NaN becomes null on the way to Arrow
            out = evaluate_ranked(table.filter(~odd))
            yield pa.RecordBatch.from_pandas(out, schema=schema, preserve_index=False)
    return evaluate_partition
