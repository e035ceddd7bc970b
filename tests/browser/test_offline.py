"""Every page works with no internet: the browser asks nothing of any host but the app's own
(no CDN for scripts, fonts, pictures or the favicon), and the playground's vendored
plotly.js really comes from /app/static/."""

from __future__ import annotations

import os
from urllib.parse import urlparse

import pytest

if os.environ.get("IRLAB_BROWSER_TESTS", "").lower() != "required":
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from playwright.sync_api import expect  # noqa: E402

from ui.course import LESSONS  # noqa: E402

pytestmark = pytest.mark.browser


def test_no_page_asks_another_host(start_app, open_page):
    app = start_app("app.py")
    own_host = urlparse(app.url).netloc
    page = open_page(app.url)
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    for path in [""] + [lesson.url_path for lesson in LESSONS]:
        page.goto(f"{app.url}/{path}")
        expect(page.locator("[data-testid='stApp'][data-test-script-state='notRunning']")
               ).to_be_attached(timeout=30_000)
        page.wait_for_timeout(1500)                 # late requests: favicon, fonts, charts
    foreign = [url for url in requested
               if urlparse(url).scheme in ("http", "https") and urlparse(url).netloc != own_host]
    assert foreign == []
    assert any("/app/static/vendor/plotly/plotly-basic.min.js" in url for url in requested)
