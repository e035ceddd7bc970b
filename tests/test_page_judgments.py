"""Lesson 8, where judgments come from, through AppTest: the notebook's numbers, the learner as a
rater, a system outside the pool, the queries a comparison needs, the link and bad input."""
from __future__ import annotations

import re

import pytest

from irlib.stats.power import plan, spread
from tests.apptest import address, run_page
from ui.lessons import judgments as jd
from ui.shared.texts import md_escape

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
    table = tables(at)[0]
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
    table = tables(at)[0]
    assert table["doc1"]["median"] == "3" and table["doc1"]["majority"] == "3"
    assert table["doc3"]["median"] == "2" and table["doc1"]["mean"] == "2.67"
    assert table["NDCG@4"]["median"] != "0.8354"
    assert address(at)["you"] == "3321"
    # doc4 graded 1 (rater 1), 3 (you), 0 (rater 3): no majority, so the median
    at.button_group(key=P + "you_3").set_value(3).run()
    table = tables(at)[0]
    assert table["doc4"]["majority"] == table["doc4"]["median"] == "1"
    assert "you and rater 3" in text(at)


def test_a_system_outside_the_pool_and_each_rule():
    at = run({"part": "pool"})
    scores = tables(at)[0]
    c = scores["C (not pooled)"]
    assert c["P@5: every document judged"] == "0.80"
    assert c["P@5: unjudged = not relevant"] == "0.20"
    assert c["P@5: judged only (-J)"] == "0.20" and c["bpref"] == "0.50"
    assert c["Judged@5"] == "0.20"
    at.toggle(key=P + "in_pool").set_value(True).run()
    scores = tables(at)[0]
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


def test_part_3_plans_from_the_smallest_difference_that_matters():
    at = run({"part": "queries", "base": "control", "other": "test"})
    page = text(at)
    # the pilot: control vs test, nDCG@10, 24 queries; δ = 0.05 (the default), power 80 %
    assert ("standard deviation of the per-query differences of nDCG@10 at **0.1020** (95% "
            "interval 0.0793 to 0.1431)") in page
    assert "Effect size d = difference ÷ that SD = 0.05 ÷ 0.1020 = **0.49**" in page
    assert "A two-sided paired t-test at α = 0.05 needs **35 queries** for power 80%: " \
           "**22 to 67** over the SD's interval." in page
    assert "With 35 queries, **84%** of 100 studies find it (planned: 80%)." in page
    # the old page's post-hoc number, labelled for what it is
    assert ("gives an *observed power* of 41% at its 24 queries. That number only restates p "
            "(Hoenig & Heisey 2001). Its effect size could be anywhere from -0.05 to 0.79 "
            "(95% interval), so the queries it would need range from 15 to ∞.") in page
    assert "p = 0.084" in page and "needs **60" not in page
    assert len(at.get("plotly_chart")) == 1
    at.number_input(key=P + "delta").set_value(0.1).run()
    assert "needs **11 queries**" in text(at) and address(at)["delta"] == "0.1"
    at.selectbox(key=P + "other").set_value("control").run()
    assert "Pick two different systems" in at.info[0].value


def test_a_bad_difference_in_the_link_is_named():
    at = run({"part": "queries", "delta": "2"})
    assert "could not be read" in at.info[0].value
    assert address(at)["delta"] == "0.05"


def test_kappa_zero_and_below_read_as_landis_and_koch_do():
    page = text(run({"you": "2221"}))
    assert ("**Fleiss' κ = 0.00** (exactly the agreement chance would give: \"slight\" on "
            "Landis & Koch's scale)") in page and "-0.00" not in page
    page = text(run({"you": "0032"}))
    assert "**Fleiss' κ = -0.41** (less agreement than chance: \"poor\" on Landis & Koch's " \
           "scale)" in page


