"""The class room on a lecturer's own example (issue 36): "A or B?" and "Up, down, same?"
drawn from it, with irlib's answers, and its titles kept as text on the teacher's page."""
from __future__ import annotations

import random

import pytest

from tests.apptest import run_page
from tests.test_rooms_questions import BY_METRIC, apply, direction, grades_of, shown
from ui.lessons.playground import example_data as own_data
from ui.rooms import questions as qs
from ui.rooms.store import check_payload

EXAMPLE = own_data.build_example("GDPR fines for banks", [
    {"title": "<b>Bank A</b> fined €2m", "grade": 4},
    {"title": "[Bank B](http://x) fine", "grade": 0},
    {"title": "GDPR text, art. 83", "grade": 2}, {"title": "=1+1 fines overview", "grade": 3},
    {"title": "Bank C appeal", "grade": 1}])


@pytest.mark.parametrize("seed", range(20))
def test_a_or_b_on_an_own_example_agrees_with_irlib(seed):
    question = qs.make_question("compare", random.Random(seed), {"example": EXAMPLE})
    check_payload(question)
    metric, k = shown(question)
    a, b = (BY_METRIC[metric](grades_of(r), k) for r in question["rankings"])
    assert question["correct"] == (qs.SAME if abs(a - b) <= 1e-12 else "A" if a > b else "B")
    assert {i["title"] for i in question["rankings"][0]["items"]} == {
        i.title for i in EXAMPLE.items}
    assert "GDPR fines for banks" in question["context"]


@pytest.mark.parametrize("seed", range(20))
def test_up_down_same_on_an_own_example_agrees_with_irlib(seed):
    question = qs.make_question("predict", random.Random(seed), {"example": EXAMPLE, "k": 3})
    check_payload(question)
    metric, k = shown(question)
    (ranking,) = question["rankings"]
    before = grades_of(ranking)
    after = apply(question["change"], before)
    assert question["correct"] == direction(BY_METRIC[metric](before, k),
                                            BY_METRIC[metric](after, k))
    assert ranking["items"][question["change"]["from"]]["title"] in question["action"]


def test_the_teacher_draws_on_the_playgrounds_example_and_its_titles_stay_text(tmp_path,
                                                                               monkeypatch):
    monkeypatch.setenv("IRLAB_ROOMS_DB", str(tmp_path / "rooms.sqlite3"))
    monkeypatch.delenv("IRLAB_ROOMS_URL", raising=False)
    at = run_page("room", session={"pg_ex": EXAMPLE})
    at.button(key="room_open").click().run()
    at.button_group(key="room_ask").set_value("compare").run()
    at.toggle(key="room_own").set_value(True).run()
    assert not at.exception, at.exception
    strip = "\n".join(m.value for m in at.markdown
                       if m.value.startswith('<div class="room-strip">'))
    assert "&lt;b&gt;Bank A&lt;/b&gt; fined €2m" in strip and "<b>Bank A" not in strip
    assert "GDPR fines for banks" in "\n".join(c.value for c in at.caption)
