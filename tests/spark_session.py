"""One local Spark session for every Spark test (``tests/test_spark*.py``), from PyPI's pyspark
(requirements-spark.txt) and Debian's Java (``openjdk-17-jre-headless``).

``local[2]``, two shuffle partitions, no UI, bound to 127.0.0.1: it contacts no one. The JVM
compiles with C1 only (quicker to warm up for tests' small jobs). Skipped
with the reason where no Java runtime can be found, unless ``IRLAB_SPARK_TESTS=required``
(``.ci/run`` sets it, and installs Java when it is missing). pyspark itself is imported
directly: requirements-dev.txt installs it, and a broken install must fail, not skip.
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

REQUIRED = os.environ.get("IRLAB_SPARK_TESTS", "").lower() == "required"


def java_missing_reason() -> str | None:
    """Why Spark cannot start here, or None."""
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").exists():
        return None
    if shutil.which("java"):
        return None
    return "no Java runtime (apt-get install openjdk-17-jre-headless, or set JAVA_HOME)"


def start_session():
    """The shared session (getOrCreate: a second call returns the same one)."""
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")      # never the machine's network
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)   # workers: this interpreter
    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master("local[2]").appName("irlab-tests")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.driver.host", "127.0.0.1")
             .config("spark.driver.bindAddress", "127.0.0.1")
             .config("spark.sql.shuffle.partitions", "2")
             .config("spark.default.parallelism", "2")
             .config("spark.sql.execution.arrow.pyspark.enabled", "true")
             .config("spark.driver.memory", "1g")
             # The tests' jobs are tiny and many: the JVM's warm-up is most of their time.
             # C1 alone compiles Spark's code paths sooner than C1 then C2 (the JIT, not what
             # is computed), and one GC thread leaves the cores to the tests: the first
             # evaluation of the session 55-60 -> 20-32 s, the session 20-32 -> 12-19 s on
             # this (loaded) 2-core machine.
             .config("spark.driver.extraJavaOptions",
                     "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    return spark
