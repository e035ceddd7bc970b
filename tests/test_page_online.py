"""Lesson 7, metrics as users, through AppTest: every section draws from irlib.online, the
settings live in the address bar and a link reopens them, and each sentence on the page is
one irlib.online.online_claims wrote from the same result."""
import json

import pytest

from irlib import online
from tests.apptest import address, run_page
from ui.lessons import online as ol

P = ol.PREFIX


def values(v) -> list:
    """A Plotly array as a list (Plotly sends NumPy arrays as base64 "bdata")."""
    import base64

    import numpy as np
    if isinstance(v, dict) and "bdata" in v:
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"]).tolist()
    return list(v)


def texts(at) -> list[str]:
    return [m.value for m in at.markdown] + [c.value for c in at.caption]


def expected(query: dict | None = None, session=None):
    """The result and sentences the page should show, computed here from irlib directly."""
    values = {f.name: f.fresh_default() for f in ol.page_state().fields}
    for f in ol.page_state().fields:
        if query and f.url_name in query:
            values[f.name] = f.codec.parse(query[f.url_name])
    p = ol.pair(values["pair"]) if session is None else session
    r = online.compare_online(p.order_a, p.order_b, p.grades, p.top_grade,
                              setting=ol.setting(values), users=int(values["users"]))
    return p, r, online.online_claims(r, p.name_a, p.name_b, f"NDCG@{len(p.order_a)}")


def test_every_section_draws_and_says_irlibs_sentences():
    at = run_page("online")
    assert [h.value for h in at.subheader] == ["The user behind each metric",
                                              "From the model to clicks",
                                              "A/B test or interleaving?"]
    p, r, claims = expected()
    shown = texts(at)
    for name in ("ab", "interleaving", "budget"):
        assert claims[name] in shown, name
    assert "**For the product team** — " + claims["stakeholder"] in shown
    assert any(claims["offline"] in t for t in shown)
    tiles = {m.label: m.value for m in at.metric}
    assert tiles["Click-through, A"] == f"{100 * r.ctr_a:.1f} %"
    assert tiles["Click-through, B"] == f"{100 * r.ctr_b:.1f} %"
    # the default change touches 10 % of searches: a line under the tiles says theirs are
    # those searches', with the overall change the product team's sentence speaks of
    overall = f"{100 * (r.traffic_ctr_b - r.traffic_ctr_a):+.1f} points"
    (scope,) = [c.value for c in at.caption if c.value.startswith("The tiles:")]
    assert "the 10 % of searches the change touches" in scope and overall in scope
    assert f"by {overall.lstrip('+')}" in claims["stakeholder"]
    (experiments,) = [t.value for t in at.table if "Interleaving" in t.value.columns]
    assert experiments.columns.tolist() == ["A/B test", "Interleaving"]     # a column each
    assert experiments.loc["Users for 80 %"].tolist() == [f"{r.ab_needed:,}",
                                                          f"{r.interleaving_needed:,}"]
    charts = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    assert len(charts) == 3
    bars = [t for t in charts[1]["data"] if t["type"] == "bar"]
    assert [t["name"] for t in bars] == ["A: model", "B: model"]
    # the stakeholder box holds the product team's sentence
    assert "not a forecast" in claims["stakeholder"]


def test_the_default_is_a_diluted_change_where_interleaving_needs_far_fewer_users():
    _, r, _ = expected()
    assert r.setting.touched == 0.1
    assert r.interleaving_needed * 10 < r.ab_needed
    assert r.ab_at_users.wrong_way > 0.1       # 1,000 users: the A/B test often points wrong


@pytest.mark.parametrize("query", [
    {"pair": "lecture", "model": "position", "bias": "1.5", "method": "balanced",
     "users": "5000", "touched": "1.0", "seed": "7", "noise": "0.2"},
    {"pair": "playground", "model": "cascade", "patience": "0.7", "view": "present"},
])
def test_a_link_opens_its_settings_and_the_page_writes_it_back(query):
    at = run_page("online", query=query)
    assert not any("could not be read" in i.value for i in at.info)
    written = address(at)
    assert {k: written[k] for k in query} == query
    _, _, claims = expected(query)
    assert "**For the product team** — " + claims["stakeholder"] in texts(at)
    # a change that touches every search: the tiles are all searches', no line says otherwise
    scoped = [c.value for c in at.caption if c.value.startswith("The tiles:")]
    assert bool(scoped) == (query.get("touched", "0.1") != "1.0")
    again = run_page("online", query=written)
    assert address(again) == written


def test_the_cascade_shows_patience_the_position_model_its_bias():
    at = run_page("online")
    labels = [s.label for s in at.select_slider]
    assert any(label.startswith("Patience") for label in labels)
    assert not any(label.startswith("Position bias") for label in labels)
    at.radio(key=P + "model").set_value("position").run()
    labels = [s.label for s in at.select_slider]
    assert any(label.startswith("Position bias") for label in labels)


