"""Lesson 8 ("Your own judgments") with real work: the query picker and table follow the query, the relevance
threshold, several systems with their tags as names, the report, a link without its files.

Files reach the page through its seams (``upload_inject``, the sample buttons); see
tests/test_page_upload.py.
"""
from __future__ import annotations

import hashlib
import html
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import irlib
from irlib.io import read_qrels, read_run
from tests.apptest import address, run_page
from ui import upload as ui
from ui.upload.model import Parsed
from ui.upload.report import report_html
from ui.upload.tables import means_of

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "assets" / "samples"


def page(**query) -> AppTest:
    return run_page("upload", query=query, timeout=60)


def per_query(at: AppTest) -> pd.DataFrame:
    (table,) = [d for d in at.dataframe if (d.key or "").startswith("upload_table_")]
    return table.value


def picker(at: AppTest):
    (found,) = [s for s in at.selectbox if (s.key or "").startswith("upload_query_pick_")]
    return found


def shown_label(at: AppTest) -> str:
    """The text the picker shows for its current value (what the browser draws)."""
    box = picker(at)
    return box.format_func(box.value)


def _variant(tag: str, seed: int) -> bytes:
    """The test run, its scores shuffled a little, under another tag."""
    run = read_run(SAMPLES / "run_test.txt")
    rng = np.random.default_rng(seed)
    run["score"] = run["score"] + rng.normal(0, 0.6, len(run))
    return "".join(f"{q} Q0 {d} 0 {s:.4f} {tag}\n" for q, d, s in
                   run.itertuples(index=False)).encode()


@pytest.fixture(scope="module")
def three_runs() -> AppTest:
    at = page(input="trec", measures="AP,nDCG,P", by="AP", k="5")
    at.session_state["upload_inject"] = [
        ("qrels", "qrels.txt", (SAMPLES / "qrels.txt").read_bytes()),
        ("run", "run_control.txt", (SAMPLES / "run_control.txt").read_bytes()),
        ("run", "run_test.txt", (SAMPLES / "run_test.txt").read_bytes()),
        ("run", "bm25_rm3.txt", _variant("bm25+rm3", 1))]
    at.run()
    assert not at.exception, at.exception
    return at


# --------------------------------------------------------------------------- the picker

def test_the_picker_follows_the_query_and_relabels_at_once():
    """The issue: after switching the ranking measure from NDCG to AP the picker kept
    'NDCG@5 … 0.000' while its options read '(AP …)', and lost the chosen query."""
    at = page(input="trec", measures="nDCG,AP", by="nDCG", k="5")
    at.button(key="upload_sample_trec").click().run()
    picker(at).set_value("104").run()
    assert shown_label(at).startswith("104") and "NDCG@5" in shown_label(at)
    at.selectbox(key="upload_by").set_value("AP").run()
    assert not at.exception
    assert picker(at).value == "104"                         # the same query
    assert "AP" in shown_label(at) and "NDCG" not in shown_label(at)
    at.number_input(key="upload_k").set_value(20).run()
    assert picker(at).value == "104"
    # the table marks the query shown below wherever the new order puts it
    table = per_query(at)
    assert table.loc[table["below"] == "▶", "query_id"].tolist() == ["104"]
    assert address(at)["query"] == "104"


def test_the_tables_key_follows_its_order_so_a_tick_never_moves_to_another_query():
    at = page(input="trec", measures="nDCG,AP", by="nDCG", k="5")
    at.button(key="upload_sample_trec").click().run()
    before = {d.key for d in at.dataframe if (d.key or "").startswith("upload_table_")}
    at.number_input(key="upload_k").set_value(3).run()           # a new order
    after = {d.key for d in at.dataframe if (d.key or "").startswith("upload_table_")}
    assert before and after and before != after


# --------------------------------------------------------------------------- the threshold

