"""The "Your own judgments" page: every upload flow with the sample files, the comparison's
numbers against scipy, and bad files that must end in a message, never an exception.

Files mostly reach the page through its two seams: the "Load the samples" buttons and
``st.session_state["upload_inject"]``, a list of ``(slot, file name, bytes)`` that the page
handles exactly like an upload (``ui.upload.files.ingest``); where the uploader itself matters
(a file taken out with its ✕) AppTest drives ``st.file_uploader``. The parsing and table
functions are also tested directly.
"""
from __future__ import annotations

import gzip
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from streamlit.testing.v1 import AppTest

import irlib
from irlib.stats.verdict import format_p
from irlib.io import read_qrels, read_ratings, read_run
from tests.apptest import address, run_page
from ui import upload as ui

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "assets" / "samples"

# The DCG notebook's exponential DCG@4 per query (its printed values).
NOTEBOOK_DCG4 = {"disagreement": 7.847185, "adhesive": 0.0, "boots": 0.430677,
                 "camera": 3.014736, "door": 7.0, "extension cord": 8.561606,
                 "frying pan": 17.93, "control": 7.847185, "test": 9.392789}


def page(**query) -> AppTest:
    return run_page("upload", query=query, timeout=60)


def load_samples(at: AppTest, kind: str) -> AppTest:
    at.button(key=f"upload_sample_{kind}").click().run()
    assert not at.exception, at.exception
    return at


def per_query(at: AppTest) -> pd.DataFrame:
    # the table's key follows its order and the chosen query (ui/upload/scores.py)
    tables = [d for d in at.dataframe if (getattr(d, "key", None) or "").startswith("upload_table_")]
    assert tables, "the per-query table is not shown"
    return tables[0].value.drop(columns="below")


def metric(at: AppTest, label: str) -> str:
    found = [m for m in at.metric if m.label == label]
    assert found, f"no metric {label!r}; have {[m.label for m in at.metric]}"
    return found[0].value


def query_picker(at: AppTest):
    """The picker of the query shown up close (its key follows the ranking measure)."""
    (picker,) = [s for s in at.selectbox if (s.key or "").startswith("upload_query_pick_")]
    return picker


def errors(at: AppTest) -> list[str]:
    # the page escapes markdown in messages (they quote file names and cells)
    return [re.sub(r"\\(.)", r"\1", e.value) for e in at.error]


# --------------------------------------------------------------------------- ratings flow

def test_ratings_sample_reproduces_the_notebook_dcg_worst_first():
    at = load_samples(page(input="ratings", measures="DCG,nDCG", by="DCG", gain="exponential"),
                      "ratings")
    assert not errors(at) and not at.warning
    table = per_query(at)
    assert at.number_input(key="upload_k").value == 4          # K follows the 4 results
    assert list(table.columns[:4]) == ["query_id", "query", "DCG@4 (gain 2^g−1)", "NDCG@4 (gain 2^g−1)"]
    dcg = dict(zip(table["query"], table["DCG@4 (gain 2^g−1)"]))
    for query, value in NOTEBOOK_DCG4.items():
        assert dcg[query] == pytest.approx(value, abs=0.005 if query == "frying pan" else 1e-6)
    assert table["DCG@4 (gain 2^g−1)"].is_monotonic_increasing                # worst first
    assert table["query"].iloc[0] == "adhesive" and table["query"].iloc[-1] == "frying pan"
    assert "rater spread" in table.columns
    # numbers from the app's samples say so (issue 25)
    assert metric(at, "mean DCG@4 (gain 2^g−1) · sample data") == \
        f"{table['DCG@4 (gain 2^g−1)'].mean():.4f}"
    # the notebook's control vs test, told as two orderings of one query
    assert any("control" in i.value and "test" in i.value for i in at.info)


def test_ratings_selected_query_shows_raters_and_the_formula():
    at = load_samples(page(input="ratings", measures="DCG", gain="exponential"), "ratings")
    query_picker(at).set_value("1").run()                         # "disagreement"
    ranking = next(d.value for d in at.dataframe if "rating_1" in d.value.columns)
    assert ranking["doc_id"].tolist() == ["doc1", "doc2", "doc3", "doc4"]
    assert ranking["relevance"].tolist() == [2, 3, 0, 1]
    assert ranking["disagreement"].tolist() == [1, 1, 2, 1]
    assert any("7.85" in x.value for x in at.latex)               # DCG@4 = ... = 7.85
    at.segmented_control(key="upload_view").set_value("cards").run()
    assert not at.exception
    assert any("raters 0 · 0 · 2 (spread 2)" in c.value for c in at.caption)
    at.segmented_control(key="upload_view").set_value("rows").run()
    assert unconfigured(at) == {}       # no settings for columns a ratings sheet lacks


