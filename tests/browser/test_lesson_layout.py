"""The lessons whole at every size, in a real Chromium against the real app (app.py): nothing
cut, nothing covering what a learner is looking at (bounding boxes, not pixels)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import wait_until
from ui.course import LESSONS

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


def test_lesson_3s_controls_are_whole_on_a_laptop(app_url, open_page):
    page = open_page(app_url + "/ndcg", width=1366, height=768)
    control = page.get_by_test_id("stButtonGroup").filter(has_text="Ideal ranking from")
    options = control.get_by_role("radio")
    expect(options).to_have_count(2)
    for option in options.all():
        box = option.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 1366, box
        assert option.evaluate(SHOWN_WHOLE_JS), option.inner_text()
        assert option.evaluate(CUT_TEXT_JS) == [], option.inner_text()