def test_the_relevance_threshold_is_in_the_link_and_in_every_binary_measure():
    at = page(input="trec", measures="AP,P,nDCG", by="AP", k="5", rel="2")
    at.button(key="upload_sample_trec").click().run()
    assert not at.exception
    table = per_query(at).set_index("query_id")
    assert "AP (grade ≥ 2)" in table.columns and "P@5 (grade ≥ 2)" in table.columns
    assert "NDCG@5 (gain g)" in table.columns                      # grades are its gains
    qrels = read_qrels(SAMPLES / "qrels.txt")
    expected = irlib.evaluate(qrels, read_run(SAMPLES / "run_control.txt"),
                              ["AP(rel=2)", "P(rel=2)@5"]).per_query.dropna()
    assert table["AP (grade ≥ 2)"].to_dict() == pytest.approx(expected["AP(rel=2)"].to_dict())
    assert table["relevant"].to_dict() == (qrels[qrels.relevance >= 2].groupby("query_id")
                                           .size().reindex(table.index, fill_value=0).to_dict())
    assert address(at)["rel"] == "2"
    at.number_input(key="upload_rel").set_value(1).run()
    assert "AP (grade ≥ 1)" in per_query(at).columns


# --------------------------------------------------------------------------- many systems

def test_three_runs_named_by_their_tags_in_one_systems_table(three_runs):
    at = three_runs
    systems = next(d.value for d in at.dataframe if "system" in d.value.columns
                   and "better / tie / worse" in " ".join(d.value.columns))
    assert systems["system"].tolist() == ["control", "test", "bm25+rm3"]   # run tags
    qrels = read_qrels(SAMPLES / "qrels.txt")
    run = read_run(SAMPLES / "run_test.txt")
    ap = irlib.evaluate(qrels, run, ["AP"]).means["AP"]
    cell = systems.set_index("system").loc["test", "AP (grade ≥ 1)"]
    assert cell.startswith(f"{ap:.4f}") and "★" in cell      # the best AP
    assert systems.set_index("system").loc["control", systems.columns[-1]] == "baseline"
    caption = " ".join(c.value for c in at.caption)
    assert "Holm–Bonferroni" in caption and "randomization test" in caption
    # the baseline can change; the comparison then starts from it
    at.selectbox(key="upload_baseline").set_value(3).run()
    assert not at.exception
    assert any(i.value.startswith("control is better") or i.value.startswith("test is")
               for i in at.info)


def test_a_system_can_be_renamed_and_the_table_follows(three_runs):
    at = three_runs
    (box,) = [t for t in at.text_input if t.label.startswith("System 3")]
    box.set_value("Query expansion").run()
    assert not at.exception
    systems = next(d.value for d in at.dataframe if "system" in d.value.columns)
    assert "Query expansion" in systems["system"].tolist()


def test_eleven_runs_are_one_too_many_and_say_so():
    at = page(input="trec")
    runs = [("run", f"r{i}.txt", _variant(f"r{i}", i)) for i in range(11)]
    at.session_state["upload_inject"] = [("qrels", "qrels.txt",
                                          (SAMPLES / "qrels.txt").read_bytes())] + runs
    at.run()
    assert not at.exception
    assert any("up to 10 systems" in e.value for e in at.error)
    assert len([k for k in at.session_state["upload_files"] if k.startswith("run_")]) == 10


# --------------------------------------------------------------------------- handing it on

def test_a_link_without_its_files_says_where_the_data_is():
    at = page(input="trec", measures="AP", k="10")
    assert any("not the data" in i.value and "report" in i.value for i in at.info)
    assert not [i for i in page().info if "not the data" in i.value]   # no link, no note


def _dataset(run_b_name="run_test.txt"):
    files = {"qrels": Parsed("qrels.txt", read_qrels(SAMPLES / "qrels.txt"), "q" * 64, 10),
             "run_1": Parsed("run_control.txt", read_run(SAMPLES / "run_control.txt"),
                             hashlib.sha256(b"c").hexdigest(), 20),
             "run_2": Parsed(run_b_name, read_run(SAMPLES / "run_test.txt"), "t" * 64, 30)}
    dataset, _ = ui.build_dataset("trec", files)
    return dataset


