"""The recommenders lesson in Chromium: each trap's controls and result on one laptop screen,
nothing cut off on a phone, no serious accessibility violation, and a changed setting kept
across the sidebar and Back."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import wait_for_app_run
from tests.browser.test_accessibility import serious_violations
from ui.shared.course import LESSONS
from ui.lessons.recommenders import TRAPS

pytestmark = pytest.mark.browser

TITLES = {lesson.url_path: lesson.title for lesson in LESSONS}
MAIN = "[data-testid='stMain']"


def pick_trap(page, trap: str) -> None:
    page.get_by_test_id("stButtonGroup").first.get_by_text(TRAPS[trap], exact=True).click()
    wait_for_app_run(page)
    expect(page).to_have_url(re.compile(f"trap={trap}"))


def outside(page, width: int, height: int, *, charts: bool = True) -> dict[str, list]:
    """What must be in view and is not: the trap's controls, charts (those not behind an
    expander's click), tables and insight."""
    parts = {"controls": "[data-testid='stMainBlockContainer'] [data-testid='stButtonGroup'], "
                         "[data-testid='stMainBlockContainer'] [data-testid='stSlider']",
             "tables": "[data-testid='stTable']", "insight": "[data-testid='stAlert']"}
    if charts:
        parts["charts"] = ".stPlotlyChart:not([data-testid='stExpander'] *)"
    else:                                    # the chart is a click away: its expander shows
        parts["expander"] = "[data-testid='stExpander'] summary"
    if page.get_by_test_id("stMetric").count():         # the split's leak
        parts["leak"] = "[data-testid='stMetric']"
    found = {}
    for name, selector in parts.items():
        boxes = [b for b in (e.bounding_box() for e in page.locator(selector).all()) if b]
        assert boxes, name
        found[name] = [b for b in boxes if not (b["x"] >= 0 and b["y"] >= 0 and
                                                b["x"] + b["width"] <= width + 0.5 and
                                                b["y"] + b["height"] <= height + 0.5)]
    return {name: boxes for name, boxes in found.items() if boxes}


def test_each_trap_fits_one_laptop_screen_and_passes_axe(start_app, open_page):
    width, height = 1366, 768
    app = start_app("app.py")
    page = open_page(app.url + "/recommenders", width=width, height=height)
    for trap in TRAPS:
        if trap != "split":
            pick_trap(page, trap)
        # each trap's first chart or table (trap 3's chart is a click away, in an expander)
        page.locator(".stPlotlyChart .main-svg:visible, [data-testid=stTable]").first.wait_for()
        assert outside(page, width, height, charts=trap != "popularity") == {}, trap
        assert page.evaluate(f"() => document.querySelector(\"{MAIN}\").scrollTop") == 0
        assert serious_violations(page) == [], trap


def test_a_phone_sees_every_option_and_nothing_wider_than_the_screen(start_app, open_page):
    app = start_app("app.py")
    page = open_page(app.url + "/recommenders", width=390, height=844, is_mobile=True,
                     has_touch=True, device_scale_factor=2)
    for trap in TRAPS:
        if trap != "split":
            pick_trap(page, trap)
        wider = page.evaluate("""() => [...document.querySelectorAll(
                '[data-testid=stMainBlockContainer] button, [data-testid=stTable]')]
              .map(e => e.getBoundingClientRect())
              .filter(r => r.width && (r.left < 0 || r.right > window.innerWidth + 0.5)).length""")
        assert wider == 0, trap


def test_a_setting_survives_the_sidebar_and_back(start_app, open_page):
    app = start_app("app.py")
    page = open_page(app.url + "/recommenders", width=1366, height=768)
    pick_trap(page, "sampled")
    slider = page.get_by_test_id("stSlider").filter(has_text="random films").get_by_role("slider")
    slider.focus()
    page.keyboard.press("ArrowLeft")
    wait_for_app_run(page)
    expect(page).to_have_url(re.compile(r"trap=sampled.*n=49|n=49.*trap=sampled"))
    expect(page.get_by_test_id("stTable").first).to_contain_text("Among 49 sampled")

    page.get_by_test_id("stSidebarNav").get_by_role("link", name=TITLES["beyond"]).click()
    wait_for_app_run(page)
    page.get_by_test_id("stSidebarNav").get_by_role("link",
                                                     name=TITLES["recommenders"]).click()
    wait_for_app_run(page)
    expect(page.get_by_test_id("stTable").first).to_contain_text("Among 49 sampled")
    page.get_by_test_id("stSidebarNav").get_by_role("link", name=TITLES["upload"]).click()
    wait_for_app_run(page)
    page.go_back()
    wait_for_app_run(page)
    expect(page).to_have_url(re.compile(r"/recommenders\?.*n=49"))
    expect(page.get_by_test_id("stTable").first).to_contain_text("Among 49 sampled")
    expect(page.get_by_test_id("stException")).to_have_count(0)
