"""The command line's pandas-free path (irlib.batch.arrow) against irlib.evaluate's.

``python -m irlib QRELS RUN`` reads well-formed files with pyarrow and scores them with
:func:`irlib.batch.core.score_coded` without importing pandas; anything unusual goes to
``read_run`` + ``irlib.evaluate``. Both must print the same bytes, on random runs (ties,
missing and extra queries, negative grades) and on odd TREC text (tabs, runs of spaces,
extra columns after the tag, comments, CRLF, 3-column files, blank lines), with trec_eval's
flags. ``import irlib`` and the command line's imports must not load pandas.
"""
from __future__ import annotations

import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from io import StringIO
from pathlib import Path

import numpy as np
import pytest

import irlib.batch.arrow as arrow_path
from irlib.cli.trec_eval import main

ROOT = Path(__file__).resolve().parents[1]
FLAGS = [[], ["-q"], ["-c", "-q"], ["-M", "7"], ["-J", "-q"], ["-l", "2", "-q"],
         ["-m", "all_trec", "-q", "-c"], ["-m", "nDCG@10", "-m", "P.5,10", "-q"],
         ["--format", "json", "-q"], ["--format", "csv", "-c"]]


def _out(args) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


def both(args, monkeypatch) -> tuple[tuple, tuple, bool]:
    """(fast output, pandas output, whether the fast path took it)."""
    taken = []
    real = arrow_path.evaluate_files

    def spy(*a, **k):
        result = real(*a, **k)
        taken.append(result is not None)
        return result
    monkeypatch.setattr(arrow_path, "evaluate_files", spy)
    fast = _out(args)
    monkeypatch.setattr(arrow_path, "evaluate_files", lambda *a, **k: None)
    slow = _out(args)
    monkeypatch.setattr(arrow_path, "evaluate_files", real)
    return fast, slow, bool(taken and taken[0])


def random_files(folder: Path, seed: int, *, sep=" ", extra="") -> tuple[Path, Path]:
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for q in range(int(rng.integers(3, 25))):
        qid = f"{q * 37 % 101}" if rng.random() < 0.7 else f"q{q}"   # distinct, not sorted
        docs = [f"d{d}" for d in rng.choice(300, size=int(rng.integers(1, 60)), replace=False)]
        if rng.random() < 0.9 or q == 0:
            for d in rng.choice(docs, size=int(rng.integers(1, len(docs) + 1)), replace=False):
                qrels.append(f"{qid} 0 {d} {int(rng.integers(-1, 4))}")
        if rng.random() < 0.85 or q == 0:
            scores = rng.integers(0, 8, len(docs)) / 2 if rng.random() < 0.5 \
                else rng.normal(size=len(docs))
            order = np.argsort(-scores, kind="stable") if rng.random() < 0.7 \
                else rng.permutation(len(docs))
            for rank, i in enumerate(order, 1):
                run.append(sep.join([qid, "Q0", docs[i], str(rank), repr(float(scores[i])),
                                     "tag"]) + extra)
    if rng.random() < 0.3:                                  # the run answers a query more
        run.append(sep.join(["extra", "Q0", "d1", "1", "1.0", "tag"]))
    (folder / "qrels").write_text("\n".join(qrels) + "\n")
    (folder / "run").write_text("\n".join(run) + "\n")
    return folder / "qrels", folder / "run"


@pytest.mark.parametrize("seed", range(12))
def test_random_runs_print_the_same_bytes_both_ways(tmp_path, seed, monkeypatch):
    qrels, run = random_files(tmp_path, seed)
    for flags in FLAGS:
        fast, slow, taken = both([*flags, qrels, run], monkeypatch)
        assert taken, flags
        assert fast == slow, flags


