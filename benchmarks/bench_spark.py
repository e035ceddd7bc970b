"""irlib.spark on local[2] against Spark's own RankingEvaluator, and against in-memory irlib.

A generated run of ``--queries`` x ``--docs`` rows (default 500,000 x 100 = 50 million) and
its qrels (~10 judgments per query, grades 0-3, one relevant document never retrieved) are
written once as partitioned Parquet (integer ids, float scores with ties). Then, interleaved,
median of ``--repeat`` runs, each from the Parquet files to the five numbers:

1. **irlib.spark**: ``irlib.spark.evaluate(qrels, run, ["P@10", "R@10", "nDCG@10", "AP",
   "AP@10"])``: each side's doc ids and values gathered into lists per query, one shuffle,
   a shuffled hash join, irlib's kernels in the Python workers (one call per partition, all
   five measures in one pass), the means in Spark SQL.
2. **RankingEvaluator** (the reference): what a Spark user writes for the same five measures
   (``precisionAtK``, ``recallAtK``, ``ndcgAtK``, ``meanAveragePrecision``,
   ``meanAveragePrecisionAtK``, k = 10): each query's results sorted into an array of doc ids
   (score descending, doc id descending: trec_eval's order), joined to its array of relevant
   doc ids, cached, and five ``evaluate`` calls (each a pass over the cached arrays).
3. **in memory** (``--in-memory``, where it fits): pyarrow reads the Parquet into pandas and
   ``irlib.evaluate`` scores it in one process.

Spark's conventions differ (binary NDCG, MAP@K over min(R, K)), so the numbers differ where
the lesson "Why libraries disagree" says they do; the work is the same. The first call of each
method is printed apart, with whether it was the session's first job (the JVM cold): both
pay for starting up, irlib.spark its Python workers' imports too. Peak memory is
sampled every 0.1 s over the process tree: the driver's Python, the JVM (driver and
executor in local mode) and the Python workers.

Run: ``python benchmarks/bench_spark.py`` (full size), ``--queries 20000`` to try it.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
import psutil  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

MEASURES = ["P@10", "R@10", "nDCG@10", "AP", "AP@10"]
SPARK_METRICS = [("precisionAtK", 10), ("recallAtK", 10), ("ndcgAtK", 10),
                 ("meanAveragePrecision", None), ("meanAveragePrecisionAtK", 10)]
MIB = 2 ** 20


def write_data(folder: Path, n_queries: int, docs: int, seed: int = 0,
               chunk: int = 50_000) -> None:
    """Parquet files, one per chunk of queries: run/ (query_id, doc_id, score) and qrels/."""
    rng = np.random.default_rng(seed)
    for what in ("run", "qrels"):
        (folder / what).mkdir(parents=True, exist_ok=True)
    for part, first in enumerate(range(0, n_queries, chunk)):
        q = np.arange(first, min(first + chunk, n_queries), dtype=np.int64)
        n = len(q)
        start = rng.integers(0, 1_000_000, n)
        doc = (start[:, None] + np.arange(docs)[None, :]).ravel().astype(np.int64)
        score = np.round(rng.random(n * docs) * 1000) / 10      # 10,000 values: ties
        pq.write_table(pa.table({"query_id": np.repeat(q, docs), "doc_id": doc,
                                 "score": score}), folder / "run" / f"part-{part:04d}.parquet")
        judged = rng.integers(0, docs, (n, 10))                 # positions of judged results
        judged_doc = start[:, None] + judged
        judged_doc[:, 0] = start + docs + 7                      # one never retrieved
        grade = rng.choice([0, 0, 1, 2, 3], size=(n, 10))
        grade[:, 0] = 1
        qrels = {"query_id": np.repeat(q, 10), "doc_id": judged_doc.ravel(),
                 "relevance": grade.ravel()}
        # repeated positions would be duplicate judgments: keep the first
        key = qrels["query_id"] * 10_000_000 + qrels["doc_id"]
        _, first_rows = np.unique(key, return_index=True)
        first_rows.sort()
        pq.write_table(pa.table({k: v[first_rows] for k, v in qrels.items()}),
                       folder / "qrels" / f"part-{part:04d}.parquet")


class PeakMemory:
    """Peak RSS of the driver, the JVM and the Python workers, sampled in a thread."""

    def __init__(self):
        self.me = psutil.Process()
        self.peak = {"driver Python": 0, "JVM (driver + executor)": 0, "Python workers": 0}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self):
        rss = {"driver Python": self.me.memory_info().rss, "JVM (driver + executor)": 0,
               "Python workers": 0}
        for child in self.me.children(recursive=True):
            try:
                name, mem = child.name(), child.memory_info().rss
            except psutil.Error:
                continue
            rss["JVM (driver + executor)" if name == "java" else "Python workers"] += mem
        for key, value in rss.items():
            self.peak[key] = max(self.peak[key], value)

    def _run(self):
        while not self._stop.wait(0.1):
            self._sample()

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self._sample()

    def text(self) -> str:
        return ", ".join(f"{k} {v / MIB:,.0f} MiB" for k, v in self.peak.items())


def irlib_spark(spark, folder: Path):
    import irlib.spark
    ev = irlib.spark.evaluate(spark.read.parquet(str(folder / "qrels")),
                              spark.read.parquet(str(folder / "run")), MEASURES)
    ev.unpersist()
    return dict(ev.means)


def ranking_evaluator(spark, folder: Path):
    from pyspark.ml.evaluation import RankingEvaluator
    from pyspark.sql import functions as F
    run = spark.read.parquet(str(folder / "run"))
    qrels = spark.read.parquet(str(folder / "qrels"))
    # trec_eval's order: score descending, then doc id descending as text (as irlib ranks:
    # "99" before "100"), not as a number; RankingEvaluator takes arrays of doubles in rank
    # order
    ranked = (run.groupBy("query_id")
              .agg(F.sort_array(F.collect_list(F.struct(
                  F.col("score"), F.col("doc_id").cast("string").alias("text"),
                  F.col("doc_id"))), asc=False).alias("pairs"))
              .select("query_id", F.transform("pairs", lambda p: p["doc_id"].cast("double"))
                      .alias("prediction")))
    relevant = (qrels.filter(F.col("relevance") > 0).groupBy("query_id")
                .agg(F.collect_list(F.col("doc_id").cast("double")).alias("label")))
    data = ranked.join(relevant, "query_id").select("prediction", "label").cache()
    data.count()
    out = {}
    for metric, k in SPARK_METRICS:
        evaluator = RankingEvaluator(metricName=metric, k=k or 10)
        out[f"{metric}" + (f"@{k}" if k else "")] = evaluator.evaluate(data)
    data.unpersist()
    return out


def in_memory(folder: Path):
    import irlib
    qrels = pq.read_table(folder / "qrels").to_pandas()
    run = pq.read_table(folder / "run").to_pandas()
    return dict(irlib.evaluate(qrels, run, MEASURES).means)


def start_spark(partitions: int, memory: str):
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master("local[2]").appName("bench-spark")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.driver.host", "127.0.0.1")
             .config("spark.driver.bindAddress", "127.0.0.1")
             .config("spark.driver.memory", memory)
             .config("spark.sql.shuffle.partitions", str(partitions))
             .config("spark.sql.execution.arrow.pyspark.enabled", "true")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def timed(fn, *args):
    start = time.perf_counter()
    with PeakMemory() as memory:
        result = fn(*args)
    return time.perf_counter() - start, result, memory


def main() -> None:
    import warnings
    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=500_000)
    parser.add_argument("--docs", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--partitions", type=int, default=16,
                        help="spark.sql.shuffle.partitions (default 16)")
    parser.add_argument("--memory", default="6g", help="spark.driver.memory (default 6g)")
    parser.add_argument("--in-memory", action="store_true",
                        help="also time in-memory irlib.evaluate (needs ~20 GiB at full size)")
    parser.add_argument("--folder", type=Path, default=Path("/tmp/irlab-bench-spark"))
    args = parser.parse_args()

    folder = args.folder / f"{args.queries}x{args.docs}"
    if not folder.exists():                  # written aside, then renamed: never half there
        start = time.perf_counter()
        partial = folder.with_name(folder.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        write_data(partial, args.queries, args.docs)
        partial.rename(folder)
        print(f"wrote {args.queries * args.docs:,} run rows to {folder} in "
              f"{time.perf_counter() - start:.0f} s")
    spark = start_spark(args.partitions, args.memory)
    rows = pq.ParquetDataset(folder / "run").read(columns=["score"]).num_rows
    print(f"run: {rows:,} rows; local[2], {args.partitions} shuffle partitions, driver memory "
          f"{args.memory}; machine load {os.getloadavg()[0]:.1f}")

    times = {"irlib.spark": [], "RankingEvaluator": []}
    first_calls = []
    pair = [("irlib.spark", irlib_spark), ("RankingEvaluator", ranking_evaluator)]
    for i in range(args.repeat):
        for name, fn in (pair if i % 2 == 0 else pair[::-1]):   # each goes first in turn
            seconds, means, memory = timed(fn, spark, folder)
            if not times[name]:
                cold = "the session's first job, the JVM cold" if not first_calls else \
                    "the JVM warmed by the other"
                first_calls.append(f"{name} {seconds:.1f} s ({cold})")
            times[name].append(seconds)
            print(f"  {i + 1}. {name:16s} {seconds:7.1f} s  peak: {memory.text()}", flush=True)
            if i == 0:
                print("     " + ", ".join(f"{k} {v:.4f}" for k, v in means.items()))
    print("first call of each: " + "; ".join(first_calls))
    ours, ref = (statistics.median(times[k]) for k in ("irlib.spark", "RankingEvaluator"))
    print(f"median of all calls: irlib.spark {ours:.1f} s, RankingEvaluator {ref:.1f} s: "
          f"ratio {ours / ref:.2f}x; load {os.getloadavg()[0]:.1f}")
    if args.repeat > 1:                      # warm: each method's first call left out
        warm, warm_ref = (statistics.median(times[k][1:])
                          for k in ("irlib.spark", "RankingEvaluator"))
        print(f"median warm (first calls left out): irlib.spark {warm:.1f} s, "
              f"RankingEvaluator {warm_ref:.1f} s: ratio {warm / warm_ref:.2f}x "
              "(target <= 0.7x)")
    spark.stop()

    if args.in_memory:
        seconds, means, memory = timed(in_memory, folder)
        print(f"in memory irlib.evaluate (pyarrow read + evaluate): {seconds:.1f} s, peak "
              f"{memory.peak['driver Python'] / MIB:,.0f} MiB; irlib.spark / in memory "
              f"{ours / seconds:.2f}x")
        print("     " + ", ".join(f"{k} {v:.4f}" for k, v in means.items()))


if __name__ == "__main__":
    main()
