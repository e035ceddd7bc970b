"""Every page works with no internet and keeps students' browsers private, started exactly as
the README says (``streamlit run app.py``, no flags: the project's ``.streamlit/config.toml``
must do it): the browser asks nothing of any host but the app's own (no usage statistics, no
CDN for scripts, fonts, pictures or the favicon), the playground's vendored plotly.js really
comes from /app/static/, and students see no Deploy button. The server itself contacts no
one either: every address it connects to, recorded with strace from its start through a
session's first run, is a loopback one.

The browser's side on every page (no request to another host, the vendored plotly.js) is
checked in the walk over every page, tests/browser/test_every_page.py, on the same server
(the ``readme_server`` fixture, tests/browser/conftest.py)."""

from __future__ import annotations

import contextlib
import ipaddress
import os
import re
import shutil
import signal
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

if os.environ.get("IRLAB_BROWSER_TESTS", "").lower() != "required":
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from playwright.sync_api import expect  # noqa: E402

from tests.browser.helpers import readme_app, wait_for_app_idle  # noqa: E402

pytestmark = pytest.mark.browser

DONE = "[data-testid='stApp'][data-test-script-state='notRunning']"


def foreign(urls: list[str], own_url: str) -> list[str]:
    own_host = urlparse(own_url).netloc
    return [url for url in urls
            if urlparse(url).scheme in ("http", "https") and urlparse(url).netloc != own_host]


def test_students_see_no_deploy_button(readme_server, open_page):
    page = open_page(readme_server.url)
    expect(page.get_by_test_id("stToolbar")).to_be_attached()
    expect(page.get_by_test_id("stAppDeployButton")).to_have_count(0)


def test_the_check_sees_usage_statistics_when_they_are_on(open_page):
    """Without the project's settings a page on 127.0.0.1 sends usage statistics to a
    third-party host and shows Deploy: what the test above and the walk over every page
    (test_every_page.py) would catch."""
    with readme_app(extra_args=["--browser.gatherUsageStats", "true",
                                "--client.toolbarMode", "auto"]) as app:
        page = open_page(app.url)
        with page.expect_request(lambda r: bool(foreign([r.url], app.url)), timeout=30_000):
            page.reload()
        expect(page.get_by_test_id("stAppDeployButton")).to_have_count(1)


# --------------------------------------------------------------------------- the server

def file_watches(pid: int) -> list[str]:
    """The process's inotify descriptors: Streamlit's file watcher (watchdog) holds one."""
    links = []
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):       # closed meanwhile
            links.append(os.readlink(f"/proc/{pid}/fd/{fd}"))
    return [link for link in links if "inotify" in link]


def test_the_server_watches_no_files(readme_server, open_page):
    """config.toml turns Streamlit's file watcher off: a session's runs do not check the
    code's modules for edits (a badge click's server CPU 6.0 -> 5.5 ms, docs/classroom.md)."""
    open_page(readme_server.url + "/playground")
    assert file_watches(readme_server.process.pid) == []


def test_the_check_sees_a_file_watcher_when_it_is_on(open_page):
    with readme_app(extra_args=["--server.fileWatcherType", "auto"]) as app:
        open_page(app.url + "/playground")
        assert file_watches(app.process.pid)


#: One traced ``connect`` call: its address family and the rest of the address.
CONNECT = re.compile(r"connect\(\d+(?:<[^>]*>)?, \{sa_family=(\w+)(.*?)\}")
IP = re.compile(r'inet_addr\("([^"]+)"\)|inet_pton\(AF_INET6, "([^"]+)"')


