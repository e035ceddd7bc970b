"""The ranking board in a real Chromium against a real Streamlit server."""

from __future__ import annotations

import os

import pytest

if os.environ.get("IRLAB_BROWSER_TESTS", "").lower() != "required":
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from playwright.sync_api import Page, expect  # noqa: E402

from tests.browser.helpers import (  # noqa: E402
    assert_stays,
    board,
    board_announcement,
    board_card,
    board_order,
    drag_card,
    finger_on,
    main_scroll_top,
    swipe,
    text_line,
    touch_drag,
    wait_until,
    wait_for_app_run,
)

pytestmark = pytest.mark.browser

ORDER0 = ["i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8"]


@pytest.fixture
def app_url(start_app) -> str:
    return start_app("board_app.py").url


@pytest.fixture
def page(app_url, open_page) -> Page:
    page = open_page(app_url)
    expect(board(page).locator(".rb-card")).to_have_count(8)
    return page


def printed_order(page: Page) -> list[str]:
    return text_line(page, "order=").split(",")


def printed_grades(page: Page) -> dict[str, int]:
    pairs = (p.split(":") for p in text_line(page, "grades=").split(","))
    return {k: int(v) for k, v in pairs}


def runs(page: Page) -> int:
    return int(text_line(page, "runs=").split()[0])


def switch_to_graded(page: Page) -> None:
    page.get_by_test_id("stRadio").get_by_text("graded").click()
    wait_for_app_run(page)
    expect(board(page)).to_have_attribute("data-mode", "graded")


def test_initial_render_matches_python_state(page: Page) -> None:
    wait_until(page, lambda: board_order(page) == ORDER0 == printed_order(page))
    assert page.locator("iframe").count() == 0  # v2 renders in the page, not an iframe
    card = board_card(page, rank=1)
    expect(card).to_have_attribute("role", "listitem")
    expect(card).to_have_attribute("tabindex", "0")
    expect(card).to_have_attribute("aria-label", "Rank 1: Item 1, relevant, TP: returned & relevant")
    expect(board(page).locator("[role=list] > .rb-card")).to_have_count(8)
    expect(board(page).locator(".rb-cut")).to_have_text("top K = 3")
    # The cut-off line sits between rank 3 and rank 4.
    assert board(page).locator(".rb-list > *").nth(3).get_attribute("class") == "rb-cut"
    expect(board_card(page, rank=1).locator(".rb-outcome")).to_have_text("TP · returned & relevant")
    expect(board_card(page, rank=4).locator(".rb-outcome")).to_have_text("FN · missed, relevant")


def test_mouse_drag_rank2_to_rank1_reorders_with_one_rerun(page: Page) -> None:
    before = runs(page)
    drag_card(page, board_card(page, rank=2), board_card(page, rank=1))
    wait_for_app_run(page)
    expect(page.get_by_test_id("stText").filter(has_text="order=")).to_have_text(
        "order=i2,i1,i3,i4,i5,i6,i7,i8"
    )
    wait_until(page, lambda: board_order(page) == printed_order(page))
    wait_until(page, lambda: text_line(page, "result=") == "change")
    wait_until(page, lambda: runs(page) == before + 1)
    assert_stays(page, lambda: runs(page), before + 1, "one action, one rerun")
    assert board_announcement(page) == "Item 2 moved to rank 1"
    expect(board_card(page, item_id="i2")).to_have_attribute("data-rank", "1")


def test_badge_click_toggles_relevance(page: Page) -> None:
    before = runs(page)
    badge = board_card(page, item_id="i2").locator(".rb-badge")
    expect(badge).to_have_text("✗ not relevant")
    badge.click()
    wait_for_app_run(page)
    expect(page.get_by_test_id("stText").filter(has_text="grades=")).to_contain_text("i2:1")
    wait_until(page, lambda: printed_grades(page)["i2"] == 1)
    wait_until(page, lambda: runs(page) == before + 1)
    assert_stays(page, lambda: runs(page), before + 1, "one action, one rerun")
    expect(badge).to_have_text("✓ relevant")
    assert board_announcement(page) == "Item 2 marked relevant"
    # Outcome recomputed by Python: rank 2 is inside top 3 and now relevant.
    expect(board_card(page, item_id="i2").locator(".rb-outcome")).to_have_text("TP · returned & relevant")
    badge.click()
    wait_for_app_run(page)
    wait_until(page, lambda: printed_grades(page)["i2"] == 0)
    assert board_announcement(page) == "Item 2 marked not relevant"


