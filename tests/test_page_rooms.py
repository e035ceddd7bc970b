"""The class pages under AppTest: a teacher opens a room and poses questions, students join by
code or link and answer once, the tally counts, the reveal reaches the students, and every
refusal (wrong code, second answer, expired room, forged teacher link, rate limit) says why.
A student's id comes from their browser (ui/rooms/voter.py), never from the address."""
from __future__ import annotations

import secrets
import sqlite3

import pytest

from tests.apptest import address, run_page
from ui.rooms.shown import markdown


@pytest.fixture(autouse=True)
def rooms_db(tmp_path, monkeypatch):
    path = tmp_path / "rooms.sqlite3"
    monkeypatch.setenv("IRLAB_ROOMS_DB", str(path))
    monkeypatch.delenv("IRLAB_ROOMS_URL", raising=False)
    monkeypatch.delenv("IRLAB_ROOMS_PER_ADDRESS", raising=False)   # the limits as shipped
    return path


def texts(at, kind: str) -> str:
    return "\n".join(str(e.value) for e in getattr(at, kind))


def choose(at, kind: str):
    """The teacher picks the kind of question (the preview follows)."""
    at.button_group(key="room_ask").set_value(kind).run()
    assert not at.exception, at.exception


def ask(at):
    """The teacher's "Ask the class": poses the preview."""
    at.button(key="room_pose").click().run()
    assert not at.exception, at.exception


def open_room():
    """The teacher's page with a room just opened: (page, room code)."""
    at = run_page("room")
    at.button(key="room_open").click().run()
    return at, at.session_state["room_code"]


def teacher_with_question(kind: str = "compare"):
    at, _ = open_room()
    choose(at, kind)
    ask(at)
    return at, at.session_state["room_code"], at.session_state["room_key"]


def browser_sends_id(at, voter: str | None = None) -> str:
    """What ui/rooms/voter.js does in the browser: set the element's state ``id``. A
    Components v2 element's state lives in session state under its key, and Streamlit's
    write-through dict there stores a change as the element's widget value (the value the
    browser would send; components/v2/presentation.py). Callbacks do not run for it, so this
    also checks that the page reads the element's value, not only its callback."""
    voter = voter or secrets.token_hex(16)
    at.session_state["join_voter"]["id"] = voter
    at.run()
    assert not at.exception, at.exception
    return voter


def voter_elements(at) -> list:
    """The elements that ask the browser for the student's id (ui/rooms/voter.py)."""
    return [e for e in at.get("bidi_component") if e.proto.component_name == "irlab_voter"]


def student(code: str, voter: str | None = None, **query):
    """A student's phone on ``/join?code=…``: the first run waits for the browser's id."""
    at = run_page("join", query={"code": code, **query})
    if code:
        assert f"Joining room **{code}**" in texts(at, "info")
    browser_sends_id(at, voter)
    return at


def answer_buttons(at):
    return [b for b in at.button if b.key and b.key.startswith("join_choice_")]


def test_teacher_opens_a_room_with_code_link_and_qr_in_the_address():
    at = run_page("room")
    assert texts(at, "error") == ""
    at.button(key="room_open").click().run()
    code, key = at.session_state["room_code"], at.session_state["room_key"]
    shown = address(at)
    assert (shown["room"], shown["key"]) == (code, key)
    assert shown["ask"] == "surprise" and shown["draw"].isdigit()    # what is being chosen
    page = texts(at, "markdown")
    assert f'class="room-code" aria-label="Room code">{code}<' in page
    # the address breaks only between its parts (ui/rooms/view.py link_html)
    assert (f'<span>http://localhost:8501</span><span>/join</span><span>?code={code}</span>'
            in page)
    assert f'alt="QR code of the join link http://localhost:8501/join?code={code}"' in page
    # AppTest runs on localhost: one compact note beside the QR code, no warning box
    assert "Only this computer can open this address." in page
    assert texts(at, "warning") == ""


def test_a_refresh_keeps_the_room():
    _, code, key = teacher_with_question()
    again = run_page("room", query={"room": code, "key": key})
    assert texts(again, "error") == ""
    assert "Which ranking has the higher" in texts(again, "markdown")


