"""One student, one vote, as far as an anonymous room can promise it: the limits per client
address, per room and per server (whatever the browser keeps: a new student id each time is
the attack), the teacher's door (class size, lock, let in), no oracle of live codes, and deleted
rows gone from the database's files, and the docs' numbers. On SQLite and PostgreSQL (fixtures of
test_rooms_store)."""
from __future__ import annotations

import functools
import secrets
from pathlib import Path

import pytest

from tests.test_rooms_store import QUESTION, clock, postgres_url, reason, target  # noqa: F401
from ui.rooms import limits as rl
from ui.rooms._db import connect
from ui.rooms.store import RoomError, RoomStore

#: Small numbers, the same shape as ui/rooms/limits.py's, so that a test reaches each limit.
SMALL = {
    ("address", "join"): (3, 60), ("server", "join"): (8, 60),
    ("address", "answer"): (3, 60), ("room", "answer"): (5, 60), ("server", "answer"): (8, 60),
    ("address", "guess"): (2, 600), ("server", "guess"): (4, 600),
    ("address", "open"): (3, 600),
}


@pytest.fixture
def store(target, clock):  # noqa: F811
    return RoomStore(connect(*target), clock=clock, limits=SMALL, max_rooms=9,
                     rooms_per_address=2)


def fresh() -> str:
    """A new student id: what clearing the browser's storage and reloading gives."""
    return secrets.token_hex(16)


def room_with_question(store, teacher="10.9.9.9"):
    code, secret = store.open_room(teacher)
    return code, secret, store.pose(code, secret, QUESTION)


def test_a_new_student_id_each_time_does_not_reset_the_address_limit(store, clock):
    code, _, _ = room_with_question(store)
    for _ in range(3):                                    # new session, cleared storage…
        store.join(code, fresh(), "203.0.113.7")
    error = pytest.raises(RoomError, store.join, code, fresh(), "203.0.113.7").value
    assert error.reason == "rate" and "Wait 60 seconds" in str(error)
    assert store.room(code).members == 3
    # a student already in comes back (a reload) without counting anything
    first = store.db.query("SELECT voter FROM members WHERE room = ?", (code,))[0][0]
    assert store.join(code, first, "203.0.113.7").code == code
    store.join(code, fresh(), "203.0.113.8")             # another address is not held up
    clock.now += 61
    # a minute later the address may join again, but one room admits 3 students from one
    # address: a fourth waits at the door, where the teacher sees it
    fourth = fresh()
    store.join(code, fourth, "203.0.113.7")
    assert store.membership(code, fourth) == "waiting"
    assert (store.room(code).members, store.room(code).waiting) == (4, 1)


def test_an_ipv6_phone_cannot_hop_addresses_in_its_own_block(store):
    code, _, _ = room_with_question(store)
    for n in range(3):
        store.join(code, fresh(), f"2001:db8:5:6::{n + 1:x}")
    assert reason(lambda: store.join(code, fresh(), "2001:db8:5:6:ffff::9")) == "rate"


def test_the_server_limits_many_addresses_and_says_so(store):
    code, _, _ = room_with_question(store)
    other, _, _ = room_with_question(store, "10.9.9.8")
    for n in range(8):
        store.join((code, other)[n % 2], fresh(), f"198.51.100.{n}")
    error = pytest.raises(RoomError, store.join, other, fresh(), "198.51.101.99").value
    assert error.reason == "rate"
    assert str(error).startswith("Too many joins on this server, from all its users "
                                 "(the limit is 8 a minute). Wait ")


def test_a_room_has_no_join_rate_a_flood_of_addresses_could_use_up(store, clock):
    """Joins from many addresses fill the room's door, not a rate that would refuse the
    class's own students: the teacher lets them in or turns them away."""
    code, secret, _ = room_with_question(store)
    store.admission(code, secret, class_size=3)
    for n in range(6):                                   # a prankster's six addresses
        store.join(code, fresh(), f"203.0.113.{n}")
        clock.now += 10                                  # under the server's 8 a minute
    store.admission(code, secret, turn_away=True)
    store.admission(code, secret, class_size=10)
    assert store.join(code, fresh(), "192.0.2.77").members == 4   # a student still gets in


