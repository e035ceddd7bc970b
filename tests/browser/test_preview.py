"""The numbers follow a held card and a badge click before Python's rerun (ui/lessons/playground/preview.py):
the browser looks them up, and Python's rerun confirms them — or wins when they differ."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

import irlib
from tests.browser.helpers import (COUNT_PLOTLY_JS, TIMEOUT_MS, board_card, drawn_curves,
                                   finger_on, hold_card_over, wait_for_app_run, wait_until)
from ui.shared.charts import PR_TRACES
from ui.lessons.playground.preview import DECIMALS

pytestmark = pytest.mark.browser

#: Only the dark cat (picture 7, at rank 7) is relevant: dropping it at rank 1 takes
#: Recall@2 and NDCG@2 from 0 to 1.
ONE_RELEVANT = "order=12345678&labels=00000010&k=2&mode=binary"

TILE_JS = """(label) => { const tile = [...document.querySelectorAll('.lc-tile')]
    .find((t) => t.children[0].textContent === label);
    return tile ? tile.children[1].textContent : null; }"""


def tile(page, label):
    return page.evaluate(TILE_JS, label)


@pytest.fixture
def playground(start_app, open_page):
    app = start_app("app.py")

    def _open(query: str):
        page = open_page(app.url + "/playground", query=query, width=1366, height=768)
        board_card(page, rank=8).wait_for()
        expect(page.locator(".lc-root .js-plotly-plot")).to_have_count(2)
        return page
    return _open


def test_a_held_card_shows_the_drop_s_numbers_and_escape_takes_them_back(playground):
    page = playground(ONE_RELEVANT)
    assert (tile(page, "Recall@2"), tile(page, "NDCG@2")) == ("0", "0")
    hold_card_over(page, board_card(page, rank=7), board_card(page, rank=1))
    # mouse still down: the numbers of the order as it would be if dropped now
    page.wait_for_function(f"() => ({TILE_JS})('Recall@2') === '1'")
    held = (tile(page, "Recall@2"), tile(page, "NDCG@2"), tile(page, "Precision@2"))
    assert held == ("1", "1", "0.5")
    # the card under the pointer says where it lands too (not the browser's drag image of it)
    expect(page.locator(".rb-held .rb-rank")).to_have_text("1")
    page.keyboard.press("Escape")
    page.mouse.up()
    page.wait_for_function(f"() => ({TILE_JS})('Recall@2') === '0'")
    assert tile(page, "NDCG@2") == "0" and "order=12345678" in page.url

    hold_card_over(page, board_card(page, rank=7), board_card(page, rank=1))
    page.wait_for_function(f"() => ({TILE_JS})('Recall@2') === '1'")
    page.mouse.up()                                           # the drop keeps them ...
    wait_for_app_run(page)
    expect(page).to_have_url(re.compile("order=71234568"))
    assert (tile(page, "Recall@2"), tile(page, "NDCG@2"), tile(page, "Precision@2")) == held
    # that rerun left the pictures out of its message (ui/shared/board.py send_images): all still there
    expect(page.locator(".rb-img[src^='data:image/svg+xml']:visible")).to_have_count(8)


def test_letting_go_outside_the_board_takes_the_numbers_back(playground):
    page = playground(ONE_RELEVANT)
    hold_card_over(page, board_card(page, rank=7), board_card(page, rank=1))
    page.wait_for_function(f"() => ({TILE_JS})('Recall@2') === '1'")
    outside = page.locator(".lc-tile").first.bounding_box()
    page.mouse.move(outside["x"] + 20, outside["y"] + 20, steps=5)
    page.mouse.up()
    page.wait_for_function(f"() => ({TILE_JS})('Recall@2') === '0'")
    assert "order=12345678" in page.url


#: The precision–recall graph's values as plotly.js holds them: per trace [x, y].
PR_VALUES_JS = """() => document.querySelectorAll('.lc-root .js-plotly-plot')[1].data
    .map((trace) => [trace.x, trace.y])"""


def offsets(one, other) -> list[float]:
    """How far each drawn number (px) of one chart is from the other's; both drawn alike."""
    assert [len(curve) for curve in one] == [len(curve) for curve in other]
    return [abs(a - b) for c1, c2 in zip(one, other) for a, b in zip(c1, c2)]