def test_alt_arrow_up_moves_focused_card_and_announces(page: Page) -> None:
    card = board_card(page, item_id="i3")
    card.focus()
    page.keyboard.press("Alt+ArrowUp")
    wait_for_app_run(page)
    wait_until(page, lambda: printed_order(page) == ["i1", "i3", "i2", "i4", "i5", "i6", "i7", "i8"])
    assert board_announcement(page) == "Item 3 moved to rank 2"
    expect(card).to_have_attribute("data-rank", "2")
    expect(card).to_have_attribute("aria-label", "Rank 2: Item 3, not relevant, FP: returned, not relevant")
    assert card.evaluate("c => c.getRootNode().activeElement === c"), "focus must stay on the moved card"
    page.keyboard.press("Alt+ArrowUp")
    wait_for_app_run(page)
    wait_until(page, lambda: printed_order(page)[:3] == ["i3", "i1", "i2"])
    assert board_announcement(page) == "Item 3 moved to rank 1"
    page.keyboard.press("Alt+ArrowDown")
    wait_for_app_run(page)
    wait_until(page, lambda: printed_order(page)[:3] == ["i1", "i3", "i2"])


def test_keyboard_toggles_relevance_in_binary_mode(page: Page) -> None:
    card = board_card(page, item_id="i5")
    card.focus()
    page.keyboard.press("Space")
    wait_for_app_run(page)
    wait_until(page, lambda: printed_grades(page)["i5"] == 1)
    assert board_announcement(page) == "Item 5 marked relevant"
    page.keyboard.press("r")  # must not also trigger Streamlit's "rerun" hotkey twice
    wait_for_app_run(page)
    wait_until(page, lambda: printed_grades(page)["i5"] == 0)


def test_down_and_up_buttons_move_one_rank(page: Page) -> None:
    before = runs(page)
    down = board_card(page, item_id="i1").locator(".rb-down")
    down.click()
    wait_for_app_run(page)
    wait_until(page, lambda: printed_order(page) == ["i2", "i1", "i3", "i4", "i5", "i6", "i7", "i8"])
    wait_until(page, lambda: runs(page) == before + 1)
    assert_stays(page, lambda: runs(page), before + 1, "one action, one rerun")
    assert board_announcement(page) == "Item 1 moved to rank 2"
    # Several reruns later each click still moves exactly one rank (no duplicated listeners).
    down.click()
    wait_for_app_run(page)
    down.click()
    wait_for_app_run(page)
    wait_until(page, lambda: printed_order(page)[:4] == ["i2", "i3", "i4", "i1"])
    board_card(page, item_id="i1").locator(".rb-up").click()
    wait_for_app_run(page)
    wait_until(page, lambda: printed_order(page)[:4] == ["i2", "i3", "i1", "i4"])
    expect(board(page)).to_have_count(1)
    expect(board(page).locator(".rb-card")).to_have_count(8)
    expect(board_card(page, rank=1).locator(".rb-up")).to_be_disabled()
    expect(board_card(page, rank=8).locator(".rb-down")).to_be_disabled()


def test_graded_mode_digit_key_sets_grade(page: Page) -> None:
    switch_to_graded(page)
    badge = board_card(page, item_id="i2").locator(".rb-badge")
    expect(badge).to_have_text("grade 0")
    card = board_card(page, rank=2)
    card.focus()
    page.keyboard.press("3")
    wait_for_app_run(page)
    wait_until(page, lambda: printed_grades(page)["i2"] == 3)
    expect(badge).to_have_text("grade 3")
    assert board_announcement(page) == "Item 2 graded 3"
    expect(card).to_have_attribute("aria-label", "Rank 2: Item 2, grade 3, TP: returned & relevant")


