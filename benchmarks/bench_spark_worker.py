"""A Spark Python worker's memory with irlib: the fixed cost and the cost per row.

Spark enforces ``spark.executor.pyspark.memory`` (divided among the executor's cores) as an
address-space limit (``RLIMIT_AS``) on each Python worker, set after the worker has started
(``pyspark.worker_util.setup_memory_limits``): what counts is the worker's *virtual* size
(VmSize / VmPeak), not its resident memory. This measures, in a fresh process set up as
Spark's daemon forks its workers (``pyspark.worker`` imported, ``OMP_NUM_THREADS`` set to the
executor's cores as Spark does), the peak virtual size after irlib.spark's partition function
has scored a tiny partition (the fixed cost: libraries mapped, thread pools and their malloc
arenas) and after partitions of ``--rows`` (the cost per row, from the difference).

Run: ``python benchmarks/bench_spark_worker.py [--cores 4] [--rows 200000 1000000]``.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WORKER = r'''
import json, sys
import pyspark.worker                        # what Spark's daemon holds before it forks
rows, limit_mib = int(sys.argv[1]), int(sys.argv[2])
if limit_mib:                                # as pyspark.worker_util.setup_memory_limits
    from pyspark.worker_util import setup_memory_limits
    setup_memory_limits(limit_mib)


def status():
    fields = {}
    with open("/proc/self/status") as fh:
        for line in fh:
            key, _, value = line.partition(":")
            if key in ("VmPeak", "VmSize", "VmHWM", "VmRSS"):
                fields[key] = int(value.split()[0]) / 1024        # MiB
    return fields


before = status()
import numpy as np
import pyarrow as pa
import irlib.spark as irs
from irlib.batch.core import check_options

measures = tuple(check_options(["nDCG@10", "AP", "P@10", "R@100", "RR"], complete=False,
                               depth=None, judged_only=False))
names = [str(m) for m in measures]
schema = pa.schema([pa.field("query_id", pa.string(), False),
                    pa.field("status", pa.string(), False),
                    *(pa.field(n, pa.float64()) for n in names)])
score = irs._partition_evaluator(measures, names, False, None, False, schema, "trec_eval")


def partition(n_rows, per_query=100, judged=10, seed=0):
    """One partition as irlib.spark's mapInArrow gets it: one row per query, its doc ids
    and values as lists, for the qrels and for the run."""
    rng = np.random.default_rng(seed)
    n_queries = max(1, n_rows // per_query)
    run_docs = pa.array([f"d{i}" for i in rng.permutation(n_queries * per_query)])
    qrels_docs = run_docs.take(pa.array(
        (np.arange(n_queries)[:, None] * per_query + np.arange(judged)).ravel()))
    lists = lambda k, values: pa.ListArray.from_arrays(
        pa.array(np.arange(n_queries + 1, dtype=np.int32) * k), values)
    return pa.table({
        "query_id": pa.array([f"q{i}" for i in range(n_queries)]),
        "qrels_doc": lists(judged, qrels_docs),
        "qrels_value": lists(judged, pa.array(
            rng.integers(0, 3, n_queries * judged).astype(float))),
        "run_doc": lists(per_query, run_docs),
        "run_value": lists(per_query, pa.array(rng.random(n_queries * per_query)))})


out = list(score(partition(1000).to_batches()))
fixed = status()
if rows:
    table = partition(rows)
    out = list(score(table.to_batches()))
print(json.dumps({"before_irlib": before, "after_small_partition": fixed, "after": status()}))
'''


#: The executor environment docs/spark.md's recipe sets (spark.executorEnv.*): pyarrow
#: allocates with the system's malloc, not mimalloc (which reserves 1 GiB of address space
#: up front), and glibc keeps two malloc arenas, not one reserved per thread.
RECIPE_ENV = {"ARROW_DEFAULT_MEMORY_POOL": "system", "MALLOC_ARENA_MAX": "2"}
#: The recipe's sizing: a worker's RLIMIT_AS = fixed + per row x its partition's rows.
FIXED_MIB, BYTES_PER_ROW = 512, 250           # measured: 384 MiB, ~200 bytes


def run_worker(rows: int, cores: int, *, env: dict | None = None, limit_mib: int = 0):
    """The worker script in a fresh process; its CompletedProcess."""
    env = {**os.environ, **(env or {}), "OMP_NUM_THREADS": str(cores),
           "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", WORKER, str(rows), str(limit_mib)], env=env,
                          capture_output=True, text=True)


def measure(rows: int, cores: int, env: dict | None = None) -> dict:
    out = run_worker(rows, cores, env=env)
    if out.returncode:
        raise SystemExit(out.stderr)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cores", type=int, default=4, help="the executor's cores "
                        "(Spark sets OMP_NUM_THREADS to them; pyarrow sizes its pool by it)")
    parser.add_argument("--rows", type=int, nargs="+", default=[200_000, 1_000_000])
    parser.add_argument("--default-env", action="store_true",
                        help="without the recipe's ARROW_DEFAULT_MEMORY_POOL=system and "
                             "MALLOC_ARENA_MAX=2")
    args = parser.parse_args()
    env = None if args.default_env else RECIPE_ENV
    base = measure(0, args.cores, env)
    print(f"OMP_NUM_THREADS={args.cores}, {env or 'default environment'}; MiB")
    print(f"  worker before irlib: VmSize {base['before_irlib']['VmSize']:.0f}, "
          f"VmRSS {base['before_irlib']['VmRSS']:.0f}")
    fixed = base["after_small_partition"]
    print(f"  fixed cost (irlib imported, a 1,000-row partition scored): VmPeak "
          f"{fixed['VmPeak']:.0f}, VmHWM {fixed['VmHWM']:.0f}")
    for rows in args.rows:
        got = measure(rows, args.cores, env)["after"]
        per_row = (got["VmPeak"] - fixed["VmPeak"]) * 2**20 / rows
        print(f"  {rows:>9,} rows: VmPeak {got['VmPeak']:.0f} (+{per_row:.0f} bytes a row), "
              f"VmHWM {got['VmHWM']:.0f} (+{(got['VmHWM'] - fixed['VmHWM']) * 2**20 / rows:.0f}"
              " bytes a row)")


if __name__ == "__main__":
    main()