def test_students_join_answer_once_and_the_tally_counts():
    at, code, _ = teacher_with_question()
    students = [student(code) for _ in range(3)]
    for n, s in enumerate(students):
        buttons = answer_buttons(s)
        assert [b.label for b in buttons] == ["Ranking A", "Ranking B", "Both the same"]
        buttons[0 if n < 2 else 1].click().run()
        assert "Your answer: **ranking " in texts(s, "success")
        assert answer_buttons(s) == []                   # answered: no buttons any more
    at.run()
    assert "3 answered · 3 joined" in texts(at, "markdown")
    chart = at.get("plotly_chart")[0]
    assert '"x":[0,1,2]' in chart.proto.spec.replace(" ", "")    # bars bottom-up: same, B, A


def test_the_reveal_reaches_the_students():
    at, code, _ = teacher_with_question("predict")
    s = student(code)
    answer_buttons(s)[0].click().run()
    at.button(key="room_reveal").click().run()
    assert "Right answer:" in texts(at, "success")
    s.run()
    assert "Right answer:" in texts(s, "success")
    assert "goes from" in texts(s, "markdown")           # the explanation with the numbers


def test_the_tally_and_the_door_never_say_something_stale():
    """Choosing the next question after a reveal: the tally beside it says the previous one is
    revealed (it said "still open"); the Door button names no count beside the tally's live
    "joined" (it read "Door: 0 in" beside "1 joined")."""
    at, code, _ = teacher_with_question("predict")
    student(code)
    at.button(key="room_reveal").click().run()
    at.button(key="room_next_question").click().run()
    page = texts(at, "markdown")
    assert "Previous question · revealed" in page and "still open" not in page
    assert "1 joined" in page
    labels = [p.proto.popover.label for p in at.get("popover")]
    assert [label for label in labels if label.startswith("Door")] == ["Door"], labels


def test_a_wrong_code_says_so():
    at = student("ZZZZZZ")
    assert "There is no room with the code ZZZZZZ" in texts(at, "error")
    at = student("")
    at.text_input(key="join_typed").set_value("AB0").run()
    at.button[0].click().run()
    assert "6 characters" in texts(at, "error")


def test_a_second_answer_says_so():
    _, code, _ = teacher_with_question()
    first = student(code)
    me = first.session_state["join_me"]
    second_tab = student(code, voter=me)                 # a second tab: the same browser's id
    answer_buttons(first)[0].click().run()
    answer_buttons(second_tab)[1].click().run()
    assert "already answered" in texts(second_tab, "error")


def test_an_expired_room_says_so(rooms_db):
    _, code, _ = teacher_with_question()
    s = student(code)
    with sqlite3.connect(rooms_db) as conn:              # four hours later
        conn.execute("UPDATE rooms SET expires_at = 0 WHERE code = ?", (code,))
    s.run()
    assert f"Room {code} has expired" in texts(s, "info")       # news, not an error
    assert texts(s, "error") == ""
    assert f"Room {code} has expired" in texts(student(code), "info")


def test_a_forged_or_missing_teacher_key_is_refused():
    _, code, key = teacher_with_question()
    for query in ({"room": code, "key": key[:-2] + "xx"}, {"room": code}):
        forged = run_page("room", query=query)
        assert "teacher link opens no room" in texts(forged, "error")
        assert not [b for b in forged.button if b.key == "room_reveal"]


def test_too_many_joins_hit_the_rate_limit_and_a_new_session_is_refused_before_it_runs(
        monkeypatch):
    at = student("")
    for n in range(10):                 # ten unknown codes: the address's ten joins a minute
        at.text_input(key="join_typed").set_value("ZZZZZ" + "23456789AB"[n])
        at.button[0].click().run()
        assert "There is no room with the code" in texts(at, "error")
    at.run()
    refused = "Too many joins from your network address (the limit is 10 a minute)"
    assert refused in texts(at, "error")
    # a new session (a reload, a prankster's script) is refused before the page does its work:
    # no style, no browser id, no form (each such session used to cost a whole page run)
    from ui.rooms import view, voter
    monkeypatch.setattr(view, "style", lambda: pytest.fail("styled a refused session"))
    monkeypatch.setattr(voter, "browser_voter",
                        lambda *a: pytest.fail("asked a refused session for its id"))
    again = run_page("join", query={"code": "ZZZZZZ"})
    assert refused in texts(again, "error") and not again.text_input


def test_a_teachers_own_question_is_shown_as_text():
    at, code = open_room()
    choose(at, "text")
    at.text_area(key="room_prompt").set_value("Is <img src=x onerror=alert(1)> *fine*?")
    at.text_area(key="room_choices").set_value("Yes\n**No**").run()
    at.selectbox(key="room_correct").set_value(2).run()
    ask(at)
    s = student(code)
    (prompt,) = [m for m in s.markdown if "onerror" in m.value]
    assert prompt.value == r"### Is \<img src\=x onerror\=alert\(1\)\> \*fine\*?"
    assert not prompt.proto.allow_html
    # button labels are Markdown: escaped like the question (tests/browser: shown as typed)
    assert [b.label for b in answer_buttons(s)] == ["Yes", r"\*\*No\*\*"]