def test_graded_mode_picker_buttons(page: Page) -> None:
    switch_to_graded(page)
    card = board_card(page, item_id="i4")
    picker = card.locator(".rb-picker")
    expect(picker).to_be_hidden()
    card.locator(".rb-badge").click()
    expect(picker).to_be_visible()
    expect(card.locator(".rb-badge")).to_have_attribute("aria-expanded", "true")
    picker.locator('.rb-grade[data-grade="4"]').click()
    wait_for_app_run(page)
    wait_until(page, lambda: printed_grades(page)["i4"] == 4)
    expect(picker).to_be_hidden()
    expect(card.locator(".rb-badge")).to_have_text("grade 4")


def test_title_with_html_is_literal_text(app_url, open_page) -> None:
    page = open_page(app_url, query="xss=1")
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    title = board_card(page, item_id="i8").locator(".rb-title")
    expect(title).to_have_text("<img src=x onerror=alert(1)> Item 8")
    assert title.evaluate("t => t.children.length") == 0
    expect(board(page).locator('img[src="x"]')).to_have_count(0)
    assert page.locator('img[src="x"]').count() == 0
    # Interact so the board re-renders with the same data, then look again.
    board_card(page, item_id="i8").locator(".rb-up").click()
    wait_for_app_run(page)
    expect(board(page).locator('img[src="x"]')).to_have_count(0)
    assert "<img src=x onerror=alert(1)> Item 8" in (
        board_card(page, item_id="i8").get_attribute("aria-label") or ""
    )
    assert dialogs == []


def test_board_survives_other_widget_reruns(page: Page) -> None:
    board_card(page, item_id="i2").locator(".rb-badge").click()
    wait_for_app_run(page)
    page.get_by_test_id("stCheckbox").filter(has_text="Bare toggle").locator("label").click()
    wait_for_app_run(page)
    wait_until(page, lambda: text_line(page, "result=") == "none")
    wait_until(page, lambda: printed_grades(page)["i2"] == 1)
    expect(board_card(page, item_id="i2").locator(".rb-badge")).to_have_text("✓ relevant")
    expect(board(page)).to_have_count(1)


PHONE = dict(width=390, height=844, is_mobile=True, has_touch=True, device_scale_factor=2)


def test_touch_hold_drag_reorders_and_swipe_scrolls(app_url, open_page) -> None:
    page = open_page(app_url, **PHONE)
    cards = board(page).locator(".rb-card")
    expect(cards).to_have_count(8)
    # Two cards per row on a 390 px phone.
    boxes = [cards.nth(i).bounding_box() for i in range(2)]
    assert boxes[0]["y"] == boxes[1]["y"] and boxes[1]["x"] > boxes[0]["x"]
    assert cards.nth(2).bounding_box()["y"] > boxes[0]["y"]

    touch_drag(page, board_card(page, rank=2), board_card(page, rank=1), hold_ms=400)
    wait_for_app_run(page)
    wait_until(page, lambda: printed_order(page)[:2] == ["i2", "i1"])

    # A quick swipe over a card scrolls the page and leaves the order alone.
    before = runs(page)
    box = board_card(page, rank=2).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    swipe(page, [(x, y - 25 * i) for i in range(10)])
    wait_until(page, lambda: main_scroll_top(page) > 50)
    assert_stays(page, lambda: (runs(page), board_order(page)[:2]), (before, ["i2", "i1"]))


#: The list as a finger holding a card sees it: the cards' ids and rank numbers in list order,
#: "|" for the K cut, and the rank on SortableJS's copy of the held card under the finger.
HELD_JS = """(list) => {
  const held = list.querySelector('.rb-held');
  const rows = [...list.children].filter((c) => c !== held).map((c) => c.classList.contains('rb-cut')
    ? '|' : [c.dataset.itemId, c.querySelector('.rb-rank').textContent, c.classList.contains('rb-below')]);
  return {rows, held: held && [held.dataset.itemId, held.querySelector('.rb-rank').textContent]};
}"""


