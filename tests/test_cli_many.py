"""``python -m irlib QRELS RUN1 RUN2 …``: the systems table from the shell, with the same
numbers, marks and findings as the page (issue 33's reproduction, tests/issue33_data.py)."""
from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest

from irlib.cli.trec_eval import main
from tests import issue33_data
from tests.apptest import run_page

NAMES = ("bm25", "rerank", "weak")


@pytest.fixture(scope="module")
def paths(tmp_path_factory):
    folder = tmp_path_factory.mktemp("issue33")
    for name, data in issue33_data.files().items():
        (folder / name).write_bytes(data)
    return [str(folder / "qrels.txt")] + [str(folder / f"run_{n}.txt") for n in NAMES]


def _cli(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_page_and_the_shell_print_the_same_table(paths, capsys):
    """The page's systems table (AppTest) cell for cell against the shell's text table."""
    at = run_page("upload", query={"input": "trec", "measures": "nDCG,AP,P", "by": "nDCG",
                                   "k": "10", "test": "t-test"}, timeout=90)
    files = issue33_data.files()
    at.session_state["upload_inject"] = [("qrels", "qrels.txt", files["qrels.txt"])] + [
        ("run", f"run_{n}.txt", files[f"run_{n}.txt"]) for n in NAMES]
    at.run()
    assert not at.exception, at.exception
    (page,) = [d.value for d in at.dataframe if "system" in d.value.columns
               and any(c.startswith("better / tie / worse") for c in d.value.columns)]
    code, out, _ = _cli(capsys, *paths, "-m", "nDCG@10", "-m", "AP", "-m", "P@10",
                        "--test", "t-test")
    assert code == 0
    rows = {line.split()[0]: line.split("  ") for line in out.splitlines()
            if line.split() and line.split()[0] in NAMES}
    for _, row in page.iterrows():
        shell = [c.strip() for c in rows[row["system"]] if c.strip()][1:]
        assert list(row.iloc[1:4]) == shell, (row["system"], shell)


def test_json_carries_the_findings_the_page_says(paths, capsys):
    code, out, _ = _cli(capsys, *paths, "-m", "ndcg_cut.10", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["baseline"] == "bm25" and data["test"] == "randomization test"
    (weak,) = [c for c in data["comparisons"] if c["system"] == "weak"]
    assert weak["p_uncorrected"] == pytest.approx(0.033, abs=0.005)
    assert weak["p_corrected"] == pytest.approx(0.066, abs=0.01)
    assert weak["comparisons_corrected_together"] == 2
    assert not weak["marked"] and weak["finding"] == "no clear difference"
    assert "No system clearly beats or falls behind bm25" in data["summary"]


def test_every_pair_and_a_baseline_by_name_in_csv(paths, capsys):
    code, out, _ = _cli(capsys, *paths, "-m", "AP", "--all-pairs", "--baseline", "weak",
                        "--test", "t-test", "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["system"] for r in rows] == ["weak", "bm25", "rerank", "rerank"]
    assert rows[0]["against"] == "" and rows[3]["against"] == "bm25"
    assert {r["comparisons_corrected_together"] for r in rows[1:]} == {"3"}
    assert {r["test"] for r in rows[1:]} == {"t-test"}


@pytest.mark.parametrize("args, message", [
    (["--baseline", "nope"], "--baseline 'nope' is none of the runs"),
    (["--alpha", "2"], "--alpha must be between 0 and 1"),
])
def test_bad_options_for_many_runs_are_one_clear_line(paths, capsys, args, message):
    code, out, err = _cli(capsys, *paths, *args)
    assert code == 2 and out == "" and message in err


def test_as_a_subprocess():
    """The command itself, with the app's TREC samples (four runs)."""
    from tests.test_cli import SAMPLES

    runs = [SAMPLES / f"run_{n}.txt" for n in ("control", "test", "rm3", "dense")]
    proc = subprocess.run([sys.executable, "-m", "irlib", str(SAMPLES / "qrels.txt"),
                           *map(str, runs), "-m", "map"], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("# 4 runs compared on 24 queries;") and "baseline control" in proc.stdout


@pytest.fixture(scope="module")
def cut_paths(paths, tmp_path_factory):
    """rerank without its first 5 queries, and a qrels query no run answers (issue 42)."""
    folder = tmp_path_factory.mktemp("issue42")
    qrels, bm25, rerank, weak = paths
    lines = open(rerank, encoding="utf-8").read().splitlines()
    dropped = sorted({line.split()[0] for line in lines})[:5]
    cut = folder / "run_rerank.txt"
    cut.write_text("\n".join(line for line in lines if line.split()[0] not in dropped) + "\n",
                   encoding="utf-8")
    extra = folder / "qrels.txt"
    extra.write_text(open(qrels, encoding="utf-8").read() + "999 0 nowhere 1\n",
                     encoding="utf-8")
    return [str(extra), bm25, str(cut), weak], dropped


def test_many_runs_name_missing_queries_what_c_changes_and_the_queries_compared(cut_paths,
                                                                                capsys):
    paths, dropped = cut_paths
    code, out, _ = _cli(capsys, *paths, "-m", "AP", "--test", "t-test")
    assert code == 0
    lines = out.splitlines()
    # the comparisons use 55 (rerank) and 60 queries: never the 61 of the qrels
    assert lines[0].startswith("# 3 runs compared on 55–60 queries (each comparison uses")
    (rerank,) = [line for line in lines if line.startswith("# rerank leaves out")]
    assert rerank.startswith(f"# rerank leaves out 6 of the 61 judged queries "
                             f"({', '.join(dropped)}, 999)")
    assert "rest on the 55 it answers; -c scores them 0" in rerank
    assert any(line.startswith("# bm25 leaves out 1 of the 61 judged queries (999)")
               for line in lines)
    assert any(line.startswith("# with -c") for line in lines)        # its effect, said
    (row,) = [line for line in lines if line.startswith("AP") and " rerank " in line]
    assert " 55 " in row and "†" in row                # over different query sets: flagged
    assert any(line.startswith("†: the two runs' means above were taken over different")
               for line in lines)
    code, out, _ = _cli(capsys, *paths, "-m", "AP", "--test", "t-test", "-c")
    assert out.splitlines()[0].startswith("# 3 runs compared on 61 queries;")
    assert "scored 0 (-c)" in out and "†" not in out


def test_cli_p_values_follow_the_one_rule_and_judged_is_never_marked(paths, capsys):
    code, out, _ = _cli(capsys, *paths, "-m", "AP", "-m", "Judged@10", "--test", "t-test")
    assert code == 0 and "e-0" not in out
    from irlib.stats.p_values import format_p
    records = json.loads(_cli(capsys, *paths, "-m", "AP", "-m", "Judged@10", "--test",
                              "t-test", "--format", "json")[1])["comparisons"]
    for r in records:
        assert format_p(r["p_uncorrected"]) in out
    table = [line for line in out.splitlines() if line.split() and line.split()[0] in NAMES]
    judged = [line.split("  ")[-1] for line in table]
    assert not any(mark in cell for cell in judged for mark in "▲▼★")
    assert all(r["finding"] == "not a quality measure" for r in records
               if r["measure"] == "Judged@10")


def test_the_star_is_shared_or_given_to_none_in_the_cli(paths, capsys):
    qrels, bm25, *_ = paths
    code, out, _ = _cli(capsys, qrels, bm25, bm25, "-m", "AP")
    assert code == 0 and "★" not in out.split("\n\n")[1]          # two equal runs: none
    rows = list(csv.DictReader(io.StringIO(_cli(capsys, qrels, bm25, bm25, "-m", "AP",
                                                 "--format", "csv")[1])))
    assert {r["best"] for r in rows} == {"False"}


def test_every_pair_headline_says_the_marked_pairs(paths, capsys):
    code, out, _ = _cli(capsys, *paths, "-m", "AP", "--all-pairs", "--test", "t-test",
                        "--format", "json")
    data = json.loads(out)
    between = [c for c in data["comparisons"] if c["against"] != "bm25"]
    said = data["summary"].split("Between the other systems: ")[1]
    for c in between:
        if c["marked"]:
            verb = "beats" if c["finding"] == "better" else "falls behind"
            assert f"{c['system']} {verb} {c['against']} on AP" in said
    if not any(c["marked"] for c in between):
        assert said.startswith("no pair is marked.")
