"""A class room in Chromium against the real app (app.py): a teacher and three students, each in
their own browser context. The teacher chooses a question, previews it and asks it; the students
join by the QR link and answer on phones; the teacher's tally updates by itself; the reveal
reaches the students by itself, and no right answer is on the projector before it. A wrong
code, a reused answer, an expired room and a forged teacher link each get a clear message. A
student's id stays in their browser (localStorage), never in the address."""
from __future__ import annotations

import os
import re
import shutil
import sqlite3
import time

import pytest

if os.environ.get("IRLAB_BROWSER_TESTS", "").lower() != "required":
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from playwright.sync_api import Page, expect  # noqa: E402

from tests.browser.helpers import (REPO_ROOT, expect_app_run, streamlit_app,  # noqa: E402
                                  wait_for_app_run)
from tests.browser.waiting import wait_for_app_idle, wait_until  # noqa: E402
from ui.rooms.room import ALPHABET  # noqa: E402

pytestmark = pytest.mark.browser

PHONE = dict(width=390, height=844, is_mobile=True, has_touch=True, device_scale_factor=2)
#: Long enough for a poll (2 s for students) on a loaded 2-core machine.
POLL_TIMEOUT_MS = 15_000


def choose(teacher: Page, kind: str) -> None:
    """Pick the kind of question ("A or B?", "Your own"…): the preview follows."""
    teacher.get_by_role("radio", name=kind, exact=True).click()
    wait_for_app_run(teacher)


def ask(teacher: Page) -> None:
    """"Ask the class": the preview becomes the room's question. If the preview was still
    changing under the click, the page asks nothing and says so (tests/test_page_rooms.py
    checks that refusal); a teacher then looks at the preview and asks again, as here."""
    for _ in range(2):
        teacher.get_by_role("button", name="Ask the class").click()
        wait_for_app_run(teacher)
        if not teacher.get_by_text("Nothing was asked").count():
            break
    expect(teacher.get_by_role("button", name="Reveal the answer")).to_be_visible()
    # the question just asked is in view from its top, wherever the button was
    teacher.wait_for_function(
        "() => { const top = document.querySelector('.st-key-room_stage')"
        ".getBoundingClientRect().top; return top >= 0 && top < innerHeight / 3; }")


def open_room(open_page, url: str, kind: str = "A or B?", **viewport):
    """A teacher's page with a room open and a question of ``kind`` posed: (page, code)."""
    teacher = open_page(url + "/room", **(viewport or dict(width=1366, height=768)))
    teacher.get_by_role("button", name="Open a room").click()
    code_box = teacher.locator(".room-code")
    code_box.wait_for()
    code = code_box.inner_text().strip()
    assert re.fullmatch(f"[{ALPHABET}]{{6}}", code), code
    choose(teacher, kind)
    ask(teacher)
    expect(teacher.get_by_text("0 answered")).to_be_visible(timeout=POLL_TIMEOUT_MS)
    return teacher, code


def answers(page: Page):
    return page.locator(".st-key-join_answers button")


def student_on_a_question(open_page, url: str) -> tuple[Page, str]:
    """A student's phone showing a fresh room's first question: (page, room code)."""
    _, code = open_room(open_page, url)
    student = open_page(f"{url}/join?code={code}", **PHONE)
    expect(answers(student)).to_have_count(3)
    return student, code