def test_the_report_holds_the_question_verdict_table_chart_settings_and_provenance():
    from irlib.stats.compare_many import compare_many
    from ui.upload.compare import build_pair

    dataset = _dataset()
    settings = ui.Settings(("AP", "nDCG"), "AP", 10, "linear", rel=2, graded=True)
    evaluations = ui.score(dataset, settings.names)
    per_query = {n: e.per_query for n, e in evaluations.items()}
    result = compare_many(per_query, "control", measures=list(settings.names))
    pair = build_pair(dataset, evaluations, settings, True, ("control", "test"))
    text = report_html(dataset, settings, True, result, pair).decode()
    assert "<title>Does test rank better than control?</title>" in text
    assert html.escape(pair.verdict.sentence) in text
    assert html.escape(pair.verdict.plain) in text
    assert "All systems" in text and "Query by query" in text and "Plotly.newPlot" in text
    # (a file name may break after its _ or . on a phone: the report writes a <wbr> there)
    assert hashlib.sha256(b"c").hexdigest() in text and "run_control.txt" in text.replace("<wbr>", "")
    assert "trec_eval -l 2" in text and "count as 0 (trec_eval -c)" in text
    assert "https://" not in text.split("<script>")[0]          # nothing to fetch
    assert "cdn" not in text.lower().split("<body>")[1]
    means = means_of(evaluations["test"], settings, True)
    assert f"{means['AP']:.4f}" in text


def test_the_report_escapes_what_users_typed():
    dataset = _dataset(run_b_name="<img src=x onerror=alert(1)>.txt")
    settings = ui.Settings(("AP",), "AP", 10, "linear")
    evaluations = ui.score(dataset, settings.names)
    from ui.upload.compare import build_pair
    pair = build_pair(dataset, evaluations, settings, True, tuple(dataset.runs))
    text = report_html(dataset, settings, True, None, pair).decode()
    assert "<img src=x" not in text and "&lt;img src=x onerror=alert(1)&gt;" in text


def test_the_sample_files_uploaded_by_hand_are_still_sample_data():
    """Downloaded from the page and uploaded again, they are the same bytes: the same label."""
    at = page(input="trec", measures="AP", by="AP")
    at.session_state["upload_inject"] = [
        (slot, name, (SAMPLES / name).read_bytes())
        for slot, name in (("qrels", "qrels.txt"), ("run", "run_control.txt"),
                           ("run", "run_test.txt"))]
    at.run()
    assert not at.exception
    means = [m.label for m in at.metric if "AP" in m.label]
    assert means and all(label.endswith("· sample data") for label in means), means
    at.session_state["upload_inject"] = [("run", "mine.txt", b"101 Q0 d1 1 2.0 mine\n")]
    at.run()
    assert all(f.sample for p, f in at.session_state["upload_files"].items() if p != "run_3")
    assert not at.session_state["upload_files"]["run_3"].sample


def test_sample_data_is_labelled_in_the_report_and_the_csvs():
    at = page(input="trec", measures="AP", by="AP")
    at.button(key="upload_sample_trec").click().run()
    assert not at.exception
    labels = [m.label for m in at.metric]
    assert any(label.endswith("· sample data") for label in labels)
    verdicts = [i.value for i in at.info if "better on" in i.value]
    assert verdicts and all("sample data" in v for v in verdicts)
    assert any("These are sample data" in m.value for m in at.markdown)


# --------------------------------------------------------------------------- the two input kinds

def _as_the_browser_sends(at: AppTest, shown: dict[str, str]) -> None:
    """Run as a browser would: a selectbox sends the label it shows, which changes only when
    the page sets its value (``set_value``); new options alone leave the old label."""
    states = at._tree.get_widget_states()
    for box in at.selectbox:
        if box.proto.set_value:
            shown[box.key] = box.proto.raw_value
        for state in states.widgets:
            if state.id == box.id and box.key in shown:
                state.string_value = shown[box.key]
    at._run(widget_state=states)


def _pickers(at: AppTest) -> dict[str, str]:
    return {s.key: s.format_func(s.value) for s in at.selectbox
            if s.key in ("upload_baseline", "upload_system")}