def test_answers_are_limited_and_need_an_admitted_student(store, clock):
    code, secret, question = room_with_question(store)
    students = [fresh() for _ in range(6)]
    for n, voter in enumerate(students):
        store.join(code, voter, f"192.0.2.{n}")
        clock.now += 13
    # someone who never joined (a forged id) cannot answer, and uses up no one's budget: not
    # the address's, not the room's (a flood of forged answers used to refuse the class's own)
    for _ in range(6):
        assert reason(lambda: store.answer(code, fresh(), question, "c1", "192.0.2.60")) \
            == "not_admitted"
    for voter in students[:3]:
        store.answer(code, voter, question, "c1", "192.0.2.60")   # one shared address…
    assert reason(lambda: store.answer(code, students[3], question, "c1", "192.0.2.60")) \
        == "rate"                                         # …has answered its 3 a minute
    assert sum(store.tally(code, question).values()) == 3
    store.answer(code, students[3], question, "c1", "192.0.2.61")
    store.answer(code, students[4], question, "c1", "192.0.2.62")  # the room's 5th
    assert reason(lambda: store.answer(code, students[5], question, "c1", "192.0.2.63")) \
        == "rate"                                         # the room's 5 answers a minute
    clock.now += 61
    store.answer(code, students[5], question, "c2", "192.0.2.63")
    assert store.tally(code, question) == {"c1": 5, "c2": 1}


@pytest.mark.parametrize("teacher_link", [False, True])
def test_guesses_are_limited_and_then_refused_before_the_code_is_read(store, teacher_link):
    code, secret, _ = room_with_question(store)

    def attempt(guess, address):
        if teacher_link:
            return store.teacher(guess, "not-the-key", address)
        return store.join(guess, fresh(), address)

    first = "forbidden" if teacher_link else "unknown"
    assert reason(lambda: attempt("ZZZZZZ", "203.0.113.1")) == first
    assert reason(lambda: attempt("ZZZZZY", "203.0.113.1")) == first
    # used up: now even the live code is refused from there, with the same message
    assert reason(lambda: attempt("ZZZZZX", "203.0.113.1")) == "rate"
    assert reason(lambda: attempt(code, "203.0.113.1")) == "rate"
    # the server's guesses: a second address uses them up with its two…
    assert reason(lambda: attempt("ZZZZZW", "203.0.113.2")) == first
    assert reason(lambda: attempt("ZZZZZV", "203.0.113.2")) == first
    # …then an address that guessed wrong once is refused before its code is read…
    assert reason(lambda: attempt("ZZZZZU", "203.0.113.3")) == first
    error = pytest.raises(RoomError, attempt, code, "203.0.113.3").value
    assert error.reason == "rate" and "One of them came from your network address" in str(error)
    # …but students from an address with no wrong code still reach a live room
    if not teacher_link:
        assert store.join(code, fresh(), "203.0.113.4").code == code
        assert reason(lambda: attempt("ZZZZZT", "203.0.113.5")) == first   # its first guess
        assert reason(lambda: attempt(code, "203.0.113.5")) == "rate"      # then refused
    assert store.teacher(code, secret, "203.0.113.3").code == code     # the key still works


def test_without_the_key_a_live_an_ended_and_an_unknown_code_get_the_same_answer(
        target, clock):  # noqa: F811
    store = RoomStore(connect(*target), clock=clock)      # the real limits: five guesses fit
    code, secret, _ = room_with_question(store)
    ended, ended_secret, _ = room_with_question(store, "10.9.9.8")
    store.close(ended, ended_secret)
    said = set()
    for n, (guess, key) in enumerate([(code, "x" * 32), (code, None), (ended, "x" * 32),
                                      ("ZZZZZZ", "x" * 32), ("bad!", "")]):
        error = pytest.raises(RoomError, store.teacher, guess, key, f"192.0.2.{n}").value
        said.add((error.reason, str(error)))
    assert len(said) == 1, said


