"""Every page of the app, visited once per colour scheme, with every check that applies to
every page, on the app started exactly as the README says (``streamlit run app.py``, no
flags; the ``readme_server`` fixture):

- accessibility: axe-core finds no serious or critical violation, in the light and the dark
  theme (the rule, its exceptions and the proof that the check can fail:
  tests/browser/test_accessibility.py);
- nothing leaves the machine (issue 33, section 4): plotly.js 3+ offers "Share chart…" (it
  uploads the chart, data included, to a chart service) in every toolbar unless told not to;
  no chart on any page, nor the report's (the upload page with the samples loaded), may offer
  it or any other sending control;
- privacy and no internet: the browser asks nothing of any host but the app's own (no usage
  statistics, no CDN for scripts, fonts, pictures or the favicon), and the playground's
  vendored plotly.js really comes from /app/static/ (the server's side, the Deploy button and
  the proof that the check can fail: tests/browser/test_offline.py).

One walk per scheme instead of one per check: each page is loaded, drawn and waited for once
(the walks were the slowest browser tests). Every check runs on every page of each walk; the
report's toolbars (one more page with its samples loaded) are checked in the light walk (the
toolbars' buttons are the same in both schemes). What any check found is reported together,
by check and by page.
"""
from __future__ import annotations

import os
import re

import pytest

if os.environ.get("IRLAB_BROWSER_TESTS", "").lower() != "required":
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from playwright.sync_api import Page, expect  # noqa: E402

from tests.browser.helpers import (  # noqa: E402
    NET_SPY,
    TIMEOUT_MS,
    expect_app_run,
    wait_for_app_idle,
    wait_for_app_loaded,
    wait_for_assets,
)
from tests.browser.test_accessibility import serious_violations  # noqa: E402
from tests.browser.test_offline import foreign  # noqa: E402
from ui.shared.course import LESSONS  # noqa: E402

pytestmark = pytest.mark.browser

DONE = "[data-testid='stApp'][data-test-script-state='notRunning']"
#: A Plotly toolbar button that sends a chart somewhere.
SENDING = re.compile(r"share|cloud|chart studio|edit in", re.IGNORECASE)
PLOTLY_VENDORED = "/app/static/vendor/plotly/plotly-basic.min.js"


def toolbar_titles(page: Page) -> list[str]:
    """The titles of every Plotly toolbar button drawn (shown on hover, in the DOM always)."""
    return page.locator(".modebar-btn").evaluate_all(
        "buttons => buttons.map(b => b.getAttribute('data-title') || '')")


def open_and_settle(page: Page, url: str, path: str) -> None:
    """The page's run ended and drawn, its components drawn too (the board, the live charts
    draw after the run ends), its fonts and pictures loaded (late requests)."""
    page.goto(url)
    wait_for_app_loaded(page)
    expect(page.locator(DONE)).to_be_attached(timeout=30_000)
    wait_for_app_idle(page)
    page.locator("[data-testid='stMainBlockContainer']").wait_for()
    if path == "playground":
        page.locator(".lc-tile-value").first.wait_for()
        page.locator(".rb-card").first.wait_for()
    wait_for_assets(page)


def test_the_checks_see_the_sending_controls():
    """The toolbar rule matches plotly.js's sending buttons, and none of its own others."""
    for title in ("Share chart…", "Edit in Chart Studio", "Save to cloud"):
        assert SENDING.search(title), title
    for title in ("Download plot as a png", "Zoom in", "Zoom out", "Autoscale", "Pan",
                  "Reset axes", "Box Select", "Lasso Select"):
        assert not SENDING.search(title), title


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_is_accessible_and_sends_nothing_elsewhere(scheme, readme_server, browser):
    app = readme_server
    # open_app's context and page, listened to before their first request: the walk's first
    # page (Home) is loaded once, and its first load is in the requests too
    context = browser.new_context(viewport={"width": 1366, "height": 768}, color_scheme=scheme)
    try:
        walk(app, context, scheme)
    finally:
        context.close()


def walk(app, context, scheme: str) -> None:
    context.add_init_script(NET_SPY)
    visiting = ["home"]
    requested: list[tuple[str, str]] = []           # (page, URL), every request of the walk
    context.on("request", lambda request: requested.append((visiting[0], request.url)))
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    violations, toolbars = {}, {}
    for path in [""] + [lesson.url_path for lesson in LESSONS]:
        name = visiting[0] = path or "home"
        open_and_settle(page, f"{app.url}/{path}", path)
        toolbars[name] = toolbar_titles(page)
        found = serious_violations(page)
        if found:
            violations[name] = found
    if scheme == "light":
        # the samples' comparison: two charts with toolbars (precision-recall, per-query bars)
        visiting[0] = "upload with samples"
        page.goto(f"{app.url}/upload?input=trec")
        expect(page.locator(DONE)).to_be_attached(timeout=30_000)
        with expect_app_run(page):
            page.get_by_role("button", name="Load the samples").click()
        expect(page.get_by_test_id("stPlotlyChart")).to_have_count(2, timeout=30_000)
        expect(page.locator(".modebar-btn").first).to_be_attached()
        wait_for_app_idle(page)
        wait_for_assets(page)
        toolbars["upload with samples"] = toolbar_titles(page)
        assert any("Download plot" in t for t in toolbars["upload with samples"]), toolbars

    elsewhere: dict[str, list[str]] = {}
    for name, url in requested:
        if foreign([url], app.url):
            elsewhere.setdefault(name, []).append(url)
    sending = {name: [t for t in titles if SENDING.search(t)] for name, titles in toolbars.items()}
    found = {"axe-core's serious or critical violations": violations,
             "toolbar buttons that send a chart": {k: v for k, v in sending.items() if v},
             "requests to another host": elsewhere}
    assert {check: pages for check, pages in found.items() if pages} == {}
    assert any(PLOTLY_VENDORED in url for _, url in requested)
