"""trec_eval's default set ("official", 30 lines) with irlib, against pytrec_eval and ranx.

1. In memory, 7,000 queries x 1,000 docs (1% tied scores): ``irlib.evaluate(qrels, run,
   ["official"])`` vs pytrec_eval's ``RelevanceEvaluator(qrels, official).evaluate(run)`` on
   prebuilt dicts, the same set of measures (target <= 0.30).
2. The command line, files to printed text, on a 700,000-line run (700 queries x 1,000 docs):
   ``python -m irlib QRELS RUN`` against the same job written for pytrec_eval (parse both
   files, evaluate the official set, print the 30 lines) and for ranx (the official measures
   ranx has: map, Rprec, bpref, recip_rank, P_5 ... P_1000; it has no gm_map, num_* or
   iprec_at_recall), each a fresh Python process: wall time, CPU time (user + system) and
   peak resident memory (``os.wait4``'s ru_maxrss) of each, and irlib's ratios to
   pytrec_eval's (targets: <= 0.50 in time, <= 1 in memory).

Medians of ``--repeat`` interleaved runs; machines are noisy. Also checks that the 30 lines
agree with pytrec_eval's values. Run: ``python benchmarks/bench_trec_eval.py`` (``--cli-only``
for 2. alone, ``--no-ranx`` to leave ranx out).
"""
from __future__ import annotations

import argparse
import compileall
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pytrec_eval  # noqa: E402

import irlib  # noqa: E402
from benchmarks._synthetic import make_data  # noqa: E402
from benchmarks.bench_evaluate import interleaved, report, to_dicts, write_trec  # noqa: E402

TIME = "/usr/bin/time"                     # GNU time (Debian's "time" package)
OFFICIAL = {"num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
            "recip_rank", "iprec_at_recall", "P"}

PYTREC_EVAL_CLI = r'''
import math, sys, pytrec_eval
with open(sys.argv[1]) as f:
    qrels = pytrec_eval.parse_qrel(f)
with open(sys.argv[2]) as f:
    run = pytrec_eval.parse_run(f)
measures = {"num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
            "recip_rank", "iprec_at_recall", "P"}
values = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
names = ["num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
         "recip_rank"] + [f"iprec_at_recall_{i / 10:3.2f}" for i in range(11)] + [
         f"P_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]
n = len(values)
print(f"{'runid':<22}\tall\tbench")
for name in names:
    column = [v[name] for v in values.values()]
    if name == "num_q":
        print(f"{name:<22}\tall\t{n}")
    elif name.startswith("num_"):
        print(f"{name:<22}\tall\t{int(sum(column))}")
    elif name == "gm_map":
        print(f"{name:<22}\tall\t{math.exp(sum(column) / n):6.4f}")
    else:
        print(f"{name:<22}\tall\t{sum(column) / n:6.4f}")
'''

RANX_CLI = r'''
import sys, ranx
qrels = ranx.Qrels.from_file(sys.argv[1], kind="trec")
run = ranx.Run.from_file(sys.argv[2], kind="trec")
metrics = ["map", "r-precision", "bpref", "mrr"] + [
    f"precision@{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]
for name, value in ranx.evaluate(qrels, run, metrics).items():
    print(f"{name:<22}\tall\t{value:6.4f}")
'''


def measured(args: list[str]) -> tuple[str, float, float, float]:
    """Run ``args`` once in a fresh process: (stdout, wall s, CPU s, peak RSS MiB).

    Under GNU time (``/usr/bin/time``): ``os.wait4``'s ru_maxrss of a child forked from this
    large process would count the parent's pages it had before ``exec``.
    """
    import time
    with tempfile.NamedTemporaryFile("r") as usage:
        start = time.perf_counter()
        out = subprocess.run([TIME, "-f", "%U %S %M", "-o", usage.name, *args],
                             capture_output=True, text=True, check=True)
        wall = time.perf_counter() - start
        user, system, kib = usage.read().split()[-3:]
    return out.stdout, wall, float(user) + float(system), int(kib) / 1024


