"""How fast are the upload readers? A 700,000-line TREC run and its qrels.

    python benchmarks/bench_upload.py [--queries 7000] [--docs 100] [--repeat 3]

Generates the files in a temporary folder, times ``irlib.io.read_run`` and
``irlib.io.read_qrels`` (median of ``--repeat`` runs) and compares each with a bare
``pandas.read_csv(path, sep=r"\\s+", header=None)`` of the same file, measured in the same
process.  The readers do more (UTF-8 check, per-line column counts, string ids, value
and duplicate checks), so a ratio above 1 is expected; the budget is 1.5 s for the run.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from irlib.io import read_qrels, read_run  # noqa: E402

BUDGET_S = 1.5


def write_files(folder: Path, n_queries: int, n_docs: int, seed: int = 0) -> tuple[Path, Path]:
    rng = np.random.default_rng(seed)
    qids = np.repeat(np.arange(1, n_queries + 1), n_docs).astype(str)
    # distinct documents within each query: a random offset into a per-query block
    docs = (np.arange(n_queries)[:, None] * 1000
            + np.argsort(rng.random((n_queries, 1000)), axis=1)[:, :n_docs]).ravel()
    docnos = np.char.add("doc", docs.astype(str))
    ranks = np.tile(np.arange(1, n_docs + 1), n_queries).astype(str)
    scores = -np.sort(-rng.random((n_queries, n_docs)) * 30, axis=1).ravel()
    run = pd.DataFrame({"q": qids, "Q0": "Q0", "d": docnos, "r": ranks,
                        "s": np.char.mod("%.6f", scores), "t": "bench"})
    run_path = folder / "run.txt"
    run.to_csv(run_path, sep=" ", header=False, index=False)
    judged = rng.random(len(run)) < 0.3           # judge ~30% of retrieved documents
    qrels = pd.DataFrame({"q": qids[judged], "it": "0", "d": docnos[judged],
                          "rel": rng.choice([0, 0, 1, 2, 3], size=int(judged.sum()))})
    qrels_path = folder / "qrels.txt"
    qrels.to_csv(qrels_path, sep=" ", header=False, index=False)
    return run_path, qrels_path


def median_time(fn, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=7000)
    ap.add_argument("--docs", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        run_path, qrels_path = write_files(Path(tmp), args.queries, args.docs)
        n_run = sum(1 for _ in open(run_path, "rb"))
        n_qrels = sum(1 for _ in open(qrels_path, "rb"))
        print(f"run file:   {n_run:,} lines, {run_path.stat().st_size / 2**20:.1f} MB")
        print(f"qrels file: {n_qrels:,} lines, {qrels_path.stat().st_size / 2**20:.1f} MB")
        print(f"timing: median of {args.repeat} runs; pandas {pd.__version__}, "
              f"numpy {np.__version__}, Python {sys.version.split()[0]}")
        ok = True
        for label, path, reader, n in (("read_run", run_path, read_run, n_run),
                                       ("read_qrels", qrels_path, read_qrels, n_qrels)):
            ref_s, _ = median_time(lambda: pd.read_csv(path, sep=r"\s+", header=None),
                                   args.repeat)
            ours_s, df = median_time(lambda: reader(path), args.repeat)
            assert len(df) == n, (len(df), n)
            print(f"{label:<11} {ours_s:7.3f} s   "
                  f"reference pandas.read_csv(sep=r'\\s+', header=None) {ref_s:7.3f} s   "
                  f"ratio {ours_s / ref_s:5.2f}x")
            if label == "read_run":
                within = ours_s < BUDGET_S
                ok &= within
                print(f"read_run budget: {BUDGET_S:.1f} s -> {'OK' if within else 'TOO SLOW'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