def test_teacher_and_three_students(rooms, open_page):
    url, _ = rooms
    teacher, code = open_room(open_page, url)
    assert "key=" in teacher.url and f"room={code}" in teacher.url
    link = teacher.locator(".room-url").inner_text().strip()
    assert link.endswith(f"/join?code={code}")
    expect(teacher.get_by_role("img", name=f"QR code of the join link {link}")).to_be_visible()

    students = [open_page(link, **PHONE) for _ in range(3)]
    for n, student in enumerate(students):
        expect(student.get_by_text(f"Room {code}", exact=False)).to_be_visible()
        expect(answers(student)).to_have_count(3)
        answers(student).nth(0 if n < 2 else 1).click()
        expect(student.get_by_text("Waiting for the reveal")).to_be_visible()
        expect(answers(student)).to_have_count(0)
        # the tally on the projector follows without anyone touching the teacher's page
        expect(teacher.get_by_text(f"{n + 1} answered · 3 joined")).to_be_visible(
            timeout=POLL_TIMEOUT_MS)

    teacher.get_by_role("button", name="Reveal the answer").click()
    expect(teacher.get_by_text("Right answer:")).to_be_visible()
    right = teacher.locator("[data-testid='stAlertContentSuccess']").inner_text()
    for student in students:                               # reaches the phones by itself
        expect(student.get_by_text("Right answer:")).to_be_visible(timeout=POLL_TIMEOUT_MS)
        shown = student.locator("[data-testid='stAlertContentSuccess']").inner_text()
        assert shown.split(".")[0] in right

    # the next question replaces it on every phone, buttons back
    teacher.get_by_role("button", name="Next question").click()
    choose(teacher, "Up, down, same?")
    ask(teacher)
    for student in students:
        expect(answers(student)).to_have_count(3, timeout=POLL_TIMEOUT_MS)
        expect(answers(student).first).to_have_text("Goes up ▲")


VOTER_KEY = "irlab-voter"          # ui/rooms/voter.js


def stored_id(page: Page, storage: str = "localStorage") -> str | None:
    return page.evaluate(f"(key) => window.{storage}.getItem(key)", VOTER_KEY)


def test_the_students_id_stays_in_their_browser_not_in_the_address(rooms, open_page):
    """A reload is the same student; the same address on another person's phone (a new
    browser context; even with an old link's ``me=`` holding the first student's id) is
    a second student, who does not see the first one's answer."""
    url, _ = rooms
    teacher, code = open_room(open_page, url)
    link = teacher.locator(".room-url").inner_text().strip()
    student = open_page(link, **PHONE)                       # by the QR link
    # the browser sends the student's id after the first run, and the join follows: click
    # once that has been drawn (a click in between was lost once on a loaded CI machine)
    expect(answers(student)).to_have_count(3)
    wait_for_app_idle(student)
    answers(student).first.click()
    expect(student.get_by_text("Your answer: ranking A is higher")).to_be_visible(
        timeout=POLL_TIMEOUT_MS)
    expect(student).to_have_url(f"{url}/join?code={code}")  # no `me=`
    first_id = stored_id(student)
    assert re.fullmatch("[0-9a-f]{32}", first_id or ""), first_id

    student.reload()
    wait_for_app_run(student, initial_wait_ms=0)
    expect(student.get_by_text("Your answer: ranking A is higher")).to_be_visible()
    expect(answers(student)).to_have_count(0)
    assert stored_id(student) == first_id

    neighbour = open_page(f"{student.url}&me={first_id}", **PHONE)
    expect(answers(neighbour)).to_have_count(3)
    expect(neighbour).to_have_url(f"{url}/join?code={code}")  # the old `me=` rewritten away
    expect(neighbour.get_by_text("Your answer")).to_have_count(0)
    assert stored_id(neighbour) not in (None, first_id)
    wait_for_app_idle(neighbour)
    answers(neighbour).nth(1).click()
    expect(neighbour.get_by_text("Your answer: ranking B is higher")).to_be_visible(
        timeout=POLL_TIMEOUT_MS)
    expect(teacher.get_by_text("2 answered · 2 joined")).to_be_visible(timeout=POLL_TIMEOUT_MS)


#: Storage that throws as in some private modes: even reading ``window.localStorage`` does.
BLOCK_STORAGE = """(names) => { for (const name of names) {
  Object.defineProperty(window, name, { configurable: true,
    get() { throw new DOMException("blocked", "SecurityError"); } }); } }"""


