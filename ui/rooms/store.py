"""Class rooms: a teacher opens a room, poses questions, students answer once, the room counts.

Everything lives in a database so that every app process on the machine (``deploy/run_class.py``
runs several) sees the same rooms: SQLite by default (``IRLAB_ROOMS_DB``, a file), PostgreSQL
when ``IRLAB_ROOMS_URL`` names one. No Streamlit here: the pages call this module.

Safety, each rule enforced here rather than by the pages:

* a room code is :data:`CODE_LENGTH` characters from :data:`ALPHABET` (no 0/O, 1/I/L), drawn
  with :mod:`secrets`: 31^6 ≈ 8.9·10^8 codes, so a guesser allowed :data:`LIMITS` joins a minute
  needs years per open room;
* the teacher's controls need the room's secret (192 random bits), which only the teacher's
  link carries; the database keeps only its SHA-256, compared in constant time;
* one answer per student per question is a UNIQUE constraint; the answer must be one of the
  question's choices, for the room's current question, before the reveal;
* joins, answers and room openings are rate-limited per session (counted in the database, so a
  limit holds whatever process serves the session);
* rooms expire :data:`LIFETIME_S` after opening and are deleted with every question and answer
  (a sweep on every open and join); only the code and why it ended stay a day, to say so.
"""
from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import os
import secrets
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from ui.rooms._db import Backend, connect

#: Unambiguous on a projector and a phone keyboard: no 0/O, 1/I/L.
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
SECRET_BYTES = 24                       # 192 bits
LIFETIME_S = 4 * 3600                   # a lecture and then some
TOMBSTONE_S = 24 * 3600                 # how long "this room has ended" can still be said
#: action -> (how many, per seconds), per session
LIMITS = {"join": (10, 60), "answer": (20, 60), "open": (5, 600)}
MAX_PROMPT, MAX_CHOICE, MAX_CHOICES = 300, 80, 6
DEFAULT_DB = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") \
    / "irlab" / "rooms.sqlite3"


class RoomError(Exception):
    """A refused request, with ``reason`` (a key of :data:`MESSAGES`) and a sentence to show."""

    def __init__(self, reason: str, **details):
        self.reason = reason
        self.details = details
        super().__init__(MESSAGES[reason].format(**details))


MESSAGES = {
    "bad_code": "A room code has 6 characters, letters and digits (no 0, 1, I, L or O). "
                "Check the code on the projector.",
    "unknown": "There is no room with the code {code}. Check the code on the projector.",
    "expired": "Room {code} has expired (rooms last {hours} hours) and its answers are deleted. "
               "Ask your teacher for a new code.",
    "closed": "Your teacher has closed room {code}. Thank you for taking part!",
    "forbidden": "This teacher link is not valid: its key is missing or wrong for this room. "
                 "Only the link shown when the room was opened can run it — students cannot.",
    "duplicate": "You have already answered this question: one answer per question.",
    "invalid": "That is not one of this question's answers.",
    "stale": "This question is closed: the teacher has revealed the answer or moved on.",
    "no_question": "There is no question to answer yet.",
    "rate": "Too many tries in a short time. Wait {wait} seconds, then try again.",
    "bad_question": "This question cannot be posed: {problem}.",
}


@dataclasses.dataclass(frozen=True)
class Posed:
    """A question as posed in a room: its id, what it is (the payload) and whether revealed."""
    id: int
    payload: dict
    revealed: bool

    @property
    def choices(self) -> list[tuple[str, str]]:
        return [(key, label) for key, label in self.payload["choices"]]


@dataclasses.dataclass(frozen=True)
class Room:
    """A room as a student or the teacher sees it: no secret, no answers, only counts."""
    code: str
    expires_at: float
    members: int
    current: Posed | None


