"""``python -m irlib`` as a drop-in for trec_eval: its default output byte for byte, its flags.

The expected text is built here from pytrec_eval's values (trec_eval's own C code) and
trec_eval's printing rules (``%-22s\\t<query>\\t%6.4f``, counts as integers, the measures in
its table's order, per-query lines in qrels order, then the ``all`` lines with ``runid``
first), so a difference in any value, name, order or space fails.
"""
import io
import json
import math
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np
import pytest
import pytrec_eval

from irlib.cli.trec_eval import main
from tests.test_parity import as_dicts, random_case

SAMPLES = Path(__file__).resolve().parents[1] / "assets" / "samples"
CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
LEVELS = [f"{i / 10:3.2f}" for i in range(11)]
PER_QUERY = (["num_ret", "num_rel", "num_rel_ret", "map", "Rprec", "bpref", "recip_rank"]
             + [f"iprec_at_recall_{lv}" for lv in LEVELS] + [f"P_{k}" for k in CUTS])
COUNTS = {"num_q", "num_ret", "num_rel", "num_rel_ret"}


def run_cli(*args, stdin: bytes | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main([str(a) for a in args])
    finally:
        sys.stdin = sys.__stdin__
    return code, out.getvalue(), err.getvalue()


def line(name, qid, value) -> str:
    text = str(int(value)) if name in COUNTS else f"{value:6.4f}"
    return f"{name:<22}\t{qid}\t{text}\n"


def expected_official(qrels, run, tag, *, per_query=False, complete=False, rel=1) -> str:
    """trec_eval's default output, from pytrec_eval's per-query values."""
    qd, rd = as_dicts(qrels, run)
    measures = {"num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
                "bpref", "recip_rank", "iprec_at_recall", "P"}
    values = pytrec_eval.RelevanceEvaluator(qd, measures, relevance_level=rel).evaluate(rd)
    queries = sorted(values)
    if complete:             # trec_eval -c: every qrels query, the missing ones score 0
        for q in set(qd) - set(values):
            n_rel = sum(g >= rel for g in qd[q].values())
            values[q] = {**{k: 0.0 for k in PER_QUERY}, "num_rel": n_rel,
                         "gm_map": math.log(1e-5)}
        queries = sorted(values)
    text = ""
    if per_query:
        text += "".join(line(name, q, values[q][name]) for q in queries for name in PER_QUERY)
    n = len(queries)
    mean = {name: sum(values[q][name] for q in queries) / n for name in PER_QUERY}
    total = {name: sum(values[q][name] for q in queries) for name in COUNTS - {"num_q"}}
    if complete:             # trec_eval -c: num_rel counts grades above 0 in the whole qrels
        total["num_rel"] = int((qrels["relevance"] > 0).sum())
    text += f"{'runid':<22}\tall\t{tag}\n" + line("num_q", "all", n)
    text += "".join(line(name, "all", total[name]) for name in ("num_ret", "num_rel",
                                                                 "num_rel_ret"))
    text += line("map", "all", mean["map"])
    text += line("gm_map", "all", math.exp(np.mean([values[q]["gm_map"] for q in queries])))
    text += "".join(line(name, "all", mean[name]) for name in PER_QUERY[4:])
    return text


def write_trec(tmp_path, qrels, run, tag="myrun"):
    q, r = tmp_path / "qrels.txt", tmp_path / "run.txt"
    q.write_text("".join(f"{a} 0 {b} {c}\n" for a, b, c in qrels.itertuples(index=False)))
    r.write_text("".join(f"{a} Q0 {b} {i} {c!r} {tag}\n"
                         for i, (a, b, c) in enumerate(run.itertuples(index=False))))
    return q, r


def test_default_output_is_trec_evals_byte_for_byte_on_the_samples():
    from irlib.io import read_qrels, read_run
    qrels, run = read_qrels(SAMPLES / "qrels.txt"), read_run(SAMPLES / "run_test.txt")
    code, out, err = run_cli(SAMPLES / "qrels.txt", SAMPLES / "run_test.txt")
    assert code == 0
    assert out == expected_official(qrels, run, "test")
    assert len(out.splitlines()) == 30
    code, out, _ = run_cli(SAMPLES / "qrels.txt", SAMPLES / "run_test.txt", "-q")
    assert out == expected_official(qrels, run, "test", per_query=True)


@pytest.mark.parametrize("flags", [[], ["-q"], ["-c", "-q"], ["-l", "2", "-q"]])
def test_default_output_on_random_runs(tmp_path, flags):
    qrels, run = random_case(21, n_queries=80)
    qrels = qrels[qrels.relevance >= 0]          # pytrec_eval's dicts: every grade a judgment
    q, r = write_trec(tmp_path, qrels, run[run.query_id != "run-only"])
    code, out, _ = run_cli(q, r, *flags)
    rel = int(flags[flags.index("-l") + 1]) if "-l" in flags else 1
    assert code == 0
    assert out == expected_official(qrels, run, "myrun", per_query="-q" in flags,
                                    complete="-c" in flags, rel=rel)


def test_trec_eval_measure_syntax_and_order(tmp_path):
    """-m in any order prints in trec_eval's table order; the first parameter list wins."""
    code, out, _ = run_cli(SAMPLES / "qrels.txt", SAMPLES / "run_test.txt", "-m", "ndcg_cut.10",
                           "-m", "P.10,5", "-m", "recip_rank", "-m", "map", "-m", "P")
    names = [row.split("\t")[0].strip() for row in out.splitlines()]
    assert names == ["map", "recip_rank", "P_5", "P_10", "ndcg_cut_10"]
    code, out, _ = run_cli(SAMPLES / "qrels.txt", SAMPLES / "run_test.txt", "-m", "nDCG@10",
                           "-m", "AP")                    # ir_measures' names: as given
    assert [row.split("\t")[0].strip() for row in out.splitlines()] == ["nDCG@10", "AP"]


def test_run_from_standard_input_and_formats():
    data = (SAMPLES / "run_test.txt").read_bytes()
    code, out, _ = run_cli(SAMPLES / "qrels.txt", "-", "-m", "map", stdin=data)
    assert code == 0 and out == "map                   \tall\t0.8266\n"
    code, out, _ = run_cli(SAMPLES / "qrels.txt", SAMPLES / "run_test.txt", "-m", "map",
                           "-m", "num_q", "-q", "--format", "json")
    parsed = json.loads(out)
    assert parsed["runid"] == "test" and parsed["all"]["num_q"] == 24
    assert parsed["per_query"]["1"]["map"] == pytest.approx(0.9167, abs=1e-4)
    code, out, _ = run_cli(SAMPLES / "qrels.txt", SAMPLES / "run_test.txt", "-m", "P.5",
                           "--format", "csv")
    header, row = out.splitlines()
    assert header == "measure,query,value" and row.startswith("P_5,all,0.69166666666666")


@pytest.mark.parametrize("args, message", [
    (["-m", "mapp"], "unknown measure 'mapp'"),
    (["-m", "relstring"], "does not compute trec_eval's 'relstring'"),
    (["-m", "P.0"], "must be a positive integer"),
    (["-l", "0"], "-l must be at least 1"),
])
def test_bad_options_are_one_clear_line(args, message):
    code, out, err = run_cli(SAMPLES / "qrels.txt", SAMPLES / "run_test.txt", *args)
    assert code == 2 and out == "" and message in err and "Traceback" not in err


def test_as_a_subprocess_with_trec_eval_flags():
    """The command line itself: flags before or after the files, -c -q rows for the query
    the run misses (trec_eval 10), a note on stderr only."""
    proc = subprocess.run([sys.executable, "-m", "irlib", "-c", "-q", "-m", "num_rel",
                           "-m", "map", str(SAMPLES / "qrels.txt"), str(SAMPLES / "run_test.txt")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0
    assert "num_rel               \t9\t3\nmap                   \t9\t0.0000\n" in proc.stdout
    assert "# 1 query of the qrels missing from the run: scored 0 (-c)" in proc.stderr
