"""irlib on Apache Spark: score runs that live in Spark DataFrames with irlib's own kernels.

:func:`evaluate` takes the qrels (or held-out interactions) and the run (or recommendations)
as Spark DataFrames and returns the same numbers as :func:`irlib.evaluate` on the same data in
pandas, with trec_eval's conventions (ranks from score descending, ties by doc id descending;
IDCG from all judged documents; ``complete`` as ``trec_eval -c``). pyspark is an optional
dependency (``pip install "irlib[spark]"``, plus a Java 17+ runtime): nothing else in
irlib imports this module, and this module imports pyspark only when called.

How it runs: the qrels and the run are each grouped by query id into one row per query
holding its doc ids and its grades (or scores) as two lists of plain values (built before
the shuffle where a query's rows sit together, as Spark's own aggregations do), and joined by
query id in a shuffled hash join (the qrels' side hashed: no sort); each shuffle partition,
thousands of whole queries, goes to a Python worker as Arrow batches (``mapInArrow``), where
:func:`irlib.batch.lists.score_lists` scores it in one vectorised call, the lists straight
into irlib's kernels (integer ids stay integers: only tied scores compare them as text);
a partition with something to refuse goes through :func:`irlib.evaluate` for its message. The
per-query values come back as a Spark DataFrame; the line over all queries is made in Spark
SQL by each measure's registry rule (``aggregate``: mean, geometric mean, sum or count, as
:func:`irlib.batch.engine.summarize` makes it), so no query's values are collected to the driver.

.. code-block:: python

    import irlib.spark
    qrels = spark.read.parquet("s3://lab/qrels/")          # query_id, doc_id, relevance
    run = spark.read.parquet("s3://lab/runs/bm25/")        # query_id, doc_id, score
    ev = irlib.spark.evaluate(qrels, run, ["nDCG@10", "AP", "P@10"])
    ev.means                       # pandas Series: trec_eval's "all" line
    ev.per_query.write.parquet("s3://lab/eval/bm25/")       # one row per qrels query
    ev.unpersist()

    # recommender data: users, items, held-out ratings and a top-K list with ranks
    ev = irlib.spark.evaluate(test_interactions, top_k, ["nDCG@10", "R@10", "Success@10"],
                              query_col="user_id", doc_col="item_id",
                              relevance_col="rating", rank_col="rank", complete=True)
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from irlib._columns import (DOC_COLUMNS, QUERY_COLUMNS, RANK_COLUMNS,  # noqa: F401
                            RELEVANCE_COLUMNS, SCORE_COLUMNS, choose_columns,
                            not_numbers_message)
from irlib._common import GEOMETRIC_FLOOR
from irlib.batch.engine import (FLOAT_ID_LIMIT, boolean_ids_message, check_options,
                                large_float_ids_message)
from irlib.measures.registry import MEASURES, Measure

if TYPE_CHECKING:                      # pyspark is optional: imported where it is used
    from pyspark.sql import Column, DataFrame

# The column names tried when the caller names none (QUERY_COLUMNS …) are irlib._columns',
# one contract with irlib.evaluate.

# Where a query's row comes from; the per-query rows carry it until the means are made.
ANSWERED, MISSING, IGNORED = "answered", "missing", "ignored"

#: ``convention=``: trec_eval's (irlib's own), or Spark ``RankingEvaluator``'s, which has
#: these measures only: precisionAtK (P@K), recallAtK (R@K), ndcgAtK (nDCG@K),
#: meanAveragePrecisionAtK (AP@K) and meanAveragePrecision (AP, no K).
CONVENTIONS = ("trec_eval", "spark")
SPARK_MEASURES = ("P", "R", "nDCG", "AP")


@dataclass(frozen=True)
class SparkEvaluation:
    """What :func:`evaluate` found. Like :class:`irlib.Evaluation`, with Spark DataFrames
    where a list could be as long as the data (queries, missing or ignored ones)."""
    per_query: DataFrame               # query_id (text) + one double column per measure
    means: pd.Series                   # trec_eval's "all" line, one value per measure
    n_queries: int                     # queries in the qrels: per_query's rows
    n_missing: int                     # qrels queries the run does not answer
    n_ignored: int                     # run queries without judgments (never averaged)
    complete: bool
    measures: tuple[Measure, ...]
    rows: DataFrame = field(repr=False)   # per_query + status, persisted: the one computation

    @property
    def n_averaged(self) -> int:
        """How many queries the means are over (trec_eval's ``num_q``)."""
        return self.n_queries if self.complete else self.n_queries - self.n_missing

    @property
    def missing_queries(self) -> DataFrame:
        """The qrels queries the run does not answer (one column, ``query_id``)."""
        from pyspark.sql import functions as F
        return self.rows.filter(F.col("status") == MISSING).select("query_id")

    @property
    def ignored_queries(self) -> DataFrame:
        """The run's queries that have no judgments (one column, ``query_id``)."""
        from pyspark.sql import functions as F
        return self.rows.filter(F.col("status") == IGNORED).select("query_id")

    def unpersist(self) -> None:
        """Free the cached per-query rows (executors' memory and disk)."""
        self.rows.unpersist()


def _id_target(*dtypes) -> str:
    """Both sides' ids as longs when both are integers (cheap to shuffle), else as text."""
    from pyspark.sql import types as T
    integral = (T.ByteType, T.ShortType, T.IntegerType, T.LongType)
    return "long" if all(isinstance(t, integral) for t in dtypes) else "string"


def _as_id(column: Column, dtype, target: str, refused: str) -> Column:
    """An id column as ``target``; a float id becomes the text a file would hold, as
    :func:`irlib.evaluate` reads it (``1.0`` -> ``"1"``), so both sides hash alike. A float
    of 2**53 or more stops the job with ``refused``, irlib.evaluate's message (checked before
    ``floor``, which overflows a long there)."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as T
    if target == "long":
        return column.cast("long")
    if isinstance(dtype, (T.FloatType, T.DoubleType, T.DecimalType)):
        size = F.abs(column.cast("double"))
        return F.when((size >= FLOAT_ID_LIMIT) & (size < float("inf")),
                      F.raise_error(F.lit(refused))) \
            .when(column == F.floor(column), column.cast("long").cast("string")) \
            .otherwise(column.cast("string"))
    return column.cast("string")


def _check_convention(convention: str, measures: tuple[Measure, ...]) -> None:
    if convention not in CONVENTIONS:
        raise ValueError(f"convention must be one of {', '.join(map(repr, CONVENTIONS))}, "
                         f"got {convention!r}")
    for m in measures if convention == "spark" else ():
        if m.name not in SPARK_MEASURES or (m.k is None and m.name != "AP") or \
                m.dcg != "log2":
            raise ValueError(f"convention='spark': RankingEvaluator has no {m}; it has "
                             "P@K, R@K, nDCG@K (gain 1 per relevant item), AP@K and AP")


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
            ap = per_query[str(m)].to_numpy(dtype=float)
            with np.errstate(invalid="ignore", divide="ignore"):
                per_query[str(m)] = np.where(r > 0, ap * r / np.minimum(r, m.k), ap)
    return per_query


def _numeric(df: DataFrame, name: str, what: str) -> None:
    from pyspark.sql import types as T
    dtype = df.schema[name].dataType
    if not isinstance(dtype, T.NumericType):
        raise ValueError(not_numbers_message(what, name, dtype.simpleString()))


def _aggregate(name: str, how: str) -> Column:
    """The line over all queries of one measure column, by its registry rule, in Spark SQL:
    :func:`irlib.batch.engine.summarize`'s rules. Null rows (queries the run misses, without
    ``complete``; queries without judgments) are left out, as summarize leaves out NaN."""
    from pyspark.sql import functions as F
    x = F.col(f"`{name}`")
    if how == "mean":
        return F.avg(x)
    if how == "gmean":                   # greatest() skips nulls: keep them null
        floored = F.when(x.isNotNull(), F.greatest(x, F.lit(GEOMETRIC_FLOOR)))
        return F.exp(F.avg(F.log(floored)))
    if how == "count":
        return F.count(x).cast("double")
    return F.sum(x).cast("double")


def _text(values) -> pd.Series:
    """Ids as an object column: pyspark's Arrow writer cannot take pandas 3's pyarrow-backed
    ``str`` columns (chunked arrays)."""
    return pd.Series(np.asarray(values, dtype=object), dtype=object)


def _scored_batch(found, names: list[str], schema):
    """:func:`irlib.batch.lists.score_lists`' answer as the rows ``mapInArrow`` returns."""
    import pyarrow as pa
    n_ignored = len(found.ignored_ids)
    status = np.where(found.answered, ANSWERED, MISSING).tolist() + [IGNORED] * n_ignored
    ids = pa.concat_arrays([found.query_ids, found.ignored_ids])
    columns = [pa.array(np.concatenate([found.values[name], np.full(n_ignored, np.nan)]),
                        from_pandas=True) for name in names]   # NaN as null, as pandas
    return pa.RecordBatch.from_arrays([ids, pa.array(status, pa.string()), *columns],
                                      schema=schema)


