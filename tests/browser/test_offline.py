"""Every page works with no internet and keeps students' browsers private, started exactly as
the README says (``streamlit run app.py``, no flags: the project's ``.streamlit/config.toml``
must do it): the browser asks nothing of any host but the app's own (no usage statistics, no
CDN for scripts, fonts, pictures or the favicon), the playground's vendored plotly.js really
comes from /app/static/, and students see no Deploy button."""

from __future__ import annotations

import os
from urllib.parse import urlparse

import pytest

if os.environ.get("IRLAB_BROWSER_TESTS", "").lower() != "required":
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from playwright.sync_api import expect  # noqa: E402

from tests.browser.helpers import readme_app, wait_for_app_idle, wait_for_assets  # noqa: E402
from ui.course import LESSONS  # noqa: E402

pytestmark = pytest.mark.browser

DONE = "[data-testid='stApp'][data-test-script-state='notRunning']"


def foreign(urls: list[str], own_url: str) -> list[str]:
    own_host = urlparse(own_url).netloc
    return [url for url in urls
            if urlparse(url).scheme in ("http", "https") and urlparse(url).netloc != own_host]


@pytest.fixture(scope="module")
def readme_server():
    with readme_app() as app:
        yield app


def test_no_page_asks_another_host(readme_server, open_page):
    app = readme_server
    page = open_page(app.url)
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    for path in [""] + [lesson.url_path for lesson in LESSONS]:
        page.goto(f"{app.url}/{path}")
        expect(page.locator(DONE)).to_be_attached(timeout=30_000)
        wait_for_app_idle(page)                     # the page's run drawn, its components too
        wait_for_assets(page)                       # late requests: fonts, pictures
    assert foreign(requested, app.url) == []
    assert any("/app/static/vendor/plotly/plotly-basic.min.js" in url for url in requested)


def test_students_see_no_deploy_button(readme_server, open_page):
    page = open_page(readme_server.url)
    expect(page.get_by_test_id("stToolbar")).to_be_attached()
    expect(page.get_by_test_id("stAppDeployButton")).to_have_count(0)


def test_the_check_sees_usage_statistics_when_they_are_on(open_page):
    """Without the project's settings a page on 127.0.0.1 sends usage statistics to a
    third-party host and shows Deploy: what the two tests above would catch."""
    with readme_app(extra_args=["--browser.gatherUsageStats", "true",
                                "--client.toolbarMode", "auto"]) as app:
        page = open_page(app.url)
        with page.expect_request(lambda r: bool(foreign([r.url], app.url)), timeout=30_000):
            page.reload()
        expect(page.get_by_test_id("stAppDeployButton")).to_have_count(1)