def test_a_held_card_moves_the_precision_recall_points(playground):
    """The switch under the charts turns the second one into the precision–recall graph (the
    address keeps it); a held card moves its points, along both axes, to the values irlib
    precomputed for that drop, in place; the drop's rerun leaves them where they are, and that
    is where plotly.js draws them from scratch."""
    page = playground(ONE_RELEVANT)
    page.locator(".lc-choice-option").filter(has_text="Precision–recall").click()
    wait_for_app_run(page)
    expect(page).to_have_url(re.compile("chart=pr"))
    second = page.locator(".lc-root .js-plotly-plot").nth(1)
    expect(second.locator(".xtitle")).to_have_text("recall")
    expect(page.locator(".lc-choice-option[aria-pressed=true]")).to_have_text("Precision–recall")
    before = page.evaluate(PR_VALUES_JS)
    page.evaluate(COUNT_PLOTLY_JS)
    hold_card_over(page, board_card(page, rank=7), board_card(page, rank=1))
    page.wait_for_function(f"() => ({TILE_JS})('Recall@2') === '1'")
    # the dark cat at rank 1: every rank at recall 1, precision 1, 1/2, 1/3 ... (rounded as
    # ui/lessons/playground/preview.py sends them), and the envelope at 1 from recall 0 to 1
    pr = irlib.precision_recall_batch([[1, 0, 0, 0, 0, 0, 0, 0]])
    held = [[pr[name][0].round(DECIMALS).tolist() for name in pair] for pair in PR_TRACES]
    assert page.evaluate(PR_VALUES_JS) == held != before
    drawn_held = drawn_curves(page)[1]
    page.mouse.up()
    wait_for_app_run(page)
    expect(page).to_have_url(re.compile("order=71234568"))
    assert page.evaluate("() => window.__plotlyCalls") == 0      # moved in place, not redrawn
    drawn_dropped = drawn_curves(page)[1]
    page.reload()
    board_card(page, rank=8).wait_for()
    expect(page.locator(".lc-root .js-plotly-plot .scatterlayer .trace")).to_have_count(8)
    wait_for_app_run(page)
    fresh = drawn_curves(page)[1]
    # within half a pixel (ui/lessons/playground/preview.py rounds; moveValues leaves what moved less), + the
    # 0.1 px rounding of drawn_curves
    assert max(offsets(drawn_held, fresh)) <= 0.55
    assert max(offsets(drawn_dropped, fresh)) <= 0.55
    # a click on a point sets K to its rank (not to its recall, 1 for every point now)
    second.locator(".scatterlayer .trace").nth(1).locator(".points path").nth(0).click(force=True)
    wait_for_app_run(page)
    expect(page).to_have_url(re.compile(r"k=1&"))


FOCUSED_JS = "c => c.getRootNode().activeElement === c"


def test_a_keyboard_move_shows_its_numbers_at_once(playground):
    page = playground(ONE_RELEVANT)
    card = board_card(page, rank=7)
    card.focus()
    page.keyboard.press("Alt+ArrowUp")                      # rank 7 -> 6: nothing at K = 2
    page.keyboard.press("Alt+ArrowUp")
    assert tile(page, "Recall@2") == "0"
    wait_for_app_run(page)
    for _ in range(3):
        page.keyboard.press("Alt+ArrowUp")
    wait_for_app_run(page)
    # now at rank 2 (three quick moves: the last may still be on its way to Python)
    wait_until(page, lambda: tile(page, "Recall@2") == "1")
    # all five moves reached Python (the address is its state), and the card kept the focus
    expect(page).to_have_url(re.compile("order=17234568"))
    assert board_card(page, rank=2).evaluate(FOCUSED_JS)


