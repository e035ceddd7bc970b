"""The lessons whole at every size, in a real Chromium against the real app (app.py): nothing
cut, nothing covering what a learner is looking at (bounding boxes, not pixels)."""
from __future__ import annotations

import contextlib
from urllib.parse import unquote_plus

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from tests.browser.helpers import expect_app_run, wait_for_app_run, wait_for_assets, wait_until
from ui.shared.course import LESSONS

pytestmark = pytest.mark.browser

PHONE = dict(width=390, height=844, is_mobile=True, has_touch=True, device_scale_factor=2)

#: Elements under ``root`` that cut their own text (an ellipsis, or hidden overflow).
CUT_TEXT_JS = """(root) => [...root.querySelectorAll('*')]
  .filter(e => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
  .map(e => e.textContent)"""


@pytest.fixture(scope="module")
def app_url(start_app, browser) -> str:
    return start_app("app.py").url


def test_the_course_list_is_whole_on_a_phone(app_url, open_page):
    page = open_page(app_url, **PHONE)
    links = page.get_by_test_id("stPageLink-NavLink").filter(has_text=" — ")
    expect(links).to_have_count(len(LESSONS))
    for link in links.all():
        box = link.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        assert link.evaluate(CUT_TEXT_JS) == [], link.inner_text()


def test_a_lessons_previous_and_next_are_whole_on_a_phone(app_url, open_page):
    """The longest neighbour's title (Lesson 8's, linked from Lesson 9) wraps, not cut."""
    page = open_page(app_url + "/judgments", **PHONE)
    link = page.get_by_test_id("stPageLink-NavLink").filter(has_text="Previous: 8.")
    expect(link).to_be_visible()
    assert link.evaluate(CUT_TEXT_JS) == [], link.inner_text()
    box = link.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box


def test_lesson_4s_winners_are_under_k_on_a_phone(app_url, open_page):
    """Moving K on a phone, the table of winners it changes is on the same screen (the
    boards, a screen tall, come after it)."""
    page = open_page(app_url + "/choosing", **PHONE)
    slider = page.get_by_test_id("stSlider").filter(has_text="K — how many results")
    table = page.get_by_test_id("stTable").first
    expect(table).to_contain_text("P@2")
    boxes = [slider.bounding_box(), table.bounding_box()]
    assert all(0 <= b["y"] and b["y"] + b["height"] <= 844 for b in boxes), boxes


def overlaps(a: dict, b: dict) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


@pytest.mark.parametrize("width, height", [(1366, 768), (1920, 1080)])
def test_lesson_2s_pinned_means_leave_with_the_boards(app_url, open_page, width, height):
    """MRR and MAP stay pinned over the three boards (tests/browser/test_one_screen.py), and
    go with them: the band is pinned only inside a box that ends above "Why MRR ignores…",
    and scrolled down to it, the band covers none of it."""
    page = open_page(app_url + "/mrr_map", width=width, height=height)
    heading = page.get_by_role("heading", name="Why MRR ignores everything after the first hit")
    demo = page.locator(".st-key-mm_ten")
    band = page.locator(".st-key-mm_top")
    expect(demo.get_by_test_id("stMetric")).to_have_count(4)
    # a sticky element is pinned only while the box around it is on screen
    pinned_within = band.evaluate(
        "b => b.parentElement.parentElement.getBoundingClientRect().bottom")
    assert pinned_within <= heading.bounding_box()["y"]
    # the heading just under the header bar (3.75 rem), or as far up as the page scrolls
    heading.evaluate("h => { const main = document.querySelector('[data-testid=stMain]');"
                     " main.scrollTop += h.getBoundingClientRect().top - 64; }")

    def check() -> None:
        shown = {"heading": heading.bounding_box(), "demo": demo.bounding_box()}
        covered = band.bounding_box()
        assert not any(overlaps(covered, box) for box in shown.values()), (covered, shown)

    wait_until(page, check)


#: Whether the point just inside each edge of ``el``'s box shows ``el`` itself (not clipped by
#: its column, not covered by another element).
SHOWN_WHOLE_JS = """(el) => { const b = el.getBoundingClientRect(), y = b.top + b.height / 2;
  return [b.left + 2, b.right - 2].every(x => el.contains(document.elementFromPoint(x, y))); }"""