def test_openings_are_limited_per_address_and_by_rooms_open_not_by_a_server_rate(store):
    """The server holds 9 rooms, one address 2 at once and opens 3 in 10 minutes: three
    pranksters' addresses cannot lock a teacher out (30 openings from 6 addresses did)."""
    for address in ("203.0.113.1", "203.0.113.2", "203.0.113.3"):
        for _ in range(2):
            store.open_room(address)
        error = pytest.raises(RoomError, store.open_room, address).value
        assert error.reason == "rooms_here" and str(error).startswith(
            "2 rooms opened from your network address are still open")
    assert store.open_room("192.0.2.9")                  # a teacher from anywhere else
    code, secret = store.open_room("192.0.2.9")
    store.close(code, secret)                            # closing frees its place…
    store.open_room("192.0.2.9")
    error = pytest.raises(RoomError, store.open_room, "192.0.2.9").value
    assert error.reason == "rate" and str(error).startswith(   # …but not the address's rate
        "Too many rooms opened from your network address (the limit is 3 in 10 minutes).")
    assert store.open_room("192.0.2.10")                 # the server's 9th room
    assert reason(lambda: store.open_room("192.0.2.11")) == "rooms_server"


def test_a_per_address_number_stays_below_a_quarter_of_the_servers_whatever_the_factor(
        tmp_path):
    for factor in (1, 5, 20, 100, 1e5):
        limits = rl.scaled(rl.LIMITS, factor)
        for (scope, action), (most, _) in limits.items():
            if scope == "address" and ("server", action) in limits:
                assert most <= limits[("server", action)][0] / rl.ADDRESS_SHARE, \
                    (factor, action)
    store = RoomStore.from_env({"IRLAB_ROOMS_DB": str(tmp_path / "rooms.sqlite3"),
                                "IRLAB_ROOMS_PER_ADDRESS": "1e5"})
    assert store.rooms_per_address <= rl.MAX_ROOMS / rl.ADDRESS_SHARE


def test_the_teacher_turns_the_waiting_queue_away_and_they_are_told(store):
    code, secret, _ = room_with_question(store)
    store.admission(code, secret, locked=True)
    queue = [fresh() for _ in range(3)]
    for n, voter in enumerate(queue):
        store.join(code, voter, f"203.0.113.{n}")
    assert store.room(code).waiting == 3
    room = store.admission(code, secret, turn_away=True)
    assert (room.waiting, room.members) == (0, 0)
    assert {store.membership(code, v) for v in queue} == {"turned_away"}
    store.join(code, queue[0], "203.0.113.0")            # a rejoin stays turned away
    assert store.membership(code, queue[0]) == "turned_away"
    assert store.room(code).waiting == 0


def test_every_door_refusal_says_its_real_cause(target, clock):  # noqa: F811
    store = RoomStore(connect(*target), clock=clock)      # the real limits
    code, secret, _ = room_with_question(store)
    store.admission(code, secret, class_size=5, locked=True)
    for n in range(rl.MAX_WAITING):
        store.join(code, fresh(), f"198.51.100.{n}")
    said = str(pytest.raises(RoomError, store.join, code, fresh(), "198.51.100.200").value)
    assert f"{rl.MAX_WAITING} students are already waiting" in said
    assert "whole class" not in said


# --------------------------------------------------------------------------- the door


def test_beyond_the_class_size_students_wait_and_joined_never_exceeds_who_was_let_in(store,
                                                                                      clock):
    code, secret, question = room_with_question(store)
    store.admission(code, secret, class_size=2)
    voters = [fresh() for _ in range(4)]
    for n, voter in enumerate(voters):
        store.join(code, voter, f"192.0.2.{n}")
        clock.now += 1                                    # "let one in" takes the first
    assert [store.membership(code, v) for v in voters] == ["in", "in", "waiting", "waiting"]
    room = store.room(code)
    assert (room.members, room.waiting, room.class_size) == (2, 2, 2)
    assert store.status(code)[2] == 2                     # what the projector's "joined" reads
    assert reason(lambda: store.answer(code, voters[2], question, "c1", "192.0.2.9")) \
        == "not_admitted"
    store.admission(code, secret, admit=1)                # the teacher lets the first one in
    assert [store.membership(code, v) for v in voters[2:]] == ["in", "waiting"]
    store.answer(code, voters[2], question, "c1", "192.0.2.9")
    assert sum(store.tally(code, question).values()) <= store.room(code).members == 3
    assert reason(lambda: store.admission(code, "wrong", admit=5)) == "forbidden"


