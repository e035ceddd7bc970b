"""A lecturer's trip through the course in one browser session: change something on every
page, go everywhere else (sidebar, Home, Back) and come back: no error, the same state, and
the address bar a link that reopens it; after a reload the sidebar brings each page back as
this tab left it."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import board_card, wait_for_app_run
from ui.shared.course import HOME, LESSONS

pytestmark = pytest.mark.browser


def nav(page, title: str) -> None:
    """Go to a page through the sidebar, as a person would."""
    page.get_by_test_id("stSidebarNav").get_by_role("link", name=title).click()
    wait_for_app_run(page)


def no_error(page) -> None:
    expect(page.get_by_test_id("stException")).to_have_count(0)
    expect(page.get_by_test_id("stApp")).to_have_attribute("data-test-script-state", "notRunning")


#: lesson url path -> (what a learner does there, the parameter it leaves in the address bar)
def _badge(page):
    board_card(page, rank=1).locator(".rb-badge").click()


def _segment(label):
    return lambda page: page.get_by_test_id("stButtonGroup").get_by_text(label, exact=True).click()


def _tab(label):
    return lambda page: page.get_by_role("tab", name=label).click()


def _radio(label):
    return lambda page: page.get_by_test_id("stRadio").get_by_text(label, exact=True).click()


CHANGES = {
    "playground": (_badge, "labels=11011010"),
    "mrr_map": (_badge, "labels1=11011010"),
    "ndcg": (_segment("2^grade − 1"), "gain=exponential"),
    "choosing": (_tab("Ranking 3"), "tab=Ranking+3"),
    "libraries": (_tab("ranx"), "library=ranx"),
    "beyond": (lambda page: page.get_by_text("Log scale for cost").click(), "log=0"),
    "upload": (_radio("TREC qrels + runs"), "input=trec"),
}


def test_a_lecturer_moves_around_and_nothing_is_lost(start_app, open_page, browser):
    app = start_app("app.py")
    page = open_page(app.url, width=1366, height=768)
    titles = {lesson.url_path: lesson.title for lesson in LESSONS}
    for path, (change, param) in CHANGES.items():
        nav(page, titles[path])
        no_error(page)
        change(page)
        expect(page).to_have_url(re.compile(re.escape(param)))
        no_error(page)
    # One more round, after Home: between its change and its check every page has been away
    # to every other lesson and Home. (Every ordered pair of pages is AppTest's job:
    # tests/test_navigation.py; here one round shows the browser keeps what Python keeps.)
    nav(page, HOME.title)
    no_error(page)
    for path, (_, param) in CHANGES.items():
        nav(page, titles[path])
        no_error(page)
        expect(page).to_have_url(re.compile(f"/{path}\\?.*{re.escape(param)}"))

    # Back steps through pages (not through drags), and each page comes back as it was.
    nav(page, titles["ndcg"])
    nav(page, titles["beyond"])
    page.go_back()
    expect(page).to_have_url(re.compile(r"/ndcg\?.*gain=exponential"))
    wait_for_app_run(page)
    no_error(page)
    expect(page.get_by_test_id("stButtonGroup").first.locator("[aria-checked=true], "
                                                              "[aria-pressed=true]").first
           ).to_contain_text("2^grade")

    # A reload starts a new session, and Streamlit's sidebar links carry no query: each page
    # comes back from the address this tab kept for it (sessionStorage), not its defaults.
    link = page.url
    nav(page, titles["choosing"])
    page.reload()
    wait_for_app_run(page)
    no_error(page)
    for path in ("playground", "ndcg", "libraries"):
        nav(page, titles[path])
        no_error(page)
        expect(page).to_have_url(re.compile(f"/{path}\\?.*{re.escape(CHANGES[path][1])}"))
    nav(page, titles["playground"])                     # the board itself, not only its link
    expect(board_card(page, rank=1).locator(".rb-badge")).to_have_text(re.compile("✓"))

    # A colleague opens the address bar's link in a fresh browser: the same page. Their tab
    # kept nothing, so the sidebar opens the other pages at their defaults.
    other = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        shared = other.new_page()
        shared.goto(link)
        expect(shared.locator("[data-testid='stApp'][data-test-script-state='notRunning']")
               ).to_be_attached(timeout=30_000)
        expect(shared).to_have_url(re.compile(r"gain=exponential"))
        no_error(shared)
        expect(shared.get_by_test_id("stAlert")).to_have_count(0)      # no bad-link notice
        nav(shared, titles["playground"])
        expect(shared).to_have_url(re.compile(r"/playground"))
        wait_for_app_run(shared)
        no_error(shared)
        expect(shared).not_to_have_url(re.compile(re.escape(CHANGES["playground"][1])))
        expect(board_card(shared, rank=1).locator(".rb-badge")).to_have_text(re.compile("✗"))
    finally:
        other.close()
