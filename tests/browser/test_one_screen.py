"""The playground on one screen: at a laptop's and a projector's viewport the eight cards,
the K cut, the tiles, the curves and the lines under them are all in view on first load, without scrolling; the
presenter view reads from the back of a room."""
from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import board_card, small_text, wait_for_app_run
from tests.browser.test_own_example import PRESENT_ITEMS
from ui.lessons.playground import example_data as own_data

pytestmark = pytest.mark.browser

VIEWPORTS = [(1366, 768), (1920, 1080)]


def boxes(page) -> dict[str, list[dict]]:
    """Bounding boxes (viewport coordinates) of what must be in view."""
    return {"cards": [c.bounding_box() for c in page.locator(".rb-card").all()],
            "cut": [page.locator(".rb-cut").bounding_box()],
            "tiles": [t.bounding_box() for t in page.locator(".lc-tile").all()],
            "chart": [page.locator(".lc-root .js-plotly-plot").first.bounding_box()],
            # the confusion counts and "click a point" under the charts
            "lines": [page.locator(".lc-lines").bounding_box()]}


def inside(box: dict, width: int, height: int) -> bool:
    return (box is not None and box["x"] >= 0 and box["y"] >= 0
            and box["x"] + box["width"] <= width and box["y"] + box["height"] <= height)


@pytest.mark.parametrize("width, height", VIEWPORTS)
@pytest.mark.parametrize("query", ["", "mode=graded&k=5&chart=pr", "view=present"])
def test_board_tiles_and_curves_fit_one_screen(start_app, open_page, width, height, query):
    app = start_app("app.py")
    page = open_page(app.url + "/playground", query=query, width=width, height=height)
    board_card(page, rank=8).wait_for()
    expect(page.locator(".lc-root .js-plotly-plot")).to_have_count(2)
    found = boxes(page)
    assert len(found["cards"]) == 8 and len(found["tiles"]) == 8
    outside = {name: [b for b in bs if not inside(b, width, height)] for name, bs in found.items()}
    assert not any(outside.values()), outside
    assert page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTop") == 0


@pytest.mark.parametrize("width, height", VIEWPORTS)
@pytest.mark.parametrize("results, query", [(9, "k=3"), (12, "mode=graded&k=5")])
def test_an_own_example_of_nine_to_twelve_results_fits_one_screen(start_app, open_page, width,
                                                                 height, results, query):
    """The learning view (sidebar, intro line) of a lecturer's own example of 9-12 results:
    its two rows of cards, the tiles, both charts and the line under them on one screen, as
    the cats' one row (a lecturer's walk: below a laptop's fold, scrolled to see the numbers
    move). The query takes the heading to two lines at 1366 px; graded mode adds its input."""
    example = own_data.OwnExample("red running shoes", tuple(PRESENT_ITEMS[:results]))
    app = start_app("app.py")
    page = open_page(app.url + "/playground", width=width, height=height, query=urlencode(
        {"ex": own_data.to_link(example), "order": "".join(example.ids)}) + "&" + query)
    board_card(page, rank=results).wait_for()
    expect(page.locator(".lc-root .js-plotly-plot")).to_have_count(2)
    found = boxes(page)
    assert len(found["cards"]) == results and len(found["tiles"]) == 8
    outside = {name: [b for b in bs if not inside(b, width, height)] for name, bs in found.items()}
    assert not any(outside.values()), outside
    assert page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTop") == 0


