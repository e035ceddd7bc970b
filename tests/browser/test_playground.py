"""The playground in a real browser: drag, click, keyboard, shared and broken links."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import (COUNT_PLOTLY_JS, board_announcement, board_card,
                                   board_order, drag_card, drawn_curves, wait_for_app_run)

pytestmark = pytest.mark.browser


def tile(page, label: str) -> str:
    """A metric tile's value (ui/shared/live_chart.py draws the tiles)."""
    metric = page.get_by_test_id("lcTile").filter(
        has=page.locator(".lc-tile-label").get_by_text(label, exact=True))
    return metric.locator(".lc-tile-value").inner_text().strip()


@pytest.fixture
def playground(start_app, open_page):
    app = start_app("app.py")

    def _open(query: str = ""):
        page = open_page(app.url + "/playground", query=query)
        board_card(page, rank=8).wait_for()          # the component mounts after the run ends
        return page
    return _open


def test_drag_rank_2_to_rank_1_makes_rr_one(playground):
    page = playground("k=1")
    assert tile(page, "RR@1") == "0" and tile(page, "Recall@1") == "0"
    drag_card(page, board_card(page, rank=2), board_card(page, rank=1))
    wait_for_app_run(page)
    assert board_order(page)[0] == "white-cat-box"
    assert tile(page, "RR@1") == "1"
    assert tile(page, "Recall@1") == "0.25"
    # the address follows the run a moment later (the address component's replaceState)
    expect(page).to_have_url(re.compile("order=21345678"))


def test_clicking_a_badge_changes_recall(playground):
    page = playground()
    assert tile(page, "Recall@2") == "0.25"
    board_card(page, rank=1).locator(".rb-badge").click()   # the dog: now "relevant"
    wait_for_app_run(page)
    assert tile(page, "Recall@2") == "0.4"                    # 2 of 5 relevant
    assert tile(page, "Precision@2") == "1"
    expect(page.locator(".katex-display")).to_contain_text("0.4")    # the formula follows
    # the address bar followed (ui/shared/live_chart.py writes it): reloading it reopens this state
    expect(page).to_have_url(re.compile(r"labels=11011010"))
    page.reload()
    board_card(page, rank=8).wait_for()
    wait_for_app_run(page)
    assert tile(page, "Recall@2") == "0.4"


def test_a_badge_click_moves_the_curves_in_place(playground):
    page = playground()
    chart = page.locator(".lc-root .js-plotly-plot").first
    chart.scroll_into_view_if_needed()
    recall_at_2 = chart.locator(".scatterlayer .trace").nth(1).locator(".points path").nth(1)
    expect(recall_at_2).to_be_visible()
    badge = board_card(page, rank=1).locator(".rb-badge")
    # A chart whose width changed since it was drawn (the page settling after the scroll,
    # under load) is drawn anew once by plotly.js, on purpose (its layout follows the width):
    # a click and its undo first, so that the counted click starts from charts at rest.
    for _ in range(2):
        badge.click()
        wait_for_app_run(page)
    before = recall_at_2.get_attribute("transform")
    page.evaluate(COUNT_PLOTLY_JS)
    badge.click()                                           # the dog: Recall@2 0.25 -> 0.4
    wait_for_app_run(page)
    expect(recall_at_2).not_to_have_attribute("transform", before)
    assert page.evaluate("() => window.__plotlyCalls") == 0     # moved without plotly.js
    assert chart.locator(".scatterlayer .trace").count() == 6     # still the six curves
    # the hover label reads the new value: the chart's data moved with its points
    recall_at_2.hover(force=True)
    expect(chart.locator(".hoverlayer")).to_contain_text("Recall@K: 0.400")
    # and every line and marker sits where plotly.js itself draws it from scratch, within
    # half a pixel: the preview showed values rounded to a fraction of a pixel (ui/lessons/playground/preview.py),
    # and the rerun leaves what is already in place (moveValues in ui/shared/live_chart/live_chart.js)
    moved = drawn_curves(page)
    page.reload()
    board_card(page, rank=8).wait_for()
    wait_for_app_run(page)
    expect(page.locator(".lc-root .js-plotly-plot .scatterlayer .trace")).to_have_count(8)
    fresh = drawn_curves(page)
    assert [[len(curve) for curve in chart] for chart in fresh] == \
        [[len(curve) for curve in chart] for chart in moved]
    offsets = [abs(a - b) for chart_f, chart_m in zip(fresh, moved)
               for curve_f, curve_m in zip(chart_f, chart_m) for a, b in zip(curve_f, curve_m)]
    assert max(offsets) <= 0.5 + 0.05, max(offsets)    # + the 0.1 px rounding of drawn_curves