def _partition_evaluator(measures: tuple[Measure, ...], names: list[str], complete: bool,
                         depth: int | None, judged_only: bool, schema, convention: str):
    """The function each Spark task runs on one partition's Arrow batches: judgments and
    results of whole queries, one row per query with four lists (``qrels_doc``,
    ``qrels_value``, ``run_doc``, ``run_value``)."""
    def evaluate_group(qrels: pd.DataFrame, run: pd.DataFrame) -> pd.DataFrame:
        from irlib.batch.engine import _ids
        from irlib.batch.engine import evaluate as evaluate_in_memory
        if len(qrels) == 0:                      # only queries without judgments here
            ids = pd.unique(_ids(run, "query_id", "run").to_numpy(dtype=object))
            out = pd.DataFrame({"query_id": _text(ids.astype(str)),
                                "status": _text([IGNORED] * len(ids))})
            for name in names:
                out[name] = np.nan
            return out
        options = dict(complete=complete, depth=depth, judged_only=judged_only)
        ev = evaluate_in_memory(qrels, run, measures, **options)
        per_query = ev.per_query if convention == "trec_eval" else \
            _spark_convention(ev, qrels, run, options)
        status = np.where(per_query.index.isin(list(ev.missing_queries)), MISSING, ANSWERED)
        out = pd.DataFrame({"query_id": _text(per_query.index.astype(str)),
                            "status": _text(status)})
        for name in names:
            out[name] = per_query[name].to_numpy(dtype=float)
        if ev.ignored_queries:
            ignored = pd.DataFrame({"query_id": _text(ev.ignored_queries),
                                    "status": _text([IGNORED] * len(ev.ignored_queries))})
            out = pd.concat([out, ignored], ignore_index=True)
        return out

    def evaluate_partition(batches):
        import pyarrow as pa
        import pyarrow.compute as pc
        batches = [b for b in batches if b.num_rows]
        if not batches:
            return
        from irlib.batch.lists import list_lengths, score_lists
        table = pa.Table.from_batches(batches)   # one row per query: its rows as lists
        if convention == "trec_eval":            # the lists straight to irlib's kernels
            found = score_lists(table, measures, complete=complete, depth=depth,
                                judged_only=judged_only)
            if found is not None:
                yield _scored_batch(found, names, schema)
                return

        def flat(side: str, value: str, what: str) -> pd.DataFrame:
            # a query on one side only has null lists on the other (the outer join)
            docs, values = table[f"{side}_doc"], table[f"{side}_value"]
            lengths, doc_lengths = list_lengths(values), list_lengths(docs)
            if not np.array_equal(lengths, doc_lengths):   # collect_list drops null ids
                query = table["query_id"][int(np.flatnonzero(lengths != doc_lengths)[0])]
                raise ValueError(f"{what} row of query {query}: doc_id is empty")
            owner = pa.array(np.repeat(np.arange(len(lengths)), lengths))
            # integer ids stay integers: irlib names only the distinct ones by their text
            return pa.table({"query_id": pc.take(table["query_id"], owner),
                             "doc_id": pc.list_flatten(docs),
                             value: pc.list_flatten(values)}).to_pandas()
        qrels, run = flat("qrels", "relevance", "qrels"), flat("run", "score", "run")
        out = evaluate_group(qrels, run)         # NaN becomes null on the way to Arrow
        yield pa.RecordBatch.from_pandas(out, schema=schema, preserve_index=False)
    return evaluate_partition