def test_presenter_view_hides_the_sidebar_and_reads_from_the_back(start_app, open_page):
    app = start_app("app.py")
    page = open_page(app.url + "/playground", query="k=3", width=1920, height=1080)
    board_card(page, rank=8).wait_for()
    expect(page.get_by_test_id("stSidebar")).to_be_visible()
    page.get_by_text("Presenter", exact=True).click()
    expect(page).to_have_url(re.compile("view=present"))
    expect(page.get_by_test_id("stSidebar")).to_be_hidden()
    value = page.locator(".lc-tile-value").first
    expect(value).to_be_visible()
    size = float(value.evaluate("(e) => getComputedStyle(e).fontSize").removesuffix("px"))
    assert size >= 28
    expect(page.get_by_text("Drag", exact=False).filter(has_text="click a badge")).to_have_count(0)
    # the lecturer reaches the sidebar from the presenter view, which stays as it was
    toggle = page.locator(".st-key-present_sidebar")
    expect(toggle).to_be_in_viewport(ratio=1)
    toggle.get_by_text("Sidebar").click()
    wait_for_app_run(page)
    expect(page.get_by_test_id("stSidebar").get_by_text("2. Many queries: MRR and MAP")).to_be_visible()
    expect(page).to_have_url(re.compile("k=3.*view=present"))
    expect(page.locator(".rb-root.rb-large")).to_have_count(1)
    toggle.get_by_text("Sidebar").click()
    wait_for_app_run(page)
    expect(page.get_by_test_id("stSidebar")).to_be_hidden()
    # from the back row of a hall (issue 35): no text under 20 px at 1920x1080, the charts'
    # ticks and legends, the formula and the For/Against lines included
    expect(page.locator(".lc-root .js-plotly-plot .xtick").first).to_be_visible()
    page.screenshot(path="/tmp/h35/playground_present_1920.png", full_page=True)
    assert small_text(page) == []
    # the link keeps it
    reopened = open_page(page.url, width=1920, height=1080)
    board_card(reopened, rank=8).wait_for()
    expect(reopened.get_by_test_id("stSidebar")).to_be_hidden()


#: The smallest font size (px) of any text drawn on the board: every element with text of its
#: own that is rendered, SortableJS's and the screen reader's hidden ones aside.
SMALLEST_TEXT_JS = """(root) => {
  const sizes = [];
  for (const e of root.querySelectorAll('*')) {
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !e.getClientRects().length || e.closest('.rb-live')) continue;
    sizes.push([parseFloat(getComputedStyle(e).fontSize), e.className, e.textContent.trim()]);
  }
  return sizes.sort((a, b) => a[0] - b[0])[0];
}"""


@pytest.mark.parametrize("query", ["view=present&predict=on", "view=present&mode=graded"])
def test_presenter_board_text_is_as_big_as_the_tiles_labels(start_app, open_page, query):
    """On a 1920x1080 projector every text on the board (rank numbers, titles, grade badges,
    outcome tags, the K cut) is at least the size of the tiles' labels: Predict first too,
    whose board the class reads from the back of the room."""
    app = start_app("app.py")
    page = open_page(app.url + "/playground", query=query, width=1920, height=1080)
    board_card(page, rank=8).wait_for()
    label = page.locator(".lc-tile-label").first
    expect(label).to_be_visible()
    tiles = float(label.evaluate("(e) => getComputedStyle(e).fontSize").removesuffix("px"))
    if "graded" in query:                      # the grade picker's buttons too
        board_card(page, rank=2).locator(".rb-badge").click()
        expect(board_card(page, rank=2).locator(".rb-picker")).to_be_visible()
    size, where, text = page.locator(".rb-root").evaluate(SMALLEST_TEXT_JS)
    assert size >= tiles >= 19, (size, where, text, tiles)


@pytest.mark.parametrize("width, height", VIEWPORTS)
@pytest.mark.parametrize("path, cards", [
    ("choosing", 6),        # the first table: the three rankings' six metrics
    ("libraries", 8),       # the first table: the eight libraries' numbers
])
def test_other_board_pages_show_their_numbers_beside_the_board(start_app, open_page, width,
                                                              height, path, cards):
    app = start_app("app.py")
    page = open_page(app.url + "/" + path, width=width, height=height)
    board_card(page, rank=cards).wait_for()
    rows = page.get_by_test_id("stTable").first.locator("tr")
    expect(rows.first).to_be_visible()
    found = {"cards": [c.bounding_box() for c in page.locator(".rb-card:visible").all()],
             "numbers": [r.bounding_box() for r in rows.all()]}
    assert len(found["cards"]) == cards and len(found["numbers"]) >= 4
    outside = {name: [b for b in bs if not inside(b, width, height)] for name, bs in found.items()}
    assert not any(outside.values()), outside


