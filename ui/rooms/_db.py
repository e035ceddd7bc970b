"""Two small database backends with one interface: SQLite (embedded, the default) and PostgreSQL.

The room store writes its SQL once, with ``?`` placeholders; :class:`Postgres` turns them into
psycopg's ``%s``. Both give :meth:`Backend.transaction` (a write transaction that takes its lock
at once, so two app processes never interleave a read-then-write) and :meth:`Backend.query`.
No Streamlit here.
"""
from __future__ import annotations

import contextlib
import queue
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path

#: Tables of the room store. ``{id}`` is the auto-numbered key (it differs between the two).
SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    secret_hash TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL,
    current_question BIGINT,
    class_size INTEGER,
    locked INTEGER NOT NULL DEFAULT 0,
    opener TEXT
);
CREATE TABLE IF NOT EXISTS questions (
    id {id},
    room TEXT NOT NULL REFERENCES rooms(code) ON DELETE CASCADE,
    payload TEXT NOT NULL,
    revealed INTEGER NOT NULL DEFAULT 0,
    created_at DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS members (
    room TEXT NOT NULL REFERENCES rooms(code) ON DELETE CASCADE,
    voter TEXT NOT NULL,
    joined_at DOUBLE PRECISION NOT NULL,
    admitted INTEGER NOT NULL DEFAULT 1,
    client TEXT,
    UNIQUE (room, voter)
);
CREATE TABLE IF NOT EXISTS answers (
    question BIGINT NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
    voter TEXT NOT NULL,
    choice TEXT NOT NULL,
    answered_at DOUBLE PRECISION NOT NULL,
    UNIQUE (question, voter)
);
CREATE TABLE IF NOT EXISTS ended (
    code TEXT PRIMARY KEY,
    reason TEXT NOT NULL,
    ended_at DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS hits (
    who TEXT NOT NULL,
    action TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS pepper (
    one INTEGER PRIMARY KEY CHECK (one = 1),
    value TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS hits_by_who ON hits (who, action, at);
CREATE INDEX IF NOT EXISTS questions_by_room ON questions (room);
"""
#: Columns added since the first release: (table, column, its definition). A database made
#: before gets them on the first start (rooms live hours, but the file stays).
ADDED = (("rooms", "class_size", "INTEGER"),
         ("rooms", "locked", "INTEGER NOT NULL DEFAULT 0"),
         ("members", "admitted", "INTEGER NOT NULL DEFAULT 1"),
         ("members", "client", "TEXT"),
         ("rooms", "opener", "TEXT"))
#: The tables holding a room's text and its students' ids (what "deleted means gone" covers).
ROOM_TABLES = ("rooms", "questions", "members", "answers")


class Backend:
    """What the store needs from a database."""
    #: The exception a UNIQUE constraint raises.
    integrity_error: type[Exception] = Exception

    def __init__(self):
        # Open connections wait here between uses. Streamlit runs every rerun (each poll of
        # every student) in a new thread, so per-thread connections would be reopened each time.
        self._idle: queue.LifoQueue = queue.LifoQueue()

    @contextlib.contextmanager
    def _borrowed(self):
        try:
            conn = self._idle.get_nowait()
        except queue.Empty:
            conn = None
        if conn is None or getattr(conn, "closed", False):   # psycopg: the server went away
            conn = self._open()
        try:
            yield conn
        finally:
            self._idle.put(conn)

    def _open(self):
        raise NotImplementedError

    def transaction(self) -> contextlib.AbstractContextManager:
        """A write transaction: ``with db.transaction() as run: run(sql, params)``."""
        raise NotImplementedError

    def query(self, sql: str, params: Sequence = ()) -> list[tuple]:
        """Rows of one read (its own short transaction)."""
        with self.transaction() as run:
            return run(sql, params)

    def scrub(self) -> None:
        """After a delete: make the deleted rows' bytes leave the database's files."""
        raise NotImplementedError

    def _add_columns(self, run, present) -> None:
        for table, column, definition in ADDED:
            if column not in present(table):
                run(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")


class SQLite(Backend):
    """One file shared by every app process on the machine: WAL mode, a busy timeout.

    WAL lets readers (every student's poll) go on while one writer commits; ``BEGIN
    IMMEDIATE`` takes the write lock at the start of a transaction, so a transaction never
    fails half-way because another process wrote first, it waits (up to ``busy_ms``).
    One connection per thread: Streamlit runs each session's script in its own thread.
    """
    integrity_error = sqlite3.IntegrityError

    def __init__(self, path: str | Path, *, busy_ms: int = 5000):
        self.path = Path(path)
        private_file(self.path)
        self.busy_ms = busy_ms
        super().__init__()
        with self.transaction() as run:
            for statement in SCHEMA.format(id="INTEGER PRIMARY KEY").split(";"):
                if statement.strip():
                    run(statement)
            self._add_columns(run, lambda table: {
                name for name, in run("SELECT name FROM pragma_table_info(?)", (table,))})

    def _open(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=self.busy_ms / 1000,
                               isolation_level=None, check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {int(self.busy_ms)}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")     # WAL: durable at checkpoints
        conn.execute("PRAGMA foreign_keys = ON")
        # a deleted row's bytes are overwritten with zeros, not left in a free page
        conn.execute("PRAGMA secure_delete = ON")
        return conn

    @contextlib.contextmanager
    def transaction(self) -> Iterator:
        with self._borrowed() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield lambda sql, params=(): conn.execute(sql, tuple(params)).fetchall()
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def scrub(self, tries: int = 20) -> None:
        """Copy the write-ahead log into the file and empty it (``wal_checkpoint(TRUNCATE)``):
        with ``secure_delete`` the file then holds zeros where the rows were, and the log,
        which still held the rows as they were written, is cut to nothing. Another process's
        read in progress can make the checkpoint busy: it is tried again (a read is short)."""
        import time
        with self._borrowed() as conn:
            for _ in range(tries):
                busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
                if not busy:
                    return
                time.sleep(0.05)

    def query(self, sql: str, params: Sequence = ()) -> list[tuple]:
        # A plain read needs no write lock: in autocommit mode it is its own snapshot.
        with self._borrowed() as conn:
            return conn.execute(sql, tuple(params)).fetchall()


def private_file(path: Path) -> None:
    """Make ``path`` (the database file) readable by this user only: 0600, and its folder
    0700 when this creates it (or it is the default ``…/irlab`` folder, which is the app's
    own). The database holds live questions, student ids and the key hashes that open the
    projector screens; another local user must not read them. SQLite gives its ``-wal`` and
    ``-shm`` files the database file's permissions; existing ones are tightened too."""
    import os
    if str(path) == ":memory:":                  # SQLite's in-memory database: no file
        return
    folder = path.parent
    if not folder.exists():
        folder.mkdir(mode=0o700, parents=True)
    elif folder.name == "irlab" and folder.stat().st_uid == os.getuid():
        folder.chmod(0o700)
    # Created only when missing, never opened otherwise: closing any descriptor of a file
    # drops every POSIX lock this process holds on it, SQLite's included (another store in
    # this process would then share the database unlocked: "disk image is malformed").
    if not path.exists():
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600))
        except FileExistsError:
            pass
    for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        if name.exists():
            name.chmod(0o600)


class Postgres(Backend):
    """PostgreSQL through psycopg 3 (``IRLAB_ROOMS_URL=postgresql://user:pw@host/db``).

    For several machines: every app process, wherever it runs, shares the rooms. A write
    transaction locks the room's rows it reads with ``FOR UPDATE`` where the store asks for
    it; SERIALIZABLE is not needed because every rule (one answer per question, the member
    list) is a UNIQUE constraint.
    """

    def __init__(self, url: str):
        import psycopg  # only needed when a deployment asks for it
        self._psycopg = psycopg
        self.url = url
        self.integrity_error = psycopg.errors.IntegrityError
        super().__init__()
        with self.transaction() as run:
            run("SELECT pg_advisory_xact_lock(7211)")     # one process creates the tables
            for statement in SCHEMA.format(
                    id="BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY").split(";"):
                if statement.strip():
                    run(statement)
            self._add_columns(run, lambda table: {name for name, in run(
                "SELECT column_name FROM information_schema.columns WHERE table_name = ?",
                (table,))})

    def _open(self):
        return self._psycopg.connect(self.url, autocommit=True)

    @contextlib.contextmanager
    def transaction(self) -> Iterator:
        with self._borrowed() as conn:
            def run(sql, params=()):
                cursor = conn.execute(sql.replace("?", "%s"), tuple(params))
                return cursor.fetchall() if cursor.description else []
            with conn.transaction():
                yield run

    def scrub(self) -> None:
        """``VACUUM FULL`` of the room tables: PostgreSQL rewrites them into new files and
        deletes the old ones, so a deleted row is in none of the tables' files (a plain
        ``VACUUM`` only marks its space free). It locks those tables for the moment it
        takes (milliseconds: rooms are small). What it cannot reach: PostgreSQL's own
        write-ahead log (``pg_wal``) keeps the rows until the server recycles that segment
        after a checkpoint, which needs a superuser (see docs/rooms-security.md)."""
        with self._borrowed() as conn:
            conn.execute("VACUUM FULL " + ", ".join(ROOM_TABLES))


def connect(url: str | None, path: str | Path) -> Backend:
    """PostgreSQL when ``url`` is a ``postgresql://`` (or ``postgres://``) URL, else SQLite."""
    if url:
        if not url.startswith(("postgresql://", "postgres://")):
            raise ValueError("IRLAB_ROOMS_URL must start with postgresql:// "
                             f"(got a URL starting {url.split(':', 1)[0]!r})")
        return Postgres(url)
    return SQLite(path)