def test_ratings_aggregate_switch_changes_the_grades():
    at = load_samples(page(input="ratings", measures="DCG", gain="exponential"), "ratings")
    median = per_query(at).set_index("query")["DCG@4 (gain 2^g−1)"]
    at.radio(key="upload_agg").set_value("max").run()
    assert not at.exception
    highest = per_query(at).set_index("query")["DCG@4 (gain 2^g−1)"]
    median = median.reindex(highest.index)
    assert (highest >= median - 1e-12).all() and (highest > median).any()
    sheet = read_ratings(SAMPLES / "ratings_notebook.csv", aggregate="max")
    run = irlib.io.to_run_from_positions(sheet)
    expected = irlib.evaluate(sheet[["query_id", "doc_id", "relevance"]], run,
                              ["DCG(dcg='exp-log2')@4"]).per_query.iloc[:, 0]
    texts = sheet.drop_duplicates("query_id").set_index("query_id")["query"]
    assert highest.to_dict() == pytest.approx(expected.rename(texts).to_dict())


# --------------------------------------------------------------------------- TREC flow

def _sample_scores(measure: str) -> tuple[pd.Series, pd.Series]:
    qrels = read_qrels(SAMPLES / "qrels.txt")
    # complete=True: query 9, which neither run answers, scores 0 (trec_eval -c), as the
    # page counts it with complete=1
    control = irlib.evaluate(qrels, read_run(SAMPLES / "run_control.txt"), [measure],
                             complete=True)
    test = irlib.evaluate(qrels, read_run(SAMPLES / "run_test.txt"), [measure], complete=True)
    return control.per_query[measure], test.per_query[measure]


@pytest.fixture(scope="module")
def trec_compared() -> AppTest:
    """The TREC samples' control and test runs compared by AP (read only: shared by the tests
    below). vs=2: the link names test (by default the page compares the system the table marks).

    complete=1: query 9, which neither run answers, counts as 0 (trec_eval -c), as in
    irlib.evaluate(..., complete=True) in _sample_scores.
    """
    return load_samples(page(input="trec", measures="AP,nDCG", by="AP", complete="1", vs="2"),
                        "trec")


def test_trec_sample_comparison_equals_scipy(trec_compared):
    at = trec_compared
    assert not errors(at)
    assert at.radio(key="upload_gain").value == "linear"     # TREC's, as the link names none
    table = per_query(at)
    ap = "AP (grade ≥ 1)"                    # the sample grades 0-3: AP names its threshold
    assert len(table) == 25 and table[ap].is_monotonic_increasing
    control, test = _sample_scores("AP")
    d = test - control
    assert metric(at, "test better") == f"{int((d > 0).sum())} of 25" == "11 of 25"
    assert metric(at, "test worse") == f"{int((d < 0).sum())} of 25" == "4 of 25"
    assert metric(at, "ties") == f"{int((d == 0).sum())} of 25"
    label = f"mean difference in {ap} · sample data"          # sample numbers say so
    assert metric(at, label) == f"{d.mean():+.4f}"
    low, high = stats.t.interval(0.95, len(d) - 1, loc=d.mean(), scale=stats.sem(d))
    shown = next(m for m in at.metric if m.label == label)
    # four sample runs: a corrected p sits beside it, so the t-interval says it is not (issue 42)
    assert shown.delta == f"95% CI, uncorrected {low:+.3f} to {high:+.3f}"
    # four sample runs: three comparisons with the baseline, so the cards name these uncorrected
    assert metric(at, "paired t-test p (uncorrected)") == format_p(
        stats.ttest_rel(test, control).pvalue) \
        == "0.008"
    # 15 queries differ: the randomization test counts all 2^15 sign patterns (exact)
    moved = d[d != 0].to_numpy()
    signs = 1 - 2 * ((np.arange(2 ** 15)[:, None] >> np.arange(15)) & 1)
    exact = np.mean(np.abs(signs @ moved) >= abs(moved.sum()) - 1e-12)
    assert metric(at, "randomization test p (uncorrected)") == format_p(exact)
    sentence = next(i.value for i in at.info if i.value.startswith("test is better")).replace(
        "\\", "")
    assert sentence.startswith("test is better on 11 of 25 queries and worse on 4; "
                               f"the mean {ap} rises by 0.07")
    assert "by the randomization test (exact: all 32,768 sign patterns of the 15 queries" \
        in sentence and sentence.endswith("(sample data).")
    differences = next(x.value for x in at.dataframe if "difference" in x.value.columns)
    assert differences.set_index("query_id")["difference"].to_dict() == pytest.approx(d.to_dict())
    assert at.get("plotly_chart"), "the chart of the per-query differences is missing"


def column_config(frame) -> dict:
    """The column settings the browser gets with a dataframe (formats, labels, help)."""
    config = json.loads(frame.proto.columns)
    config.pop("_index", None)
    return config