def new_code() -> str:
    """A fresh room code: :data:`CODE_LENGTH` characters of :data:`ALPHABET` from ``secrets``.

    >>> code = new_code()
    >>> len(code) == CODE_LENGTH and set(code) <= set(ALPHABET)
    True
    """
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(text: str) -> str:
    """What a student typed, as a code: upper case, spaces and dashes dropped.

    >>> normalise_code(" ab3-k7q ")
    'AB3K7Q'
    >>> normalise_code("ab0k7q")
    Traceback (most recent call last):
    ...
    ui.rooms.store.RoomError: A room code has 6 characters, letters and digits (no 0, 1, I, L or O). Check the code on the projector.
    """
    code = "".join(str(text or "").split()).replace("-", "").upper()
    if len(code) != CODE_LENGTH or not set(code) <= set(ALPHABET):
        raise RoomError("bad_code")
    return code


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def screen_token(secret: str) -> str:
    """The projector link's token: the SHA-256 the store keeps of the teacher's key, so it
    cannot be turned back into the key (it opens the projector screen only).

    >>> screen_token("k") == _hash("k") and screen_token("k") != "k"
    True
    """
    return _hash(secret)


def check_payload(payload: Mapping) -> dict:
    """The question as the store keeps it, after the checks every question must pass."""
    def refuse(problem):
        raise RoomError("bad_question", problem=problem)
    prompt = payload.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        refuse("the question has no text")
    if len(prompt) > MAX_PROMPT:
        refuse(f"the question is longer than {MAX_PROMPT} characters")
    choices = payload.get("choices")
    if not isinstance(choices, (list, tuple)) or not 2 <= len(choices) <= MAX_CHOICES:
        refuse(f"a question needs 2 to {MAX_CHOICES} answers")
    keys = []
    for pair in choices:
        if (not isinstance(pair, (list, tuple)) or len(pair) != 2
                or not all(isinstance(x, str) and x.strip() for x in pair)):
            refuse("every answer needs a key and a text")
        if len(pair[1]) > MAX_CHOICE:
            refuse(f"an answer is longer than {MAX_CHOICE} characters")
        keys.append(pair[0])
    if len(set(keys)) != len(keys) or len({label.strip().casefold() for _, label in choices}) \
            != len(keys):
        refuse("two answers are the same")
    correct = payload.get("correct")
    if correct is not None and correct not in keys:
        refuse("the right answer is not one of the answers")
    return json.loads(json.dumps(dict(payload)))     # plain JSON, a copy


