"""Predict, then see (ui/lessons/playground/predict.py) on the playground, under AppTest.

A change is staged the way the board's ``on_change`` stages it (the session key it writes);
the browser test tests/browser/test_practice.py stages one with a real drag.
"""
from __future__ import annotations

import re

import irlib
from ui.shared.numbers import fmt
from tests.apptest import address, component_data, run_page
from ui.lessons.playground.session import defaults
from ui.lessons.playground.predict import outcome_text

P = "pg_"


def tiles(at) -> dict[str, str]:
    (data,) = component_data(at, "irlab_live_chart")
    return {t["label"]: t["value"] for t in data["tiles"]}


def board(at) -> dict:
    (data,) = component_data(at, "irlab_ranking_board")
    return data


def plain(markdown: str) -> str:
    return markdown.replace("\\", "")


def stage(at, order: list[str], labels: dict[str, int] | None = None) -> None:
    """What the board's on_change does in predict mode: hold the change, keep the base."""
    base_order = list(at.session_state[P + "order"])
    base = dict(at.session_state[P + "labels"])
    at.session_state[P + "predict_staged"] = {
        "base": {"mode": "binary", "order": base_order, "grades": base},
        "order": order, "grades": labels or base}
    at.run()
    assert not at.exception, at.exception


def moved(order, item, rank):
    order = [i for i in order if i != item]
    order.insert(rank - 1, item)
    return order


def p_at(order):
    labels = defaults().labels
    return [labels[i] for i in order]


def test_the_link_turns_it_on_and_the_preview_off():
    at = run_page("playground", query={"predict": "on"})
    assert address(at)["predict"] == "on" and address(at)["score"] == "0-0"
    assert board(at)["preview"] is None
    assert component_data(at, "irlab_live_chart")[0]["preview"] is None
    assert any("Predict first" in m.value for m in at.markdown)
    off = run_page("playground")
    assert address(off)["predict"] == "off" and off.toggle(key=P + "predict").value is False
    assert board(off)["preview"] is not None


def test_stage_predict_reveal_and_score():
    at = run_page("playground", query={"predict": "on", "k": "2"})
    start = list(defaults().order)
    before = tiles(at)
    first = moved(start, "white-cat-box", 1)                 # the white cat to the top
    stage(at, first)
    assert board(at)["order"] == first                        # the board shows the change ...
    assert tiles(at) == before                                # ... the numbers wait
    assert board(at)["outcomes"] == {}
    at.button_group(key=P + "guess").set_value("RR").run()
    at.button(key=P + "guess_up").click().run()
    rr = [irlib.reciprocal_rank(p_at(o), 2) for o in (start, first)]
    assert rr[1] > rr[0]
    (said,) = [plain(s.value) for s in at.success]
    assert said.startswith(f"Right: RR@2 went up, {fmt(rr[0])} → {fmt(rr[1])}. ")
    assert "Score: 1 right of 1" in said
    assert tiles(at)["RR@2"] == fmt(rr[1])              # now the numbers move
    assert address(at)["score"] == "1-1" and address(at)["order"] == "21345678"

    # a wrong guess counts as asked, not right
    second = moved(first, "dog", 8)
    stage(at, second)
    at.button_group(key=P + "guess").set_value("P").run()
    at.button(key=P + "guess_down").click().run()
    p = [irlib.precision_at_k(p_at(o), 2) for o in (first, second)]
    truth = "up" if p[1] > p[0] else "down" if p[1] < p[0] else "same"
    assert truth != "down"
    (said,) = [plain(s.value) for s in at.error]
    assert said.startswith("Not this time: you said down, but Precision@2 ")
    assert f"{fmt(p[0])} → {fmt(p[1])}" in said
    assert address(at)["score"] == "1-2"
    assert "Score: 1 right of 2" in said               # the score, in the same line


def test_undo_and_switching_off_drop_the_staged_change():
    at = run_page("playground", query={"predict": "on"})
    start = list(defaults().order)
    stage(at, moved(start, "dog", 8))
    at.button(key=P + "guess_cancel").click().run()
    assert board(at)["order"] == start and address(at)["score"] == "0-0"
    stage(at, moved(start, "dog", 8))
    at.toggle(key=P + "predict").set_value(False).run()
    assert board(at)["order"] == start                         # not applied, not kept
    at.toggle(key=P + "predict").set_value(True).run()
    assert board(at)["order"] == start