def unconfigured(at: AppTest) -> dict:
    """Per table on the page: the settings keyed by a name that is none of its columns."""
    return {i: sorted(set(column_config(d)) - set(d.value.columns))
            for i, d in enumerate(at.dataframe) if set(column_config(d)) - set(d.value.columns)}


def test_comparison_table_formats_its_own_columns(trec_compared):
    # Its columns are "A: <system>" / "B: <system>": settings keyed by the bare system
    # names (as the table once had) never reach the browser's number formats.
    at = trec_compared
    (table,) = [d for d in at.dataframe if "difference" in d.value.columns]
    config = column_config(table)
    numbers = table.value.select_dtypes("number").columns
    assert list(numbers) == ["A: control", "B: test", "difference"]
    assert {c: config.get(c, {}).get("type_config", {}).get("format") for c in numbers} == {
        "A: control": "%.4f", "B: test": "%.4f", "difference": "%+.4f"}
    assert unconfigured(at) == {}


def test_trec_unanswered_query_warning_and_toggle():
    at = load_samples(page(input="trec", measures="AP", by="AP", vs="2"), "trec")   # test
    shown = [w.value.replace("\\", "") for w in at.warning]    # Markdown escapes removed
    assert any("do not answer 1 of the 25" in w and "'9'" in w for w in shown)
    at.toggle(key="upload_missing_zero").set_value(False).run()
    assert not at.exception
    assert len(per_query(at)) == 24 and "9" not in per_query(at)["query_id"].tolist()
    assert metric(at, "test better") == "11 of 24"
    metric(at, "MAP (grade ≥ 1) · sample data")               # the mean, labelled


def test_trec_one_run_has_no_comparison():
    at = page(input="trec")
    at.session_state["upload_inject"] = [
        ("qrels", "qrels.txt", (SAMPLES / "qrels.txt").read_bytes()),
        ("run_1", "run_test.txt", (SAMPLES / "run_test.txt").read_bytes())]
    at.run()
    assert not at.exception and not errors(at)
    assert len(per_query(at)) == 24          # trec_eval's default: query 9 is not answered
    assert not [m for m in at.metric if m.label == "paired t-test p"]


def test_run_with_unknown_queries_warns_with_count_and_ids():
    at = load_samples(page(input="trec"), "trec")
    extra = b"".join(f"zz{i} Q0 d{i} 1 1.0 x\n".encode() for i in range(7))
    at.session_state["upload_inject"] = [
        ("run_2", "run_plus.txt", (SAMPLES / "run_test.txt").read_bytes() + extra)]
    at.run()
    assert not at.exception and not errors(at)
    warning = next(w.value.replace("\\", "") for w in at.warning if "not in qrels" in w.value)
    assert "7 queries" in warning and "'zz0'" in warning and "2 more" in warning


def test_tied_scores_up_close_say_how_trec_eval_orders_them():
    """A run whose scores tie: the ranking up close is trec_eval's (doc id breaks the tie),
    and the page says so, and that the file's rank column is not read."""
    at = load_samples(page(input="trec"), "trec")
    assert not [c for c in at.caption if "share their score" in c.value]
    lines = (SAMPLES / "run_control.txt").read_text().splitlines()
    tied = "".join(" ".join(line.split()[:4] + ["1.0", "tied"]) + "\n" for line in lines)
    at.session_state["upload_inject"] = [("run_1", "tied.txt", tied.encode())]
    at.run()
    assert not at.exception and not errors(at)
    (note,) = [c.value for c in at.caption if "share their score" in c.value]
    assert "ranked by document id" in note and "rank column in the file is not read" in note


def test_cp1252_file_is_read_with_a_note_next_to_in_use():
    """Excel's "CSV" on Windows is cp1252: the page reads it and says so by the file."""
    at = page(input="table")
    data = "query_id,doc_id,score,title\nq1,a,3,Café crème\nq1,b,2,naïve\n".encode("cp1252")
    at.session_state["upload_inject"] = [("table_1", "excel.csv", data)]
    at.run()
    assert not at.exception and not errors(at)
    captions = [re.sub(r"\\(.)", r"\1", c.value) for c in at.caption]   # unescape markdown
    in_use = next(i for i, c in enumerate(captions) if "In use" in c and "excel.csv" in c)
    note = captions[in_use + 1]
    assert "Windows-1252 (cp1252)" in note and "not UTF-8" in note
    # a UTF-8 file gets no note
    at.session_state["upload_inject"] = [("table_1", "utf8.csv", data.decode("cp1252").encode())]
    at.run()
    assert not [c for c in at.caption if "cp1252" in c.value]
    assert any("In use" in c.value and "utf8" in c.value for c in at.caption)


# --------------------------------------------------------------------------- table flow

def test_table_sample_with_ratings_as_judgments():
    at = load_samples(page(input="table", measures="DCG", gain="exponential"), "table")
    assert not errors(at) and not at.warning
    table = per_query(at)
    dcg = dict(zip(table["query"], table["DCG@4 (gain 2^g−1)"]))
    assert dcg["camera"] == pytest.approx(NOTEBOOK_DCG4["camera"], abs=1e-6)
    assert len(table) == 11


