"""Time nDCG@10, AP, R@100 and RR@10 on 7,000 queries x 1,000 docs: irlib vs pytrec_eval vs ranx.

Each library starts from the same pandas DataFrames and is timed end to end (its own data
structures included), warm, median of ``--repeat`` runs, in one process. Prints seconds and
irlib's ratio to the faster reference. Run: ``python benchmarks/bench_evaluate.py``.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

import irlib  # noqa: E402
from benchmarks._synthetic import make_data  # noqa: E402

MEASURES = ["nDCG@10", "AP", "R@100", "RR@10"]


def run_irlib(qrels, run):
    return irlib.evaluate(qrels, run, MEASURES).means


def run_pytrec_eval(qrels, run):
    import pytrec_eval
    qd, rd = {}, {}
    for q, d, r in zip(qrels["query_id"], qrels["doc_id"], qrels["relevance"]):
        qd.setdefault(q, {})[d] = int(r)
    for q, d, s in zip(run["query_id"], run["doc_id"], run["score"]):
        rd.setdefault(q, {})[d] = float(s)
    # trec_eval has no RR@10; recip_rank is computed in the same pass, so the work is comparable
    ev = pytrec_eval.RelevanceEvaluator(qd, {"ndcg_cut.10", "map", "recall.100", "recip_rank"})
    return ev.evaluate(rd)


def run_ranx(qrels_obj, run_obj):
    from ranx import Qrels, Run, evaluate
    q = Qrels.from_df(qrels_obj, q_id_col="query_id", doc_id_col="doc_id", score_col="relevance")
    r = Run.from_df(run_obj, q_id_col="query_id", doc_id_col="doc_id", score_col="score")
    return evaluate(q, r, ["ndcg@10", "map", "recall@100", "mrr@10"])


def timed(fn, *args, repeat):
    fn(*args)                                   # warm-up (numba compilation for ranx)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times), times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--queries", type=int, default=7000)
    parser.add_argument("--docs", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    qrels, run = make_data(args.queries, args.docs)
    print(f"data: {len(run):,} run rows, {len(qrels):,} qrels rows, {args.queries:,} queries")
    # ranx insists on object-dtype id columns (pandas 3 defaults to its string dtype)
    ranx_qrels = qrels.astype({"query_id": object, "doc_id": object})
    ranx_run = run.astype({"query_id": object, "doc_id": object})

    results = {}
    results["irlib"] = timed(run_irlib, qrels, run, repeat=args.repeat)
    results["pytrec_eval"] = timed(run_pytrec_eval, qrels, run, repeat=args.repeat)
    try:
        results["ranx"] = timed(run_ranx, ranx_qrels, ranx_run, repeat=args.repeat)
    except ImportError:
        print("ranx not installed: skipped")
    for name, (median, times) in results.items():
        print(f"{name:12s} median {median:7.3f} s   runs: {', '.join(f'{t:.3f}' for t in times)}")
    reference = min(v[0] for k, v in results.items() if k != "irlib")
    ours = results["irlib"][0]
    print(f"irlib / faster reference = {ours / reference:.3f}  (target <= 0.30)")

    # sanity: the means agree with pytrec_eval's
    means = run_irlib(qrels, run)
    theirs = run_pytrec_eval(qrels, run)
    qids = qrels["query_id"].unique()
    te_ndcg = np.mean([theirs.get(q, {}).get("ndcg_cut_10", 0.0) for q in qids])
    te_map = np.mean([theirs.get(q, {}).get("map", 0.0) for q in qids])
    print(f"check: nDCG@10 irlib {means['nDCG@10']:.6f} trec_eval {te_ndcg:.6f}; "
          f"AP irlib {means['AP']:.6f} trec_eval {te_map:.6f}")


if __name__ == "__main__":
    main()
