"""Issue 33, section 4: nothing leaves the machine. plotly.js 3+ offers "Share chart…" (it
uploads the chart, data included, to a chart service) in every toolbar unless told not to;
no chart on any page, nor the report's, may offer it or any other sending control."""

from __future__ import annotations

import os
import re

import pytest

if os.environ.get("IRLAB_BROWSER_TESTS", "").lower() != "required":
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from playwright.sync_api import Page, expect  # noqa: E402

from tests.browser.helpers import expect_app_run, wait_for_app_idle  # noqa: E402
from ui.shared.course import LESSONS  # noqa: E402

pytestmark = pytest.mark.browser

DONE = "[data-testid='stApp'][data-test-script-state='notRunning']"
SENDING = re.compile(r"share|cloud|chart studio|edit in", re.IGNORECASE)


def toolbar_titles(page: Page) -> list[str]:
    """The titles of every Plotly toolbar button drawn (shown on hover, in the DOM always)."""
    return page.locator(".modebar-btn").evaluate_all(
        "buttons => buttons.map(b => b.getAttribute('data-title') || '')")


def test_no_toolbar_on_any_page_sends_a_chart(start_app, open_page):
    app = start_app("app.py")
    page = open_page(app.url, width=1366, height=768)
    seen = {}
    for path in [""] + [lesson.url_path for lesson in LESSONS]:
        page.goto(f"{app.url}/{path}")
        expect(page.locator(DONE)).to_be_attached(timeout=30_000)
        wait_for_app_idle(page)
        seen[path] = toolbar_titles(page)
    # the samples' comparison: two charts with toolbars (precision-recall, per-query bars)
    page.goto(f"{app.url}/upload?input=trec")
    expect(page.locator(DONE)).to_be_attached(timeout=30_000)
    with expect_app_run(page):
        page.get_by_role("button", name="Load the samples").click()
    expect(page.get_by_test_id("stPlotlyChart")).to_have_count(2, timeout=30_000)
    expect(page.locator(".modebar-btn").first).to_be_attached()
    seen["upload with samples"] = toolbar_titles(page)
    assert any("Download plot" in t for t in seen["upload with samples"]), seen
    sending = {path: [t for t in titles if SENDING.search(t)] for path, titles in seen.items()}
    assert not any(sending.values()), sending