def test_table_with_its_own_relevance_column_refuses_what_it_would_inflate():
    """A table judged by its own relevance column sees only the results it lists: NDCG and AP
    (which need every relevant document) are refused with a message, DCG is shown (issue 24:
    recall read 0.710 where the truth was 0.240)."""
    at = page(input="table")              # default measures: NDCG, DCG, AP
    data = b"query_id,doc_id,score,relevance\nq1,a,3,0\nq1,b,2,1\nq2,c,1,2\n"
    at.session_state["upload_inject"] = [("table_1", "mine.csv", data)]
    at.run()
    assert not at.exception
    (refusal,) = errors(at)
    assert refusal.startswith("mine.csv judges only the results it lists") and \
        "NDCG@2 (gain 2^g−1) and AP (grade ≥ 1) would be inflated" in refusal
    table = per_query(at)
    assert sorted(table["query_id"]) == ["q1", "q2"]          # worst first by DCG
    assert "DCG@2 (gain 2^g−1)" in table.columns and "AP (grade ≥ 1)" not in table.columns


@pytest.mark.parametrize("name, make", [
    ("results.parquet", lambda df: _parquet_bytes(df)),
    ("results.tsv", lambda df: df.to_csv(sep="\t", index=False).encode()),
])
def test_table_from_parquet_or_tsv_compared_with_a_second_table(name, make):
    first = pd.DataFrame({"query_id": ["q1", "q1", "q2", "q2"], "doc_id": ["a", "b", "c", "d"],
                          "position": [1, 2, 1, 2], "relevance": [0, 2, 1, 0]})
    second = first.assign(position=[2, 1, 1, 2])
    # judged by its own relevance column: DCG (NDCG would be refused as inflated)
    at = page(input="table", measures="DCG", by="DCG")
    at.session_state["upload_inject"] = [("table_1", name, make(first)),
                                         ("table_2", "other_" + name, make(second))]
    at.run()
    assert not at.exception and not errors(at)
    table = per_query(at)
    assert sorted(table["query_id"]) == ["q1", "q2"]          # worst first by DCG
    assert metric(at, "ties") == "1 of 2"
    assert metric(at, "other\\_results better") == "1 of 2"     # labels are escaped markdown


def _parquet_bytes(df: pd.DataFrame) -> bytes:
    buffer = io.BytesIO()
    df.to_parquet(buffer, index=False)
    return buffer.getvalue()


# --------------------------------------------------------------------------- URL settings

def test_url_settings_are_applied_and_written_back():
    at = page(input="trec", measures="RR,P", by="P", k="5", gain="linear")
    assert at.radio(key="upload_input").value == "trec"
    load_samples(at, "trec")
    assert at.multiselect(key="upload_measures").value == ["RR", "P"]
    assert at.number_input(key="upload_k").value == 5            # the link's K wins
    # the sample qrels grade 0-3: binary measures name the threshold
    assert list(per_query(at).columns[1:3]) == ["P@5 (grade ≥ 1)", "RR (grade ≥ 1)"]
    written = address(at)                                         # the address bar
    assert written["k"] == "5" and written["measures"] == "RR,P" and written["input"] == "trec"


def test_invalid_url_values_fall_back_with_a_notice():
    at = page(k="abc", gain="cubic", measures="MAP", input="excel")
    (notice,) = [i.value for i in at.info if "could not be read" in i.value]   # one for all
    for key in ("k", "gain", "measures", "input"):
        assert f"`{key}`" in notice
    notices = notice
    assert "cubic" not in notices and "excel" not in notices    # raw link text is never echoed
    assert at.radio(key="upload_input").value == "ratings"
    load_samples(at, "ratings")
    assert at.radio(key="upload_gain").value == "exponential"


# --------------------------------------------------------------------------- bad files

NUL = b"1 0 d\x00c 1\n"
TOO_BIG = None      # built in the test: 201 MB


