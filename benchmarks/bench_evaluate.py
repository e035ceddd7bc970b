"""Time nDCG@10, AP, R@100 and RR@10 on 7,000 queries x 1,000 docs (1% tied scores).

Two comparisons, each timed in one process, warm, interleaved, median of ``--repeat`` runs:

1. in memory: ``irlib.evaluate`` on DataFrames vs pytrec_eval's ``RelevanceEvaluator.evaluate``
   on prebuilt dicts (its dict building and qrels parsing not counted);
2. from TREC files on disk to means: irlib (``read_qrels`` + ``read_run`` + ``evaluate``) vs
   pytrec_eval (``parse_qrel`` / ``parse_run`` + evaluate) and ranx (``Qrels.from_file`` /
   ``Run.from_file`` + ``evaluate``), against the faster of the two.

Prints seconds and irlib's ratios (targets <= 0.10 in memory, <= 0.30 from files), irlib's
reading vs evaluating time, and checks that the means agree. Run: ``python benchmarks/bench_evaluate.py``.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import pytrec_eval
import ranx

import irlib
import irlib._codes
from benchmarks._synthetic import make_data
from irlib.io import read_qrels, read_run

MEASURES = ["nDCG@10", "AP", "R@100", "RR@10"]
# trec_eval has no RR@10; recip_rank is computed in the same pass, so the work is comparable
TREC_EVAL_MEASURES = {"ndcg_cut.10", "map", "recall.100", "recip_rank"}
RANX_MEASURES = ["ndcg@10", "map", "recall@100", "mrr@10"]


def to_dicts(qrels, run):
    qd, rd = {}, {}
    for q, d, r in zip(qrels["query_id"], qrels["doc_id"], qrels["relevance"]):
        qd.setdefault(q, {})[d] = int(r)
    for q, d, s in zip(run["query_id"], run["doc_id"], run["score"]):
        rd.setdefault(q, {})[d] = float(s)
    return qd, rd


def cold_evaluate(qrels, run):
    """``irlib.evaluate`` as on frames it has not seen: the id codes it remembers for the
    frames' Arrow columns (:mod:`irlib._codes`; the same frames evaluated again reuse them)
    forgotten first."""
    irlib._codes._remembered.clear()
    return irlib.evaluate(qrels, run, MEASURES)


def write_trec(qrels, run, folder: Path) -> tuple[Path, Path]:
    qrels_path, run_path = folder / "qrels.txt", folder / "run.txt"
    qrels_path.write_text("".join(f"{q} 0 {d} {r}\n" for q, d, r in qrels.itertuples(index=False)))
    ranked = run.sort_values(["query_id", "score"], ascending=[True, False], kind="stable")
    rank = ranked.groupby("query_id").cumcount() + 1
    run_path.write_text("".join(f"{q} Q0 {d} {k} {s!r} bench\n" for (q, d, s), k in
                                zip(ranked.itertuples(index=False), rank)))
    return qrels_path, run_path


def irlib_from_files(qrels_path, run_path, times=None):
    start = time.perf_counter()
    qrels, run = read_qrels(qrels_path), read_run(run_path)
    read = time.perf_counter()
    means = irlib.evaluate(qrels, run, MEASURES).means
    if times is not None:
        times.append((read - start, time.perf_counter() - read))
    return means


def pytrec_eval_from_files(qrels_path, run_path):
    with open(qrels_path) as f:
        qd = pytrec_eval.parse_qrel(f)
    with open(run_path) as f:
        rd = pytrec_eval.parse_run(f)
    return pytrec_eval.RelevanceEvaluator(qd, TREC_EVAL_MEASURES).evaluate(rd)


def ranx_from_files(qrels_path, run_path):
    qrels = ranx.Qrels.from_file(str(qrels_path), kind="trec")
    run = ranx.Run.from_file(str(run_path), kind="trec")
    return ranx.evaluate(qrels, run, RANX_MEASURES)


def interleaved(jobs: dict, repeat: int) -> dict[str, list[float]]:
    """Each job once for warm-up (numba compiles ranx), then ``repeat`` rounds in turn."""
    for fn in jobs.values():
        fn()
    times: dict[str, list[float]] = {name: [] for name in jobs}
    for _ in range(repeat):
        for name, fn in jobs.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return times


def report(times: dict[str, list[float]]) -> None:
    for name, runs in times.items():
        print(f"  {name:34s} median {statistics.median(runs):7.3f} s   "
              f"runs: {', '.join(f'{t:.2f}' for t in runs)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--queries", type=int, default=7000)
    parser.add_argument("--docs", type=int, default=1000)
    parser.add_argument("--ties", type=float, default=0.01, help="fraction of tied scores")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    qrels, run = make_data(args.queries, args.docs, tie_fraction=args.ties)
    print(f"data: {len(run):,} run rows, {len(qrels):,} qrels rows, {args.queries:,} queries, "
          f"{run.duplicated(['query_id', 'score']).sum():,} rows tied with another")

    qd, rd = to_dicts(qrels, run)
    evaluator = pytrec_eval.RelevanceEvaluator(qd, TREC_EVAL_MEASURES)
    print("1. in memory: irlib.evaluate(DataFrames) vs pytrec_eval evaluate(prebuilt dicts)")
    times = interleaved({"irlib.evaluate": lambda: irlib.evaluate(qrels, run, MEASURES),
                         "irlib.evaluate, ids coded afresh": lambda: cold_evaluate(qrels, run),
                         "pytrec_eval evaluate": lambda: evaluator.evaluate(rd)}, args.repeat)
    report(times)
    for name in ("irlib.evaluate", "irlib.evaluate, ids coded afresh"):
        ratio = statistics.median(times[name]) / statistics.median(times["pytrec_eval evaluate"])
        print(f"  {name} / pytrec_eval = {ratio:.3f}  (target <= 0.10)")

    with tempfile.TemporaryDirectory() as folder:
        qrels_path, run_path = write_trec(qrels, run, Path(folder))
        print("2. from TREC files to means: read + evaluate")
        split: list[tuple[float, float]] = []
        times = interleaved({
            "irlib read + evaluate": lambda: irlib_from_files(qrels_path, run_path, split),
            "pytrec_eval parse + evaluate": lambda: pytrec_eval_from_files(qrels_path, run_path),
            "ranx from_file + evaluate": lambda: ranx_from_files(qrels_path, run_path),
        }, args.repeat)
        report(times)
        reference = min(statistics.median(times[k]) for k in times if not k.startswith("irlib"))
        ours = statistics.median(times["irlib read + evaluate"])
        print(f"  irlib / faster reference = {ours / reference:.3f}  (target <= 0.30); irlib "
              f"reading {statistics.median(r for r, _ in split):.3f} s, evaluating "
              f"{statistics.median(e for _, e in split):.3f} s")
        from_files = irlib_from_files(qrels_path, run_path)

    # sanity: the means agree with trec_eval's (default averaging: the queries in the run)
    means = irlib.evaluate(qrels, run, MEASURES).means
    theirs = evaluator.evaluate(rd)
    te_ndcg = np.mean([v["ndcg_cut_10"] for v in theirs.values()])
    te_map = np.mean([v["map"] for v in theirs.values()])
    print(f"check: nDCG@10 irlib {means['nDCG@10']:.6f} trec_eval {te_ndcg:.6f}; "
          f"AP irlib {means['AP']:.6f} trec_eval {te_map:.6f}; from files "
          f"{from_files['nDCG@10']:.6f}, {from_files['AP']:.6f}")


if __name__ == "__main__":
    main()