def test_lesson_3s_controls_whole_and_curves_in_view_on_a_laptop(app_url, open_page):
    """At 1366 x 768 both "Ideal ranking from" options are whole, and with fewer results
    shown (the board grows by its FN marks) the numbers and both charts stay on screen."""
    page = open_page(app_url + "/ndcg", width=1366, height=768)
    control = page.get_by_test_id("stButtonGroup").filter(has_text="Ideal ranking from")
    options = control.get_by_role("radio")
    expect(options).to_have_count(2)
    for option in options.all():
        box = option.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 1366, box
        assert option.evaluate(SHOWN_WHOLE_JS), option.inner_text()
        assert option.evaluate(CUT_TEXT_JS) == [], option.inner_text()

    thumb = page.get_by_test_id("stSlider").filter(has_text="Results shown").get_by_role("slider")
    thumb.focus()
    with expect_app_run(page):
        for _ in range(4):
            thumb.press("ArrowLeft")
    expect(thumb).to_have_value("4")
    charts = page.get_by_test_id("stPlotlyChart")
    wait_for_app_run(page)         # four key presses may ask for more than the one run
    expect(charts).to_have_count(2)
    expect(page.locator(".rb-outcome").filter(has_text="FN")).not_to_have_count(0)
    # read at once in the page: a rerun's chart may come and go between two locator calls
    shown = page.evaluate("""() => [
        ...document.querySelectorAll('[data-testid=stPlotlyChart]'),
        ...[...document.querySelectorAll('[data-testid=stMetric]')].slice(0, 4)
    ].map((e) => { const b = e.getBoundingClientRect(); return {y: b.y, height: b.height}; })""")
    assert len(shown) == 6 and all(b["y"] >= 0 and b["y"] + b["height"] <= 768
                                   for b in shown), shown


#: The boxes of the names written beside a chart's points, and of its points.
POINT_NAMES_JS = """(chart) => {
  const box = (e) => { const b = e.getBoundingClientRect();
                       return {x: b.x, y: b.y, width: b.width, height: b.height}; };
  return {names: [...chart.querySelectorAll('.textpoint text')].filter(t => t.textContent)
                   .map(t => ({text: t.textContent, box: box(t)})),
          points: [...chart.querySelectorAll('.scatterlayer .point')].map(box)};
}"""


#: The data editor's cell editor has the focus (an input outside the page's own widgets).
EDITING_JS = """() => { const e = document.activeElement;
  return e && e.tagName === 'INPUT' && !e.closest('[data-testid=stNumberInput]'); }"""


def open_cell_editor(page, editor, *, down: int, right: int, showing: str) -> None:
    """Open the editor of the data editor's cell ``down`` rows below the first and ``right``
    columns right of the first, and check that it is the one that shows ``showing``. The
    grid is a canvas: a click that lands while the page still moves, or an Enter the grid
    lets pass, selects another cell, so each try checks the cell it opened."""
    opened = None
    for _ in range(3):
        box = editor.bounding_box()
        page.mouse.click(box["x"] + 60, box["y"] + 35 + 17)    # row 1's name (35 px rows)
        for key in ["ArrowDown"] * down + ["ArrowRight"] * right:
            page.keyboard.press(key)
        page.keyboard.press("Enter")
        with contextlib.suppress(PlaywrightTimeoutError):
            page.wait_for_function(EDITING_JS, timeout=3_000)
            opened = page.evaluate("() => document.activeElement.value")
            if opened == showing:
                return
        page.keyboard.press("Escape")
    raise AssertionError(f"the cell showing {showing} did not open its editor (last: {opened})")


def test_lesson_6s_names_stay_apart_after_an_edit(app_url, open_page):
    """The names written beside the points cover no other name and no point: as the lesson
    opens, and after an edit that crowds two systems on the frontier, on a laptop and in a
    phone's width."""
    page = open_page(app_url + "/beyond", width=1366, height=768)
    editor = page.get_by_test_id("stDataFrame").first
    chart = page.get_by_test_id("stPlotlyChart").first
    expect(chart.locator(".textpoint text").first).to_be_attached()
    wait_for_assets(page)                     # the fonts: the page moves no more under the mouse

    def check() -> None:
        found = chart.evaluate(POINT_NAMES_JS)
        names, points = found["names"], found["points"]
        assert len(names) >= 4 and len(points) == 6, found
        clashes = [(a["text"], b["text"]) for i, a in enumerate(names) for b in names[i + 1:]
                   if overlaps(a["box"], b["box"])]
        clashes += [(a["text"], p) for a in names for p in points if overlaps(a["box"], p)]
        assert not clashes, clashes

    wait_until(page, check)                   # the illustrative rows, as the lesson opens
    # "dense bi-encoder" (row 3) from MRR@10 0.33 to 0.38: on the frontier, beside two others
    editor.scroll_into_view_if_needed()
    open_cell_editor(page, editor, down=2, right=1, showing="0.33")
    page.keyboard.press("Control+a")
    page.keyboard.type("0.38", delay=30)
    page.wait_for_function("() => document.activeElement.value === '0.38'")
    with expect_app_run(page):
        page.keyboard.press("Enter")
    expect(chart.get_by_text("Your numbers")).to_be_attached()
    assert '"dense bi-encoder",0.38,' in unquote_plus(page.url)   # the edit is in the link

    wait_until(page, check)
    page.set_viewport_size({"width": 390, "height": 844})
    wait_until(page, lambda: chart.evaluate("c => c.getBoundingClientRect().width") < 390)
    wait_until(page, check)