@pytest.mark.parametrize("blocked", [["localStorage"], ["localStorage", "sessionStorage"]])
def test_a_student_without_local_storage_still_joins_and_answers(rooms, open_page, browser,
                                                                  blocked):
    """localStorage throws: the id lives in sessionStorage (this tab); both throw: in the page
    load itself. Either way the student joins and answers once."""
    from tests.browser.helpers import NET_SPY, wait_for_app_loaded

    url, _ = rooms
    teacher, code = open_room(open_page, url)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    try:
        context.add_init_script(NET_SPY)
        context.add_init_script(f"({BLOCK_STORAGE})({blocked!r})")
        student = context.new_page()
        student.goto(f"{url}/join?code={code}")
        wait_for_app_loaded(student)
        expect(answers(student)).to_have_count(3)
        answers(student).nth(2).click()
        expect(student.get_by_text("Your answer: both are the same")).to_be_visible()
        expect(teacher.get_by_text("1 answered · 1 joined")).to_be_visible(
            timeout=POLL_TIMEOUT_MS)
        if "sessionStorage" not in blocked:
            assert re.fullmatch("[0-9a-f]{32}", stored_id(student, "sessionStorage") or "")
    finally:
        context.close()


def test_a_wrong_code_says_so(rooms, open_page):
    url, _ = rooms
    student = open_page(url + "/join", **PHONE)
    wait_for_app_run(student)      # a run still drawing leaves a second, stale Join for a moment
    student.get_by_label("Room code").fill("ZZ9ZZ9")
    join = student.get_by_role("button", name="Join")
    expect(join).to_have_count(1)
    join.click()
    expect(student.get_by_text("There is no room with the code ZZ9ZZ9")).to_be_visible()


def test_a_reused_answer_says_so(rooms, open_page):
    first, _ = student_on_a_question(open_page, rooms[0])
    second = first.context.new_page()                      # the same student, a second tab
    second.goto(first.url)
    wait_for_app_run(second, initial_wait_ms=0)
    expect(answers(second)).to_have_count(3)
    answers(first).first.click()
    expect(first.get_by_text("Waiting for the reveal")).to_be_visible()
    answers(second).nth(1).click()
    expect(second.get_by_text("You have already answered this question")).to_be_visible()


def test_an_expired_room_says_so(rooms, open_page):
    student, code = student_on_a_question(open_page, rooms[0])
    with sqlite3.connect(rooms[1]) as conn:                      # four hours later
        conn.execute("UPDATE rooms SET expires_at = 0 WHERE code = ?", (code,))
    expect(student.get_by_text(f"Room {code} has expired")).to_be_visible(
        timeout=POLL_TIMEOUT_MS)


def test_a_forged_teacher_link_is_refused(rooms, open_page):
    url, _ = rooms
    teacher, code = open_room(open_page, url)
    forged = open_page(f"{url}/room?room={code}&key=not-the-teachers-key", width=1366, height=768)
    expect(forged.get_by_text("This teacher link opens no room")).to_be_visible()
    expect(forged.get_by_role("button", name="Reveal the answer")).to_have_count(0)
    expect(teacher.get_by_role("button", name="Reveal the answer")).to_be_visible()


