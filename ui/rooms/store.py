"""Class rooms: a teacher opens a room, poses questions, students answer once, the room counts.

Everything lives in a database so that every app process on the machine (``deploy/run_class.py``
runs several) sees the same rooms: SQLite by default (``IRLAB_ROOMS_DB``, a file), PostgreSQL
when ``IRLAB_ROOMS_URL`` names one (:mod:`ui.rooms._db`: the tables and the two backends). No
Streamlit here: the pages call this module. What a room is apart from the database (its code,
its keys, :class:`~ui.rooms.room.Room` as the pages see it) is :mod:`ui.rooms.room`; how often
anyone may act, :mod:`ui.rooms.limits`.

Safety, each rule enforced here rather than by the pages:

* a room code is six characters drawn with :mod:`secrets` (:mod:`ui.rooms.room`): 31^6 ≈
  8.9·10^8 codes, so a guesser allowed :data:`LIMITS` joins a minute needs years per open room;
* the teacher's controls need the room's secret (192 random bits), which only the teacher's
  link carries; the database keeps only its SHA-256, compared in constant time;
* one answer per student per question is a UNIQUE constraint; the answer must be one of the
  question's choices, for the room's current question, before the reveal;
* joins, answers, code guesses and room openings are limited per client address, per room and
  per server (:mod:`ui.rooms.limits`; counted in the database, so a limit holds across reloads,
  new sessions and every app process);
* a student answers only once admitted: the teacher may set a class size and lock the room,
  and joins beyond wait for the teacher (so "joined" and "answered" never exceed who was let in);
* a teacher link without the right key gets one answer whether its code is live, unknown or
  ended (no oracle of live codes), and counts as a guess;
* a room that ends leaves no bytes behind: SQLite overwrites deleted rows (``secure_delete``)
  and empties its log; PostgreSQL rewrites the tables (:meth:`Backend.scrub`);
* rooms expire :data:`LIFETIME_S` after opening and are deleted with every question and answer
  (a sweep on every open and join); only the code and why it ended stay a day, to say so.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from ui.rooms._db import Backend, connect
from ui.rooms.limits import (LIMITS, MAX_MEMBERS, MAX_ROOMS, MAX_ROOMS_PER_ADDRESS, MAX_WAITING,
                             PER_ADDRESS_IN_ROOM, Counter, address_cap, client_scopes, scaled)
from ui.rooms.payload import MAX_CHOICE, MAX_CHOICES, MAX_PROMPT, check_payload
from ui.rooms.room import Posed, Room, digest, new_code, new_secret, normalise_code
from ui.rooms.room_error import MESSAGES, RoomError

__all__ = ["LIMITS", "MAX_CHOICE", "MAX_CHOICES", "MAX_PROMPT", "MESSAGES", "Room",
           "RoomError", "RoomStore", "check_payload", "new_code", "normalise_code"]

LIFETIME_S = 4 * 3600                   # a lecture and then some
#: ``members.admitted`` of a student the teacher turned away at the door (1: in, 0: waiting).
TURNED_AWAY = -1
TOMBSTONE_S = 24 * 3600                 # how long "this room has ended" can still be said
DEFAULT_DB = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") \
    / "irlab" / "rooms.sqlite3"


class RoomStore:
    """Rooms, questions and answers in one database (see the module's docstring for the rules).

    ``clock`` is the time in seconds (tests move it to expire rooms); ``address`` arguments
    name the client a limit counts against (:func:`ui.rooms.limits.address_key`); ``voter``
    names a student across reruns.
    """

    def __init__(self, db: Backend, *, clock: Callable[[], float] = time.time,
                 lifetime_s: float = LIFETIME_S, limits: Mapping = LIMITS,
                 per_address_in_room: int = PER_ADDRESS_IN_ROOM, max_rooms: int = MAX_ROOMS,
                 rooms_per_address: int = MAX_ROOMS_PER_ADDRESS):
        self.db = db
        self.clock = clock
        self.lifetime_s = lifetime_s
        self.limits = dict(limits)
        self.counter = Counter(self.limits, lambda: self.clock())
        self.per_address_in_room = per_address_in_room
        self.max_rooms = max_rooms
        self.rooms_per_address = min(rooms_per_address, address_cap(max_rooms))
        self._pepper: str | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ, **kwargs) -> RoomStore:
        """The store a deployment configured: ``IRLAB_ROOMS_URL`` (PostgreSQL) or
        ``IRLAB_ROOMS_DB`` (an SQLite file; default :data:`DEFAULT_DB`);
        ``IRLAB_ROOMS_PER_ADDRESS`` multiplies the per-address limits (a class behind one
        address)."""
        text = env.get("IRLAB_ROOMS_PER_ADDRESS") or "1"
        try:
            factor = float(text)
        except ValueError:
            factor = 0
        if not 0 < factor < 1e6:
            raise ValueError(f"IRLAB_ROOMS_PER_ADDRESS must be a positive number, such as 20 "
                             f"(got {text!r})")
        kwargs.setdefault("limits", scaled(LIMITS, factor))
        kwargs.setdefault("per_address_in_room", max(1, round(PER_ADDRESS_IN_ROOM * factor)))
        kwargs.setdefault("rooms_per_address", max(1, round(MAX_ROOMS_PER_ADDRESS * factor)))
        return cls(connect(env.get("IRLAB_ROOMS_URL"), env.get("IRLAB_ROOMS_DB") or DEFAULT_DB),
                   **kwargs)

    # ------------------------------------------------------------------ limits and expiry

    def _limit(self, action: str, scopes) -> None:
        """Count one ``action`` against each of ``scopes``; refuse it (counting nothing) when
        any has used its limit."""
        with self.db.transaction() as run:
            refusal = self.counter.over(run, action, scopes)
            if refusal is not None:
                raise RoomError("rate", wait=refusal.wait, why=refusal.why)
            self.counter.count(run, action, scopes)

    def _opener(self, client: str) -> str:
        """A room's opener as the rooms table knows it: a keyed hash of the client address
        (the key is random, made once per database), not the address."""
        if self._pepper is None:
            with self.db.transaction() as run:       # (another process may make it first)
                run("INSERT INTO pepper (one, value) VALUES (1, ?) ON CONFLICT DO NOTHING",
                    (secrets.token_hex(32),))
                rows = run("SELECT value FROM pepper WHERE one = 1")
            self._pepper = rows[0][0]
        return hmac.new(self._pepper.encode(), client.encode(), hashlib.sha256).hexdigest()

    def _hours(self) -> str:
        return f"{self.lifetime_s / 3600:g}"

    def sweep(self) -> int:
        """Delete expired rooms (with their questions and answers), old tombstones and old
        rate-limit counts. Returns how many rooms went."""
        now = self.clock()
        with self.db.transaction() as run:
            gone = [code for code, in run("SELECT code FROM rooms WHERE expires_at <= ?", (now,))]
            for code in gone:
                self._end(run, code, "expired", now)
            run("DELETE FROM ended WHERE ended_at < ?", (now - TOMBSTONE_S,))
            run("DELETE FROM hits WHERE at < ?", (now - self.counter.window(),))
        if gone:
            self.db.scrub()
        return len(gone)

    @staticmethod
    def _end(run, code: str, reason: str, now: float) -> None:
        # Answers and members go with their room (ON DELETE CASCADE); the code stays a day.
        run("DELETE FROM answers WHERE question IN (SELECT id FROM questions WHERE room = ?)",
            (code,))
        run("DELETE FROM questions WHERE room = ?", (code,))
        run("DELETE FROM members WHERE room = ?", (code,))
        run("DELETE FROM rooms WHERE code = ?", (code,))
        run("DELETE FROM ended WHERE code = ?", (code,))
        run("INSERT INTO ended (code, reason, ended_at) VALUES (?, ?, ?)", (code, reason, now))

    # ------------------------------------------------------------------ teacher

    def open_room(self, address: str) -> tuple[str, str]:
        """A new room: its code (for students) and its secret (for the teacher's link only).

        Limited per address (a rate), and by how many rooms are open at once: on the server
        (:data:`~ui.rooms.limits.MAX_ROOMS`) and from this address (its rooms known only by a
        keyed hash of the address, deleted with them). No server-wide rate: anonymous
        openings from a few addresses cannot lock the teachers out."""
        self.sweep()
        client = client_scopes(address)
        opener = self._opener(client[0][1])
        secret = new_secret()
        while True:
            code = new_code()
            try:
                with self.db.transaction() as run:
                    now = self.clock()
                    refusal = self.counter.over(run, "open", client)
                    if refusal is not None:
                        raise RoomError("rate", wait=refusal.wait, why=refusal.why)
                    (mine,), = run("SELECT COUNT(*) FROM rooms WHERE opener = ? "
                                   "AND expires_at > ?", (opener, now))
                    if mine >= self.rooms_per_address:
                        raise RoomError("rooms_here", most=self.rooms_per_address)
                    (live,), = run("SELECT COUNT(*) FROM rooms WHERE expires_at > ?", (now,))
                    if live >= self.max_rooms:
                        raise RoomError("rooms_server", most=self.max_rooms)
                    if run("SELECT 1 FROM ended WHERE code = ?", (code,)):
                        continue                 # a code that just ended is not reused
                    self.counter.count(run, "open", client)
                    run("INSERT INTO rooms (code, secret_hash, created_at, expires_at, opener) "
                        "VALUES (?, ?, ?, ?, ?)",
                        (code, digest(secret), now, now + self.lifetime_s, opener))
                return code, secret
            except self.db.integrity_error:      # taken by an open room: draw again
                continue

    def teacher(self, code: str, secret: str | None, address: str = "local") -> Room:
        """The room, if ``secret`` is its teacher's. Otherwise :class:`RoomError`
        ``forbidden``, the same whether the code is a live room, an ended one or none at all
        (no oracle), counted as a guess of ``address`` (``rate`` once its guesses are used)."""
        return self._keyed(code, digest(str(secret or "")) if secret else "", address)

    def screen(self, code: str, token: str | None, address: str = "local") -> Room:
        """The room for its projector screen, if ``token`` is :func:`screen_token` of its
        teacher's key (the link shows what the class may see, and runs nothing). Refused as
        :meth:`teacher` refuses: no oracle, and a wrong token counts as a guess."""
        return self._keyed(code, str(token or ""), address)

    def _keyed(self, code: str, given_hash: str, address: str) -> Room:
        """The live room whose stored key hash is ``given_hash``; else ``forbidden``, the same
        for a live, ended, unknown or malformed code, counted as a guess of ``address``."""
        try:
            code = normalise_code(code)
        except RoomError:
            code = ""
        rows = self.db.query("SELECT secret_hash, expires_at FROM rooms WHERE code = ?",
                             (code,)) if code else []
        stored = rows[0][0] if rows else digest(secrets.token_hex(16))   # compared all the same
        if hmac.compare_digest(stored, given_hash or "-") and given_hash \
                and rows[0][1] > self.clock():
            return self.room(code)
        client = client_scopes(address)
        with self.db.transaction() as run:
            refusal = self.counter.guessing(run, client)
            if refusal is None:
                self.counter.count(run, "guess", client)
        if refusal is not None:
            raise RoomError("rate", wait=refusal.wait, why=refusal.why)
        raise RoomError("forbidden", hours=self._hours())

    def pose(self, code: str, secret: str | None, payload: Mapping) -> int:
        """Make ``payload`` (see :func:`check_payload`) the room's current question."""
        self.teacher(code, secret)
        payload = check_payload(payload)
        with self.db.transaction() as run:
            (question,), = run("INSERT INTO questions (room, payload, created_at) "
                               "VALUES (?, ?, ?) RETURNING id",
                               (code, json.dumps(payload), self.clock()))
            run("UPDATE rooms SET current_question = ? WHERE code = ?", (question, code))
        return question

    def reveal(self, code: str, secret: str | None, question: int) -> None:
        """Show the right answer of ``question``; answering it stops."""
        self.teacher(code, secret)
        with self.db.transaction() as run:
            run("UPDATE questions SET revealed = 1 WHERE id = ? AND room = ?", (question, code))

    def close(self, code: str, secret: str | None) -> None:
        """End the room now: everything in it is deleted."""
        self.teacher(code, secret)
        with self.db.transaction() as run:
            self._end(run, code, "closed", self.clock())
        self.db.scrub()

    def admission(self, code: str, secret: str | None, *, class_size: int | None = ...,
                  locked: bool | None = None, admit: int = 0, turn_away: bool = False) -> Room:
        """The teacher's door: set the class size (None: no limit), lock or unlock the room,
        let the ``admit`` students who have waited longest in, or ``turn_away`` everyone
        waiting (they are told so, and a rejoin from their id stays turned away; the queue is
        empty again for latecomers). Returns the room after."""
        self.teacher(code, secret)
        code = normalise_code(code)
        with self.db.transaction() as run:
            if class_size is not ...:
                size = None if not class_size else max(1, min(int(class_size), MAX_MEMBERS))
                run("UPDATE rooms SET class_size = ? WHERE code = ?", (size, code))
            if locked is not None:
                run("UPDATE rooms SET locked = ? WHERE code = ?", (int(bool(locked)), code))
            if admit > 0:
                waiting = [voter for voter, in run(
                    "SELECT voter FROM members WHERE room = ? AND admitted = 0 "
                    "ORDER BY joined_at, voter LIMIT ?", (code, int(admit)))]
                for voter in waiting:
                    run("UPDATE members SET admitted = 1 WHERE room = ? AND voter = ?",
                        (code, voter))
            if turn_away:
                run("UPDATE members SET admitted = ? WHERE room = ? AND admitted = 0",
                    (TURNED_AWAY, code))
        return self.room(code)

    def tally(self, code: str, question: int) -> dict[str, int]:
        """How many students chose each answer (every choice, zeros included). Counts only."""
        rows = self.db.query("SELECT q.payload FROM questions q WHERE q.id = ? AND q.room = ?",
                             (question, code))
        if not rows:
            return {}
        counts = dict(self.db.query("SELECT choice, COUNT(*) FROM answers WHERE question = ? "
                                    "GROUP BY choice", (question,)))
        return {key: int(counts.get(key, 0)) for key, _ in json.loads(rows[0][0])["choices"]}

    # ------------------------------------------------------------------ students

    def room(self, code: str) -> Room:
        """The room with ``code`` as it is now, or :class:`RoomError` (unknown, expired, closed)."""
        code = normalise_code(code)
        now = self.clock()
        rows = self.db.query("SELECT expires_at, current_question, class_size, locked "
                             "FROM rooms WHERE code = ?", (code,))
        if not rows or rows[0][0] <= now:
            if rows:
                self.sweep()
            ended = self.db.query("SELECT reason FROM ended WHERE code = ?", (code,))
            if ended:
                raise RoomError(ended[0][0], code=code, hours=f"{self.lifetime_s / 3600:g}")
            raise RoomError("unknown", code=code)
        expires_at, current, class_size, locked = rows[0]
        (members, waiting), = self.db.query(
            "SELECT COUNT(*) FILTER (WHERE admitted = 1), COUNT(*) FILTER (WHERE admitted = 0) "
            "FROM members WHERE room = ?", (code,))
        posed = None
        if current is not None:
            (payload, revealed), = self.db.query(
                "SELECT payload, revealed FROM questions WHERE id = ?", (current,))
            posed = Posed(int(current), json.loads(payload), bool(revealed))
        return Room(code, float(expires_at), int(members or 0), posed, int(waiting or 0),
                    class_size, bool(locked))

    def status(self, code: str) -> tuple[int | None, bool, int]:
        """What a poll needs, in one read: (current question, revealed, members); RoomError
        when the room is gone."""
        rows = self.db.query(
            "SELECT r.current_question, q.revealed, r.expires_at, "
            "(SELECT COUNT(*) FROM members m WHERE m.room = r.code AND m.admitted = 1) "
            "FROM rooms r LEFT JOIN questions q ON q.id = r.current_question WHERE r.code = ?",
            (code,))
        if not rows or rows[0][2] <= self.clock():
            self.room(code)                      # raises the right message
        current, revealed, _, members = rows[0]
        return (None if current is None else int(current)), bool(revealed), int(members)

    def join(self, code: str, voter: str, address: str) -> Room:
        """Student ``voter`` joins the room from ``address``: counted once, admitted at once
        unless the room is locked or has its class size, else waiting for the teacher.

        A student already in the room (a reload) comes back without counting anything. Any
        other join counts against the address and the server, and, when the code opens no
        room, as a guess of both; once either has used its guesses every join from there is
        refused before the code is looked up. See :mod:`ui.rooms.limits`."""
        client = client_scopes(address)
        try:
            code = normalise_code(code)
        except RoomError:
            self._limit("join", client)          # a malformed code counts as a try too
            raise
        self.sweep()
        with self.db.transaction() as run:
            outcome = self._join(run, code, voter, client)
        if outcome[0] == "rate":
            raise RoomError("rate", wait=outcome[1].wait, why=outcome[1].why)
        if outcome[0] == "full":
            raise RoomError("full", code=code, waiting=MAX_WAITING)
        return self.room(code)                  # raises for a code that opened nothing

    def _join(self, run, code: str, voter: str, client) -> tuple:
        """One join in the caller's transaction, returned as ``(outcome, detail)`` rather than
        raised, so that what it counted is committed."""
        now = self.clock()
        rooms = run("SELECT expires_at, class_size, locked FROM rooms WHERE code = ?", (code,))
        live = bool(rooms) and rooms[0][0] > now
        if live and run("SELECT 1 FROM members WHERE room = ? AND voter = ?", (code, voter)):
            return ("again", None)
        refusal = self.counter.guessing(run, client) or self.counter.over(run, "join", client)
        if refusal is not None:
            return ("rate", refusal)
        self.counter.count(run, "join", client)
        if not live:
            self.counter.count(run, "guess", client)
            return ("gone", None)
        _, class_size, locked = rooms[0]
        (admitted, waiting), = run(
            "SELECT COUNT(*) FILTER (WHERE admitted = 1), COUNT(*) FILTER (WHERE admitted = 0) "
            "FROM members WHERE room = ?", (code,))
        # the room knows a student's address only as a hash salted with its code (the
        # address itself is nowhere in it), deleted with the room
        client_hash = digest(f"{code}|{client[0][1]}")
        (same_client,), = run("SELECT COUNT(*) FROM members WHERE room = ? AND client = ?",
                              (code, client_hash))
        admit = (not locked and same_client < self.per_address_in_room
                 and (admitted or 0) < min(class_size or MAX_MEMBERS, MAX_MEMBERS))
        if not admit and (waiting or 0) >= MAX_WAITING:
            return ("full", None)
        run("INSERT INTO members (room, voter, joined_at, admitted, client) "
            "VALUES (?, ?, ?, ?, ?)", (code, voter, now, int(admit), client_hash))
        return ("in" if admit else "waiting", None)

    def refusal(self, address: str):
        """The limit that would refuse a join from ``address`` now (a
        :class:`~ui.rooms.limits.Refusal`), or None. Reads only and counts nothing: the join
        page asks it first, so a refused session costs one small read, not a page run."""
        return self.counter.guessing(self.db.query, client_scopes(address)) \
            or self.counter.over(self.db.query, "join", client_scopes(address))

    def membership(self, code: str, voter: str) -> str | None:
        """``"in"`` (admitted), ``"waiting"`` (for the teacher), ``"turned_away"`` (by the
        teacher) or None (not joined)."""
        rows = self.db.query("SELECT admitted FROM members WHERE room = ? AND voter = ?",
                             (code, voter))
        if not rows:
            return None
        return {1: "in", 0: "waiting", TURNED_AWAY: "turned_away"}.get(int(rows[0][0]), "waiting")

    def answer(self, code: str, voter: str, question: int, choice: str, address: str) -> None:
        """Record ``voter``'s answer ``choice`` to ``question`` of room ``code``, once; only
        a student the room admitted answers. Limited per address, per room and per server."""
        code = normalise_code(code)
        room = self.room(code)
        posed = room.current
        if posed is None:
            raise RoomError("no_question")
        if posed.id != question or posed.revealed:
            raise RoomError("stale")
        if choice not in dict(posed.choices):
            raise RoomError("invalid")
        if self.membership(code, voter) != "in":
            raise RoomError("not_admitted")
        # counted only now: answers from ids nobody let in use up no one's budget
        self._limit("answer", [*client_scopes(address), ("room", code)])
        try:
            with self.db.transaction() as run:
                run("INSERT INTO answers (question, voter, choice, answered_at) "
                    "VALUES (?, ?, ?, ?)", (question, voter, choice, self.clock()))
        except self.db.integrity_error:
            raise RoomError("duplicate") from None

    def my_answer(self, question: int, voter: str) -> str | None:
        """The answer ``voter`` gave to ``question``, if any."""
        rows = self.db.query("SELECT choice FROM answers WHERE question = ? AND voter = ?",
                             (question, voter))
        return rows[0][0] if rows else None
