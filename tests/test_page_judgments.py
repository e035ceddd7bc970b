"""Lesson 8, where judgments come from, through AppTest: the notebook's numbers, the learner as a
rater, a system outside the pool, the queries a comparison needs, the link and bad input."""
from __future__ import annotations

import re

import pytest

from irlib.stats.power import queries_needed, spread
from tests.apptest import address, run_page
from ui import judgments as jd
from ui.texts import md_escape

P = jd.PREFIX


def run(query=None):
    return run_page("judgments", query=query, timeout=120)


def tables(at) -> list[dict]:
    return [t.value.to_dict("index") for t in at.table]


def unescaped(markdown: str) -> str:
    """What a reader sees of Markdown that escaped the learner's text."""
    return re.sub(r"\\(.)", r"\1", markdown)


def text(at) -> str:
    return " ".join(m.value for m in at.markdown)


def test_the_notebooks_disagreement_query_and_its_median_dcg():
    at = run()
    (table,) = tables(at)
    assert [table[d]["rater 1"] for d in jd.DOCS] == ["2", "3", "0", "1"]
    assert [table[d]["rater 3"] for d in jd.DOCS] == ["3", "2", "2", "0"]
    assert [table[d]["median"] for d in jd.DOCS] == ["2", "3", "0", "1"]      # the notebook
    assert [table[d]["mean"] for d in jd.DOCS] == ["2.33", "2.67", "0.67", "0.67"]
    assert table["DCG@4"]["median"] == "7.8472"                               # notebook 7.847185
    assert table["DCG@4"]["rater 3"] == "10.3928" and table["NDCG@4"]["rater 3"] == "1.0000"
    assert table["NDCG@4"]["median"] == "0.8354" and table["NDCG@4"]["mean"] == "0.9428"
    assert "Fleiss' κ = 0.09** (slight" in text(at)


def test_the_learner_regrades_and_the_median_mean_and_majority_part_ways():
    at = run()
    # you side with rater 3 on doc1 and doc3: the median and majority follow, the mean too
    at.button_group(key=P + "you_0").set_value(3).run()
    at.button_group(key=P + "you_2").set_value(2).run()
    (table,) = tables(at)
    assert table["doc1"]["median"] == "3" and table["doc1"]["majority"] == "3"
    assert table["doc3"]["median"] == "2" and table["doc1"]["mean"] == "2.67"
    assert table["NDCG@4"]["median"] != "0.8354"
    assert address(at)["you"] == "3321"
    # doc4 graded 1 (rater 1), 3 (you), 0 (rater 3): no majority, so the median
    at.button_group(key=P + "you_3").set_value(3).run()
    (table,) = tables(at)
    assert table["doc4"]["majority"] == table["doc4"]["median"] == "1"
    assert "you and rater 3" in text(at)


def test_a_system_outside_the_pool_and_each_rule():
    at = run({"part": "pool"})
    (scores,) = tables(at)
    c = scores["C (not pooled)"]
    assert c["P@5: every document judged"] == "0.80"
    assert c["P@5: unjudged = not relevant"] == "0.20"
    assert c["P@5: judged only (-J)"] == "0.20" and c["bpref"] == "0.50"
    assert c["Judged@5"] == "0.20"
    at.toggle(key=P + "in_pool").set_value(True).run()
    (scores,) = tables(at)
    assert scores["C (pooled)"]["Judged@5"] == "0.60"      # its own top 2 (d7, d8) and d1
    assert scores["C (pooled)"]["P@5: unjudged = not relevant"] == "0.60"
    assert address(at)["cpool"] == "1"


def test_bad_system_c_says_where_and_keeps_the_page():
    at = run({"part": "pool"})
    at.text_input(key=P + "new").set_value("d7 d8 d7").run()
    assert "system C, column rank 3: 'd7' is listed twice (ranks 1 and 3)" in \
        unescaped(at.error[0].value)
    at.text_input(key=P + "new").set_value("d6, d10").run()
    assert not at.error
    assert tables(at)[0]["C (not pooled)"]["P@5: every document judged"] == "0.40"
    at.text_input(key=P + "new").set_value("d7 *x1*").run()
    error = at.error[0].value
    assert r"\*x1\*" in error                                       # text, not emphasis
    assert "column rank 2: '*x1*' is not one of the documents d1 to d10" in unescaped(error)
    assert "C keeps its last list: d6 d10" in error                  # the earlier good state
    assert tables(at)[0]["C (not pooled)"]["P@5: every document judged"] == "0.40"


def test_how_many_queries_from_the_sample_runs():
    at = run({"part": "queries", "base": "control", "other": "test", "power": "90"})
    table = jd.sample_per_query("nDCG@10")
    mean, sd, n = spread((table["test"] - table["control"]).dropna())
    need = queries_needed(mean, sd, power=0.9)
    assert f"needs **{need.queries:,} queries**" in text(at) and n == 24
    assert len(at.get("plotly_chart")) == 1
    at.selectbox(key=P + "other").set_value("control").run()
    assert "Pick two different systems" in at.info[0].value


def test_the_link_holds_every_setting_and_a_bad_one_is_named():
    at = run({"part": "pool", "you": "1111", "depth": "4", "pm": "AP", "c": "d1 d6"})
    assert address(at) == {"part": "pool", "you": "1111", "c": "d1 d6", "depth": "4",
                           "pm": "AP", "cpool": "0", "data": "sample", "base": "control",
                           "other": "test", "qm": "nDCG@10", "power": "80"}
    bad = run({"you": "9x"})
    assert "could not be read" in bad.info[0].value
    assert address(bad)["you"] == "2301"


@pytest.mark.parametrize("part", list(jd.PARTS))
def test_every_part_ends_with_the_lessons_links(part):
    at = run({"part": part})
    captions = [c.value for c in at.caption]
    assert "Previous: 8. Recommenders: the same metrics, new traps" in captions
    assert "Next: 10. Your own judgments" in captions


def test_the_learners_upload_is_offered_after_lesson_9_scored_it():
    """The whole app: load the TREC samples in Lesson 9, then part 3 compares those scores
    (the upload page's measure, its systems) and says how many queries they need."""
    from streamlit.testing.v1 import AppTest

    from tests.apptest import ROOT
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("pages/judgments.py").run()
    at.button_group(key=P + "part").set_value("queries").run()
    at.button_group(key=P + "data").set_value("upload").run()
    assert "No upload with two or more systems" in at.info[0].value     # nothing yet
    at.switch_page("pages/upload.py").run()
    at.radio(key="upload_input").set_value("trec").run()
    at.button(key="upload_sample_trec").click().run()
    assert not at.exception
    label, table = at.session_state[jd.UPLOAD_KEY]       # what Lesson 10 handed over
    at.switch_page("pages/judgments.py").run()
    assert not at.exception and not [i for i in at.info if "No upload" in i.value]
    assert at.selectbox(key=P + "base").options == list(table.columns)
    mean, sd, _ = spread((table[at.session_state[P + "other"]]
                          - table[at.session_state[P + "base"]]).dropna())
    need = queries_needed(abs(mean), sd, power=0.8)
    assert f"needs **{need.queries:,} queries**" in text(at)
    assert md_escape(label) in text(at)