def test_a_students_join_survives_a_trip_to_a_lesson():
    from streamlit.testing.v1 import AppTest

    from tests.apptest import ROOT
    _, code, _ = teacher_with_question()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["code"] = code
    at.run()
    at.switch_page("pages/join.py").run()
    browser_sends_id(at)
    assert f"Room **{code}**" in texts(at, "caption")
    at.switch_page("pages/playground.py").run()
    at.switch_page("pages/join.py").run()
    assert not at.exception
    assert f"Room **{code}**" in texts(at, "caption")
    assert len(answer_buttons(at)) == 3
    assert voter_elements(at) == []                      # the id is kept: nothing to wait for


def test_nothing_joins_before_the_browser_sends_the_students_id():
    teacher, code, _ = teacher_with_question()
    at = run_page("join", query={"code": code})
    assert f"Joining room **{code}**" in texts(at, "info")
    assert answer_buttons(at) == [] and not at.text_input
    assert len(voter_elements(at)) == 1                  # the element that asks the browser
    for bad in ("short", "<b>x</b>" * 4, "x" * 65):      # a browser can send anything
        at.session_state["join_voter"]["id"] = bad
        at.run()
        assert f"Joining room **{code}**" in texts(at, "info")
    teacher.run()
    assert "0 answered · 0 joined" in texts(teacher, "markdown")
    voter = browser_sends_id(at)
    assert at.session_state["join_me"] == voter
    assert len(answer_buttons(at)) == 3
    teacher.run()
    assert "0 answered · 1 joined" in texts(teacher, "markdown")


def test_a_code_typed_before_the_id_arrives_joins_when_it_does():
    _, code, _ = teacher_with_question()
    at = run_page("join")
    at.text_input(key="join_typed").set_value(code.lower())      # typed, then "Join"
    at.button[0].click().run()
    assert f"Joining room **{code.lower()}**" in texts(at, "info")
    browser_sends_id(at)
    assert f"Room **{code}**" in texts(at, "caption")
    assert address(at) == {"code": code}


def test_an_old_link_with_a_students_id_is_not_adopted_and_leaves_the_address():
    teacher, code, _ = teacher_with_question()
    first = student(code)
    leaked = first.session_state["join_me"]
    answer_buttons(first)[0].click().run()
    assert address(first) == {"code": code}
    # the first student's link, shared in the class chat, opened on a neighbour's phone
    neighbour = student(code, me=leaked)
    assert address(neighbour) == {"code": code}          # `me=` rewritten away
    assert neighbour.session_state["join_me"] != leaked
    assert "Your answer" not in texts(neighbour, "success")
    assert len(answer_buttons(neighbour)) == 3           # answers for themselves, once
    answer_buttons(neighbour)[1].click().run()
    assert "Your answer: **ranking B is higher**" in texts(neighbour, "success")
    # the first student's reload (same browser, so same id) still shows their own answer
    again = student(code, voter=leaked)
    assert "Your answer: **ranking A is higher**" in texts(again, "success")
    teacher.run()
    assert "2 answered · 2 joined" in texts(teacher, "markdown")



def drawn(root) -> dict:
    """A question as a page draws it (``root``: a page or one of its containers): the prompt,
    the context, the change, the rankings as HTML (pictures and K cut included)."""
    markdown = [m.value for m in root.markdown]
    return {
        "prompt": [m for m in markdown if m.startswith("### ")],
        "context": [c.value for c in root.caption],
        "action": [m for m in markdown if m.startswith(("**Move", "**Judge"))],
        "rankings": [m for m in markdown if m.startswith('<div class="room-strip">')],
    }


def previewed(teacher) -> tuple[dict, list[str]]:
    """The teacher's preview: the question and the answers it says the phones will offer."""
    import html
    import re
    box = teacher.get_by_key("room_preview")
    strip = next(m.value for m in box.html if 'class="room-choices"' in m.value)   # st.html
    return drawn(box), [html.unescape(t) for t in re.findall(r'<span class="choice">(.*?)</span>',
                                                             strip)]