BAD_FILES = [
    # (input kind, slot, file name, bytes, what the message says)
    ("trec", "qrels", "empty.txt", b"", "empty.txt: the file is empty"),
    ("trec", "qrels", "blank.txt", b"\n  \n\n", "only blank lines"),
    ("trec", "qrels", "short.txt", b"1 0 doc1 2\n1 0 doc2\n", "short.txt, line 2"),
    ("trec", "qrels", "grade.txt", b"1 0 doc1 x\n", "line 1, column 4: relevance 'x' is not"),
    ("trec", "qrels", "half.txt", b"1 0 doc1 1.5\n", "not a whole number"),
    ("trec", "qrels", "dup.txt", b"1 0 doc1 1\n1 0 doc1 2\n", "listed twice"),
    # (cp1252 and UTF-16 with a BOM are read, with a note: see test_cp1252_file_is_read...)
    ("trec", "qrels", "not1252.txt", b"1 0 caf\x81 1\n", "not UTF-8 or Windows-1252 text"),
    ("trec", "qrels", "utf16le.txt", "1 0 d 1\n".encode("utf-16-le"), "NUL byte"),
    ("trec", "qrels", "photo.jpg", b"\xff\xd8\xff\xe0\x10JFIF\x01\x02", "control characters"),
    ("trec", "qrels", "a_run.txt", b"1 Q0 doc1 1 2.5 x\n", "looks like a run file"),
    ("trec", "qrels", "zipped.txt", b"PK\x03\x04rest", "zip or Excel"),
    ("trec", "qrels", "nul.txt", NUL, "NUL byte"),
    ("trec", "qrels", "broken.gz", b"\x1f\x8b\x08\x00garbage", "not a valid gzip"),
    ("trec", "run_1", "qrels_as_run.txt", b"1 0 doc1 1\n", "looks like a qrels file"),
    ("trec", "run_1", "score.txt", b"1 Q0 d1 1 abc x\n", "column 5: score 'abc' is not a number"),
    ("trec", "run_1", "inf.txt", b"1 Q0 d1 1 inf x\n", "not a finite number"),
    ("trec", "run_1", "dup_run.txt", b"1 Q0 d1 1 2 x\n1 Q0 d1 2 1 x\n", "line 2"),
    ("trec", "run_2", "ragged.txt", b"1 Q0 d1 1 2 x\n1 Q0 d2 2 1 x\n1 Q0 d3 3\n",
     "ragged.txt, line 3: expected 6 columns"),
    ("trec", "run_2", "gz_empty.txt.gz", gzip.compress(b""), "empty"),
    ("ratings", "ratings", "nopos.csv", b"queryid,query,document,rating_1\n1,a,d,1\n",
     "missing column 'position'"),
    ("ratings", "ratings", "qid.csv", b"qid,query,document,position,rating_1\n1,a,d,1,2\n",
     "did you mean 'qid' for 'queryid'"),
    ("ratings", "ratings", "neg.csv",
     b"queryid,query,document,position,rating_1\n1,a,d,1,-1\n", "line 2, column rating_1"),
    ("ratings", "ratings", "word.csv",
     b"queryid,query,document,position,rating_1\n1,a,d,1,good\n", "'good' is not a number"),
    ("ratings", "ratings", "noraters.csv", b"queryid,query,document,position\n1,a,d,1\n",
     "no rater columns"),
    ("ratings", "ratings", "twice.csv",
     b"queryid,query,document,position,rating_1\n1,a,d,1,1\n1,a,d,2,0\n", "rated twice"),
    ("ratings", "ratings", "header.csv", b"queryid,query,document,position,rating_1\n",
     "no data rows"),
    ("ratings", "ratings", "clash.csv",
     b"queryid,query,document,position,rating_1\n1,a,d,1,1\n1,b,e,2,0\n", "has query 'b'"),
    ("table", "table_1", "fake.parquet", b"query_id,doc_id,score\n", "not a Parquet file"),
    ("table", "table_1", "pos0.csv", b"query_id,doc_id,position\nq,d,0\n", "must be >= 1"),
    ("table", "table_1", "nodoc.csv", b"query_id,docno,score\nq,d,1\n",
     "missing column 'doc_id'"),
    ("table", "table_1", "book.xlsx", b"PK\x03\x04\x14\x00", "zip or Excel"),
    # a recommender's lists: not "did you mean 'user_id' for 'query_id'" (recall inflated)
    ("table", "table_1", "recs.csv", b"user_id,item_id,score\nu1,i1,0.9\n",
     "pick “Recommendations + held-out interactions” above"),
    ("table", "judgments", "judg.txt", b"1 0 d1\n", "judg.txt, line 1, column 3"),
    ("trec", "qrels", "huge.txt", TOO_BIG, "the limit is 200 MB"),
]


@pytest.mark.parametrize("kind, slot, name, data, message", BAD_FILES,
                         ids=[f"{b[1]}-{b[2]}" for b in BAD_FILES])