def test_a_locked_room_lets_nobody_new_in_and_its_queue_is_bounded(target, clock):  # noqa: F811
    store = RoomStore(connect(*target), clock=clock)      # the real limits
    code, secret, _ = room_with_question(store)
    store.join(code, "a" * 32, "192.0.2.1")
    store.admission(code, secret, locked=True)
    assert store.room(code).locked
    for n in range(rl.MAX_WAITING):
        store.join(code, fresh(), f"198.51.100.{n}")
    assert reason(lambda: store.join(code, fresh(), "198.51.100.200")) == "full"
    room = store.room(code)
    assert (room.members, room.waiting) == (1, rl.MAX_WAITING)
    assert store.join(code, "a" * 32, "192.0.2.1").members == 1   # one already in comes back
    store.admission(code, secret, locked=False)
    store.join(code, fresh(), "198.51.100.201")
    assert store.room(code).members == 2


# --------------------------------------------------------------------------- deleted is gone


MARKERS = ("Zebracrossing question", "Quokka answer", "f00dfacef00dfacef00dfacef00dface")


def database_bytes(target, store) -> bytes:  # noqa: F811
    """Every byte of the database's files: SQLite's file, its log and shared memory; for
    PostgreSQL the room tables' files (after a CHECKPOINT writes them out)."""
    url, path = target
    if url is None:
        return b"".join(p.read_bytes() for p in Path(path).parent.glob(Path(path).name + "*"))
    import psycopg
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CHECKPOINT")
        (data,), = conn.execute("SHOW data_directory").fetchall()
        (base,), = conn.execute("SELECT pg_relation_filepath('rooms')").fetchall()
    folder = Path(data) / Path(base).parent             # base/<database>: every table's file
    return b"".join(p.read_bytes() for p in folder.iterdir() if p.is_file())


@pytest.mark.parametrize("end", ["close", "expire"])
def test_an_ended_rooms_text_and_voter_ids_leave_the_database_files(
        target, clock, end):  # noqa: F811
    store = RoomStore(connect(*target), clock=clock)
    code, secret = store.open_room("192.0.2.1")
    question = store.pose(code, secret, {**QUESTION, "prompt": MARKERS[0] + "?",
                                         "choices": [["c1", MARKERS[1]], ["c2", "other"]]})
    store.join(code, MARKERS[2], "192.0.2.2")
    store.answer(code, MARKERS[2], question, "c1", "192.0.2.2")
    before = database_bytes(target, store)
    assert all(m.encode() in before for m in MARKERS)     # the check can see them
    if end == "close":
        store.close(code, secret)
    else:
        clock.now += store.lifetime_s + 1
        store.sweep()
    after = database_bytes(target, store)
    assert [m for m in MARKERS if m.encode() in after] == []
    assert reason(functools.partial(store.room, code)) == ("closed" if end == "close"
                                                           else "expired")


def test_the_docs_state_the_limits_the_code_applies():
    docs = (Path(__file__).resolve().parents[1] / "docs" / "rooms-security.md").read_text()
    for row in rl.table_rows():
        assert row in docs, row
    prose = " ".join(docs.split())
    assert f"at most **{rl.PER_ADDRESS_IN_ROOM} students from one address**" in prose
    assert f"{rl.MAX_WAITING} students can wait at once" in prose
    assert f"at most {rl.MAX_MEMBERS})" in prose


def test_every_place_shows_a_teachers_text_through_one_helper():
    """ui/rooms/shown.py is the one way a question's text reaches the screen (the browser
    test checks what it draws): no page escapes that text another way."""
    import inspect

    from ui.rooms import view
    root = Path(__file__).resolve().parents[1]
    for page in ("pages/join.py", "pages/room.py"):
        source = (root / page).read_text()
        assert "md_escape" not in source and "html.escape" not in source, page
        assert "shown." in source, page
    for function in (view.question_text, view.answers_strip, view.tally_figure):
        source = inspect.getsource(function)
        assert "shown." in source and "md_escape" not in source, function.__name__


