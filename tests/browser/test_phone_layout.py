"""Long formulas on a 390 × 844 phone, in a real Chromium against the real app (app.py): the
page never scrolls sideways; a formula too wide for the page scrolls inside its own box and
fades out at the edge where it goes on; one that fits is left alone."""

from __future__ import annotations

import os

import pytest

if os.environ.get("IRLAB_BROWSER_TESTS", "").lower() != "required":
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from playwright.sync_api import Page  # noqa: E402

from tests.browser.helpers import swipe, wait_until  # noqa: E402

pytestmark = pytest.mark.browser

PHONE = dict(width=390, height=844, is_mobile=True, has_touch=True, device_scale_factor=2)
FORMULA = ":is([data-testid='stMarkdown'], .fm-formula) .katex-display"
#: Each formula's box and whether its content is wider than the box.
FORMULAS_JS = f"""() => [...document.querySelectorAll("{FORMULA}")].map(d => {{
  const box = d.getBoundingClientRect(), style = getComputedStyle(d);
  return {{left: box.left, right: box.right, too_wide: d.scrollWidth > d.clientWidth,
           scrolls: ["auto", "scroll"].includes(style.overflowX), fade: style.maskImage}};
}})"""


@pytest.fixture(scope="module")
def app_url(start_app, browser) -> str:
    return start_app("app.py").url


def open_on_phone(open_page, url: str, formulas: int) -> Page:
    page = open_page(url, **PHONE)
    page.locator(FORMULA).nth(formulas - 1).wait_for()     # KaTeX renders after the run
    return page


def page_width(page: Page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth")


@pytest.mark.parametrize("path, formulas", [("/playground?metric=AP", 1), ("/mrr_map", 8),
                                            ("/ndcg", 6)])
def test_long_formulas_stay_inside_the_page(app_url, open_page, path, formulas):
    page = open_on_phone(open_page, app_url + path, formulas)

    def check() -> None:
        assert page_width(page) <= 390
        shown = page.evaluate(FORMULAS_JS)
        assert any(f["too_wide"] for f in shown)       # the case this test is about
        for f in shown:
            assert 0 <= f["left"] and f["right"] <= 390, f
            if f["too_wide"]:
                assert f["scrolls"] and f["fade"] != "none", f
            else:
                assert f["fade"] == "none", f          # a formula that fits is not faded

    wait_until(page, check, timeout_ms=5_000)          # the fade follows layout by a frame


def test_a_swipe_scrolls_the_formula_not_the_page(app_url, open_page):
    page = open_on_phone(open_page, app_url + "/mrr_map", 8)
    page.get_by_text("How each query's RR and AP are made").click()   # the formulas' expander
    page.locator(FORMULA).first.wait_for()
    index = next(i for i, f in enumerate(page.evaluate(FORMULAS_JS)) if f["too_wide"])
    formula = page.locator(FORMULA).nth(index)
    formula.scroll_into_view_if_needed()
    box = formula.bounding_box()
    y = box["y"] + box["height"] / 2
    swipe(page, [(box["x"] + box["width"] - 10 - 20 * i, y) for i in range(12)])
    wait_until(page, lambda: formula.evaluate("d => d.scrollLeft") > 0, timeout_ms=5_000)
    assert page.evaluate("() => window.scrollX") == 0 and page_width(page) <= 390
    wait_until(page, lambda: "to right" in formula.evaluate(
        "d => getComputedStyle(d).maskImage"), timeout_ms=5_000)     # now the left edge fades


def test_desktop_formulas_keep_their_size_and_no_fade(app_url, open_page):
    page = open_page(app_url + "/playground?metric=DCG", width=1280, height=800)
    page.locator(FORMULA).first.wait_for()
    (formula,) = page.evaluate(FORMULAS_JS)
    assert not formula["too_wide"] and formula["fade"] == "none"
    assert page.locator(f"{FORMULA} > .katex").evaluate(
        "k => getComputedStyle(k).fontSize") == "19.36px"      # KaTeX's 1.21em of 16px


#: Each visible static table (and the phone's turned copies): its box's width and its content's.
TABLES_JS = """() => [...document.querySelectorAll(
    "[data-testid=stTable], [class*='_phone'] table")].filter(t => t.offsetParent)
  .map(t => { const inner = t.querySelector('table') || t;
              return [t.innerText.slice(0, 30), t.clientWidth, inner.scrollWidth]; })"""


@pytest.mark.parametrize("path, tables", [("/libraries", 2), ("/beyond", 2)])
def test_lessons_5_and_6_tables_read_on_a_phone_without_a_sideways_scroll(
        app_url, open_page, path, tables):
    """Issue 35: Lesson 5's tables of libraries and Lesson 6's verdicts and "Walking up the
    frontier" scrolled sideways in their grids at 390 px. A phone gets the cells turned (Lesson
    5) or wrapping (Lesson 6): every table fits its box, the page does not scroll sideways."""
    page = open_page(app_url + path, **PHONE)
    wait_until(page, lambda: len(page.evaluate(TABLES_JS)) >= tables, timeout_ms=25_000)
    wide = [(text, box, content) for text, box, content in page.evaluate(TABLES_JS)
            if content > box + 1]
    assert wide == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    if path == "/beyond":           # the names on the chart read with their spaces
        names = page.evaluate("() => [...document.querySelectorAll('.textpoint text')]"
                              ".map(t => t.textContent)")
        assert "dense bi-encoder" in names, names