def test_bad_file_gives_a_message_and_keeps_the_data(kind, slot, name, data, message):
    if data is None:
        data = b"1 0 d 1\n" * ((201 << 20) // 8 + 1)
    at = load_samples(page(input=kind), kind)
    before = per_query(at)
    in_use = at.session_state["upload_files"][slot].name if slot in \
        at.session_state["upload_files"] else None
    at.session_state["upload_inject"] = [(slot, name, data)]
    at.run()
    assert not at.exception, at.exception
    shown = errors(at)
    assert any(name in e and message in e for e in shown), shown
    # the data loaded before stays loaded, and the page still works with it
    after = per_query(at)
    pd.testing.assert_frame_equal(before, after)
    files = at.session_state["upload_files"]
    assert (files[slot].name if slot in files else None) == in_use
    if in_use:
        assert any("Still using the file loaded before" in c.value for c in at.caption)


def test_bad_file_before_any_good_one():
    at = page(input="trec")
    at.session_state["upload_inject"] = [("qrels", "bad.txt", b"nonsense\n")]
    at.run()
    assert not at.exception
    assert any("bad.txt" in e for e in errors(at))
    assert any("Still needed" in i.value for i in at.info)


def test_a_good_file_after_a_bad_one_clears_the_message():
    at = load_samples(page(input="trec"), "trec")
    at.session_state["upload_inject"] = [("run_1", "bad.txt", b"x\n")]
    at.run()
    assert errors(at)
    at.session_state["upload_inject"] = [("run_1", "good.txt",
                                          (SAMPLES / "run_test.txt").read_bytes())]
    at.run()
    assert not errors(at) and not at.exception
    assert at.session_state["upload_files"]["run_1"].name == "good.txt"


def test_removing_a_refused_upload_takes_its_message_with_it():
    """The walkthrough: a run with a short line 23 was refused (rightly) and the earlier
    results kept; after its ✕ in the uploader the red message stayed, in both input kinds."""
    at = load_samples(page(input="trec"), "trec")
    before = per_query(at)
    lines = (SAMPLES / "run_test.txt").read_text().splitlines(keepends=True)
    lines[22] = " ".join(lines[22].split()[:5]) + "\n"
    runs = next(u for u in at.file_uploader if u.key.startswith("upload_file_run_"))
    runs.set_value(("run_broken.txt", "".join(lines).encode(), "text/plain")).run()
    assert not at.exception, at.exception
    assert any("run_broken.txt, line 23: expected 6 columns" in e for e in errors(at)), errors(at)
    pd.testing.assert_frame_equal(per_query(at), before)
    runs = next(u for u in at.file_uploader if u.key.startswith("upload_file_run_"))
    runs.set_value(None).run()                           # its ✕
    assert not at.exception, at.exception
    assert not errors(at)
    for kind in ("recsys", "trec"):
        at.radio(key="upload_input").set_value(kind).run()
        assert not errors(at), kind


def test_removing_runs_down_to_one_ends_the_comparison():
    at = load_samples(page(input="trec"), "trec")
    assert [m for m in at.metric if m.label.startswith("paired t-test p")]
    for _ in range(3):                       # the samples hold four runs
        at.button(key="upload_remove_run_2").click().run()   # the rest move up
        assert not at.exception
    assert list(at.session_state["upload_files"]) == ["qrels", "run_1"]
    assert not [m for m in at.metric if m.label.startswith("paired t-test p")]


def test_a_chosen_system_stays_chosen_when_a_run_before_it_is_removed():
    """The samples' runs are control, test, rm3 and dense: with rm3 the baseline and dense
    shown per query, removing test moves both up with their systems."""
    at = load_samples(page(input="trec"), "trec")
    at.session_state["upload_baseline"] = 3
    at.session_state["upload_system"] = 4
    at.run()
    baseline = next(s for s in at.selectbox if s.label.startswith("Baseline"))
    assert baseline.format_func(baseline.value) == "rm3"
    at.button(key="upload_remove_run_2").click().run()
    assert not at.exception
    baseline = next(s for s in at.selectbox if s.label.startswith("Baseline"))
    assert baseline.format_func(baseline.value) == "rm3"
    assert (at.session_state["upload_baseline"], at.session_state["upload_system"]) == (2, 3)
    at.button(key="upload_remove_run_2").click().run()       # rm3 itself: back to the first
    assert not at.exception and at.session_state["upload_baseline"] == 1


def compared_with_the_baseline(at: AppTest) -> str:
    """The system section 5 compares with the baseline (its picker's name for it)."""
    (box,) = [s for s in at.selectbox if s.label == "Compare with the baseline"]
    return box.format_func(box.value)


def test_the_comparison_opens_on_the_system_the_table_marks_and_a_link_keeps_a_pick():
    """A lecturer's walk: the systems table marked rm3 (★ and ▲ on NDCG@10) but "Does it beat
    the baseline?" and the report's closer look compared test, the second run (vs=2 by
    default). Unpicked, it is the table's ★ on the ranking measure, and the address leaves vs
    empty; a pick, or a link's vs, wins and travels in the address."""
    at = load_samples(page(input="trec"), "trec")      # control (the baseline), test, rm3, dense
    systems = next(d.value for d in at.dataframe if "system" in d.value.columns
                   and "better / tie / worse" in " ".join(d.value.columns)).set_index("system")
    by = next(c for c in systems.columns if c.startswith("NDCG@10"))          # compare by
    assert [s for s in systems.index if "★" in systems.at[s, by]] == ["rm3"]
    assert compared_with_the_baseline(at) == "rm3"
    assert any(i.value.startswith("rm3 is") for i in at.info)                 # the verdict
    assert address(at).get("vs", "") == ""      # vs= : the default is not pinned in the link
    # rm3 the baseline: nothing else is marked on NDCG@10, so the first other run
    at.selectbox(key="upload_baseline").set_value(3).run()
    assert compared_with_the_baseline(at) == "control" and address(at).get("vs", "") == ""
    at.selectbox(key="upload_baseline").set_value(1).run()
    assert compared_with_the_baseline(at) == "rm3"
    # a pick stays, and goes into the address
    at.selectbox(key="upload_versus_pick").set_value(4).run()
    assert not at.exception
    assert compared_with_the_baseline(at) == "dense" and address(at)["vs"] == "4"
    # a shared link's vs wins over the mark
    linked = load_samples(page(input="trec", vs="2"), "trec")
    assert compared_with_the_baseline(linked) == "test" and address(linked)["vs"] == "2"
    assert any(i.value.startswith("test is") for i in linked.info)


# --------------------------------------------------------------------------- plain helpers

@pytest.mark.parametrize("kind, slot, name, data, message",
                         [b for b in BAD_FILES if b[3] is not None],
                         ids=[f"{b[1]}-{b[2]}" for b in BAD_FILES if b[3] is not None])
def test_readers_behind_the_page_raise_located_errors(kind, slot, name, data, message):
    with pytest.raises(irlib.InputError) as info:
        ui.read_upload(ui.SLOT_BY_ID[slot].reader, name, data)
    assert ui.error_message(name, info.value).startswith(name)


def test_check_size_and_error_message():
    assert ui.check_size("a.txt", 10) is None
    assert "the limit is 200 MB" in ui.check_size("a.txt", 300 << 20)
    assert ui.error_message("a.txt", KeyError("x")) == "a.txt: could not be read (KeyError: 'x')"


def test_settings_codecs():
    fields = {f.url_name: f.codec for f in ui.page_state().fields}
    assert fields["measures"].parse("ap,ndcg,AP") == ["AP", "nDCG"]
    for name, bad in (("k", "0"), ("k", "1001"), ("measures", "MAP"), ("measures", ""),
                      ("gain", "cubic"), ("complete", "yes")):
        with pytest.raises(ValueError):
            fields[name].parse(bad)


def test_the_model_imports_no_streamlit():
    # ui/__init__.py and ui/upload/__init__.py (the views) import Streamlit; the model and
    # whatever it imports must not. Import it with Streamlit blocked and those two packages
    # as bare namespaces.
    script = """if True:
        import sys, types
        sys.modules["streamlit"] = None
        for name in ("ui", "ui.upload"):
            package = types.ModuleType(name)
            package.__path__ = [name.replace(".", "/")]
            sys.modules[name] = package
        import ui.upload.model
        print(",".join(sorted(m for m in sys.modules if m.startswith("ui."))))
    """
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ui.shared,ui.shared.texts,ui.upload,ui.upload.measures,ui.upload.model,"
                                   "ui.upload.reading,ui.upload.slots"]


