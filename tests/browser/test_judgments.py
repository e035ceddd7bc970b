"""Lesson 8 (where judgments come from) in Chromium at a phone's, a laptop's and a desktop's
size: every part's controls and result drawn, nothing wider than the screen, a grade the
learner gives reaching the tables and the address bar. With IRLAB_SCREENSHOTS=<folder>, each
part's screenshot is saved there for a person to look at."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import wait_for_app_run
from ui.lessons.judgments import PARTS

pytestmark = pytest.mark.browser

SIZES = {"phone": (390, 844), "laptop": (1366, 768), "desktop": (1920, 1080)}
WIDER = """() => [...document.querySelectorAll(
    '[data-testid=stMainBlockContainer] button, [data-testid=stTable], .stPlotlyChart')]
  .map(e => e.getBoundingClientRect())
  .filter(r => r.width && (r.left < -0.5 || r.right > window.innerWidth + 0.5)).length"""


def pick_part(page, part: str) -> None:
    page.get_by_test_id("stButtonGroup").first.get_by_text(PARTS[part], exact=True).click()
    wait_for_app_run(page)
    expect(page).to_have_url(re.compile(f"part={part}"))


@pytest.mark.parametrize("size", list(SIZES))
def test_every_part_draws_and_fits_the_screen(start_app, open_page, size):
    width, height = SIZES[size]
    phone = size == "phone"
    app = start_app("app.py")
    page = open_page(app.url + "/judgments", width=width, height=height, is_mobile=phone,
                     has_touch=phone, device_scale_factor=2 if phone else 1)
    shots = os.environ.get("IRLAB_SCREENSHOTS")
    for part in PARTS:
        if part != "raters":
            pick_part(page, part)
        result = {"raters": "[data-testid=stTable]", "pool": "[data-testid=stTable]",
                  "queries": ".stPlotlyChart .main-svg"}[part]
        page.locator(result).first.wait_for()
        assert page.evaluate(WIDER) == 0, (size, part)
        if part == "raters":
            # the learner sides with rater 3 on doc1: the median follows, the link keeps it
            page.get_by_test_id("stButtonGroup").nth(1).get_by_text("3", exact=True).click()
            wait_for_app_run(page)
            expect(page).to_have_url(re.compile("you=3301"))
            expect(page.get_by_test_id("stTable").first).to_contain_text("2.67")
            # the systems ranked under each rater: its chart drawn, within the screen
            page.locator(".stPlotlyChart .main-svg").first.wait_for()
            expect(page.get_by_text("Kendall's τ between the rankings")).to_have_count(1)
            assert page.evaluate(WIDER) == 0, (size, part)
        if part == "queries":
            expect(page.get_by_text("only restates p")).to_have_count(1)
        if shots:
            page.screenshot(path=str(Path(shots) / f"judgments-{size}-{part}.png"),
                            full_page=False)
