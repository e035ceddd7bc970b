"""The MRR & MAP and NDCG lessons in a real Chromium against the real app (app.py)."""

from __future__ import annotations

import os

import pytest

if os.environ.get("IRLAB_BROWSER_TESTS", "").lower() != "required":
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from playwright.sync_api import Locator, Page, expect  # noqa: E402

from tests.browser.helpers import (  # noqa: E402
    board,
    board_card,
    board_order,
    drag_card,
    wait_for_app_run,
    wait_until,
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app_url(start_app, browser) -> str:
    return start_app("app.py").url


def tile(page: Page, label: str) -> Locator:
    """The value of the metric tile whose label is exactly ``label``."""
    return (page.get_by_test_id("stMetric")
            .filter(has=page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True))
            .get_by_test_id("stMetricValue"))


def expect_tile(page: Page, label: str, text: str) -> None:
    """The tile ``label`` shows ``text`` once the run's elements have replaced the last
    run's (under load a stale tile may stand beside its successor for a moment)."""
    expect(tile(page, label)).to_have_count(1)
    expect(tile(page, label)).to_have_text(text)


def no_errors(page: Page) -> None:
    expect(page.get_by_test_id("stException")).to_have_count(0)
    expect(page.get_by_text("Page not found")).to_have_count(0)


@pytest.fixture
def mrr_page(app_url, open_page) -> Page:
    page = open_page(f"{app_url}/mrr_map")
    expect(page.get_by_role("heading", name="Many queries: MRR and MAP")).to_be_visible()
    expect(page.locator(".rb-root")).to_have_count(3)
    wait_for_app_run(page)
    return page


@pytest.fixture
def ndcg_page(app_url, open_page) -> Page:
    page = open_page(f"{app_url}/ndcg")
    expect(page.get_by_role("heading", name="Graded relevance: NDCG")).to_be_visible()
    expect(board(page).locator(".rb-card")).to_have_count(8)
    wait_for_app_run(page)
    return page


def test_mrr_page_shows_the_articles_numbers(mrr_page: Page) -> None:
    no_errors(mrr_page)
    expect_tile(mrr_page, "MRR@8", "0.57")
    expect_tile(mrr_page, "MAP@8", "0.48")
    expect(tile(mrr_page, "RR@8")).to_have_text(["0.5", "1", "0.2"])
    expect(tile(mrr_page, "AP@8")).to_have_text(["0.54", "0.67", "0.23"])
    expect(board(mrr_page, 0)).to_have_attribute("data-mode", "binary")


def test_dragging_a_hit_to_rank_one_changes_mrr(mrr_page: Page) -> None:
    first = board_order(mrr_page, 0)
    assert first[:2] == ["dog", "white-cat-box"]
    # Real mouse drag on the "cat in a box" board: the white cat in a box (rank 2) to rank 1.
    drag_card(mrr_page, board_card(mrr_page, rank=2, index=0),
              board_card(mrr_page, rank=1, index=0))
    wait_for_app_run(mrr_page)
    wait_until(mrr_page, lambda: board_order(mrr_page, 0)[:2] == ["white-cat-box", "dog"])
    expect(tile(mrr_page, "RR@8")).to_have_count(3)          # one per board
    expect(tile(mrr_page, "RR@8").first).to_have_text("1")
    expect_tile(mrr_page, "MRR@8", "0.73")          # (1 + 1 + 0.2) / 3
    expect_tile(mrr_page, "MAP@8", "0.52")
    # The other boards kept their rankings.
    wait_until(mrr_page, lambda: board_order(mrr_page, 2)[4:5] == ["two-cats"])
    # The reset button brings the article's rankings back.
    mrr_page.get_by_role("button", name="Article's rankings").click()
    wait_for_app_run(mrr_page)
    expect_tile(mrr_page, "MRR@8", "0.57")
    wait_until(mrr_page, lambda: board_order(mrr_page, 0) == first)


def test_unjudging_the_first_hit_changes_rr(mrr_page: Page) -> None:
    # "white animal": the white dog at rank 1 is relevant; click its badge to unjudge it.
    badge = board_card(mrr_page, rank=1, index=1).locator(".rb-badge")
    badge.scroll_into_view_if_needed()
    badge.click()
    wait_for_app_run(mrr_page)
    expect(tile(mrr_page, "RR@8").nth(1)).to_have_text("0.25")
    expect_tile(mrr_page, "MRR@8", "0.32")          # (0.5 + 0.25 + 0.2) / 3


def test_ndcg_page_gain_switch_changes_ndcg8(ndcg_page: Page) -> None:
    no_errors(ndcg_page)
    expect_tile(ndcg_page, "NDCG@2", "0.39")
    expect_tile(ndcg_page, "IDCG@2", "6.52")
    slider = (ndcg_page.get_by_test_id("stSlider").filter(has_text="K: results that count")
              .get_by_role("slider"))
    slider.focus()
    slider.press("End")
    wait_for_app_run(ndcg_page)
    expect_tile(ndcg_page, "NDCG@8", "0.73")
    # The segmented control's options are radio buttons.
    ndcg_page.get_by_role("radio", name="2^grade − 1").click()
    wait_for_app_run(ndcg_page)
    expect_tile(ndcg_page, "NDCG@8", "0.68")
    ndcg_page.get_by_role("radio", name="grade", exact=True).click()
    wait_for_app_run(ndcg_page)
    expect_tile(ndcg_page, "NDCG@8", "0.73")


def test_ndcg_swap_button_and_charts(ndcg_page: Page) -> None:
    expect(ndcg_page.get_by_test_id("stPlotlyChart")).to_have_count(2)
    ndcg_page.get_by_role("button", name="Swap the first two").click()
    wait_for_app_run(ndcg_page)
    # The board's new props reach its iframe a moment after the run ends.
    wait_until(ndcg_page, lambda: board_order(ndcg_page)[:2] == ["white-cat-box", "dog"])
    expect_tile(ndcg_page, "CG@2", "4")
    expect_tile(ndcg_page, "DCG@2", "4")
    expect_tile(ndcg_page, "NDCG@2", "0.61")


def slider_to(page: Page, label: str, value: int, top: int = 8) -> None:
    """Move a slider with the keyboard, like a user: End, then ← until ``value``."""
    thumb = page.get_by_test_id("stSlider").filter(has_text=label).get_by_role("slider")
    thumb.focus()
    thumb.press("End")
    for _ in range(top - value):
        thumb.press("ArrowLeft")
    wait_for_app_run(page)
    expect(thumb).to_have_value(str(value))


def test_ndcg_ideal_source_switch_on_a_short_list(ndcg_page: Page) -> None:
    slider_to(ndcg_page, "K: results that count", 8)
    slider_to(ndcg_page, "Results shown", 4)
    expect_tile(ndcg_page, "NDCG@8", "0.4")         # ideal from all 8 judged
    expect_tile(ndcg_page, "NDCG@8, ideal from the shown list", "0.68")
    # Pictures below the shown list are marked as judged but not returned.
    expect(board_card(ndcg_page, rank=5).locator(".rb-outcome")).to_have_text(
        "FN · missed, relevant")
    ndcg_page.get_by_role("radio", name="the shown list").click()
    wait_for_app_run(ndcg_page)
    expect_tile(ndcg_page, "NDCG@8", "0.68")        # scikit-learn's ndcg_score