def test_a_link_is_read_by_the_fields_codecs():
    # init_state picks the gain of the link's input kind from what the codecs accept
    read = ui.page_state().from_link({"input": "trec", "k": "0", "gain": "cubic",
                                      "measures": "ap,P", "complete": "1", "other": "x"})
    assert read == {"input": "trec", "measures": ["AP", "P"], "missing_zero": True}


def test_system_names():
    assert ui.system_name("run_control.txt") == "control"
    assert ui.system_name("results-B.csv") == "B"
    tagged = read_run(b"q Q0 d 1 2 bm25\n", name="a.txt")
    plain = read_run(b"q d 2\n", name="b.txt")
    parsed = [ui.model.Parsed(n, f) for n, f in
              (("run_a.txt", tagged), ("run_b.txt", tagged), ("dense.txt", plain))]
    # the run's tag (trec_eval's runid), the file where two share a tag
    assert ui.model.default_names(parsed) == ["bm25 (a)", "bm25 (b)", "dense"]


def test_per_query_table_from_plain_functions():
    files = {"qrels": ui.model.Parsed("qrels.txt", ui.read_upload(
                 "qrels", "qrels.txt", (SAMPLES / "qrels.txt").read_bytes())),
             "run_1": ui.model.Parsed("run_control.txt", ui.read_upload(
                 "run", "run_control.txt", (SAMPLES / "run_control.txt").read_bytes()))}
    dataset, missing = ui.build_dataset("trec", files)
    assert missing is None and list(dataset.runs) == ["control"]
    settings = ui.Settings(("nDCG", "AP"), "AP", 10, "linear")
    evaluation = ui.score(dataset, settings.names)["control"]
    table = ui.per_query_table(dataset, evaluation, settings, system="control")
    assert table["AP"].is_monotonic_increasing
    assert table.set_index("query_id")["NDCG@10 (gain g)"].to_dict() == pytest.approx(
        evaluation.per_query["nDCG@10"].to_dict())
    assert table.set_index("query_id").loc["9", "results"] == 0
    without = ui.per_query_table(dataset, evaluation, settings, system="control",
                                 include_missing=False)
    assert len(without) == 24


