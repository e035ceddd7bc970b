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
