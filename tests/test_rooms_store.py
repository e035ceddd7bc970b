"""The class-room store: shared between processes, one answer per question, expiry, rate limits,
validation, and room codes that cannot be guessed. Every test runs on SQLite and on PostgreSQL
(a throw-away server from Debian's package, tests/postgres_server.py; skipped with the reason
where it cannot start, unless IRLAB_POSTGRES_TESTS=required)."""
from __future__ import annotations

import functools
import math
import multiprocessing
import secrets
import sqlite3
import sys
import types
from collections import Counter

import pytest

from tests.postgres_server import REQUIRED, postgres_server, unavailable_reason
from ui.rooms import room
from ui.rooms import store as rs
from ui.rooms._db import connect
from ui.rooms.room import ALPHABET, CODE_LENGTH
from ui.rooms.store import LIMITS, RoomError, RoomStore

QUESTION = {"kind": "text", "prompt": "Which is larger?",
            "choices": [["c1", "P@1"], ["c2", "P@2"]], "correct": "c2", "explanation": ""}


class Clock:
    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture(scope="session")
def postgres_url():
    reason = unavailable_reason()
    if reason:
        if REQUIRED:
            pytest.fail(f"{reason} (IRLAB_POSTGRES_TESTS=required)", pytrace=False)
        pytest.skip(reason)
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgres"])
def target(request, tmp_path) -> tuple[str | None, str]:
    """(database URL or None, SQLite path): an empty database of either kind."""
    if request.param == "sqlite":
        return None, str(tmp_path / "rooms.sqlite3")
    import psycopg
    url = request.getfixturevalue("postgres_url")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS hits, ended, answers, members, questions, rooms")
    return url, ""


@pytest.fixture
def store(target, clock):
    return RoomStore(connect(*target), clock=clock)


def count(store, table: str) -> int:
    (n,), = store.db.query(f"SELECT COUNT(*) FROM {table}")
    return n


def opened(store, who="teacher"):
    code, secret = store.open_room(who)
    return code, secret, store.pose(code, secret, QUESTION)


def reason(call) -> str:
    with pytest.raises(RoomError) as caught:
        call()
    return caught.value.reason


# --------------------------------------------------------------------------- several processes


def _student_process(target, code: str, question: int, first: int, many: int) -> None:
    """Another app process: its own connection to the same database, answering as students."""
    other = RoomStore(connect(*target))
    for n in range(first, first + many):
        other.join(code, f"student-{n}", f"session-{n}")
        other.answer(code, f"student-{n}", question, "c1" if n % 3 else "c2", f"session-{n}")


def test_two_processes_share_one_database(target, monkeypatch):
    # A spawned child runs the parent's ``__main__`` first. After an AppTest that is the
    # last page it ran (pages/room.py fails outside Streamlit): give the children none.
    monkeypatch.setitem(sys.modules, "__main__", types.ModuleType("__main__"))
    store = RoomStore(connect(*target))                    # real time, as the children use
    code, secret = store.open_room("teacher")
    question = store.pose(code, secret, QUESTION)
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_student_process, args=(target, code, question, first, 30))
               for first in (0, 30)]
    for worker in workers:
        worker.start()
    _student_process(target, code, question, 60, 30)       # this process writes meanwhile
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    expected = Counter("c1" if n % 3 else "c2" for n in range(90))
    assert store.tally(code, question) == {"c1": expected["c1"], "c2": expected["c2"]}
    assert store.room(code).members == 90
    if target[0] is None:
        mode, = sqlite3.connect(target[1]).execute("PRAGMA journal_mode").fetchone()
        assert mode == "wal"


# --------------------------------------------------------------------------- answers


def test_one_answer_per_student_per_question(store):
    code, _, question = opened(store)
    store.join(code, "ann", "s1")
    store.answer(code, "ann", question, "c1", "s1")
    assert reason(lambda: store.answer(code, "ann", question, "c2", "s1")) == "duplicate"
    # a new browser session of the same student is still the same student
    assert reason(lambda: store.answer(code, "ann", question, "c1", "s2")) == "duplicate"
    assert store.tally(code, question) == {"c1": 1, "c2": 0}
    assert store.my_answer(question, "ann") == "c1"


