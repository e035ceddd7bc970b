"""A throw-away PostgreSQL server for the room store's tests, from Debian's ``postgresql`` package.

``initdb`` into a temporary folder, ``pg_ctl start`` on a free port of 127.0.0.1 (trust auth,
nothing listens outside), stopped and deleted at the end. PostgreSQL refuses to run as root,
so as root it runs as the ``postgres`` user the package creates. Skipped with the reason when
the package is missing, unless ``IRLAB_POSTGRES_TESTS=required`` (``.ci/run`` sets it).
"""
from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

REQUIRED = os.environ.get("IRLAB_POSTGRES_TESTS", "").lower() == "required"


def binaries() -> Path | None:
    """The newest ``/usr/lib/postgresql/<version>/bin`` with initdb and pg_ctl, if any."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parts[4]) if Path(p).parts[4].isdigit() else 0)
    return Path(found[-1]).parent if found else None


def unavailable_reason() -> str | None:
    """Why a server cannot be started here, or None."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install -r requirements-dev.txt)"
    if binaries() is None:
        return "Debian's postgresql package is not installed (apt-get install postgresql)"
    if os.geteuid() == 0 and not shutil.which("runuser"):
        return "running as root without runuser: PostgreSQL will not start as root"
    return None


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """Start a server; yields its URL (``postgresql://postgres@127.0.0.1:<port>/postgres``)."""
    from tests.browser.helpers import free_port

    bin_dir = binaries()
    folder = Path(tempfile.mkdtemp(prefix="irlab-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data, port = folder / "data", free_port()
    run = lambda *argv: subprocess.run([*as_user, *map(str, argv)], check=True,  # noqa: E731
                                       capture_output=True, text=True, timeout=120)
    try:
        run(bin_dir / "initdb", "-D", data, "-A", "trust", "-U", "postgres", "--no-sync")
        run(bin_dir / "pg_ctl", "-D", data, "-l", folder / "log", "-w", "-t", "60", "-o",
            f"-k {folder} -p {port} -h 127.0.0.1 -c fsync=off", "start")
        try:
            yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
        finally:
            run(bin_dir / "pg_ctl", "-D", data, "-m", "immediate", "-w", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
