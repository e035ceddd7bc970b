"""The lecture hall (issue 35): the projector screen follows the teacher's page and shows only
what the class may see, in type a back row reads; the tally says what it counts and for which
question; a wrong answer on a phone says so and gives the right one. Shares the class-room
server of test_rooms.py (the ``rooms`` fixture, tests/browser/conftest.py)."""
from __future__ import annotations

import os
import re

import pytest

if os.environ.get("IRLAB_BROWSER_TESTS", "").lower() != "required":
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from playwright.sync_api import Page, expect  # noqa: E402

from tests.browser.test_rooms import (PHONE, POLL_TIMEOUT_MS, answers, ask, choose,  # noqa: E402
                                      latest_question, open_room)
from tests.browser.helpers import small_text, split_words  # noqa: E402
from tests.browser.waiting import wait_for_app_run  # noqa: E402
from ui.rooms.screen import TALLY_NOTE  # noqa: E402

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("IRLAB_SHOTS")          # a folder: keep screenshots to look at

def shot(page: Page, name: str) -> None:
    if SHOTS:
        page.wait_for_function("() => [...document.images].every(i => i.complete)")
        page.screenshot(path=os.path.join(SHOTS, name + ".png"))


def projector_link(teacher: Page) -> str:
    """The link the teacher's "Projector screen" gives, read as the lecturer reads it."""
    teacher.get_by_role("button", name="Projector screen").click()
    code = teacher.locator("[data-testid=stPopoverBody] [data-testid=stCode]")
    link = code.inner_text().strip()
    teacher.keyboard.press("Escape")
    return link


def test_the_projector_screen_follows_the_teacher_and_never_shows_an_answer_early(
        rooms, open_page):
    url, db = rooms
    teacher, code = open_room(open_page, url, width=1920, height=1080)
    link = projector_link(teacher)
    assert re.fullmatch(rf"{re.escape(url)}/screen\?room={code}&view=[0-9a-f]{{64}}", link), link
    assert teacher.url.split("key=")[1].split("&")[0] not in link     # not the teacher's key
    projector = open_page(link, width=1920, height=1080)
    main = projector.get_by_test_id("stMain")
    expect(projector.locator(".room-code")).to_have_text(code)
    question = latest_question(db, code)
    expect(projector.get_by_text(question["prompt"]).first).to_be_visible()
    expect(projector.get_by_text(TALLY_NOTE)).to_be_visible()
    expect(projector.get_by_text("Answers to this question so far")).to_be_visible()
    expect(projector.get_by_test_id("stSidebar")).to_be_hidden()
    expect(main.get_by_role("button")).to_have_count(0)                 # it runs nothing

    student = open_page(f"{url}/join?code={code}", **PHONE)
    keys = [key for key, _ in question["choices"]]
    answers(student).nth(next(n for n, key in enumerate(keys) if key != question["correct"])) \
        .click()                                                        # a wrong answer
    expect(projector.get_by_text("1 answered · 1 joined")).to_be_visible(
        timeout=POLL_TIMEOUT_MS)                                        # by itself
    right = dict(question["choices"])[question["correct"]]
    screen_text = main.inner_text()
    assert "Right answer" not in screen_text and f"✓ {right}" not in screen_text
    assert question["explanation"][:20] not in screen_text
    # from the back row: nothing the class reads is under 20 px on a 1920x1080 projector
    assert small_text(projector) == []
    shot(projector, "screen_1920_asked")

    # the teacher previews the next question and opens "Right answer" on the laptop: the
    # projector keeps the question that is up, and no answer
    teacher.get_by_role("button", name="Next question").click()
    wait_for_app_run(teacher)
    choose(teacher, "Up, down, same?")
    expect(teacher.get_by_text("Previous question · still open")).to_be_visible()
    teacher.get_by_role("button", name=re.compile("^Right answer")).click()
    shot(teacher, "teacher_1920_next")
    teacher.keyboard.press("Escape")
    expect(projector.get_by_text("Answers to this question so far")).to_be_visible()
    screen_text = main.inner_text()
    assert question["prompt"] in screen_text and "Right answer" not in screen_text
    assert "Preview" not in screen_text and "Goes up" not in screen_text

    teacher.get_by_role("button", name="Back to the question").click()
    wait_for_app_run(teacher)
    teacher.get_by_role("button", name="Reveal the answer").click()
    expect(projector.get_by_text("Right answer:")).to_be_visible(timeout=POLL_TIMEOUT_MS)
    expect(projector.get_by_text("Answers to this question · revealed")).to_be_visible()
    assert f"✓ {right}" in main.inner_text()
    assert small_text(projector) == []
    shot(projector, "screen_1920_revealed")
    # the phone says its answer was not right, and which one is
    warning = student.get_by_test_id("stAlertContentWarning")
    expect(warning).to_contain_text("Not right.", timeout=POLL_TIMEOUT_MS)
    expect(warning).to_contain_text(
        f"Correct: {question['phrases'][question['correct']]}.")
    shot(student, "phone_revealed")

    # the next question: the projector shows it, with a fresh tally and no answer
    teacher.get_by_role("button", name="Next question").click()
    wait_for_app_run(teacher)
    choose(teacher, "Up, down, same?")
    ask(teacher)
    following = latest_question(db, code)
    expect(projector.get_by_text(following["prompt"]).first).to_be_visible(
        timeout=POLL_TIMEOUT_MS)
    expect(projector.get_by_text("0 answered · 1 joined")).to_be_visible()
    screen_text = main.inner_text()
    assert "Right answer" not in screen_text and "✓ " not in screen_text
    assert question["prompt"] not in screen_text

    # a laptop's projector: the same, with nothing cut off sideways
    projector.set_viewport_size({"width": 1366, "height": 768})
    expect(projector.get_by_text(TALLY_NOTE)).to_be_in_viewport(ratio=1)   # no scrolling
    assert projector.evaluate("() => document.documentElement.scrollWidth") <= 1366
    shot(projector, "screen_1366_asked")