def test_the_lecturer_previews_redraws_and_poses_and_the_phone_shows_exactly_the_preview():
    at, code = open_room()
    choose(at, "predict")
    at.selectbox(key="room_metric").set_value("AP")
    at.selectbox(key="room_k").set_value(5).run()
    first, _ = previewed(at)
    assert first["prompt"] == ["### After this change, does AP@5 go up, go down or stay the same?"]
    assert first["action"] and len(first["rankings"]) == 1
    # the K cut sits after the fifth card
    assert first["rankings"][0].split('class="room-cut"')[0].count('class="rank"') == 5
    at.button(key="room_redraw").click().run()
    second, choices = previewed(at)
    assert second != first and second["prompt"] == first["prompt"]      # another, still AP@5
    assert choices == ["Goes up ▲", "Goes down ▼", "Stays the same ="]
    assert address(at)["metric"] == "AP" and address(at)["k"] == "5"
    # a reload (or a link, or a trip elsewhere and back) shows the same preview
    again = run_page("room", query=address(at))
    assert previewed(again) == (second, choices)
    assert texts(again, "error") == ""

    ask(at)
    assert not [b for b in at.button if b.key == "room_pose"]   # asking closed the chooser
    phone = student(code)
    assert {**drawn(phone.get_by_key("join_question")),
            "rankings": drawn(phone)["rankings"]} == second
    # as typed (ui/rooms/shown.py)
    assert [b.label for b in answer_buttons(phone)] == [markdown(c) for c in choices]
    assert drawn(at.get_by_key("room_stage")) == second          # and the projector too


def test_ask_the_class_poses_the_question_the_preview_showed_not_a_second_draw(monkeypatch):
    """The preview's question is kept and posed: a draw that came out differently the second
    time (the issue's "F1@7" previewed, "Recall@6" posed) cannot reach the class. Here every
    draw is another question; the old "Ask" drew again and posed the next one."""
    from ui.rooms import questions as qs
    calls = iter(range(1, 1000))
    real = qs.draw
    monkeypatch.setattr(qs, "draw", lambda choice, seed, params=None: real(
        choice, (seed + next(calls)) % 1_000_000, params))
    at, code = open_room()
    choose(at, "predict")
    shown, _ = previewed(at)
    ask(at)
    assert drawn(at.get_by_key("room_stage")) == shown
    phone = student(code)
    assert {**drawn(phone.get_by_key("join_question")),
            "rankings": drawn(phone)["rankings"]} == shown


def test_a_change_arriving_with_the_click_asks_nothing_until_its_preview_is_seen():
    """The answers edited and "Ask the class" clicked at once (the box commits on the click):
    the class is not asked a question the lecturer has not seen; the new preview shows, and
    the next click asks it."""
    at, code = open_room()
    choose(at, "text")
    at.text_area(key="room_prompt").set_value("Which is a ranking metric?")
    at.text_area(key="room_choices").set_value("Accuracy\nAP").run()
    at.text_area(key="room_choices").set_value("Accuracy\nAP\nLog loss")
    ask(at)                                  # the edit and the click in one run
    assert "Nothing was asked" in texts(at, "error")
    assert at.button(key="room_pose")        # still choosing, the new preview shown
    _, choices = previewed(at)
    assert choices == ["Accuracy", "AP", "Log loss"]
    ask(at)
    phone = student(code)
    assert [b.label for b in answer_buttons(phone)] == ["Accuracy", "AP", "Log loss"]


def test_the_right_answer_picker_lists_the_typed_answers_and_follows_them():
    at, code = open_room()
    choose(at, "text")
    picker = at.selectbox(key="room_correct")
    assert picker.options == ["none (a poll)"]                  # nothing typed: nothing to mark
    at.text_area(key="room_prompt").set_value("Which is a ranking metric?")
    at.text_area(key="room_choices").set_value("Accuracy\n\n  AP  \nLog loss").run()
    picker = at.selectbox(key="room_correct")
    assert picker.options == ["none (a poll)", "Accuracy", "AP", "Log loss"]
    picker.set_value(3).run()                                    # "Log loss"
    # the marked line goes: nothing is marked (never a choice that is not an answer)
    at.text_area(key="room_choices").set_value("Accuracy\nAP").run()
    picker = at.selectbox(key="room_correct")
    assert picker.options == ["none (a poll)", "Accuracy", "AP"] and picker.value == 0
    picker.set_value(2).run()
    at.text_area(key="room_choices").set_value("Accuracy\nAverage precision").run()
    picker = at.selectbox(key="room_correct")                    # follows the edited text
    assert picker.options[2] == "Average precision" and picker.value == 2
    ask(at)
    assert texts(at, "error") == ""
    phone = student(code)
    assert [b.label for b in answer_buttons(phone)] == ["Accuracy", "Average precision"]
    answer_buttons(phone)[1].click().run()
    at.button(key="room_reveal").click().run()
    assert "Right answer: **Average precision**" in texts(at, "success")


