"""What a class room is, apart from its database: its code, its keys and what is seen of it.

* a room code is :data:`CODE_LENGTH` characters from :data:`ALPHABET` (no 0/O, 1/I/L), drawn
  with :mod:`secrets` (:func:`new_code`) and read as a student types it (:func:`normalise_code`);
* the teacher's key is :data:`SECRET_BYTES` random bytes; the store keeps only its
  :func:`digest`, and the projector's link carries that digest (:func:`screen_token`), which
  cannot be turned back into the key;
* :class:`Room` and :class:`Posed` are a room and its current question as the pages see them:
  no secret, no answers, only counts.

:mod:`ui.rooms.store` keeps rooms in the database with these. No Streamlit here.
"""
from __future__ import annotations

import dataclasses
import hashlib
import secrets

from ui.rooms.room_error import RoomError

#: Unambiguous on a projector and a phone keyboard: no 0/O, 1/I/L.
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
SECRET_BYTES = 24                       # 192 bits


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
    members: int                       # students admitted
    current: Posed | None
    waiting: int = 0                   # students waiting for the teacher to let them in
    class_size: int | None = None      # None: no limit but MAX_MEMBERS
    locked: bool = False


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
    ui.rooms.room_error.RoomError: A room code has 6 characters, letters and digits (no 0, 1, I, L or O). Check the code on the projector.
    """
    code = "".join(str(text or "").split()).replace("-", "").upper()
    if len(code) != CODE_LENGTH or not set(code) <= set(ALPHABET):
        raise RoomError("bad_code")
    return code


def new_secret() -> str:
    """A teacher's key: :data:`SECRET_BYTES` random bytes from ``secrets``, URL-safe."""
    return secrets.token_urlsafe(SECRET_BYTES)


def digest(text: str) -> str:
    """The SHA-256 of ``text`` in hex: what the store keeps of a key, or of a salted address.

    >>> len(digest("k")), digest("k") == digest("k") != digest("K")
    (64, True)
    """
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def screen_token(secret: str) -> str:
    """The projector link's token: the SHA-256 the store keeps of the teacher's key, so it
    cannot be turned back into the key (it opens the projector screen only).

    >>> screen_token("k") == digest("k") and screen_token("k") != "k"
    True
    """
    return digest(secret)