def test_keys_pressed_while_the_board_redraws_are_not_lost(playground):
    """Two quick moves, so two reruns' data reach the board back to back: Streamlit then runs
    the cleanup of the call the second one superseded (ui/shared/board/board.js, its default export).
    The board must stay as it is, focus and all, or the next keys go nowhere."""
    page = playground(ONE_RELEVANT)
    board_card(page, item_id="dog-box").focus()             # rank 8
    rank = 8
    for cycle in range(7):
        key, step = ("Alt+ArrowUp", -1) if cycle % 2 == 0 else ("Alt+ArrowDown", 1)
        page.keyboard.press(key)
        page.keyboard.press(key)
        rank += 2 * step
        wait_for_app_run(page)
        card = board_card(page, item_id="dog-box")
        assert card.get_attribute("data-rank") == str(rank), f"cycle {cycle}: a key was lost"
        assert card.evaluate(FOCUSED_JS), f"cycle {cycle}: the card lost the focus"
    expect(page).to_have_url(re.compile("order=12345867"))   # Python has every move: rank 6


ARM_JS = """(label) => { window.__frame = null;
    const read = %s;
    const before = read(label);
    window.addEventListener('click', () => requestAnimationFrame(
        () => { window.__frame = [before, read(label)]; }), {capture: true, once: true}); }""" % TILE_JS


def test_a_badge_click_changes_the_tiles_within_one_frame(playground):
    page = playground("")
    page.evaluate(ARM_JS, "Recall@2")                         # armed before the click
    board_card(page, rank=1).locator(".rb-badge").click()    # the dog: now relevant
    page.wait_for_function("() => window.__frame !== null")
    before, at_next_frame = page.evaluate("() => window.__frame")
    assert (before, at_next_frame) == ("0.25", "0.4")        # before Python's rerun
    wait_for_app_run(page)
    assert tile(page, "Recall@2") == "0.4"                   # the rerun confirms


def test_python_wins_when_the_looked_up_numbers_disagree(start_app, open_page):
    app = start_app("preview_app.py")
    page = open_page(app.url)
    board_card(page, rank=8).wait_for()
    page.evaluate("""() => { window.__seen = [];
        const value = document.querySelector('.lc-tile-value');
        new MutationObserver(() => window.__seen.push(value.textContent))
            .observe(value, {childList: true, characterData: true, subtree: true}); }""")
    board_card(page, rank=1).locator(".rb-badge").click()    # the dog: Recall@2 0.25 -> 0.4
    wait_for_app_run(page)
    page.wait_for_function("() => document.querySelector('.lc-tile-value').textContent === '0.4'")
    seen = page.evaluate("() => window.__seen")
    assert seen[0] == "wrong" and seen[-1] == "0.4"
    expect(page.locator(".lc-note").first).to_have_text("from Python")


PHONE = dict(width=390, height=844, is_mobile=True, has_touch=True, device_scale_factor=2)
#: The numbers pinned to the bottom of a phone's screen: {label: value}.
STRIP_JS = """() => Object.fromEntries([...document.querySelectorAll('.lc-strip-cell')]
    .map((c) => [c.children[0].textContent, c.children[1].textContent]))"""
TILES_JS = """() => Object.fromEntries([...document.querySelectorAll('.lc-tile')]
    .map((t) => [t.children[0].textContent, t.children[1].textContent]))"""
#: Where the strip is, where the page's scrolling area ends, and a card's badge.
PLACES_JS = """(card) => {
  const box = (e) => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom}; };
  return {strip: box(document.querySelector('.lc-strip')),
          main: box(document.querySelector('[data-testid=stMain]')),
          badge: box(card.querySelector('.rb-badge'))};
}"""