def test_the_students_confirmation_is_a_sentence():
    _, code, _ = teacher_with_question("predict")
    phone = student(code)
    answer_buttons(phone)[2].click().run()                       # "Stays the same ="
    assert texts(phone, "success") == "Your answer: **it stays the same**. Waiting for the reveal…"


def test_a_closed_room_is_a_friendly_notice():
    at, code, _ = teacher_with_question()
    phone = student(code)
    at.button(key="room_close").click().run()
    phone.run()
    assert f"Your teacher has closed room {code}. Thank you for taking part!" in texts(phone,
                                                                                       "info")
    assert texts(phone, "error") == ""


def test_the_teachers_choices_survive_a_trip_to_a_lesson():
    from streamlit.testing.v1 import AppTest

    from tests.apptest import ROOT
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("pages/room.py").run()
    at.button(key="room_open").click().run()
    choose(at, "compare")
    at.selectbox(key="room_source").set_value("lecture")
    at.selectbox(key="room_k").set_value(4).run()
    before = previewed(at)
    assert "higher" in before[0]["prompt"][0] and "@4" in before[0]["prompt"][0]
    at.switch_page("pages/playground.py").run()
    at.switch_page("pages/room.py").run()
    assert not at.exception
    assert previewed(at) == before
    assert at.selectbox(key="room_source").value == "lecture"


@pytest.mark.parametrize("kind, options, prompt", [
    ("users", {"room_rec_metric": "ndcg", "room_k": 3},
     "### Whose list has the higher NDCG@3, A or B?"),
    ("sampled", {"room_rec_metric": "hit", "room_negatives": 20},
     "### Ranked among only 20 random films instead, which has the higher HitRate@10?"),
])
def test_a_recommender_question_is_previewed_posed_and_shown_on_the_phone_as_previewed(
        kind, options, prompt):
    """Lesson 7's question kinds: the teacher fixes the metric (and K or N), the preview is
    what the phone shows, and the right answer, from irlib, reaches the phone at the reveal."""
    from ui.rooms import questions as qs
    at, code = open_room()
    choose(at, kind)
    for key, value in options.items():
        at.selectbox(key=key).set_value(value)
    at.run()
    question, choices = previewed(at)
    assert question["prompt"] == [prompt]
    expected = qs.draw(kind, int(address(at)["draw"]), {
        "rec_metric": options["room_rec_metric"], "k": options.get("room_k", 0),
        "negatives": options.get("room_negatives", 0)})
    assert choices == [text for _, text in expected["choices"]]
    if kind == "users":                            # two users' films, the K cut after 3
        assert len(question["rankings"]) == 2 and "watched after the cut" in question["context"][0]
        assert question["rankings"][0].split('class="room-cut"')[0].count('class="rank"') == 3
        assert question["rankings"][0].count(' poster">') == 8      # films, by their posters
    ask(at)
    phone = student(code)
    assert {**drawn(phone.get_by_key("join_question")),
            "rankings": drawn(phone)["rankings"]} == question
    assert [b.label for b in answer_buttons(phone)] == [markdown(c) for c in choices]
    answer_buttons(phone)[0].click().run()
    at.button(key="room_reveal").click().run()
    right = markdown(dict(expected["choices"])[expected["correct"]])
    assert f"Right answer: **{right}**" in texts(at, "success")
    assert markdown(expected["explanation"]) in texts(at, "success")
    phone.run()
    assert f"Right answer: **{right}**" in texts(phone, "success")
    assert texts(at, "error") == "" and texts(phone, "error") == ""


def test_a_wrong_answer_says_not_right_and_gives_the_right_one(rooms_db):
    """Issue 35: after the reveal, a student who chose wrong reads "Not right." and the right
    answer as a sentence; one who chose right reads "You got it right." and no warning."""
    import json
    at, code, _ = teacher_with_question("predict")
    with sqlite3.connect(rooms_db) as conn:
        (payload,), = conn.execute("SELECT payload FROM questions WHERE room = ?", (code,))
    question = json.loads(payload)
    keys = [key for key, _ in question["choices"]]
    wrong, right = student(code), student(code)
    answer_buttons(wrong)[keys.index(next(k for k in keys if k != question["correct"]))] \
        .click().run()
    answer_buttons(right)[keys.index(question["correct"])].click().run()
    at.button(key="room_reveal").click().run()
    wrong.run()
    right.run()
    from ui.shared.texts import md_escape
    phrase = md_escape(question["phrases"][question["correct"]])
    assert texts(wrong, "warning").startswith("**Not right.** Your answer: **")
    assert texts(wrong, "warning").endswith(f"Correct: **{phrase}**.")
    assert "You got it right." in texts(right, "markdown") and texts(right, "warning") == ""