def test_the_playground_pair_takes_lesson_1s_board():
    order = ("white-cat-box", "dog", "empty-box", "ginger-cat-box", "white-cat-box-2",
             "two-cats", "dark-cat-box", "dog-box")
    grades = {"dog": 0, "white-cat-box": 4, "empty-box": 1, "ginger-cat-box": 3,
              "white-cat-box-2": 4, "two-cats": 1, "dark-cat-box": 3, "dog-box": 2}
    at = run_page("online", query={"pair": "playground"},
                  session={"pg_order": order, "pg_grades": grades})
    shown = texts(at)
    assert any("as Lesson 1's board has them" in t for t in shown)
    rows = [t.value for t in at.table if "Result" in t.value.columns][0]
    # the board's first result sits at rank 1 under A
    first = rows[rows["A: rank"] == 1]["Result"].tolist()
    assert first == ["White cat in a box"]
    # B is the ideal order of the same grades: both grade-4 cats first
    assert sorted(rows[rows["B: rank"] <= 2]["Grade"].tolist()) == [4, 4]


def test_a_bad_link_keeps_the_defaults_and_says_so():
    at = run_page("online", query={"noise": "0.77", "model": "psychic"})
    assert any("could not be read" in i.value or "noise" in i.value for i in at.info)
    assert at.radio(key=P + "model").value == "cascade"


def test_the_same_seed_gives_the_same_page_another_seed_another_simulation():
    one = run_page("online", query={"seed": "3"})
    two = run_page("online", query={"seed": "3"})
    three = run_page("online", query={"seed": "4"})
    spec = [json.loads(c.proto.spec) for c in one.get("plotly_chart")]
    assert spec == [json.loads(c.proto.spec) for c in two.get("plotly_chart")]
    assert spec[1] != json.loads(three.get("plotly_chart")[1].proto.spec)    # the clicks


def test_the_power_curves_reach_80_percent_near_the_users_the_formula_asks_for():
    at = run_page("online")
    _, r, _ = expected()
    power = json.loads(at.get("plotly_chart")[2].proto.spec)
    first = {}
    for trace in power["data"]:
        if trace.get("mode") == "lines+markers":
            first[trace["name"].split(" ")[0]] = next(
                x for x, y in zip(values(trace["x"]), values(trace["y"])) if y >= 0.8)
    assert first["interleaving"] < first["A/B"]
    # the curve's first size at 80 % is within a factor 2.5 of the formula's
    assert r.ab_needed / 2.5 <= first["A/B"] <= r.ab_needed * 2.5
    assert r.interleaving_needed / 2.5 <= first["interleaving"] <= r.interleaving_needed * 2.5


def test_position_bias_is_said_from_irlib():
    at = run_page("online")
    p, r, _ = expected()
    sentence = online.position_bias_claim(p.order_a, p.grades, r.clicks_a, p.titles)
    assert sentence and "Dog (grade 0) at rank 1" in sentence
    assert "Under A: " + sentence in texts(at)


def test_the_user_behind_each_metric_follows_k_patience_and_target():
    from irlib.measures.user_models import inst, rbp, user_model
    at = run_page("online", query={"k": "3", "p": "0.9", "T": "2.0", "curve": "stopping"})
    p = ol.pair("swap")
    grades = [p.grades[d] for d in p.order_a]
    (rows,) = [t.value for t in at.table if "Measure" in t.value.columns]
    scores = dict(zip(rows["Measure"], rows["Score"]))
    assert scores["RBP(p=0.9,rel=3)"] == f"{rbp(grades, p=0.9, rel=3):.3f}"
    assert scores["INST(T=2.0,max_rel=4)"] == f"{inst(grades, T=2.0, max_rel=4):.3f}"
    assert "P(rel=3)@3" in scores and "nDCG@3" in scores and "ERR(max_rel=4)@3" in scores
    curves = json.loads(at.get("plotly_chart")[0].proto.spec)
    (err_curve,) = [t for t in curves["data"] if t["name"] == "ERR(max_rel=4)@3"]
    expected_l = user_model(grades, "ERR(max_rel=4)@3").stopping
    assert [round(v, 9) for v in values(err_curve["y"])] == [round(v, 9) for v in expected_l]
    assert curves["layout"]["yaxis"]["title"]["text"] == ol.CURVES["stopping"]


def test_a_board_already_in_its_ideal_order_has_nothing_to_find():
    ideal = ("white-cat-box", "white-cat-box-2", "ginger-cat-box", "dark-cat-box", "dog-box",
             "empty-box", "two-cats", "dog")
    at = run_page("online", query={"pair": "playground"}, session={"pg_order": ideal})
    (experiments,) = [t.value for t in at.table if "Interleaving" in t.value.columns]
    assert experiments.loc["Users for 80 %"].tolist() == ["—", "—"]
    shown = " ".join(texts(at))
    assert "no experiment size would find a difference" in shown
    assert "no A/B test on that rate can tell them apart" in shown