def test_each_input_kind_keeps_its_systems_and_a_stale_label_never_crashes():
    """The walkthrough: TREC runs, then the recommender samples, then TREC again and a
    Remove: the pickers still showed the recommenders' names, and the browser sent one
    back ('<=' not supported between 'int' and 'str') for the rest of the session."""
    at = page(input="trec")
    at.button(key="upload_sample_trec").click().run()
    at.selectbox(key="upload_baseline").set_value(2).run()
    at.selectbox(key="upload_system").set_value(3).run()
    shown = {}
    _as_the_browser_sends(at, shown)
    assert _pickers(at) == {"upload_baseline": "test", "upload_system": "rm3"}
    at.radio(key="upload_input").set_value("recsys")
    _as_the_browser_sends(at, shown)
    at.button(key="upload_sample_recsys").click()
    _as_the_browser_sends(at, shown)
    assert not at.exception, at.exception
    # the recommenders' own choices: the defaults, not TREC's positions
    assert _pickers(at) == {"upload_baseline": "shop_recs_popular",
                            "upload_system": "shop_recs_popular"}
    at.radio(key="upload_input").set_value("trec")
    _as_the_browser_sends(at, shown)
    assert not at.exception, at.exception
    at.button(key="upload_remove_run_4").click()
    _as_the_browser_sends(at, shown)
    assert not at.exception, at.exception
    # TREC's own choices are back, in the browser too, and the table compares with them
    assert _pickers(at) == {"upload_baseline": "test", "upload_system": "rm3"}
    assert {k: shown[k] for k in ("upload_baseline", "upload_system")} == _pickers(at)
    table = next(d.value for d in at.dataframe if "system" in d.value.columns)
    assert table["system"].tolist() == ["test", "control", "rm3"]      # the baseline first


def test_the_cards_p_is_the_sentences_and_the_tables_p():
    """The randomization test's p on the pair's card is the same draw as the verdict's and the
    systems table's (an engineer's report, 30 Nov 2026: card 0.070 ± 0.005 beside a sentence's
    uncorrected 0.062, so the corrected p looked smaller than the uncorrected one)."""
    at = page(input="trec")
    at.session_state["upload_inject"] = [("qrels", "qrels.txt", (SAMPLES / "qrels.txt").read_bytes())] + [
        ("run", name, (SAMPLES / name).read_bytes())
        for name in ("run_control.txt", "run_rm3.txt", "run_dense.txt")]
    at.run()
    for pairs in (False, True):
        if pairs:
            at.toggle(key=next(t.key for t in at.toggle if t.label == "Compare every pair")).set_value(True)
        at.selectbox(key="upload_versus_pick").set_value(3).run()       # dense against control
        assert not at.exception, at.exception
        cards = {m.label: m.value for m in at.metric}
        card = cards["randomization test p (uncorrected)"].split(" ± ")[0]
        sentence = next(i.value for i in at.info if "uncorrected p" in i.value).replace("\\", "")
        assert f"uncorrected p = {card})" in sentence, (card, sentence)
        assert float(cards["randomization test p, corrected"]) >= float(card)


def test_a_links_system_not_loaded_yet_is_kept_and_said():
    """A link with vs=3 opened, its runs loaded one by one: until the third arrives the page
    says so and keeps vs=3 (it used to drop it at the second run, and compare another system
    from then on without a word)."""
    at = page(input="trec", vs="3")
    runs = [("run", name, (SAMPLES / name).read_bytes())
            for name in ("run_control.txt", "run_rm3.txt", "run_dense.txt")]
    at.session_state["upload_inject"] = [("qrels", "qrels.txt", (SAMPLES / "qrels.txt").read_bytes()),
                                         *runs[:2]]
    at.run()
    assert not at.exception, at.exception
    assert any("The link compares system 3" in c.value for c in at.caption)
    assert address(at)["vs"] == "3"
    at.session_state["upload_inject"] = runs[2:]
    at.run()
    assert not any("The link compares system 3" in c.value for c in at.caption)
    assert at.selectbox(key="upload_versus_pick").value == 3               # dense
    assert address(at)["vs"] == "3"


def test_the_precision_recall_caption_names_the_unit_and_the_rule(three_runs):
    caption = next(c.value for c in three_runs.caption if "Precision against recall" in c.value)
    assert "the chosen query's precision at each rank" in caption     # no "{dataset.unit}"
    assert "{" not in caption and "trec_eval 9 and pytrec_eval" in caption