def test_a_judgment_can_be_staged_too():
    at = run_page("playground", query={"predict": "on", "k": "2"})
    labels = dict(defaults().labels)
    stage(at, list(defaults().order), {**labels, "dog": 1})    # rank 1 judged relevant
    assert board(at)["grades"]["dog"] == 1 and tiles(at)["Precision@2"] == "0.5"
    at.button_group(key=P + "guess").set_value("P").run()
    at.button(key=P + "guess_same").click().run()
    assert at.error and address(at)["score"] == "0-1"
    assert address(at)["labels"][0] == "1"


def test_a_score_link_is_kept_and_a_bad_one_gets_the_notice():
    at = run_page("playground", query={"predict": "on", "score": "3-4"})
    assert address(at)["score"] == "3-4"
    bad = run_page("playground", query={"predict": "on", "score": "5-3"})
    notices = [i.value for i in bad.info if "could not be read" in i.value]
    assert len(notices) == 1 and "`score`" in notices[0]
    assert address(bad)["score"] == "0-0"


def test_the_outcome_sentence():
    text = outcome_text({"right": True, "guess": "up", "truth": "up", "name": "NDCG@2",
                         "before": 0.387, "after": 0.613})
    assert text == "Right: NDCG@2 went up, 0.39 → 0.61."


def test_the_board_buttons_wait_for_the_guess_too():
    # ★ Ideal while predicting: the board shows the ideal order, the numbers and the link
    # keep the old one until the guess; then it is applied and scored like a drag.
    at = run_page("playground", query={"predict": "on", "k": "2"})
    start, labels = list(defaults().order), dict(defaults().labels)
    ideal = sorted(start, key=lambda i: (-labels[i], start.index(i)))
    before = tiles(at)["Precision@2"]
    at.button(key=P + "ideal").click().run()
    assert board(at)["order"] == ideal and at.session_state[P + "order"] == start
    assert tiles(at)["Precision@2"] == before == "0.5"
    at.button_group(key=P + "guess").set_value("P").run()
    at.button(key=P + "guess_up").click().run()
    assert at.session_state[P + "order"] == ideal and address(at)["score"] == "1-1"
    assert tiles(at)["Precision@2"] == "1"
    # ↺ Sources is a change to predict as well, and Undo drops it
    at.button(key=P + "reset").click().run()
    assert board(at)["order"] == start and at.session_state[P + "order"] == ideal
    at.button(key=P + "guess_cancel").click().run()
    assert board(at)["order"] == ideal


def test_outside_predict_mode_the_buttons_apply_at_once():
    at = run_page("playground", query={"k": "2"})
    at.button(key=P + "worst").click().run()
    labels = dict(defaults().labels)
    assert [labels[i] for i in at.session_state[P + "order"]] == [0, 0, 0, 0, 1, 1, 1, 1]
    at.button(key=P + "reset").click().run()
    assert at.session_state[P + "order"] == list(defaults().order)


def test_the_handed_out_link_carries_the_exercise_not_the_score():
    """The address bar keeps one's own score (a reload keeps it); the panel's "Link without my
    score" is the exercise to hand out: the same board, Predict first on, a fresh score."""
    from urllib.parse import parse_qsl
    order = "21345678"
    at = run_page("playground", query={"predict": "on", "score": "3-4", "order": order,
                                       "k": "3"})
    assert address(at)["score"] == "3-4"
    links = [re.search(r"\[Link without my score\]\((\?[^)]*)\)", m.value)
             for m in at.markdown]
    (link,) = [found[1] for found in links if found]
    handed = dict(parse_qsl(link[1:]))
    assert "score" not in handed
    assert (handed["predict"], handed["order"], handed["k"]) == ("on", order, "3")
    student = run_page("playground", query=handed)
    assert address(student)["score"] == "0-0" and address(student)["order"] == order
    assert any("Score: **0 right of 0**" in m.value for m in student.markdown)