@pytest.mark.parametrize("query", ["predict=on", "predict=on&view=present"])
def test_predict_panel_and_its_result_fit_one_screen(start_app, open_page, query):
    """Predict first at 1366x768: while a change waits (question, metrics, answers) and after
    the answer (right or wrong, before → after), the board, the panel, the tiles, the charts
    and the lines under them are on one screen — the guess and its result side by side."""
    width, height = 1366, 768
    app = start_app("app.py")
    page = open_page(app.url + "/playground", query=query, width=width, height=height)
    board_card(page, rank=8).wait_for()
    expect(page.locator(".lc-root .js-plotly-plot")).to_have_count(2)
    page.get_by_role("button", name="★ Ideal").click()
    panel = page.locator("[class*='st-key-'][class*='predict_panel']")
    up = panel.get_by_role("button", name="Up")
    expect(up).to_be_visible()

    def check(extra: dict) -> None:
        found = {**boxes(page), **extra}
        assert len(found["cards"]) == 8 and len(found["tiles"]) == 8
        outside = {name: [b for b in bs if not inside(b, width, height)]
                   for name, bs in found.items()}
        assert not any(outside.values()), outside
        assert page.evaluate(
            "() => document.querySelector('[data-testid=stMain]').scrollTop") == 0

    check({"panel": [panel.bounding_box()], "answers": [up.bounding_box()],
           "metrics": [panel.get_by_role("radiogroup").bounding_box()]})
    up.click()
    outcome = panel.get_by_test_id("stAlert")
    expect(outcome).to_contain_text("→")
    check({"panel": [panel.bounding_box()], "outcome": [outcome.bounding_box()]})


@pytest.mark.parametrize("width, height", VIEWPORTS)
def test_beyond_accuracy_table_controls_and_frontier_share_one_screen(start_app, open_page,
                                                                      width, height):
    """Lesson 6: the editable systems, the budget and scale controls and the frontier chart
    in view at once, so an edited cell visibly moves the frontier."""
    app = start_app("app.py")
    page = open_page(app.url + "/beyond", width=width, height=height)
    chart = page.get_by_test_id("stPlotlyChart").first
    expect(chart.locator(".main-svg").first).to_be_visible()
    editor = page.get_by_test_id("stDataFrame").first
    found = {"table": [editor.bounding_box()],
             "controls": [page.get_by_text("Latency budget (ms), 0 = none").bounding_box(),
                          page.get_by_text("Log scale for cost").bounding_box()],
             "chart": [chart.bounding_box()]}
    outside = {name: [b for b in bs if not inside(b, width, height)] for name, bs in found.items()}
    assert not any(outside.values()), outside
    # the table shows all four columns without a sideways scroll
    assert editor.evaluate("(e) => { const s = e.querySelector('.dvn-scroller');"
                           " return s ? s.scrollWidth <= s.clientWidth + 1 : null; }") is True


def test_many_queries_keeps_mrr_and_map_in_view_beside_the_third_board(start_app, open_page):
    """Lesson 2 at 1366x768: its three boards are taller than the screen. Scrolled to the
    third board, MRR and MAP stay pinned above it, and cover none of its cards."""
    width, height = 1366, 768
    app = start_app("app.py")
    page = open_page(app.url + "/mrr_map", width=width, height=height)
    third = page.locator("[class*='st-key-mm_card_dark-cats']")
    board_card(third, rank=8).wait_for()
    third.scroll_into_view_if_needed()
    expect(third).to_be_in_viewport(ratio=1)
    means = [page.get_by_test_id("stMetric").filter(has_text=name).first.bounding_box()
             for name in ("MRR@8", "MAP@8")]
    cards = [c.bounding_box() for c in third.locator(".rb-card").all()]
    assert len(cards) == 8
    assert all(inside(box, width, height) for box in means + cards), (means, cards)
    assert min(c["y"] for c in cards) >= max(m["y"] + m["height"] for m in means)
