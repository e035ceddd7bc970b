"""Run one page under AppTest the way every page test does: URL and state in, run, no exception."""
from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]


def run_page(name: str, *, query: dict | None = None, session: dict | None = None,
             timeout: int = 30) -> AppTest:
    """``pages/<name>.py`` run once with ``query`` as URL parameters and ``session`` set."""
    at = AppTest.from_file(str(ROOT / "pages" / f"{name}.py"), default_timeout=timeout)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    for key, value in (session or {}).items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, at.exception
    return at
