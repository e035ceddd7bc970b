"""The class pages under AppTest: a teacher opens a room and poses questions, students join by
code or link and answer once, the tally counts, the reveal reaches the students, and every
refusal (wrong code, second answer, expired room, forged teacher link, rate limit) says why."""
from __future__ import annotations

import sqlite3

import pytest

from tests.apptest import address, run_page


@pytest.fixture(autouse=True)
def rooms_db(tmp_path, monkeypatch):
    path = tmp_path / "rooms.sqlite3"
    monkeypatch.setenv("IRLAB_ROOMS_DB", str(path))
    monkeypatch.delenv("IRLAB_ROOMS_URL", raising=False)
    return path


def texts(at, kind: str) -> str:
    return "\n".join(str(e.value) for e in getattr(at, kind))


def teacher_with_question(kind: str = "compare"):
    at = run_page("room")
    at.button(key="room_open").click().run()
    at.button(key=f"room_ask_{kind}").click().run()
    assert not at.exception
    return at, at.session_state["room_code"], at.session_state["room_key"]


def student(code: str, **query):
    at = run_page("join", query={"code": code, **query})
    assert not at.exception
    return at


def answer_buttons(at):
    return [b for b in at.button if b.key and b.key.startswith("join_choice_")]


def test_teacher_opens_a_room_with_code_link_and_qr_in_the_address():
    at = run_page("room")
    assert texts(at, "error") == ""
    at.button(key="room_open").click().run()
    code, key = at.session_state["room_code"], at.session_state["room_key"]
    assert address(at) == {"room": code, "key": key}
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
        assert "Your answer: **Ranking" in texts(s, "success")
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
    second_tab = student(code, me=me)                    # the same student, a second tab
    answer_buttons(first)[0].click().run()
    answer_buttons(second_tab)[1].click().run()
    assert "already answered" in texts(second_tab, "error")


def test_an_expired_room_says_so(rooms_db):
    _, code, _ = teacher_with_question()
    s = student(code)
    with sqlite3.connect(rooms_db) as conn:              # four hours later
        conn.execute("UPDATE rooms SET expires_at = 0 WHERE code = ?", (code,))
    s.run()
    assert f"Room {code} has expired" in texts(s, "error")
    assert f"Room {code} has expired" in texts(student(code), "error")


def test_a_forged_or_missing_teacher_key_is_refused():
    _, code, key = teacher_with_question()
    for query in ({"room": code, "key": key[:-2] + "xx"}, {"room": code}):
        forged = run_page("room", query=query)
        assert "teacher link is not valid" in texts(forged, "error")
        assert not [b for b in forged.button if b.key == "room_reveal"]


def test_too_many_joins_hit_the_rate_limit():
    at = student("")
    for n in range(11):
        at.text_input(key="join_typed").set_value("ZZZZZ" + "23456789ABC"[n]).run()
        at.button[0].click().run()
    assert "Too many tries" in texts(at, "error")


def test_a_teachers_own_question_is_shown_as_text():
    at = run_page("room")
    at.button(key="room_open").click().run()
    code = at.session_state["room_code"]
    at.text_area(key="room_prompt").set_value("Is <img src=x onerror=alert(1)> *fine*?")
    at.text_area(key="room_choices").set_value("Yes\n**No**")
    at.selectbox(key="room_correct").set_value(2)
    next(b for b in at.button if b.label == "Ask the class").click().run()
    s = student(code)
    (prompt,) = [m for m in s.markdown if "onerror" in m.value]
    assert prompt.value == r"### Is \<img src\=x onerror\=alert\(1\)\> \*fine\*?"
    assert not prompt.proto.allow_html
    assert [b.label for b in answer_buttons(s)] == ["Yes", "**No**"]   # button labels are text


def test_a_students_join_survives_a_trip_to_a_lesson():
    from streamlit.testing.v1 import AppTest

    from tests.apptest import ROOT
    _, code, _ = teacher_with_question()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["code"] = code
    at.run()
    at.switch_page("pages/join.py").run()
    assert f"Room **{code}**" in texts(at, "caption")
    at.switch_page("pages/playground.py").run()
    at.switch_page("pages/join.py").run()
    assert not at.exception
    assert f"Room **{code}**" in texts(at, "caption")
    assert len(answer_buttons(at)) == 3