def test_part_1_shows_kappas_uncertainty_ordinal_agreement_tau_and_prevalence():
    at = run()
    page = text(at)
    assert "κ's middle 95% spans **-0.37 to 0.09**" in page
    assert "Krippendorff's α as categories **0.17**, ordinal **0.58**, interval **0.57**" in page
    assert "rater 1 and rater 3 **0.30**." in page                   # quadratic-weighted κ
    assert ("rater 1 and you: τ = **0.93**, practically the same order (τ ≥ 0.9), 10 of 276 "
            "pairs swapped; rater 1 and rater 3: τ = **0.65**, a different order (τ < 0.9), "
            "48 of 276 pairs swapped") in page
    assert "Here the lowest τ is 0.58" in page
    prevalence = tables(at)[1]
    assert prevalence["balanced (half relevant)"]["Cohen's κ"] == "0.80"
    assert prevalence["skewed (most not relevant)"]["Cohen's κ"] == "0.44"
    assert "yet κ is 0.80 when half are relevant and 0.44 when few are" in page


def test_the_judged_only_list_pulls_up_and_the_pool_biases_both_ways():
    at = run({"part": "pool", "c": "d9 d4 d1 d3", "pm": "AP", "depth": "2"})
    scores, logo = tables(at)
    assert [scores[f"{s} ({p})"]["AP: every document judged"] for s, p in
            (("A", "pooled"), ("B", "pooled"), ("C", "not pooled"))] == ["0.28", "0.43", "0.14"]
    assert [scores[f"{s} ({p})"]["AP: unjudged = not relevant"] for s, p in
            (("A", "pooled"), ("B", "pooled"), ("C", "not pooled"))] == ["0.83", "1.00", "0.42"]
    assert scores["C (not pooled)"]["AP: judged only (-J)"] == "1.00"
    page = text(at)
    assert "C: AP 0.42 against this pool, 0.14 judged completely: overrated." in page
    assert "R comes from the pool: it knows 2 of the 6 relevant documents." in page
    assert ("C: AP 1.00 under -J (judged only), 0.14 judged completely: the judged documents "
            "move up, so -J overrates it here (condensed lists tend to, Sakai & Kando 2008)."
            ) in page
    assert "2 of the 4 results it returned (fewer than 5) were judged (50%)" in page
    assert "only 50% of its top 5" not in page
    assert logo["B"] == {"only it contributed": "1 (1 relevant)", "AP with them": "1.00",
                         "without them": "0.50"}


def test_in_the_default_view_minus_j_and_unjudged_as_misses_agree_and_the_page_says_why():
    at = run({"part": "pool"})
    assert ("yet -J gives what counting the unjudged as not relevant gives (0.20): "
            "trec_eval's P@5 still divides by 5.") in text(at)
    assert "leave the unjudged out instead of counting them" not in text(at)
    at.toggle(key=P + "in_pool").set_value(True).run()
    logo = tables(at)[1]
    assert logo["C"] == {"only it contributed": "2 (2 relevant)", "P@5 with them": "0.60",
                         "without them": "0.20"}


def test_the_link_holds_every_setting_and_a_bad_one_is_named():
    at = run({"part": "pool", "you": "1111", "depth": "4", "pm": "AP", "c": "d1 d6"})
    assert address(at) == {"part": "pool", "you": "1111", "c": "d1 d6", "depth": "4",
                           "pm": "AP", "cpool": "0", "data": "sample", "base": "control",
                           "other": "test", "qm": "nDCG@10", "power": "80", "delta": "0.05"}
    bad = run({"you": "9x"})
    assert "could not be read" in bad.info[0].value
    assert address(bad)["you"] == "2301"


@pytest.mark.parametrize("part", list(jd.PARTS))
def test_every_part_ends_with_the_lessons_links(part):
    at = run({"part": part})
    captions = [c.value for c in at.caption]
    assert "Previous: 8. Recommenders: new traps" in captions
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
    _, sd, n = spread((table[at.session_state[P + "other"]]
                       - table[at.session_state[P + "base"]]).dropna())
    need = plan(0.05, sd, n, power=0.8).needed
    assert f"needs **{need.queries:,} queries**" in text(at)
    assert md_escape(label) in text(at)