def test_the_projector_screen_shows_what_the_class_may_see(rooms_db):
    """Issue 35: the projector's own page, by the link the teacher's page gives: the question
    and the tally (with what it counts), no answer before the reveal, the answer after it; the
    teacher's key is not its token, and a wrong token is refused."""
    from ui.rooms.room import screen_token
    from ui.rooms.screen import TALLY_NOTE
    at, code, key = teacher_with_question("predict")
    token = screen_token(key)
    screen = run_page("screen", query={"room": code, "view": token})
    shown = texts(screen, "markdown")
    assert "After this change" in shown and TALLY_NOTE in shown
    assert "Answers to this question so far" in shown
    assert texts(screen, "success") == "" and not screen.button
    at.button(key="room_reveal").click().run()
    screen.run()
    assert "Right answer:" in texts(screen, "success")
    for wrong in (key, "0" * 64):
        refused = run_page("screen", query={"room": code, "view": wrong})
        assert "projector link opens no room" in texts(refused, "info")     # not an alarm
        assert "its room has ended" in texts(refused, "info") and not texts(refused, "error")
        assert "After" not in texts(refused, "markdown")


def test_a_waiting_phone_says_which_rule_keeps_it_and_the_teacher_can_turn_the_queue_away():
    """The 4th phone from one address waits for the 3-per-address rule, and says so (it read
    "full or locked" when the room was neither); the teacher turns the queue away and the
    phone is told."""
    at, code = open_room()
    phones = [student(code) for _ in range(4)]
    assert "You are in!" in texts(phones[0], "subheader")
    waiting = texts(phones[3], "info")
    assert "has let in 3 students from your network address" in waiting
    assert "full or locked" not in waiting
    at.run()
    assert "**1 waiting** to be let in" in texts(at, "markdown")
    at.button(key="room_turn_away").click().run()
    assert not at.exception
    assert "waiting** to be let in" not in texts(at, "markdown")
    phones[3].run()
    assert "turned away the students waiting" in texts(phones[3], "error")


def test_a_phone_beyond_the_class_size_is_told_the_class_size():
    at, code = open_room()
    from ui.rooms import view
    view.store().admission(code, at.session_state["room_key"], class_size=1)   # the Door
    student(code)
    late = student(code)
    assert "has its class size, 1, in already" in texts(late, "info")


def test_a_malformed_code_on_a_teacher_link_is_answered_like_a_wrong_key_and_counts_a_guess(
        rooms_db):
    """docs/rooms-security.md: a teacher link gets one answer whether its code is live,
    unknown, ended or malformed, and counts as a guess (a malformed one got another page)."""
    said = []
    for code in ("ZZZZZZ", "bad!-code"):
        at = run_page("room", query={"room": code, "key": "x" * 32})
        said.append(texts(at, "error"))
        assert not [b for b in at.button if b.key == "room_open"]     # not the opening page
    assert said[0] == said[1] and "This teacher link opens no room" in said[0]
    with sqlite3.connect(rooms_db) as conn:
        (guesses,), = conn.execute("SELECT COUNT(*) FROM hits WHERE who = 'address:local' "
                                   "AND action = 'guess'").fetchall()
    assert guesses == 2


def test_the_answers_box_takes_no_more_than_a_reload_keeps():
    """The teacher's answers live in the address: the box accepts what the address keeps, so
    a reload never loses them (past 1,920 characters it did)."""
    at, _ = open_room()
    choose(at, "text")
    box = at.text_area(key="room_choices")
    assert box.max_chars is not None
    typed = "\n".join(f"{n} " + "é" * (box.max_chars // 6 - 3) for n in range(6))
    typed = typed + "x" * (box.max_chars - len(typed))
    assert len(typed) == box.max_chars
    box.set_value(typed).run()
    again = run_page("room", query=address(at))
    assert again.text_area(key="room_choices").value == typed
    assert texts(again, "info").count("could not be read") == 0
