"""Practice and Predict first in a real browser: a drag solves a challenge; a drag is held
back until the learner predicts."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import board_card, board_order, drag_card, wait_for_app_run, wait_until
from ui.practice import all_challenges, at_codec

pytestmark = pytest.mark.browser


def tile(page, label: str) -> str:
    """A playground tile's value (ui/live_chart.py draws the tiles)."""
    metric = page.get_by_test_id("lcTile").filter(
        has=page.locator(".lc-tile-label").get_by_text(label, exact=True))
    return metric.locator(".lc-tile-value").inner_text().strip()


@pytest.fixture(scope="module")
def app(start_app):
    return start_app("app.py")


def test_one_drag_solves_a_challenge_and_ticks_it(app, open_page):
    c = all_challenges()["f1-three-quarters"]
    page = open_page(app.url + "/practice",
                     query="challenge=" + at_codec(all_challenges()).encode((c.id, c.start)))
    board_card(page, rank=8).wait_for()
    picker = page.get_by_role("combobox", name=re.compile("^Challenge"))
    expect(picker).to_have_value(re.compile(re.escape(c.title) + "$"))
    expect(page.get_by_test_id("stAlertContentInfo")).to_contain_text("Not yet: F1@4 = 0.5")
    drag_card(page, board_card(page, item_id="dog"), board_card(page, rank=8))
    wait_for_app_run(page)
    assert board_order(page)[-1] == "dog"
    expect(page.get_by_test_id("stAlertContentSuccess")).to_contain_text(
        "Solved: F1@4 = 0.75 as asked; 1 move (at most 1)")
    expect(picker).to_have_value(re.compile("^✓ .*" + re.escape(c.title) + "$"))
    expect(page.get_by_test_id("stSelectbox")).to_contain_text(
        f"1 of {len(all_challenges())} solved")
    wait_until(page, lambda: "solved=f1-three-quarters" in page.url)


def test_a_predict_round_holds_the_numbers_until_the_guess(app, open_page):
    page = open_page(app.url + "/playground", query="predict=on&k=1")
    board_card(page, rank=8).wait_for()
    assert tile(page, "RR@1") == "0"
    drag_card(page, board_card(page, rank=2), board_card(page, rank=1))
    wait_for_app_run(page)
    assert board_order(page)[0] == "white-cat-box"             # the board shows the move ...
    expect(page.get_by_text("Your change is on the board")).to_be_visible()
    assert tile(page, "RR@1") == "0"                            # ... the numbers wait
    page.get_by_role("radio", name="RR@1").click()
    wait_for_app_run(page)
    page.get_by_role("button", name="Up", exact=True).click()
    wait_for_app_run(page)
    expect(page.get_by_test_id("stAlertContentSuccess").get_by_role("paragraph")).to_contain_text(
        "Right: RR@1 went up, 0 → 1.")
    wait_until(page, lambda: tile(page, "RR@1") == "1")
    expect(page.get_by_text("1 right of 1")).to_be_visible()
    expect(page).to_have_url(re.compile(r"score=1-1"))


def test_hint_and_answer_open_in_view_on_a_laptop_and_the_answer_solves(app, open_page):
    # under the boards an expander opened below a 1366x768 screen's fold
    page = open_page(app.url + "/practice", width=1366, height=768)
    board_card(page, rank=8).wait_for()
    page.get_by_role("button", name="Show a hint").click()
    hint = page.get_by_test_id("stPopoverBody")
    expect(hint).to_be_in_viewport(ratio=1)
    page.keyboard.press("Escape")
    expect(hint).to_be_hidden()
    page.get_by_role("button", name="Show the answer").click()
    apply = page.get_by_role("button", name="Put this answer on the board")
    expect(page.get_by_test_id("stPopoverBody")).to_be_in_viewport(ratio=1)
    apply.click()
    wait_for_app_run(page)
    expect(page.get_by_test_id("stAlertContentSuccess")).to_contain_text("Solved:")
    expect(page.get_by_test_id("stPopoverBody")).to_be_hidden()     # the board is in view again
    expect(board_card(page, rank=8)).to_be_in_viewport()
