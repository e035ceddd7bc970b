"""A class on the app: many sessions at the same moment behind HAProxy (two processes).

A short version of ``benchmarks/bench_classroom.py`` (no timing assertion: the timings are
printed), whose full class of 30 on one process is the benchmark's. Every session clicks twice
and drags at the same moment as the others; each must end with exactly its own actions in its
address bar, with no error. Behind the balancer
(``deploy/run_class.py``, 2 processes) sessions must spread evenly over both processes and each
session's drag and file upload must work: a session's websocket and its upload requests
reach the same process only with sticky sessions.
"""
from __future__ import annotations

import os
import shutil

import pytest

if os.environ.get("IRLAB_BROWSER_TESTS", "").lower() != "required":
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from playwright.sync_api import expect  # noqa: E402

from benchmarks.bench_classroom import class_server, report, run_class  # noqa: E402
from tests.browser.waiting import wait_for_app_run  # noqa: E402
from ui.shared.course import LESSONS  # noqa: E402

UPLOAD_TITLE = next(lesson.title for lesson in LESSONS if lesson.url_path == "upload")

pytestmark = [pytest.mark.browser, pytest.mark.serial]   # measures CPU or loads the machine


def ratings_csv(session: int) -> bytes:
    rows = [f"{session},class query {session},doc{d},{d},{(d + session) % 4},{d % 3}" for d in range(1, 6)]
    return ("queryid,query,document,position,rating_1,rating_2\n" + "\n".join(rows) + "\n").encode()


@pytest.mark.skipif(not (shutil.which("haproxy") or os.path.exists("/usr/sbin/haproxy"))
                    and os.environ.get("IRLAB_BROWSER_TESTS", "").lower() != "required",
                    reason="haproxy is not installed (apt-get install haproxy)")
def test_six_sessions_behind_haproxy_stick_to_their_process(browser):
    # six show the spread and the stickiness as twenty did (3 and 3, give or take one) at a
    # fraction of the test's time (20 took 280 s of CI's 20 minutes); bench_classroom.py runs
    # the full class of 30
    sessions = 6
    pages = []
    with class_server(2) as server:
        try:
            # two rounds of clicks (the second brings each session back to a state it had)
            # and a drag, as a class does on each process: this test also stands for one
            # process's class (an eight-session test on one process took 39 s more of CI)
            result = run_class(browser, server, sessions=sessions, rounds=2, drag=True,
                               keep_open=pages)
            report(result, 2)
            assert result.errors == []
            assert result.wrong_state == []
            assert len(result.click_painted) == sessions * 2
            assert len(result.drag_painted) == sessions
            # new browsers take turns (HAProxy's roundrobin): 3 and 3, give or take one
            spread = {name: result.server_of_session.count(name) for name in ("app1", "app2")}
            assert sum(spread.values()) == sessions, result.server_of_session
            assert abs(spread["app1"] - spread["app2"]) <= 2, (spread, server.balancer_events())

            # Uploads: every session goes on to the upload page through the sidebar (its
            # websocket stays where it is) and sends its own file there, an HTTP request that
            # must reach the same process; each sees only its own query.
            for i, page in enumerate(pages):
                # A fresh process's first sessions start in Streamlit's legacy pages/ mode, at
                # once here: each must have been brought into the course's navigation
                # (ui.shared.course.through_app_navigation), or it keeps the raw file list.
                link = page.get_by_test_id("stSidebarNav").get_by_role("link", name=UPLOAD_TITLE)
                expect(link, f"session {i}'s sidebar is not the course's").to_be_visible()
                link.click()
            for page in pages:
                page.wait_for_url("**/upload**")
                wait_for_app_run(page)
            for i, page in enumerate(pages):
                page.get_by_test_id("stFileUploaderDropzoneInput").first.set_input_files(
                    {"name": f"class_{i}.csv", "mimeType": "text/csv", "buffer": ratings_csv(i)})
            servers = set()
            for i, page in enumerate(pages):
                # the uploads were sent at once: wait for this one's result, not a quiet page
                expect(page.get_by_text(f"In use: class_{i}.csv")).to_be_visible(timeout=60_000)
                table = page.get_by_test_id("stDataFrame").first
                expect(table.get_by_text(f"class query {i}", exact=True)).to_have_count(1, timeout=30_000)
                expect(table.get_by_text("class query", exact=False)).to_have_count(1, timeout=30_000)
                expect(page.get_by_test_id("stAlertContentError")).to_have_count(0)
                servers.add({c["name"]: c["value"] for c in page.context.cookies()}["irlab_server"])
            assert servers == {"app1", "app2"}
        finally:
            for page in pages:
                page.context.close()