def foreign_connects(trace: str) -> list[str]:
    """The ``connect`` calls in an strace log that reach for another machine.

    Local sockets (AF_UNIX), disconnects (AF_UNSPEC) and loopback addresses (127.0.0.0/8,
    ::1, ::ffff:127.x) are this machine; anything else is someone else, a UDP "connect" too
    (Streamlit finds its LAN address by connecting a UDP socket to 8.8.8.8, and a DNS lookup
    starts the same way).

    >>> foreign_connects('9 connect(7, {sa_family=AF_INET, sin_port=htons(1), '
    ...                  'sin_addr=inet_addr("8.8.8.8")}, 16) = 0')
    ['AF_INET 8.8.8.8']
    >>> foreign_connects('9 connect(5, {sa_family=AF_INET, sin_port=htons(8501), '
    ...                  'sin_addr=inet_addr("127.0.0.1")}, 16) = 0')
    []
    """
    found = []
    for family, rest in CONNECT.findall(trace):
        if family in ("AF_UNIX", "AF_UNSPEC"):
            continue
        match = IP.search(rest)
        address = next(filter(None, match.groups()), "") if match else ""
        try:
            ip = ipaddress.ip_address(address)
            mapped = getattr(ip, "ipv4_mapped", None)
            if ip.is_loopback or (mapped is not None and mapped.is_loopback):
                continue
        except ValueError:
            pass                                # not an IP address: report it
        found.append(f"{family} {address or rest.strip(', ')}")
    return found


def strace_or_skip() -> str:
    found = shutil.which("strace")
    if not found:
        if os.environ.get("IRLAB_BROWSER_TESTS", "").lower() == "required":
            pytest.fail("strace is missing (apt-get install strace; .ci/run installs it)")
        pytest.skip("strace is missing: apt-get install strace")
    return found


@contextlib.contextmanager
def traced_readme_app(trace: Path, **kwargs):
    """The README's command with every ``connect`` (and ``bind``) of the server and its
    children written to ``trace``; it listens where the README's command does (every
    interface)."""
    # bind too: the server binding its port shows that the trace covers the server
    wrapper = [strace_or_skip(), "-f", "-qq", "--seccomp-bpf", "-e", "trace=connect,bind",
               "-e", "signal=none", "-o", str(trace)]
    with readme_app(wrapper=wrapper, address=None, **kwargs) as app:
        try:
            yield app
        finally:
            # strace leaves the program it started running when it is stopped itself: stop
            # the server, and strace ends with it
            tracer = app.process.pid
            children = Path(f"/proc/{tracer}/task/{tracer}/children")
            for child in (children.read_text().split() if children.exists() else ()):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(child), signal.SIGTERM)
            app.process.wait(timeout=30)


def wait_for_banner(app) -> None:
    """Until the server has printed its address banner: Streamlit builds it (and, unless
    told otherwise, looks the machine's addresses up) once it listens."""
    deadline = time.monotonic() + 30
    while "You can now view" not in app.log():
        assert app.process.poll() is None, app.log()
        assert time.monotonic() < deadline, f"no address banner in 30 s:\n{app.log()}"
        time.sleep(0.1)       # a process's output sends no event: read its log again


def test_the_server_contacts_no_one(open_page, tmp_path):
    trace = tmp_path / "connect.log"
    with traced_readme_app(trace) as app:
        page = open_page(app.url)                       # the session's first run
        page.goto(f"{app.url}/playground")
        expect(page.locator(DONE)).to_be_attached(timeout=30_000)
        wait_for_app_idle(page)
        expect(page.locator(".lc-tile-value").first).to_be_visible()
        wait_for_banner(app)
    log = trace.read_text()
    assert f"sin6_port=htons({app.port})" in log or f"sin_port=htons({app.port})" in log, \
        f"the trace does not show the server binding its port:\n{log[:2000]}"
    assert foreign_connects(log) == []


def test_the_check_sees_the_external_ip_lookup(tmp_path):
    """Without the project's settings the same command asks a third-party host for the
    machine's public address at start (Streamlit's "External URL"): what the test above
    would catch. A bare app in a folder without .streamlit/config.toml."""
    app_dir = tmp_path / "bare"
    app_dir.mkdir()
    (app_dir / "app.py").write_text("import streamlit as st\nst.write('hello')\n")
    trace = tmp_path / "connect.log"
    with traced_readme_app(trace, cwd=app_dir) as app:
        wait_for_banner(app)
    assert foreign_connects(trace.read_text()) != []
