"""docs/spark.md's cluster recipe holds: a Python worker under its address-space limit.

Spark enforces ``spark.executor.pyspark.memory`` / cores as ``RLIMIT_AS`` on each Python
worker. Here a fresh process is set up as Spark's daemon forks a worker (``pyspark.worker``
imported, ``OMP_NUM_THREADS`` = the executor's 4 cores, the recipe's executor environment),
then sets the limit the recipe sizes for its partition, as ``setup_memory_limits`` does,
imports irlib.spark and scores the partition (benchmarks/bench_spark_worker.py).
"""
import pytest

pytest.importorskip("pyspark")

from benchmarks.bench_spark_worker import BYTES_PER_ROW, FIXED_MIB, RECIPE_ENV, run_worker  # noqa: E402


def recipe_limit_mib(rows: int) -> int:
    return FIXED_MIB + -(-rows * BYTES_PER_ROW // 2**20)


def test_a_worker_scores_its_partition_under_the_recipes_limit():
    rows = 300_000
    out = run_worker(rows, 4, env=RECIPE_ENV, limit_mib=recipe_limit_mib(rows))
    assert out.returncode == 0, out.stderr[-2000:]
    assert "Setting mem limits" in out.stderr          # the limit was set, as Spark sets it


def test_the_limit_is_real():
    """The same worker under half the fixed cost fails: the limit is enforced here."""
    out = run_worker(1000, 4, env=RECIPE_ENV, limit_mib=FIXED_MIB // 4)
    assert out.returncode != 0