def clear_of_the_strip(card) -> None:
    """The strip is on screen, nothing of the page scrolls under it, and the card's badge is
    above it (in view)."""
    places = card.evaluate(PLACES_JS)
    assert places["strip"]["bottom"] == PHONE["height"] > places["strip"]["top"], places
    assert places["main"]["bottom"] <= places["strip"]["top"], places
    assert 0 < places["badge"]["top"] and places["badge"]["bottom"] <= places["strip"]["top"], places


def test_on_a_phone_the_numbers_of_a_held_card_are_pinned_in_view(start_app, open_page):
    """At 390x844 the tiles are a screen below the board's first cards: while a card is held,
    and once it is dropped, a strip pinned to the bottom of the screen shows their numbers —
    the held card's looked-up ones, then Python's — and hides no card's badge."""
    page = open_page(start_app("app.py").url + "/playground", query=ONE_RELEVANT, **PHONE)
    board_card(page, rank=8).wait_for()
    expect(page.locator(".lc-strip")).to_be_visible(timeout=TIMEOUT_MS)   # a loaded machine
    wait_until(page, lambda: page.evaluate(STRIP_JS) == page.evaluate(TILES_JS))
    before = page.evaluate(STRIP_JS)
    assert (before["Recall@2"], before["NDCG@2"]) == ("0", "0")
    # the one relevant picture; not SortableJS's copy of it under the finger
    dark = page.locator(".rb-card:not(.rb-held)[data-item-id='dark-cat-box']")
    assert dark.get_attribute("data-rank") == "7"
    with finger_on(page, dark) as finger:
        finger.over(board_card(page, rank=1))
        wait_until(page, lambda: page.evaluate(STRIP_JS)["Recall@2"] == "1")
        held = page.evaluate(STRIP_JS)
        assert (held["Recall@2"], held["NDCG@2"], held["Precision@2"]) == ("1", "1", "0.5")
        assert held == page.evaluate(TILES_JS)            # the tiles' looked-up numbers
        clear_of_the_strip(dark)
    wait_for_app_run(page)
    expect(page).to_have_url(re.compile("order=71234568"))
    wait_until(page, lambda: page.evaluate(STRIP_JS) == page.evaluate(TILES_JS) == held)
    expect(page.locator(".lc-strip-cell.lc-changed")).to_have_count(0)   # Python's own now
    clear_of_the_strip(dark)


def test_on_a_phone_a_card_held_below_the_board_says_it_goes_last(start_app, open_page):
    """Issue 35: a finger let go below the board drops the card last, but while it was held
    there the card kept its old rank and the strip the old numbers. Held just above the pinned
    strip, the page scrolls (it scrolled only in the 90 px under the strip), the board goes up
    past the finger, and the card then says it goes last, with the numbers of that order."""
    page = open_page(start_app("app.py").url + "/playground",
                     query="order=71234568&labels=00000010&k=2&mode=binary", **PHONE)
    board_card(page, rank=8).wait_for()
    expect(page.locator(".lc-strip")).to_be_visible(timeout=TIMEOUT_MS)
    wait_until(page, lambda: page.evaluate(STRIP_JS).get("Recall@2") == "1")
    dark = page.locator(".rb-card:not(.rb-held)[data-item-id='dark-cat-box']")
    held = page.locator(".rb-card.rb-held")
    main = "() => document.querySelector('[data-testid=stMain]').scrollTop"
    with finger_on(page, dark) as finger:
        strip_top = page.locator(".lc-strip").bounding_box()["y"]
        start = page.evaluate(main)
        finger.to(PHONE["width"] / 2, strip_top - 30)        # above the strip, not under it
        wait_until(page, lambda: page.evaluate(main) > start + 100)   # the page scrolls
        expect(held).to_have_attribute("data-spill", "goes last")
        expect(held.locator(".rb-rank")).to_have_text("8")
        wait_until(page, lambda: page.evaluate(STRIP_JS)["Recall@2"] == "0")
        page.screenshot(path="/tmp/h35/phone_held_below.png")
    wait_for_app_run(page)
    expect(page).to_have_url(re.compile("order=12345687"))