def in_view(page: Page, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and 0 <= box["y"] and box["y"] + box["height"] <= page.viewport_size["height"]


def test_a_challenge_fits_a_phone_and_the_projector(rooms, open_page):
    """From a lecturer's walk: a four-answer challenge shows every answer on a 390x844 phone
    without scrolling; a 1366x768 projector shows the whole tally (the app listens on
    127.0.0.1 here, so the note about that is up too) and breaks the join address only
    between its parts, never inside one."""
    url, _ = rooms
    teacher, code = open_room(open_page, url, "Which board?")
    student = open_page(f"{url}/join?code={code}", **PHONE)
    expect(answers(student)).to_have_count(4)
    assert [in_view(student, answers(student).nth(n)) for n in range(4)] == [True] * 4

    answers(student).first.click()
    expect(teacher.get_by_text("1 answered")).to_be_visible(timeout=POLL_TIMEOUT_MS)
    expect(teacher.get_by_role("note")).to_contain_text("Only this computer can open")
    tally = teacher.locator(".stPlotlyChart")
    tally.locator(".main-svg").first.wait_for()
    assert in_view(teacher, tally)
    parts = teacher.locator(".room-url > span")
    assert "".join(parts.all_inner_texts()) == f"{url}/join?code={code}"
    heights = parts.evaluate_all("spans => spans.map((s) => s.getBoundingClientRect().height)")
    assert max(heights) - min(heights) < 2, heights       # each part on one line


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_accessibility_violation_in_a_room(rooms, open_page, scheme):
    """axe-core, as for every lesson (test_accessibility.py): the projector (a question up,
    then choosing the next) and a phone."""
    from tests.browser.test_accessibility import serious_violations

    url, _ = rooms
    teacher, code = open_room(open_page, url)
    student = open_page(f"{url}/join?code={code}", color_scheme=scheme, **PHONE)
    expect(answers(student)).to_have_count(3)
    answers(student).first.click()
    expect(teacher.get_by_text("1 answered")).to_be_visible(timeout=POLL_TIMEOUT_MS)
    teacher.emulate_media(color_scheme=scheme)
    teacher.reload()
    teacher.locator(".stPlotlyChart .main-svg").first.wait_for()
    assert serious_violations(teacher) == []
    assert serious_violations(student) == []
    teacher.get_by_role("button", name="Next question").click()     # the chooser and preview
    wait_for_app_run(teacher)
    # K = 3 cuts both rankings ("any" may draw K = the lists' length, drawn without a cut)
    teacher.get_by_role("combobox", name="K", exact=True).click()
    teacher.get_by_role("option", name="K: 3", exact=True).click()
    wait_for_app_run(teacher)
    expect(teacher.locator(".st-key-room_preview .room-cut")).to_have_count(2)
    assert serious_violations(teacher) == []


def test_choosing_previewing_and_asking_the_next_question_fit_a_laptop(rooms, open_page):
    """At 1366x768 with a question up: "Next question", then the kind, its options, the whole
    preview (the tallest: two rankings, of cats or of films) and "Ask the class" are in view beside the code and the
    tally, all without scrolling; after asking, the new question, the code and its tally are in
    view, and no tooltip lingers over them."""
    url, _ = rooms
    teacher, _ = open_room(open_page, url, "Up, down, same?")

    def in_view(locator) -> bool:
        box = locator.bounding_box()
        return (box is not None and box["y"] >= 0 and box["x"] >= 0
                and box["y"] + box["height"] <= 768 and box["x"] + box["width"] <= 1366)

    scrolled = "() => document.querySelector('[data-testid=stMain]').scrollTop"
    tally = teacher.get_by_test_id("stPlotlyChart").first
    expect(tally).to_be_visible()
    next_question = teacher.get_by_role("button", name="Next question")
    assert in_view(next_question)
    next_question.click()
    wait_for_app_run(teacher)
    preview = teacher.locator(".st-key-room_preview")
    # Lesson 7's two users' lists: film posters, still all in view
    choose(teacher, "Whose list?")
    expect(preview.get_by_role("heading")).to_contain_text("Whose list has the higher")
    expect(preview.locator(".room-card img[alt$=' poster']")).to_have_count(16)
    for part in (teacher.get_by_role("combobox", name="K", exact=True), preview,
                 teacher.get_by_role("button", name="Ask the class")):
        assert in_view(part), part
    choose(teacher, "A or B?")
    expect(preview.get_by_role("heading")).to_contain_text("Which ranking has the higher")
    expect(preview.locator(".room-strip")).to_have_count(2)
    for part in (teacher.get_by_role("radio", name="Surprise me"),
                 teacher.get_by_role("radio", name="Your own"),
                 teacher.get_by_role("combobox", name="K", exact=True), preview,
                 teacher.get_by_role("button", name="Ask the class"),
                 teacher.get_by_role("button", name="Draw another"),
                 teacher.locator(".room-code"), tally):
        assert in_view(part), part
    assert teacher.evaluate(scrolled) == 0
    prompt = preview.get_by_role("heading").inner_text()

    ask(teacher)
    heading = teacher.locator(".st-key-room_stage").get_by_role("heading", name=prompt)
    expect(heading).to_be_visible()
    expect(tally).to_contain_text("Ranking A")
    assert teacher.evaluate(scrolled) == 0
    for part in (teacher.locator(".room-code"), tally, heading,
                 teacher.get_by_text(re.compile(r"\d+ answered"))):
        assert in_view(part), part
    expect(teacher.get_by_test_id("stTooltipContent")).to_have_count(0)


def latest_question(db, code: str) -> dict:
    import json
    with sqlite3.connect(db) as conn:
        (payload,), = conn.execute("SELECT payload FROM questions WHERE room = ? "
                                   "ORDER BY id DESC LIMIT 1", (code,))
    return json.loads(payload)


def test_no_right_answer_on_the_projector_before_the_reveal(rooms, open_page):
    """Issue 27: at 1920x1080, between "Ask the class" and "Reveal the answer", nothing on the
    teacher's screen gives the answer away, for every kind of question (the teacher's own
    question's form, which holds its right answer, closes when it is asked)."""
    url, db = rooms
    teacher = open_page(url + "/room", width=1920, height=1080)
    teacher.get_by_role("button", name="Open a room").click()
    code = teacher.locator(".room-code").inner_text().strip()
    student = open_page(f"{url}/join?code={code}", **PHONE)
    main = teacher.get_by_test_id("stMain")
    for kind in ("A or B?", "Up, down, same?", "Which board?", "Whose list?", "Sampled?",
                 "Your own"):
        if teacher.get_by_role("button", name="Next question").count():
            teacher.get_by_role("button", name="Next question").click()
            wait_for_app_run(teacher)
        choose(teacher, kind)
        if kind == "Your own":
            teacher.get_by_role("textbox", name="Question").fill("Which is a ranking metric?")
            teacher.get_by_role("textbox", name="Answers, one a line (2 to 6)").fill(
                "Accuracy\nAP\nLog loss")
            teacher.get_by_role("textbox", name="Question").click()   # the answers count
            wait_for_app_run(teacher)
            teacher.get_by_role("button", name=re.compile("^Right answer")).click()
            teacher.get_by_role("combobox", name="The right answer").click()
            teacher.get_by_role("option", name="AP", exact=True).click()
            wait_for_app_run(teacher)
            teacher.keyboard.press("Escape")                          # closes the popover
        ask(teacher)
        question = latest_question(db, code)
        assert question["correct"], kind
        expect(answers(student).first).to_have_text(question["choices"][0][1],
                                                    timeout=POLL_TIMEOUT_MS)
        answers(student).first.click()
        expect(teacher.get_by_text("1 answered")).to_be_visible(timeout=POLL_TIMEOUT_MS)
        screen = main.inner_text()
        assert "Right answer" not in screen and "right answer" not in screen, kind
        assert not [text for _, text in question["choices"]
                    if "✓ " + text in screen], kind                   # the tally marks none
        if question["explanation"]:
            assert question["explanation"][:20] not in screen, kind
        expect(teacher.get_by_role("combobox", name="The right answer")).to_have_count(0)
        teacher.get_by_role("button", name="Reveal the answer").click()
        wait_for_app_run(teacher)
        expect(teacher.get_by_text("Right answer:")).to_be_visible()   # the check can see it
        right = dict(question["choices"])[question["correct"]]
        wait_until(teacher, lambda: f"✓ {right}" in main.inner_text())


def test_a_closed_room_says_so_after_the_code_changed_under_a_running_server(tmp_path, open_page):
    """``streamlit run`` re-imports edited modules (its file watcher). The store, kept across
    runs, was made before: it raised the old RoomError class, which the join page's ``except``
    no longer caught, and students saw a traceback."""
    copy = tmp_path / "app"
    shutil.copytree(REPO_ROOT, copy, ignore=shutil.ignore_patterns(
        ".git", "tests", "benchmarks", "__pycache__", ".*cache*", ".hypothesis", ".benchmarks"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("IRLAB_ROOMS_DB", str(tmp_path / "rooms.sqlite3"))
        mp.delenv("IRLAB_ROOMS_URL", raising=False)
        mp.setenv("IRLAB_ROOMS_PER_ADDRESS", "20")    # the bystander's many empty joins
        with streamlit_app("app.py", root=copy,
                           extra_args=["--server.fileWatcherType", "poll"]) as app:
            teacher, code = open_room(open_page, app.url)
            # A session's watcher evicts the edited modules at that session's next run, so
            # a session that exists before the edit makes runs after it (a new one would not).
            bystander = open_page(f"{app.url}/join", **PHONE)
            join = bystander.get_by_role("button", name="Join")
            store = copy / "ui" / "rooms" / "store.py"
            marker = "irlab test: ui/rooms/store.py imported again"
            store.write_text(store.read_text() + f"\nprint({marker!r}, flush=True)\n")
            deadline = time.monotonic() + 30          # the watcher polls every 0.2 s
            while marker not in app.log():
                assert time.monotonic() < deadline, "the server never re-imported the module"
                with expect_app_run(bystander):
                    join.click()
            teacher.get_by_role("button", name="Close the room").click()
            with expect_app_run(teacher):
                teacher.get_by_role("button", name="Close it now").click()
            student = open_page(f"{app.url}/join?code={code}", **PHONE)
            expect(student.get_by_text(f"Your teacher has closed room {code}")).to_be_visible()
            expect(student.get_by_test_id("stException")).to_have_count(0)


#: What a teacher (or anyone who can type into the teacher's form) might type: Markdown, an
#: icon, a formula with a link, an image from any host, HTML, and a right-to-left override.
HOSTILE_PROMPT = ("**bold** :material/warning: $\\href{http://evil.test/f}{x}$ "
                  "![t](http://evil.test/a.png) <img src=x onerror=alert(1)> def \u202eexe.cba?")
HOSTILE_ANSWERS = ["**A** :material/warning:", "![t](http://evil.test/b.png)",
                   "$\\href{http://evil.test/g}{y}$ [l](http://evil.test)", "\u202eexe.cba C"]


def typed(text: str) -> str:
    """What the screen must say: the text as typed, its bidi controls dropped."""
    return " ".join(text.replace("\u202e", "").split())


def shown_text(locator, svg: bool = False) -> str:
    # the WORD JOINER after each ":" (ui/rooms/shown.py) is there, and invisible
    text = locator.text_content() if svg else locator.inner_text()
    return " ".join(text.replace("\u2060", "").split())


def nothing_rendered(locator) -> None:
    """No image, link, icon, formula or bold made from the teacher's text in ``locator``."""
    # (a heading's own "#" anchor is Streamlit's, not the text's)
    for selector in ("img", "a[href]:not([href^='#'])", "[role=img]", ".katex", "strong", "b"):
        assert locator.locator(selector).count() == 0, selector


def test_a_teachers_hostile_text_is_shown_as_typed_on_preview_projector_and_phone(
        rooms, open_page):
    url, _ = rooms
    teacher = open_page(url + "/room", width=1366, height=768)
    teacher.get_by_role("button", name="Open a room").click()
    code = teacher.locator(".room-code").inner_text().strip()
    choose(teacher, "Your own")
    teacher.get_by_role("textbox", name="Question").fill(HOSTILE_PROMPT)
    teacher.get_by_role("textbox", name="Answers, one a line (2 to 6)").fill(
        "\n".join(HOSTILE_ANSWERS))
    teacher.get_by_role("textbox", name="Question").click()
    wait_for_app_run(teacher)
    prompt, answers_typed = typed(HOSTILE_PROMPT), [typed(a) for a in HOSTILE_ANSWERS]

    preview = teacher.locator(".st-key-room_preview")
    heading = preview.locator("h3")
    assert shown_text(heading) == prompt
    nothing_rendered(heading)
    chips = preview.locator(".room-choices .choice")
    assert [shown_text(chips.nth(i)) for i in range(chips.count())] == answers_typed
    nothing_rendered(preview.locator(".room-choices"))

    ask(teacher)
    stage = teacher.locator(".st-key-room_stage")
    assert shown_text(stage.locator("h3")) == prompt                 # the projector
    nothing_rendered(stage)
    ticks = teacher.locator(".ytick text")
    wait_until(teacher, lambda: ticks.count() == len(answers_typed))
    labels = [shown_text(ticks.nth(i), svg=True) for i in range(ticks.count())]
    assert sorted(labels) == sorted(answers_typed)

    phone = open_page(f"{url}/join?code={code}", **PHONE)
    expect(answers(phone)).to_have_count(len(answers_typed))
    question = phone.locator(".st-key-join_question")
    assert shown_text(question.locator("h3")) == prompt
    nothing_rendered(question)
    assert [shown_text(answers(phone).nth(i)) for i in range(len(answers_typed))] == answers_typed
    nothing_rendered(phone.locator(".st-key-join_answers"))
    # nothing from the text was fetched: no element anywhere points at the other host
    for page in (teacher, phone):
        assert "evil.test" not in page.evaluate(
            "() => [...document.querySelectorAll('[src],[href]')]"
            ".map(e => e.getAttribute('src') || e.getAttribute('href')).join(' ')")


def test_the_door_a_repeated_key_and_a_student_beyond_the_class_size(rooms, open_page):
    url, _ = rooms
    teacher, code = open_room(open_page, url)
    key = re.search(r"key=([^&]+)", teacher.url).group(1)
    # a teacher link that gives its key twice is refused, whichever of the two is right
    twice = open_page(f"{url}/room?room={code}&key=forged&key={key}")
    expect(twice.get_by_text("more than once, so it is refused")).to_be_visible()
    # the address drops both (the browser's address is rewritten after the page is drawn)
    expect(twice).not_to_have_url(re.compile(re.escape(key)))
    expect(twice).not_to_have_url(re.compile("forged"))
    # the class size: one; a second student waits for the teacher
    teacher.get_by_role("button", name=re.compile("^Door")).click()
    size = teacher.get_by_role("spinbutton", name=re.compile("Class size"))
    size.fill("1")
    with expect_app_run(teacher):
        size.press("Enter")
    teacher.keyboard.press("Escape")
    first = open_page(f"{url}/join?code={code}", **PHONE)
    expect(answers(first)).to_have_count(3)
    second = open_page(f"{url}/join?code={code}", **PHONE)
    expect(second.get_by_text("waiting for your teacher to let you in")).to_be_visible()
    expect(answers(second)).to_have_count(0)
    expect(teacher.get_by_text("1 waiting")).to_be_visible(timeout=POLL_TIMEOUT_MS)
    expect(teacher.get_by_text("0 answered · 1 joined")).to_be_visible()
    teacher.get_by_role("button", name="Let one in").click()
    expect(answers(second)).to_have_count(3, timeout=POLL_TIMEOUT_MS)   # by itself
    expect(teacher.get_by_text("0 answered · 2 joined")).to_be_visible(timeout=POLL_TIMEOUT_MS)