ODD = {
    "tabs": ("q1\t0\td1\t1\nq1 0 d2 0\n", "q1\tQ0\td1\t1\t2.5\tt\nq1 Q0 d2 2 1.5 t\n"),
    "runs of spaces": ("q1  0 d1 1\n q1 0 d2 2 \n", "q1 Q0  d1 1 2.5 t\nq1 Q0 d2 2 1.5   t\n"),
    "after the tag": ("q1 0 d1 1\n", "q1 Q0 d1 1 2.5 t extra words\nq1 Q0 d2 2 1.5 t\n"),
    "comments": ("# judged\nq1 0 d1 1\n", "# by bm25\nq1 Q0 d1 1 2.5 t\n  # note\nq1 Q0 d2 2 1 t\n"),
    "crlf": ("q1 0 d1 1\r\nq1 0 d2 1\r\n", "q1 Q0 d1 1 2.5 t\r\nq1 Q0 d2 2 1.5 t\r\n"),
    "three columns": ("q1 d1 1\nq2 d3 2\n", "q1 d1 2.5\nq1 d2 1.5\nq2 d3 0.5\n"),
    "blank lines": ("\nq1 0 d1 1\n\n", "q1 Q0 d1 1 2.5 t\n\n\nq1 Q0 d2 2 1.5 t"),
    "no final newline": ("q1 0 d1 1", "q1 Q0 d1 1 2.5 t\nq1 Q0 d2 2 1.5 t"),
    "ties by doc id": ("q1 0 d1 1\nq1 0 d3 1\n", "q1 Q0 d1 1 1 t\nq1 Q0 d2 2 1 t\nq1 Q0 d3 3 1 t\n"),
    "scores": ("q1 0 d1 1\nq1 0 d2 1\n", "q1 Q0 d1 1 1e-3 t\nq1 Q0 d2 2 -0.0 t\nq1 Q0 d3 3 +2 t\n"),
    "utf-8 ids": ("q1 0 dé 1\nq1 0 d€ 1\n", "q1 Q0 dé 1 1 t\nq1 Q0 d€ 2 1 t\nq1 Q0 dz 3 1 t\n"),
    "latin-1": ("q1 0 d\xe9 1\n".encode("cp1252"), "q1 Q0 d\xe9 1 1 t\n".encode("cp1252")),
    "repeated pair": ("q1 0 d1 1\n", "q1 Q0 d1 1 2 t\nq1 Q0 d1 2 1 t\n"),
    "repeated judgment": ("q1 0 d1 1\nq1 0 d1 2\n", "q1 Q0 d1 1 2 t\n"),
    "bad score": ("q1 0 d1 1\n", "q1 Q0 d1 1 x t\n"),
    "inf score": ("q1 0 d1 1\n", "q1 Q0 d1 1 inf t\n"),
    "half grade": ("q1 0 d1 1.5\n", "q1 Q0 d1 1 1 t\n"),
    "qrels for a run": ("q1 Q0 d1 1 2 t\n", "q1 Q0 d1 1 1 t\n"),
    "no common query": ("q1 0 d1 1\n", "q2 Q0 d1 1 1 t\n"),
    "empty run": ("q1 0 d1 1\n", "# nothing\n"),
}


@pytest.mark.parametrize("case", sorted(ODD))
def test_odd_trec_text_prints_the_same_bytes_both_ways(tmp_path, case, monkeypatch):
    qrels_text, run_text = ODD[case]
    for path, text in ((tmp_path / "qrels", qrels_text), (tmp_path / "run", run_text)):
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
    for flags in ([], ["-q", "-c"], ["-m", "all_trec", "-q"]):
        fast, slow, _ = both([*flags, tmp_path / "qrels", tmp_path / "run"], monkeypatch)
        assert fast == slow, (case, flags)


def test_the_sample_files_take_the_fast_path(monkeypatch):
    samples = ROOT / "assets" / "samples"
    qrels = sorted(samples.glob("*qrels*"))
    runs = sorted(p for p in samples.glob("*run*") if p.suffix in ("", ".txt", ".gz"))
    if not qrels or not runs:
        pytest.skip("no sample files")
    fast, slow, taken = both(["-q", qrels[0], runs[0]], monkeypatch)
    assert fast == slow


@pytest.mark.parametrize("code", [
    "import irlib",
    "import irlib.io",
    "import irlib.cli.trec_eval",
    "import sys; from irlib.cli.trec_eval import main; sys.argv[1:] = ['{qrels}', '{run}']; "
    "main(sys.argv[1:])",
])
def test_no_pandas_on_the_command_lines_path(tmp_path, code):
    """ir_measures' rule: importing the library loads no heavy dependency; the command line
    evaluates a well-formed run without pandas (0.3 to 1 s of start-up on its own)."""
    qrels, run = random_files(tmp_path, 0)
    check = code.format(qrels=qrels, run=run) + (
        "\nimport sys\nheavy = [m for m in ('pandas', 'scipy', 'pyarrow') if m in sys.modules]"
        "\nassert 'pandas' not in heavy and 'scipy' not in heavy, heavy"
        + ("\nassert 'pyarrow' not in heavy, heavy" if "main(" not in code else ""))
    out = subprocess.run([sys.executable, "-c", check], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


@pytest.mark.parametrize("at", [None, 0, 1, -1, -2])
def test_a_file_read_in_chunks_gives_what_its_bytes_give(tmp_path, at):
    """plain_file_columns checks the file 1 MiB at a time: a double space straddling two
    chunks (or at either end) is found, and a clean file gives the bytes path's columns."""
    from irlib.io import trec_columns as tc

    lines = b"".join(b"q%d Q0 doc%d %d %d.5 run%d\n" % (i // 1000, i, i % 1000 + 1, -i, i % 7)
                     for i in range(120_000))                   # ~4 MiB: several chunks
    if at is not None:
        cut = tc._PLAIN_CHUNK * 2 + at
        cut = lines.index(b" ", cut)                           # a field boundary near it
        lines = lines[:cut] + b" " + lines[cut:]
    path = tmp_path / "run"
    path.write_bytes(lines)
    plain = tc.plain_file_columns(path, tc.RUN_LAYOUTS, "score", last_read=6)
    if at is not None:
        assert plain is None
        return
    data, _, _, tag = tc.load_trec(path, None, last_read=6)
    columns = tc.trec_columns(data, tc.RUN_LAYOUTS, "score", 6)[0]
    assert plain[1] == tag == f"run{119_999 % 7}"
    assert plain[0][0].equals(columns[0]) and plain[0][1].equals(columns[1])
    assert np.array_equal(plain[0][2], columns[2])