def test_the_database_itself_refuses_a_second_answer(store):
    code, _, question = opened(store)
    store.join(code, "ann", "s1")
    store.answer(code, "ann", question, "c1", "s1")
    with pytest.raises(store.db.integrity_error, match="(?i)unique"):
        with store.db.transaction() as run:
            run("INSERT INTO answers (question, voter, choice, answered_at) "
                "VALUES (?, 'ann', 'c2', 0)", (question,))


def test_answers_are_checked_against_the_question(store):
    code, secret, question = opened(store)
    store.join(code, "ann", "s")
    assert reason(lambda: store.answer(code, "ann", question, "c9", "s")) == "invalid"
    assert reason(lambda: store.answer(code, "ann", question, "<b>c1</b>", "s")) == "invalid"
    assert reason(lambda: store.answer(code, "ann", question + 99, "c1", "s")) == "stale"
    newer = store.pose(code, secret, QUESTION)
    assert reason(lambda: store.answer(code, "ann", question, "c1", "s")) == "stale"
    store.reveal(code, secret, newer)
    assert reason(lambda: store.answer(code, "ann", newer, "c1", "s")) == "stale"
    assert store.tally(code, question) == {"c1": 0, "c2": 0}


def test_no_answer_before_the_first_question(store):
    code, _ = store.open_room("teacher")
    assert reason(lambda: store.answer(code, "ann", 1, "c1", "s")) == "no_question"


def test_a_student_cannot_answer_or_count_another_rooms_question(store):
    code_a, _, question_a = opened(store)
    code_b, _, question_b = opened(store)
    assert reason(lambda: store.answer(code_a, "ann", question_b, "c1", "s")) == "stale"
    assert store.tally(code_a, question_b) == {}
    store.join(code_b, "ann", "s")
    store.answer(code_b, "ann", question_b, "c2", "s")
    assert store.tally(code_a, question_a) == {"c1": 0, "c2": 0}


# --------------------------------------------------------------------------- the teacher


def test_teacher_actions_need_the_rooms_own_secret(store):
    code, secret, question = opened(store)
    _, other_secret = store.open_room("teacher")
    for forged in (None, "", "guess", other_secret, secret[:-1] + ("A" if secret[-1] != "A" else "B")):
        assert reason(functools.partial(store.pose, code, forged, QUESTION)) == "forbidden"
        assert reason(functools.partial(store.reveal, code, forged, question)) == "forbidden"
        assert reason(functools.partial(store.close, code, forged)) == "forbidden"
    assert store.teacher(code, secret).code == code
    # the database keeps a hash, not the secret
    dump = repr(store.db.query("SELECT * FROM rooms"))
    assert secret not in dump and other_secret not in dump
    assert len(secret) * 6 >= 128 + 6                    # url-safe base64: 6 bits a character


def test_bad_questions_are_refused(store):
    code, secret = store.open_room("teacher")
    bad = [
        {**QUESTION, "prompt": ""},
        {**QUESTION, "prompt": "x" * 301},
        {**QUESTION, "choices": [["c1", "only one"]]},
        {**QUESTION, "choices": [["c1", "same"], ["c2", "Same "]]},
        {**QUESTION, "choices": [[f"c{n}", str(n)] for n in range(7)]},
        {**QUESTION, "correct": "c3"},
        {**QUESTION, "choices": [["c1", "x" * 81], ["c2", "y"]]},
    ]
    for payload in bad:
        assert reason(functools.partial(store.pose, code, secret, payload)) == "bad_question"
    assert store.room(code).current is None


def test_closing_deletes_everything_and_says_so(store):
    code, secret, question = opened(store)
    store.join(code, "ann", "s")
    store.answer(code, "ann", question, "c1", "s")
    store.close(code, secret)
    assert reason(lambda: store.room(code)) == "closed"
    assert reason(lambda: store.join(code, "bob", "s2")) == "closed"
    for table in ("rooms", "questions", "answers", "members"):
        assert count(store, table) == 0, table


# --------------------------------------------------------------------------- expiry