def test_the_curves_follow_a_badge_click_with_a_curve_hidden_from_the_legend(playground):
    # A hidden curve is not drawn, so the points cannot all be moved in place: plotly.js
    # redraws them instead (ui/shared/live_chart/live_chart.js), keeping the curve hidden.
    page = playground()
    chart = page.locator(".lc-root .js-plotly-plot").first
    chart.scroll_into_view_if_needed()
    chart.locator(".legend .traces").filter(has_text="RR").locator(".legendtoggle").click()
    expect(chart.locator(".scatterlayer > .trace")).to_have_count(5)
    recall_at_2 = chart.locator(".scatterlayer .trace").nth(1).locator(".points path").nth(1)
    before = recall_at_2.get_attribute("transform")
    board_card(page, rank=1).locator(".rb-badge").click()
    wait_for_app_run(page)
    expect(recall_at_2).not_to_have_attribute("transform", before)
    expect(chart.locator(".scatterlayer > .trace")).to_have_count(5)
    recall_at_2.hover(force=True)
    expect(chart.locator(".hoverlayer")).to_contain_text("Recall@K: 0.400")


def test_keyboard_moves_a_card_and_announces_it(playground):
    page = playground("k=1")
    card = board_card(page, rank=2)
    card.focus()
    page.keyboard.press("Alt+ArrowUp")
    wait_for_app_run(page)
    assert board_order(page)[0] == "white-cat-box"
    assert "rank 1" in board_announcement(page)
    assert tile(page, "RR@1") == "1"


def test_shared_link_opens_that_state(playground):
    page = playground("order=52134678&labels=01011010&mode=binary&k=1&metric=RR")
    assert board_order(page)[0] == "white-cat-box-2"
    assert tile(page, "RR@1") == "1"
    assert "RR@1" in page.locator(".katex").first.inner_text()     # the RR formula is chosen
    assert page.get_by_test_id("stAlert").count() == 0


def test_broken_link_shows_a_notice_and_the_defaults(playground):
    page = playground("order=9999&k=abc")
    notice = page.get_by_test_id("stAlert").first.inner_text()
    assert "order" in notice
    assert tile(page, "Recall@2") == "0.25"
    assert page.get_by_test_id("stException").count() == 0


@pytest.mark.parametrize("path, heading", [("mrr_map", "Many queries: MRR and MAP"),
                                           ("playground", "Rank the cats")])
def test_deep_link_on_a_fresh_server_gets_the_course_navigation(browser, path, heading):
    """Streamlit's first run on a new server uses its legacy pages/ mode; each page undoes it
    (ui.shared.course.through_app_navigation)."""
    from playwright.sync_api import expect

    from tests.browser.helpers import open_app, streamlit_app
    with streamlit_app("app.py") as app:                     # a new server, not the shared one
        page = open_app(browser, f"{app.url}/{path}")
        try:
            # the first run reruns itself through app.py: wait, don't peek
            expect(page.get_by_role("heading", name=heading)).to_be_visible()
            expect(page.get_by_test_id("stSidebarNav")).to_contain_text("1. Rank the cats")
            nav = page.get_by_test_id("stSidebarNav").inner_text()
            assert "1. Rank the cats" in nav and "mrr_map" not in nav
        finally:
            page.context.close()


def test_clicking_a_point_on_the_chart_sets_k(playground):
    page = playground()
    chart = page.locator(".lc-root").first          # ui/shared/live_chart.py: drawn by plotly.js
    chart.scroll_into_view_if_needed()
    expect(chart.locator(".scatterlayer .trace").nth(1)).to_be_visible()
    # the Recall@K trace's point at K = 5 (traces: P, R, F1, RR, AP, NDCG; points K = 1..8)
    point = chart.locator(".scatterlayer .trace").nth(1).locator(".points path").nth(4)
    point.click(force=True)
    wait_for_app_run(page)
    assert tile(page, "Recall@5") == "0.75"
    assert "k=5" in page.url
    # the whole page reran, so the K slider above the board moved too
    expect(page.get_by_test_id("stSlider")).to_contain_text("5")


def test_without_static_serving_the_numbers_still_follow(browser):
    """Started without .streamlit/config.toml's static serving, plotly.js cannot load: the
    page says so, and the tiles, the caption and the share link still follow the board."""
    from tests.browser.helpers import open_app, streamlit_app
    with streamlit_app("app.py", extra_args=["--server.enableStaticServing", "false"]) as app:
        page = open_app(browser, f"{app.url}/playground")
        try:
            board_card(page, rank=8).wait_for()
            expect(page.get_by_test_id("stAlert")).to_contain_text("enableStaticServing")
            assert tile(page, "Recall@2") == "0.25"
            board_card(page, rank=1).locator(".rb-badge").click()
            wait_for_app_run(page)
            assert tile(page, "Recall@2") == "0.4"
            expect(page).to_have_url(re.compile(r"labels=11011010"))
            assert page.locator(".lc-root .js-plotly-plot").count() == 0
        finally:
            page.context.close()
