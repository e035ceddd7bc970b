"""Upload -> per-query table on the "Your own judgments" page, for a 700,000-line run.

    python benchmarks/bench_upload_page.py [--queries 7000] [--docs 100] [--repeat 3]

Times what pages/upload.py does between receiving the files' bytes and drawing the table,
with the same functions (``ui.upload.model``), outside Streamlit and without its cache:

1. SHA-256 of the bytes (the page's cache key),
2. ``read_upload`` of the qrels and of the run (irlib's readers: every check included),
3. ``build_dataset`` + ``score`` (irlib.evaluate) with all six measures of the page,
4. ``per_query_table`` (the table frame, sorted worst first).

The reference, measured in the same process, is a bare
``pandas.read_csv(run, sep=r"\\s+", header=None)``. The target is < 3 s in total.
A second run and the paired comparison are timed as an extra line.  Then each kind of
upload (run, qrels, result table, rating sheet) is read from its bytes by ``read_upload``
and compared with a pandas read of the same file (median of ``--repeat``, interleaved).
"""
from __future__ import annotations

import argparse
import hashlib
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# ui.upload's st.cache_data wrappers warn "no runtime" outside Streamlit; the benchmark
# calls the plain functions underneath them.
import streamlit  # noqa: E402,F401  (sets up its loggers; quiet them afterwards)

for _name in ("streamlit", "streamlit.runtime.caching.cache_data_api"):
    logging.getLogger(_name).setLevel(logging.ERROR)
from benchmarks.bench_upload import print_ratios, reader_ratios, write_files  # noqa: E402
from irlib.stats.compare import compare_systems  # noqa: E402
from ui.upload import model as ui  # noqa: E402
from ui.upload.tables import per_query_table  # noqa: E402

BUDGET_S = 3.0
SETTINGS = ui.Settings(("nDCG", "DCG", "AP", "RR", "P", "R"), "nDCG", 10, "exponential")


def upload_to_table(qrels_bytes: bytes, run_bytes: bytes) -> tuple[dict, pd.DataFrame]:
    """The page's path from bytes to the per-query table; returns stage times and the table."""
    times = {}
    t0 = time.perf_counter()
    for data in (qrels_bytes, run_bytes):
        hashlib.sha256(data).hexdigest()
    t1 = time.perf_counter()
    qrels = ui.read_upload("qrels", "qrels.txt", qrels_bytes)
    run = ui.read_upload("run", "run.txt", run_bytes)
    t2 = time.perf_counter()
    dataset, missing = ui.build_dataset("trec", {"qrels": ui.Parsed("qrels.txt", qrels),
                                                 "run_1": ui.Parsed("run.txt", run)})
    assert missing is None, missing
    system = next(iter(dataset.runs))            # named after the run's tag
    evaluation = ui.score(dataset, SETTINGS.names)[system]
    t3 = time.perf_counter()
    table = per_query_table(dataset, evaluation, SETTINGS, system=system)
    t4 = time.perf_counter()
    times.update(digest=t1 - t0, parse=t2 - t1, evaluate=t3 - t2, table=t4 - t3, total=t4 - t0)
    return times, table


def compare_two(qrels_bytes: bytes, run_bytes: bytes, run_b_bytes: bytes) -> float:
    t0 = time.perf_counter()
    qrels = ui.read_upload("qrels", "qrels.txt", qrels_bytes)
    files = {"qrels": ui.Parsed("qrels.txt", qrels),
             "run_1": ui.Parsed("run_a.txt", ui.read_upload("run", "run_a.txt", run_bytes)),
             "run_2": ui.Parsed("run_b.txt", ui.read_upload("run", "run_b.txt", run_b_bytes))}
    dataset, _ = ui.build_dataset("trec", files)
    evaluations = ui.score(dataset, SETTINGS.names)
    name = SETTINGS.names[0]
    a, b = (ev.per_query[name] for ev in evaluations.values())
    compare_systems(a, b)
    return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=7000)
    ap.add_argument("--docs", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        run_path, qrels_path = write_files(Path(tmp), args.queries, args.docs)
        other = Path(tmp) / "other"
        other.mkdir()
        run_b_path, _ = write_files(other, args.queries, args.docs, seed=1)
        run_bytes, qrels_bytes = run_path.read_bytes(), qrels_path.read_bytes()
        n_run, n_qrels = run_bytes.count(b"\n"), qrels_bytes.count(b"\n")
        print(f"run file:   {n_run:,} lines, {len(run_bytes) / 2**20:.1f} MB")
        print(f"qrels file: {n_qrels:,} lines, {len(qrels_bytes) / 2**20:.1f} MB")
        print(f"measures:   {', '.join(SETTINGS.names)}")
        print(f"timing: median of {args.repeat} runs; pandas {pd.__version__}, "
              f"numpy {np.__version__}, Python {sys.version.split()[0]}")

        refs, runs = [], []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            pd.read_csv(run_path, sep=r"\s+", header=None)
            refs.append(time.perf_counter() - t0)
            times, table = upload_to_table(qrels_bytes, run_bytes)
            runs.append(times)
        assert len(table) == args.queries, len(table)
        ref = statistics.median(refs)
        med = {k: statistics.median(t[k] for t in runs) for k in runs[0]}
        print("stages:     " + "   ".join(f"{k} {v:.3f} s" for k, v in med.items()
                                          if k != "total"))
        print(f"upload -> table {med['total']:7.3f} s   reference pandas.read_csv(sep=r'\\s+', "
              f"header=None) of the run {ref:7.3f} s   ratio {med['total'] / ref:5.2f}x")
        two = statistics.median(compare_two(qrels_bytes, run_bytes, run_b_path.read_bytes())
                                for _ in range(args.repeat))
        print(f"two runs + comparison (parse both, evaluate both, tests) {two:7.3f} s")
        ok = med["total"] < BUDGET_S
        print(f"budget {BUDGET_S:.1f} s -> {'OK' if ok else 'TOO SLOW'}")
        print("read_upload per kind of file, from its bytes:")
        kinds = {"read_run": "run", "read_qrels": "qrels", "read_table": "table",
                 "read_ratings": "ratings"}
        readers = {label: (lambda path, kind=kind: ui.read_upload(kind, path.name,
                                                                  path.read_bytes()))
                   for label, kind in kinds.items()}
        tables = Path(tmp) / "tables"
        tables.mkdir()
        print_ratios(reader_ratios(tables, args.queries, args.docs, args.repeat, readers))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