def test_a_database_from_before_gets_the_new_columns(tmp_path):
    import sqlite3
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as conn:          # the first release's two changed tables
        conn.executescript("""
            CREATE TABLE rooms (code TEXT PRIMARY KEY, secret_hash TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL, expires_at DOUBLE PRECISION NOT NULL,
                current_question BIGINT);
            CREATE TABLE members (room TEXT NOT NULL REFERENCES rooms(code) ON DELETE CASCADE,
                voter TEXT NOT NULL, joined_at DOUBLE PRECISION NOT NULL, UNIQUE (room, voter));
        """)
    store = RoomStore(connect(None, path))
    code, secret = store.open_room("192.0.2.1")
    store.admission(code, secret, class_size=1)
    store.join(code, fresh(), "192.0.2.2")
    store.join(code, fresh(), "192.0.2.3")
    assert (store.room(code).members, store.room(code).waiting) == (1, 1)


def test_a_class_behind_one_address_raises_the_per_address_numbers(tmp_path):
    db = str(tmp_path / "rooms.sqlite3")
    store = RoomStore.from_env({"IRLAB_ROOMS_DB": db, "IRLAB_ROOMS_PER_ADDRESS": "20"})
    assert store.limits[("address", "join")] == (200, 60)
    assert store.limits[("address", "guess")] == (75, 600)      # not 400: below the server's
    assert store.limits[("room", "answer")] == rl.LIMITS[("room", "answer")]
    assert store.per_address_in_room == 60
    for bad in ("x", "0", "-1"):
        with pytest.raises(ValueError, match="IRLAB_ROOMS_PER_ADDRESS must be a positive"):
            RoomStore.from_env({"IRLAB_ROOMS_DB": db, "IRLAB_ROOMS_PER_ADDRESS": bad})


@pytest.mark.parametrize("balancer, header, seen, counted", [
    (None, None, "203.0.113.5", "203.0.113.5"),            # no header: the connection's address
    (None, "198.51.100.7", "198.51.100.7", "forwarded"),   # streamlit run: header not trusted
    ("1", "198.51.100.7", "198.51.100.7", "198.51.100.7"),  # deploy/run_class.py: the balancer's
])
def test_x_forwarded_for_counts_only_when_the_deployment_says_a_balancer_is_in_front(
        monkeypatch, balancer, header, seen, counted):
    """uvicorn takes X-Forwarded-For from any connection from 127.0.0.1: on a plain
    ``streamlit run`` an SSH tunnel or socat on the host let its clients choose their address
    (8 of 8 forged addresses counted as new students)."""
    import types

    from ui.rooms import view
    context = types.SimpleNamespace(ip_address=seen,
                                    headers={"X-Forwarded-For": header} if header else {})
    monkeypatch.setattr(view, "st", types.SimpleNamespace(context=context))
    if balancer:
        monkeypatch.setenv("IRLAB_BEHIND_BALANCER", balancer)
    else:
        monkeypatch.delenv("IRLAB_BEHIND_BALANCER", raising=False)
    assert view.client_address() == counted


def test_the_class_deployment_says_a_balancer_is_in_front():
    source = (Path(__file__).resolve().parents[1] / "deploy" / "run_class.py").read_text()
    assert '"IRLAB_BEHIND_BALANCER": "1"' in source


def test_the_class_deployment_limits_new_sessions_per_client_address():
    """HAProxy's limit on new sessions (deploy/run_class.py; measured and tested behind HAProxy
    in tests/browser/test_rooms_flood.py): 600 a minute by default, a sixth of it in any 10 s,
    per address (IPv6 by /64), only on Streamlit's websocket; 0 leaves it out."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "run_class", Path(__file__).resolve().parents[1] / "deploy" / "run_class.py")
    run_class = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run_class)
    config = run_class.haproxy_config(2, bind="127.0.0.1", port=8501, app_ports=[8601, 8602])
    assert "store http_req_rate(10s)" in config
    assert "acl new_session path_end /_stcore/stream" in config
    assert ("http-request deny deny_status 429 if new_session "
            "{ src,ipmask(32,64),table_http_req_rate(class) ge 100 }") in config
    # checked before it is counted: a refused try uses up nothing
    assert config.index("http-request deny deny_status 429") < config.index("track-sc0")
    off = run_class.haproxy_config(2, bind="127.0.0.1", port=8501, app_ports=[8601, 8602],
                                   sessions_per_minute=0)
    assert "stick-table" not in off and "deny_status 429" not in off
