"""``python -m irlib.recsys``: recommenders scored from the command line, as the page does.

The expected numbers are irlib.recsys.evaluate_recommendations' on the shop samples (whose
own tests pin them by hand and against rs_metrics); here the command line must print them,
name the systems after their files, keep stdout a table and refuse bad input with exit 2.
"""
import io
import json
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pandas as pd
import pytest

from irlib import recsys
from irlib.cli.recsys import main

SAMPLES = Path(__file__).resolve().parents[1] / "assets" / "samples"
HELD, POPULAR, MF = (SAMPLES / n for n in ("shop_test.csv", "shop_recs_popular.tsv",
                                           "shop_recs_mf.csv"))
TRAIN = SAMPLES / "shop_train.csv"


def run_cli(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def truth() -> dict:
    held, train = recsys.read_interactions(HELD), recsys.read_interactions(TRAIN)
    return {name: recsys.evaluate_recommendations(recsys.read_recommendations(path), held,
                                                  k=5, relevant_from=4, train=train)
            for name, path in (("shop_recs_popular", POPULAR), ("shop_recs_mf", MF))}


def test_the_table_holds_the_libraries_numbers_and_stderr_the_story(truth):
    code, out, err = run_cli(HELD, POPULAR, MF, "-k", 5, "--relevant-from", 4,
                             "--train", TRAIN)
    assert code == 0, err
    table = pd.read_csv(io.StringIO(out), sep="\t", index_col="measure")
    assert list(table.columns) == ["shop_recs_popular", "shop_recs_mf"]
    for name, evaluation in truth.items():
        expected = evaluation.overall.round(4)
        pd.testing.assert_series_equal(table[name], expected, check_names=False)
    assert "HitRate@5" in table.index and "Novelty@5" in table.index
    assert "ILD@5" not in table.index                   # no categories given
    assert all(line.startswith("# ") for line in err.splitlines())
    assert "rated 4 or more is relevant" in err and "200 users evaluated" in err
    assert "Catalogue for coverage and Gini: 481 items (the training and held-out items)" in err
    # rated 4 or more, the popular list's lead is one the paired test does not find; counting
    # every held-out item it is a win, and the command line says the rule turns it
    popular, mf = (truth[n].accuracy["NDCG@5"] for n in ("shop_recs_popular", "shop_recs_mf"))
    assert (f"No clear winner on NDCG@5: shop_recs_popular {popular:.3f} vs shop_recs_mf "
            f"{mf:.3f}, a difference that could be chance") in err
    assert "wins on NDCG@5" not in err
    assert ("The relevance rule changes the verdict on NDCG@5 for shop_recs_mf against "
            "shop_recs_popular: with every held-out item relevant, shop_recs_popular wins") in err


def test_per_user_rows_worst_first_and_json(truth):
    code, out, _ = run_cli(HELD, MF, "-k", 5, "--relevant-from", 4, "--train", TRAIN, "-q",
                           "--format", "csv")
    assert code == 0
    rows = pd.read_csv(io.StringIO(out), dtype={"user": str})
    ndcg = rows[(rows.measure == "NDCG@5") & (rows.user != "all")]
    per_user = truth["shop_recs_mf"].per_user["NDCG@5"]
    assert list(ndcg.user) == list(per_user.index.astype(str))
    assert list(ndcg.value) == list(per_user.round(4))
    code, out, _ = run_cli(HELD, MF, "-k", 5, "--relevant-from", 4, "--format", "json")
    assert json.loads(out)["all"]["shop_recs_mf"]["MAP@5"] == pytest.approx(
        truth["shop_recs_mf"].accuracy["MAP@5"])


@pytest.mark.parametrize("args, message", [
    ((HELD, SAMPLES / "qrels.txt"), "qrels.txt, line 1: no column for the user"),
    ((HELD, MF, "--columns", "heldout:user=iid", "--columns", "heldout:item=uid"),
     "no user of the recommendations is in the held-out interactions"),
    ((HELD, MF, "--columns", "held:user=uid"), "expected FILE:ROLE=COLUMN"),
    ((HELD, MF, "-k", 0), "-k must be at least 1"),
    ((HELD, SAMPLES / "nothing.csv"), "nothing.csv"),
])
def test_bad_input_is_a_message_and_exit_2(args, message):
    code, out, err = run_cli(*args)
    assert (code, out) == (2, "")
    assert err.startswith("error: ") and message in err, err


def test_as_a_module_and_quiet_when_the_reader_goes_away():
    command = [sys.executable, "-m", "irlib.recsys", str(HELD), str(MF), "-q"]
    done = subprocess.run(command, capture_output=True, check=False)
    assert done.returncode == 0 and done.stdout.startswith(b"system\tmeasure\tuser\tvalue\n")
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        proc.stdout.close()                  # a reader that has gone (`| head` done)
        err = proc.stderr.read()
        code = proc.wait()
    assert code == 141 and b"Traceback" not in err, err