def compare_processes(jobs: dict[str, list[str]], repeat: int) -> dict[str, dict]:
    """Each command ``repeat`` times, interleaved (after one warm-up round for the page
    cache): medians of wall time, CPU time and peak resident memory."""
    for args in jobs.values():
        measured(args)
    runs = {name: [] for name in jobs}
    for _ in range(repeat):
        for name, args in jobs.items():
            runs[name].append(measured(args)[1:])
    return {name: {"wall": statistics.median(r[0] for r in rs),
                   "cpu": statistics.median(r[1] for r in rs),
                   "rss": statistics.median(r[2] for r in rs),
                   "walls": [r[0] for r in rs]} for name, rs in runs.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--queries", type=int, default=7000)
    parser.add_argument("--cli-queries", type=int, default=700)
    parser.add_argument("--docs", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--cli-only", action="store_true", help="only the command line (2.)")
    parser.add_argument("--no-ranx", action="store_true", help="leave ranx out of 2.")
    args = parser.parse_args()

    if not args.cli_only:
        in_memory(args)
    command_line(args)


def in_memory(args) -> None:
    qrels, run = make_data(args.queries, args.docs, tie_fraction=0.01)
    qd, rd = to_dicts(qrels, run)
    evaluator = pytrec_eval.RelevanceEvaluator(qd, OFFICIAL)
    print(f"1. in memory, {len(run):,} run rows: irlib.evaluate(official) vs pytrec_eval")
    times = interleaved({"irlib.evaluate": lambda: irlib.evaluate(qrels, run, ["official"]),
                         "pytrec_eval evaluate": lambda: evaluator.evaluate(rd)}, args.repeat)
    report(times)
    ratio = statistics.median(times["irlib.evaluate"]) / statistics.median(
        times["pytrec_eval evaluate"])
    print(f"  irlib / pytrec_eval = {ratio:.3f}  (target <= 0.30)")


def command_line(args) -> None:
    # irlib's modules as an installed wheel has them: compiled (pip compiles at install;
    # with PYTHONDONTWRITEBYTECODE each run would compile irlib's sources again)
    compileall.compile_dir(str(ROOT / "irlib"), quiet=1)
    qrels, run = make_data(args.cli_queries, args.docs, tie_fraction=0.01, seed=1)
    with tempfile.TemporaryDirectory() as folder:
        qrels_path, run_path = (str(p) for p in write_trec(qrels, run, Path(folder)))
        print(f"2. command line, files to printed text, {len(run):,}-line run "
              "(fresh processes; medians)")
        jobs = {"python -m irlib": [sys.executable, "-m", "irlib", qrels_path, run_path],
                "pytrec_eval script": [sys.executable, "-c", PYTREC_EVAL_CLI, qrels_path,
                                       run_path]}
        if not args.no_ranx:
            jobs["ranx script"] = [sys.executable, "-c", RANX_CLI, qrels_path, run_path]
        got = compare_processes(jobs, args.repeat)
        for name, g in got.items():
            print(f"  {name:22s} wall {g['wall']:6.3f} s  CPU {g['cpu']:6.3f} s  "
                  f"peak RSS {g['rss']:6.1f} MiB   walls: "
                  f"{', '.join(f'{t:.2f}' for t in g['walls'])}")
        ours, ref = got["python -m irlib"], got["pytrec_eval script"]
        print(f"  irlib / pytrec_eval: wall {ours['wall'] / ref['wall']:.3f}, CPU "
              f"{ours['cpu'] / ref['cpu']:.3f} (target <= 0.50); peak memory "
              f"{ours['rss'] / ref['rss']:.3f} (target <= 1)")
        irlib_lines = measured(jobs["python -m irlib"])[0].splitlines()[1:]   # runid differs
        theirs = measured(jobs["pytrec_eval script"])[0].splitlines()[1:]
        print("check: the 29 numeric lines agree with pytrec_eval's:",
              "yes" if irlib_lines == theirs else f"NO\n{irlib_lines}\n{theirs}")

if __name__ == "__main__":
    main()
