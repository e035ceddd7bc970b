"""Fixtures for the browser tests: one Chromium per session, apps started on demand.

Browser tests are skipped (with the reason shown) when Debian's Chromium or the
playwright package is missing, unless ``IRLAB_BROWSER_TESTS=required``, which
turns that into a loud failure (use it in CI, where Chromium must be present).
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

REQUIRED = os.environ.get("IRLAB_BROWSER_TESTS", "").lower() == "required"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "browser: drives a real Streamlit server with headless Chromium"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Anything that needs the browser is a browser test, marked or not.
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


def _unavailable(reason: str) -> None:
    if REQUIRED:
        pytest.fail(f"{reason} (IRLAB_BROWSER_TESTS=required)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser():
    """Headless Debian Chromium, shared by the whole session."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed; pip install -r requirements-dev.txt")
    from tests.browser.helpers import CHROMIUM, chromium_available, launch_browser

    if not chromium_available():
        _unavailable(
            f"Chromium not found at {CHROMIUM}; install Debian's chromium "
            "(apt-get install chromium) to run browser tests"
        )
    with sync_playwright() as pw:
        b = launch_browser(pw)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="session")
def start_app(request):
    """Factory: ``start_app("board_app.py", theme=None) -> RunningApp``.

    Servers are cached per (app, theme, args) for the session and stopped at
    its end; every test still gets its own Streamlit session by opening a new
    page (see ``open_page``).
    """
    from tests.browser.helpers import streamlit_app

    servers: dict = {}
    stack = []

    def _start(app, *, theme=None, extra_args=()):
        key = (str(app), theme, tuple(extra_args))
        if key not in servers:
            cm = streamlit_app(app, theme=theme, extra_args=extra_args)
            servers[key] = cm.__enter__()
            stack.append(cm)
        return servers[key]

    yield _start
    while stack:
        stack.pop().__exit__(None, None, None)


@pytest.fixture
def open_page(browser):
    """Factory: ``open_page(url, width=1280, height=800, ...) -> Page``; closed after the test."""
    from tests.browser.helpers import open_app

    pages = []

    def _open(url, **kwargs):
        page = open_app(browser, url, **kwargs)
        pages.append(page)
        return page

    yield _open
    for page in pages:
        page.context.close()


@pytest.fixture(scope="session")
def readme_server():
    """The app started exactly as the README says (``helpers.readme_app``), shared by the
    tests that check what a class gets from that command (test_every_page.py,
    test_offline.py); each test still opens its own sessions."""
    from tests.browser.helpers import readme_app

    with readme_app() as app:
        yield app


@pytest.fixture(scope="session")
def rooms(tmp_path_factory):
    """The app with its own rooms database, shared by the class-room tests (test_rooms.py,
    test_room_screen.py): (base URL, database path)."""
    from tests.browser.helpers import streamlit_app

    db = tmp_path_factory.mktemp("rooms") / "rooms.sqlite3"
    with contextlib.ExitStack() as server:
        # the settings reach the server's process only: set while it starts, then restored,
        # so no later test of the session (the rate-limit AppTests) runs with them
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("IRLAB_ROOMS_DB", str(db))
            mp.delenv("IRLAB_ROOMS_URL", raising=False)
            # every browser here is one client (loopback), opening a room and joining in
            # each test: the per-address limits as for a class behind one address (the
            # limits themselves: tests/test_rooms_limits.py, tests/browser/test_rooms_flood.py)
            mp.setenv("IRLAB_ROOMS_PER_ADDRESS", "20")
            app = server.enter_context(streamlit_app("app.py"))
        yield app.url, db