def test_rooms_expire_and_are_deleted(store, clock):
    code, secret, question = opened(store)
    store.join(code, "ann", "s")
    store.answer(code, "ann", question, "c1", "s")
    clock.now += rs.LIFETIME_S - 1
    assert store.room(code).current.id == question
    clock.now += 2
    error = pytest.raises(RoomError, store.join, code, "bob", "s2").value
    assert error.reason == "expired" and "expired" in str(error) and code in str(error)
    assert reason(lambda: store.teacher(code, secret)) == "forbidden"   # no oracle
    for table in ("rooms", "questions", "answers", "members"):
        assert count(store, table) == 0, table
    clock.now += rs.TOMBSTONE_S + 1
    store.open_room("someone")                            # sweeps
    assert reason(lambda: store.room(code)) == "unknown"


def test_an_expired_room_is_swept_when_anyone_opens_a_room(store, clock):
    code, _, _ = opened(store)
    clock.now += rs.LIFETIME_S + 1
    store.open_room("another teacher")
    assert store.db.query("SELECT COUNT(*) FROM rooms WHERE code = ?", (code,)) == [(0,)]


# rate limits, admission, the oracle and deleted bytes: tests/test_rooms_limits.py


# --------------------------------------------------------------------------- codes


def test_codes_use_an_unambiguous_alphabet_and_cannot_be_guessed():
    assert not set("0O1IL") & set(ALPHABET)
    assert len(set(ALPHABET)) == len(ALPHABET) == 31
    assert CODE_LENGTH >= 6
    space = len(ALPHABET) ** CODE_LENGTH
    assert space > 8e8
    # Every guesser together at the server's guess limit, with 100 rooms open at once, for a
    # whole 4-hour room life (ui/rooms/limits.py):
    most, per = LIMITS[("server", "guess")]
    tries = most * (rs.LIFETIME_S / per)
    assert tries * 100 / space < 0.002
    # Codes come from secrets: every character turns up, none dominates, no repeats in 3,000.
    codes = [room.new_code() for _ in range(3000)]
    assert len(set(codes)) == len(codes)
    counts = Counter("".join(codes))
    assert set(counts) == set(ALPHABET)
    expected = 3000 * CODE_LENGTH / len(ALPHABET)
    assert max(abs(c - expected) for c in counts.values()) < 6 * math.sqrt(expected)


def test_new_code_draws_from_secrets(monkeypatch):
    drawn = []
    monkeypatch.setattr(room.secrets, "choice", lambda seq: drawn.append(seq) or seq[0])
    assert room.new_code() == ALPHABET[0] * CODE_LENGTH
    assert drawn == [ALPHABET] * CODE_LENGTH
    assert room.secrets is secrets


def test_codes_are_read_as_students_type_them(store):
    code, _ = store.open_room("teacher")
    typed = f" {code[:3].lower()}-{code[3:]} "
    assert store.join(typed, "ann", "s").code == code
    for wrong in ("", "ABC", "ABCDEFG", "AB0DEF", "<b>AB</b>"):
        assert reason(functools.partial(store.join, wrong, "ann", "s")) == "bad_code"


def test_from_env_picks_the_file_and_refuses_other_urls(tmp_path):
    path = tmp_path / "sub" / "rooms.sqlite3"
    store = RoomStore.from_env({"IRLAB_ROOMS_DB": str(path)})
    store.open_room("t")
    assert path.exists()
    with pytest.raises(ValueError, match="postgresql://"):
        RoomStore.from_env({"IRLAB_ROOMS_URL": "mysql://x"})


def test_the_sqlite_file_is_private_to_its_user(tmp_path):
    """Live questions, student ids and the projector links' key hashes: 0600 in a 0700
    folder (it was 0644 in 0755: any local user could read them)."""
    import stat

    from ui.rooms._db import connect
    path = tmp_path / "irlab" / "rooms.sqlite3"
    store = RoomStore(connect(None, path))
    code, secret = store.open_room("192.0.2.1")
    store.pose(code, secret, QUESTION)
    mode = {p.name: stat.S_IMODE(p.stat().st_mode) for p in path.parent.iterdir()}
    assert mode == {name: 0o600 for name in mode} and "rooms.sqlite3" in mode, mode
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    path.chmod(0o644)                                    # a file made before: tightened
    connect(None, path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