def test_negative_grades_are_a_warning_not_an_error():
    qrels = read_qrels(io.BytesIO(b"1 0 a -1\n1 0 b 2\n"), name="q.txt")
    run = read_run(b"1 Q0 a 1 2 x\n1 Q0 b 2 1 x\n", name="r.txt")
    dataset, _ = ui.build_dataset("trec", {"qrels": ui.model.Parsed("q.txt", qrels),
                                           "run_1": ui.model.Parsed("r.txt", run)})
    assert any("negative grades" in n and "'a'" in n for n in dataset.notes)


# --------------------------------------------------------------------------- honest verdicts

THREE_QRELS = b"".join(f"q{i} 0 a 1\nq{i} 0 b 0\n".encode() for i in (1, 2, 3))
A_WORSE = b"".join(f"q{i} Q0 b 1 2 A\nq{i} Q0 a 2 1 A\n".encode() for i in (1, 2, 3))
B_BETTER = b"".join(f"q{i} Q0 a 1 2 B\nq{i} Q0 b 2 1 B\n".encode() for i in (1, 2, 3))


def _trec(run_b: bytes) -> AppTest:
    at = page(input="trec", measures="AP", by="AP")
    at.session_state["upload_inject"] = [("qrels", "qrels.txt", THREE_QRELS),
                                         ("run_1", "run_A.txt", A_WORSE),
                                         ("run_2", "run_B.txt", run_b)]
    at.run()
    assert not at.exception
    return at


def test_no_verdict_when_a_run_answers_none_of_the_judged_queries():
    at = _trec(B_BETTER.replace(b"q", b"x"))
    assert errors(at) == ["B answers none of the 3 queries in qrels.txt: every score is 0. "
                          "Are these the right files (same query ids)?"]
    assert any(w.value.startswith("No verdict: B answers none of the 3") for w in at.warning)
    assert not [i for i in at.info if "better on" in i.value]       # no sentence
    assert not [m for m in at.metric if m.label == "randomization test p"]


def test_three_identical_gains_say_the_t_test_is_not_meaningful():
    at = _trec(B_BETTER)
    assert not errors(at)
    sentence = next(i.value for i in at.info if "better on" in i.value)
    assert sentence.startswith("B is better on 3 of 3 queries") and "could be chance" in sentence
    assert metric(at, "paired t-test p") == "not meaningful"
    assert metric(at, "randomization test p") == "0.25"
    captions = " ".join(c.value for c in at.caption)
    assert "2/2^3 = 0.25" in captions and "no spread" in captions


def test_a_paired_difference_over_fewer_queries_than_the_table_says_so():
    """Issue 42's leftover: the mean-difference tile pairs only the queries both runs answer,
    while the systems table's means are each over their own run's; the tile carries † and a
    caption says how many queries are out, as the table's † does (trec_eval's default: a
    query a run does not answer is not averaged in)."""
    at = _trec(b"".join(f"q{i} Q0 a 1 2 B\nq{i} Q0 b 2 1 B\n".encode() for i in (1, 2)))
    assert not errors(at)
    assert [m.label for m in at.metric if m.label.startswith("mean difference")] == \
        ["mean difference in AP †"]
    note = [c.value for c in at.caption if c.value.startswith("† Over the 2 queries")]
    assert note and "1 query that only one of them answers is left out" in note[0]
    # with every run answering every query there is nothing to mark
    at = _trec(B_BETTER)
    assert [m.label for m in at.metric if m.label.startswith("mean difference")] == \
        ["mean difference in AP"]
    assert not [c for c in at.caption if c.value.startswith("†")]


def test_infap_is_offered_scored_as_irlib_scores_it_and_named_in_the_settings_help():
    at = load_samples(page(input="trec", measures="infAP,AP", by="infAP", vs="2"), "trec")
    assert not at.exception
    assert "infAP" in at.multiselect(key="upload_measures").options
    shown = per_query(at).set_index("query_id")["infAP (grade ≥ 1)"].dropna()
    qrels = read_qrels(SAMPLES / "qrels.txt")
    run = read_run(SAMPLES / "run_control.txt")
    expected = irlib.evaluate(qrels, run, ["infAP"]).per_query["infAP"].dropna()
    assert shown.to_dict() == pytest.approx(expected.to_dict(), abs=1e-12)
    assert any("infAP" in m.value and "computed" in m.value for m in at.markdown)
    assert "infAP" in at.multiselect(key="upload_measures").help      # the registry's list