class RoomStore:
    """Rooms, questions and answers in one database (see the module's docstring for the rules).

    ``clock`` is the time in seconds (tests move it to expire rooms); ``who`` arguments name
    the session a rate limit counts against; ``voter`` names a student across reruns.
    """

    def __init__(self, db: Backend, *, clock: Callable[[], float] = time.time,
                 lifetime_s: float = LIFETIME_S, limits: Mapping = LIMITS):
        self.db = db
        self.clock = clock
        self.lifetime_s = lifetime_s
        self.limits = dict(limits)

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ, **kwargs) -> RoomStore:
        """The store a deployment configured: ``IRLAB_ROOMS_URL`` (PostgreSQL) or
        ``IRLAB_ROOMS_DB`` (an SQLite file; default :data:`DEFAULT_DB`)."""
        return cls(connect(env.get("IRLAB_ROOMS_URL"), env.get("IRLAB_ROOMS_DB") or DEFAULT_DB),
                   **kwargs)

    # ------------------------------------------------------------------ limits and expiry

    def _limit(self, who: str, action: str) -> None:
        """Count one ``action`` of session ``who``; refuse it past the limit."""
        most, per = self.limits[action]
        now = self.clock()
        with self.db.transaction() as run:
            (count, oldest), = run("SELECT COUNT(*), MIN(at) FROM hits "
                                   "WHERE who = ? AND action = ? AND at > ?",
                                   (who, action, now - per))
            if count >= most:
                wait = max(1, int(oldest + per - now + 0.999))
                raise RoomError("rate", wait=wait)
            run("INSERT INTO hits (who, action, at) VALUES (?, ?, ?)", (who, action, now))

    def sweep(self) -> int:
        """Delete expired rooms (with their questions and answers), old tombstones and old
        rate-limit counts. Returns how many rooms went."""
        now = self.clock()
        with self.db.transaction() as run:
            gone = [code for code, in run("SELECT code FROM rooms WHERE expires_at <= ?", (now,))]
            for code in gone:
                self._end(run, code, "expired", now)
            run("DELETE FROM ended WHERE ended_at < ?", (now - TOMBSTONE_S,))
            run("DELETE FROM hits WHERE at < ?", (now - max(p for _, p in self.limits.values()),))
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

    def open_room(self, who: str) -> tuple[str, str]:
        """A new room: its code (for students) and its secret (for the teacher's link only)."""
        self._limit(who, "open")
        self.sweep()
        secret = secrets.token_urlsafe(SECRET_BYTES)
        now = self.clock()
        while True:
            code = new_code()
            try:
                with self.db.transaction() as run:
                    if run("SELECT 1 FROM ended WHERE code = ?", (code,)):
                        continue                 # a code that just ended is not reused
                    run("INSERT INTO rooms (code, secret_hash, created_at, expires_at) "
                        "VALUES (?, ?, ?, ?)", (code, _hash(secret), now, now + self.lifetime_s))
                return code, secret
            except self.db.integrity_error:      # taken by an open room: draw again
                continue

    def teacher(self, code: str, secret: str | None) -> Room:
        """The room, if ``secret`` is its teacher's; :class:`RoomError` ``forbidden`` if not."""
        room = self.room(code)
        (stored,), = self.db.query("SELECT secret_hash FROM rooms WHERE code = ?", (room.code,))
        if not secret or not hmac.compare_digest(stored, _hash(str(secret))):
            raise RoomError("forbidden")
        return room

    def screen(self, code: str, token: str | None) -> Room:
        """The room for its projector screen, if ``token`` is :func:`screen_token` of its
        teacher's key (the link shows what the class may see, and runs nothing)."""
        room = self.room(code)
        (stored,), = self.db.query("SELECT secret_hash FROM rooms WHERE code = ?", (room.code,))
        if not token or not hmac.compare_digest(stored, str(token)):
            raise RoomError("forbidden")
        return room

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
        rows = self.db.query("SELECT expires_at, current_question FROM rooms WHERE code = ?",
                             (code,))
        if not rows or rows[0][0] <= now:
            if rows:
                self.sweep()
            ended = self.db.query("SELECT reason FROM ended WHERE code = ?", (code,))
            if ended:
                raise RoomError(ended[0][0], code=code, hours=f"{self.lifetime_s / 3600:g}")
            raise RoomError("unknown", code=code)
        expires_at, current = rows[0]
        (members,), = self.db.query("SELECT COUNT(*) FROM members WHERE room = ?", (code,))
        posed = None
        if current is not None:
            (payload, revealed), = self.db.query(
                "SELECT payload, revealed FROM questions WHERE id = ?", (current,))
            posed = Posed(int(current), json.loads(payload), bool(revealed))
        return Room(code, float(expires_at), int(members), posed)

    def status(self, code: str) -> tuple[int | None, bool, int]:
        """What a poll needs, in one read: (current question, revealed, members); RoomError
        when the room is gone."""
        rows = self.db.query(
            "SELECT r.current_question, q.revealed, r.expires_at, "
            "(SELECT COUNT(*) FROM members m WHERE m.room = r.code) "
            "FROM rooms r LEFT JOIN questions q ON q.id = r.current_question WHERE r.code = ?",
            (code,))
        if not rows or rows[0][2] <= self.clock():
            self.room(code)                      # raises the right message
        current, revealed, _, members = rows[0]
        return (None if current is None else int(current)), bool(revealed), int(members)

    def join(self, code: str, voter: str, who: str) -> Room:
        """Student ``voter`` joins the room (counted once); rate-limited per session ``who``."""
        self._limit(who, "join")
        self.sweep()
        room = self.room(code)
        try:
            with self.db.transaction() as run:
                run("INSERT INTO members (room, voter, joined_at) VALUES (?, ?, ?)",
                    (room.code, voter, self.clock()))
        except self.db.integrity_error:
            pass                                 # joined before: fine
        return dataclasses.replace(room, members=self.status(room.code)[2])

    def answer(self, code: str, voter: str, question: int, choice: str, who: str) -> None:
        """Record ``voter``'s answer ``choice`` to ``question`` of room ``code``, once."""
        self._limit(who, "answer")
        room = self.room(code)
        posed = room.current
        if posed is None:
            raise RoomError("no_question")
        if posed.id != question or posed.revealed:
            raise RoomError("stale")
        if choice not in dict(posed.choices):
            raise RoomError("invalid")
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