def test_a_forged_projector_link_is_refused(rooms, open_page):
    url, _ = rooms
    teacher, code = open_room(open_page, url)
    projector = open_page(f"{url}/screen?room={code}&view={'0' * 64}")
    expect(projector.get_by_text("This projector link opens no room")).to_be_visible()
    expect(projector.locator(".room-code")).to_have_count(0)


def test_a_lecturers_own_example_reads_from_the_back_row(rooms, open_page):
    """A question on the lecturer's own example (issue 36) shows its results as titles, not
    pictures: on a 1920x1080 projector they were 12 px (the phones' size), unreadable beyond
    the front row. Every title is there, and nothing the class reads is under 20 px."""
    from urllib.parse import urlencode

    from ui.lessons.playground import example_data as own_data

    url, _ = rooms
    # the teacher on a laptop: the own example's preview is taller than its screen, and
    # "Ask the class" at its foot must bring the question asked into view (ask() checks)
    teacher = open_page(f"{url}/playground", width=1366, height=768,
                        query=urlencode({"ex": own_data.to_link(own_data.TEMPLATE)}))
    teacher.get_by_test_id("stSidebarNav").get_by_role("link", name="Run a class room").click()
    wait_for_app_run(teacher)
    teacher.get_by_role("button", name="Open a room").click()
    teacher.locator(".room-code").wait_for()
    choose(teacher, "A or B?")
    teacher.get_by_text("On your example").click()                  # the toggle's label
    wait_for_app_run(teacher)
    ask(teacher)
    projector = open_page(projector_link(teacher), width=1920, height=1080)
    main = projector.get_by_test_id("stMain")
    expect(main.locator(".room-card .doc.text").first).to_be_visible()
    shown = main.locator(".room-card .doc.text").all_inner_texts()
    assert sorted(shown) == sorted(2 * [item.title for item in own_data.TEMPLATE.items])
    assert small_text(projector) == []
    shot(projector, "screen_1920_own_example")


def test_a_phone_shows_each_ranking_in_one_row(rooms, open_page):
    """The lecture's two rankings of six documents with the K cut, on a 390 px phone: one row
    each (a lecturer's walk, 30 Nov 2026: the cut's label is 16.6 px wide, not its 1.4em, and
    each strip wrapped its sixth card to a row of its own)."""
    url, _ = rooms
    _, code = open_room(open_page, url)               # "A or B?": the lecture's rankings
    student = open_page(f"{url}/join?code={code}", **PHONE)
    strips = student.locator(".room-cards")
    expect(strips).to_have_count(2)      # the question is drawn: with the K cut or without
    rows = strips.evaluate_all("ss => ss.map(s => new Set([...s.children].map("
                               "c => Math.round(c.getBoundingClientRect().top))).size)")
    assert rows == [1, 1]


def test_a_phone_never_breaks_a_word_of_the_lecturers_titles(rooms, open_page):
    """A lecturer's own titles on a 390 px phone: eight cards in a row are 39 px wide, and
    "Dishwasher", "Refrigerator," or "Loudspeakers" broke mid-letter ("Dishwas/her") even at
    the .55rem floor. The strip wraps to rows of cards wide enough for its longest word."""
    from urllib.parse import urlencode

    from ui.lessons.playground import example_data as own_data

    url, _ = rooms
    titles = ("Refrigerator, stainless", "Dishwasher", "Noise-cancelling headphones",
              "Multicooker", "Humidifier", "Thermostat", "Microwave oven", "Loudspeakers")
    example = own_data.OwnExample("kitchen appliances", tuple(
        own_data.OwnItem(title, grade) for title, grade in zip(titles, (3, 1, 0, 2, 0, 1, 2, 0))))
    teacher = open_page(f"{url}/playground", width=1366, height=768,
                        query=urlencode({"ex": own_data.to_link(example)}))
    teacher.get_by_test_id("stSidebarNav").get_by_role("link", name="Run a class room").click()
    wait_for_app_run(teacher)
    teacher.get_by_role("button", name="Open a room").click()
    code = teacher.locator(".room-code")
    code.wait_for()
    choose(teacher, "A or B?")
    teacher.get_by_text("On your example").click()
    wait_for_app_run(teacher)
    ask(teacher)
    student = open_page(f"{url}/join?code={code.inner_text().strip()}", **PHONE)
    cards = student.locator(".room-card .doc.text")
    expect(cards).to_have_count(16)
    assert sorted(cards.all_inner_texts()) == sorted(2 * titles)
    assert split_words(student, ".room-card .doc.text") == []
    sizes = cards.evaluate_all("cs => cs.map((c) => parseFloat(getComputedStyle(c).fontSize))")
    assert min(sizes) >= 8.8, sizes                                 # the .55rem floor
    assert student.evaluate("() => document.documentElement.scrollWidth") <= 390