def test_a_held_card_s_board_numbers_say_where_it_lands(app_url, open_page) -> None:
    """On a phone, while a finger holds rank 5 over rank 1, every number on the board is the
    drop's: ranks 1-8 in list order (the held card's place holder and its copy under the finger
    both say 1), the K cut after the third card, the shading below it."""
    page = open_page(app_url, **PHONE)
    expect(board(page).locator(".rb-card")).to_have_count(8)
    dropped = ["i5", "i1", "i2", "i3", "i4", "i6", "i7", "i8"]
    with finger_on(page, board_card(page, item_id="i5")) as finger:
        finger.over(board_card(page, item_id="i1"))
        shown = board(page).locator(".rb-list").evaluate(HELD_JS)
        cards = [row for row in shown["rows"] if row != "|"]
        assert [c[0] for c in cards] == dropped
        assert [c[1] for c in cards] == [str(r) for r in range(1, 9)]
        assert shown["rows"].index("|") == 3                     # top K = 3
        assert [c[2] for c in cards] == [False] * 3 + [True] * 5
        assert shown["held"] == ["i5", "1"]
    wait_for_app_run(page)
    wait_until(page, lambda: printed_order(page) == dropped)


def test_a_finger_let_go_below_the_board_drops_the_card_last(app_url, open_page) -> None:
    """On a phone the board is taller than the screen: a card held at the bottom edge scrolls
    the page, and let go once the board has passed above the finger it goes to the end — not
    back to where it was."""
    page = open_page(app_url, **PHONE)
    expect(board(page).locator(".rb-card")).to_have_count(8)
    list_bottom = "(list) => list.getBoundingClientRect().bottom"
    with finger_on(page, board_card(page, item_id="i1")) as finger:
        start = main_scroll_top(page)
        finger.to(finger.x, PHONE["height"] - 10)
        wait_until(page, lambda: board(page).locator(".rb-list").evaluate(list_bottom) < finger.y)
        assert main_scroll_top(page) > start                    # the page scrolled under it
    wait_for_app_run(page)
    wait_until(page, lambda: printed_order(page) == ORDER0[1:] + ["i1"])
    assert board_announcement(page) == "Item 1 moved to rank 8"


def test_return_value_path_and_two_boards(start_app, open_page) -> None:
    page = open_page(start_app("board_return_app.py").url)
    first, second = board(page, 0), board(page, 1)
    expect(first.locator(".rb-card")).to_have_count(8)
    expect(second.locator(".rb-card")).to_have_count(8)
    first.locator('.rb-card[data-item-id="i1"] .rb-down').click()
    wait_for_app_run(page)
    wait_until(page, lambda: printed_order(page) == ["i2", "i1", "i3", "i4", "i5", "i6", "i7", "i8"])
    wait_until(page, lambda: board_order(page, 0) == printed_order(page))  # no jump back
    wait_until(page, lambda: text_line(page, "order2=") == "i8,i7,i6,i5,i4,i3,i2,i1")
    second.locator('.rb-card[data-item-id="i8"] .rb-down').click()
    wait_for_app_run(page)
    wait_until(page, lambda: text_line(page, "order2=") == "i7,i8,i6,i5,i4,i3,i2,i1")
    assert board_order(page, 0)[:2] == ["i2", "i1"]
    page.get_by_test_id("stButton").locator("button").click()
    wait_for_app_run(page)
    wait_until(page, lambda: board_order(page, 0) == printed_order(page))
    assert board_order(page, 1)[:2] == ["i7", "i8"]


def test_rerun_updates_in_place_without_rebuilding(page: Page) -> None:
    """Cards, pictures and the live region are the same DOM nodes after reruns."""
    board(page).evaluate(
        "r => { r.querySelectorAll('.rb-card, .rb-img, [aria-live]').forEach(n => n.__keep = 1); }"
    )
    board_card(page, item_id="i3").locator(".rb-badge").click()
    wait_for_app_run(page)
    board_card(page, item_id="i3").locator(".rb-up").click()
    wait_for_app_run(page)
    page.get_by_role("switch", name="Bare toggle").focus()
    page.keyboard.press("Space")
    wait_for_app_run(page)
    kept = board(page).evaluate(
        "r => [...r.querySelectorAll('.rb-card, .rb-img, [aria-live]')].every(n => n.__keep === 1)"
    )
    assert kept
    wait_until(page, lambda: printed_order(page)[:3] == ["i1", "i3", "i2"])