def _reraise_task_error(error: Exception) -> None:
    """A ValueError raised by irlib inside a Spark task, as a ValueError on the driver."""
    lines = [line for line in str(error).splitlines() if line.startswith("ValueError: ")]
    if lines:
        raise ValueError(lines[-1][len("ValueError: "):] + " (in a Spark task; row numbers "
                         "count within one group of queries)") from None
    raise error


def evaluate(qrels: DataFrame, run: DataFrame, measures: Iterable, *, complete: bool = False,
             depth: int | None = None, judged_only: bool = False,
             query_col: str | None = None, doc_col: str | None = None,
             relevance_col: str | None = None, score_col: str | None = None,
             rank_col: str | None = None, convention: str = "trec_eval") -> SparkEvaluation:
    """Score every qrels query of ``run`` with each of ``measures``, on Spark.

    The numbers are :func:`irlib.evaluate`'s on the same data (its conventions, its kernels),
    to the last bits of a double.

    Parameters
    ----------
    qrels : pyspark.sql.DataFrame
        One row per judgment: a query (or user) id, a doc (or item) id and a numeric
        relevance (grade or rating). Binary measures count grade >= ``rel``, 1 by default
        (``P(rel=4)@10`` for another threshold): a grade of 0.5 is not relevant, though
        graded measures (nDCG, ERR, INST) still gain from it. As :func:`irlib.evaluate`.
    run : pyspark.sql.DataFrame
        One row per result: query id, doc id and a ``score`` (higher is better; ties broken by
        doc id descending, as trec_eval) or a ``rank`` (1 is best; equal ranks broken the
        same way).
    measures : iterable of str or Measure
        As :func:`irlib.evaluate`: ``["nDCG@10", "AP", "P@5"]``, ``["map", "P.5,10"]``,
        ``["official"]``; every run measure of the registry.
    complete, depth, judged_only
        As :func:`irlib.evaluate` (``trec_eval -c``, ``-M``, ``-J``).
    query_col, doc_col, relevance_col, score_col, rank_col : str, optional
        The columns to read, as :func:`irlib.evaluate` reads them (``irlib._columns``). By
        default the first of these found (exact name, then any case): queries ``query_id,
        qid, query, user_id, userID, user, userId``; docs ``doc_id, docno, doc, item_id,
        itemID, item, itemId``; relevance ``relevance, rel, grade, label, rating``; the run's
        ``score, prediction, sim``, else ``rank``. The query and doc names apply to both
        frames. Relevance, score and rank must be numeric columns (text is refused). Ids may be integers or text; a float id
        becomes the text a file would hold (``1.0`` is ``"1"``), as in irlib.evaluate.
        Refused as irlib.evaluate refuses them: True/False, and floats of 2**53 or more.
    convention : {"trec_eval", "spark"}
        ``"trec_eval"`` (default): irlib's numbers, as above. ``"spark"``: those of Spark's
        own ``RankingEvaluator`` on the same rankings, to see where the two part: nDCG@K
        gains 1 for every relevant document (grades unused; IDCG is min(R, K) gains of 1)
        and AP@K is divided by min(R, K); P@K, R@K and AP (no K, over R) are the same in
        both. Only those measures are accepted. Ties are still broken by doc id descending
        (RankingEvaluator has no scores: it takes the order you sort its arrays in).

    The queries are hashed into ``spark.sql.shuffle.partitions`` partitions, and each
    partition, all its queries' rows at once, is scored in one Python worker: raise it when
    a partition does not fit a worker's memory (a partition holds about rows / partitions
    rows; irlib needs ~150 bytes a row).

    Returns
    -------
    SparkEvaluation
        ``per_query``: a Spark DataFrame, ``query_id`` (text) and one double column per
        measure (irlib's canonical names, e.g. ``P@10``), one row per qrels query in no
        particular order; a query the run misses has nulls (default) or 0 (``complete``), as
        irlib.evaluate's NaN or 0. ``means``: a pandas Series, trec_eval's ``all`` line
        (NaN when the run answers no qrels query and ``complete`` is off). ``n_queries``,
        ``n_missing``, ``n_ignored``, ``n_averaged``; ``missing_queries`` and
        ``ignored_queries`` as DataFrames of ids. The per-query rows are persisted (memory,
        then disk) while the means are made, so writing ``per_query`` does not score again;
        call ``unpersist()`` when done.
    """
    from pyspark.errors import PythonException
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    parsed = tuple(check_options(measures, complete=complete, depth=depth,
                                 judged_only=judged_only))
    names = [str(m) for m in parsed]
    _check_convention(convention, parsed)
    if len(set(names)) != len(names):
        raise ValueError(f"measures name one measure twice: {', '.join(names)}")

    cols = choose_columns(qrels.columns, run.columns, query_col=query_col, doc_col=doc_col,
                          relevance_col=relevance_col, score_col=score_col, rank_col=rank_col)
    q_query, q_doc, q_rel, r_query, r_doc, r_score, r_rank = cols
    _numeric(qrels, q_rel, "qrels")
    _numeric(run, r_score or r_rank, "run")
    ids = (("qrels", qrels, q_query), ("qrels", qrels, q_doc), ("run", run, r_query),
           ("run", run, r_doc))
    for what, frame, name in ids:              # Spark would read True as the id "true"
        if isinstance(frame.schema[name].dataType, T.BooleanType):
            raise ValueError(boolean_ids_message(what, name))
    refused = [large_float_ids_message(what, name) for what, _, name in ids]

    query_target = _id_target(qrels.schema[q_query].dataType, run.schema[r_query].dataType)
    doc_target = _id_target(qrels.schema[q_doc].dataType, run.schema[r_doc].dataType)
    ranking = F.col(r_score).cast("double") if r_score else -F.col(r_rank).cast("double")
    def as_id(frame: DataFrame, name: str, target: str, what: str) -> Column:
        return _as_id(F.col(name), frame.schema[name].dataType, target,
                      large_float_ids_message(what, name))
    q = qrels.select(as_id(qrels, q_query, query_target, "qrels").alias("query_id"),
                     as_id(qrels, q_doc, doc_target, "qrels").alias("doc_id"),
                     F.col(q_rel).cast("double").alias("relevance"))
    r = run.select(as_id(run, r_query, query_target, "run").alias("query_id"),
                   as_id(run, r_doc, doc_target, "run").alias("doc_id"),
                   ranking.alias("score"))
    schema = T.StructType([T.StructField("query_id", T.StringType(), False),
                           T.StructField("status", T.StringType(), False),
                           *(T.StructField(name, T.DoubleType(), True) for name in names)])
    import pyarrow as pa
    arrow_schema = pa.schema([pa.field("query_id", pa.string(), False),
                              pa.field("status", pa.string(), False),
                              *(pa.field(name, pa.float64()) for name in names)])
    score_partition = _partition_evaluator(parsed, names, bool(complete), depth,
                                           bool(judged_only), arrow_schema, convention)
    # One row per query, its judgments and its results as lists: the lists are built
    # before the shuffle where a query's rows sit together (as Spark's own aggregations do),
    # so the shuffle moves one row per query and task, not one per result. Lists of plain
    # values (doc ids; grades or scores, a null as NaN so that irlib refuses it), not of
    # structs: the two lists of one aggregation hold the rows in the same order, and the
    # JVM builds and writes them to Arrow in about half the time. The join hashes the
    # qrels' side of each partition instead of sorting both (Spark's sort-merge join sorted
    # the run's 50 million results again). At 50 million rows on local[2], one session:
    # 24.8 s against 33.2 s for lists of structs with a sort-merge join, and 44.6-55.2 s
    # for no lists (the rows shuffled as they are: the JVM writes each row to Arrow);
    # docs/spark.md, "Measured".
    nan = F.lit(float("nan"))

    def lists(frame: DataFrame, value: str, alias: str) -> DataFrame:
        return frame.groupBy("query_id").agg(
            F.collect_list("doc_id").alias(f"{alias}_doc"),
            F.collect_list(F.coalesce(F.col(value), nan)).alias(f"{alias}_value"))
    by_query = lists(q, "relevance", "qrels").hint("shuffle_hash").join(
        lists(r, "score", "run"), "query_id", "full_outer")
    rows = by_query.mapInArrow(score_partition, schema)
    from pyspark import StorageLevel

    # One job: it scores every group (filling the cache) and makes the "all" line.
    aggregates = [_aggregate(name, MEASURES[m.name].aggregate).alias(name)
                  for name, m in zip(names, parsed)]
    counts = [F.count(F.when(F.col("status") == s, 1)).alias(s)
              for s in (ANSWERED, MISSING, IGNORED)]
    try:                 # the optimizer may fold a small frame's raise_error at persist
        rows = rows.persist(StorageLevel.MEMORY_AND_DISK)
        line = rows.agg(*counts, *aggregates).first().asDict()
    except PythonException as error:
        rows.unpersist()
        _reraise_task_error(error)
    except Exception as error:             # raise_error in _as_id: irlib's own message
        rows.unpersist()
        found = [message for message in refused if message in str(error)]
        if found:
            raise ValueError(found[0]) from None
        raise
    n_queries = line[ANSWERED] + line[MISSING]
    if n_queries == 0:
        rows.unpersist()
        raise ValueError("qrels is empty: there is nothing to evaluate against")
    values = {name: np.nan if line[name] is None else float(line[name]) for name in names}
    if not complete and line[ANSWERED] == 0:
        values = dict.fromkeys(names, np.nan)
    if complete and "NumRel" in {m.name for m in parsed}:
        # trec_eval -c: num_rel over all queries is every judgment with a grade above 0
        relevant = q.filter(F.col("relevance") > 0).count()
        for name, m in zip(names, parsed):
            if m.name == "NumRel":
                values[name] = float(relevant)
    per_query = rows.filter(F.col("status") != IGNORED).select("query_id", *(F.col(f"`{name}`") for name in names))
    return SparkEvaluation(per_query, pd.Series(values, index=names, dtype=float), n_queries,
                           int(line[MISSING]), int(line[IGNORED]), bool(complete), parsed, rows)
