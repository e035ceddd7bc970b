"""Lesson 7 (metrics as users) in Chromium: at 1366x768 each section's controls and its
result share one screen once the section is scrolled to, a change reaches the address bar,
and on a phone nothing scrolls sideways and the two click-through numbers stay side by side.
Screenshots of each section are saved beside the test's output (tmp_path) for a look."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.waiting import NET_SPY, wait_for_app_run

pytestmark = pytest.mark.browser

MAIN = "[data-testid='stMain']"
SECTIONS = {   # anchor -> what must be in view with its heading
    "users": ["[data-testid='stRadio']", ".stPlotlyChart"],
    "clicks": ["[data-testid='stRadio']", "[data-testid='stMetric']", ".stPlotlyChart"],
    "experiments": ["[data-testid='stTable']", ".stPlotlyChart"],
}


def open_lesson(browser, url: str, width: int, height: int, **kwargs):
    """The page, waited for its first run (a cold server's first run imports scipy and
    plotly: longer than the suite's usual wait)."""
    context = browser.new_context(viewport={"width": width, "height": height}, **kwargs)
    context.add_init_script(NET_SPY)
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(url)
    page.locator("[data-testid='stApp'][data-test-script-state='notRunning']").wait_for()
    page.locator(".stPlotlyChart .main-svg").first.wait_for()
    wait_for_app_run(page)
    page.set_default_timeout(30_000)
    return page


def section(page, anchor: str):
    """The elements from the section's heading to the next heading (Streamlit's blocks are
    flat siblings at the top level)."""
    return page.locator(f"{MAIN} [data-testid='stHeadingWithActionElements']:has(#{anchor})")


def in_view(box, width: int, height: int) -> bool:
    return box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= width + 0.5 and \
        box["y"] + box["height"] <= height + 0.5


def elements_after(page, anchor: str, selector: str):
    """The first ``selector`` below the section's heading and above the next heading."""
    return page.evaluate("""([anchor, selector]) => {
        const heads = [...document.querySelectorAll("[data-testid='stHeadingWithActionElements']")];
        const i = heads.findIndex(h => h.querySelector('#' + anchor));
        const top = heads[i].getBoundingClientRect().top;
        const next = heads[i + 1] ? heads[i + 1].getBoundingClientRect().top : Infinity;
        const found = [...document.querySelectorAll(selector)].map(e => e.getBoundingClientRect())
            .filter(r => r.height > 0 && r.top > top && r.top < next);
        return found.length ? {x: found[0].left, y: found[0].top, width: found[0].width,
                               height: found[0].height} : null;
    }""", [anchor, selector])


#: Each cell of a table (its head's first): where it is and how many lines its text takes.
CELL_LINES_JS = """(table) => [...table.querySelectorAll('th, td')].map((cell) => {
  const tops = new Set(), walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {          // the line boxes of the cell's text, by their tops
    const range = document.createRange();
    range.selectNodeContents(walk.currentNode);
    for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
  }
  return [cell.closest('thead') ? 'head' : 'body', cell.innerText.trim(), tops.size];
})"""


def experiments_table_lines(page) -> dict[str, list]:
    """The A/B-versus-interleaving table's cells that take more than one line, by part (head,
    body). A lecturer's walk at 1366x768: its five columns' headers wrapped to three lines in
    the section's narrow column ("Users / for 80 / %"); the experiments are its two columns
    now, the numbers its rows."""
    table = page.get_by_test_id("stTable").filter(has_text="Users for 80 %")
    table.scroll_into_view_if_needed()
    cells = table.locator("table").evaluate(CELL_LINES_JS)
    assert [text for part, text, _ in cells if part == "head" and text] == \
        ["A/B test", "Interleaving"], cells
    return {part: [(text, lines) for where, text, lines in cells if where == part and lines > 1]
            for part in ("head", "body")}


def test_each_section_fits_a_laptop_screen(start_app, browser, tmp_path):
    width, height = 1366, 768
    app = start_app("app.py")
    page = open_lesson(browser, app.url + "/online", width, height)
    page.screenshot(path=str(tmp_path / "online-1366-top.png"))
    for anchor, selectors in SECTIONS.items():
        heading = section(page, anchor)
        # the heading just under Streamlit's header bar (3.75rem), as a reader scrolls to it
        heading.evaluate(f"""h => document.querySelector("{MAIN}").scrollBy(
            0, h.getBoundingClientRect().top - 64)""")
        page.wait_for_function(f"""() => Math.abs(document.querySelector(
            "{MAIN} [data-testid='stHeadingWithActionElements']:has(#{anchor})")
            .getBoundingClientRect().top - 64) < 2
            || document.querySelector("{MAIN}").scrollTop + document.querySelector(
            "{MAIN}").clientHeight >= document.querySelector("{MAIN}").scrollHeight - 1""")
        page.screenshot(path=str(tmp_path / f"online-1366-{anchor}.png"))
        assert in_view(heading.bounding_box(), width, height), anchor
        for selector in selectors:
            box = elements_after(page, anchor, selector)
            assert box is not None, (anchor, selector)
            assert in_view(box, width, height), (anchor, selector, box)
    assert page.evaluate(f"() => document.querySelector(\"{MAIN}\").scrollWidth "
                         f"<= document.querySelector(\"{MAIN}\").clientWidth")
    assert experiments_table_lines(page) == {"head": [], "body": []}     # every cell one line
    page.context.close()


def test_a_change_reaches_the_address_bar_and_the_chart(start_app, browser):
    app = start_app("app.py")
    page = open_lesson(browser, app.url + "/online", 1366, 768)
    page.get_by_test_id("stRadio").filter(has_text="Click model").get_by_text(
        "position-based", exact=True).click()
    wait_for_app_run(page)
    expect(page).to_have_url(re.compile(r"model=position"))
    expect(page.get_by_text("Position bias η", exact=False).first).to_be_visible()
    page.context.close()


def test_a_phone_scrolls_only_down_and_keeps_the_two_numbers_side_by_side(start_app, browser):
    app = start_app("app.py")
    page = open_lesson(browser, app.url + "/online?view=learn", 390, 844, is_mobile=True,
                       has_touch=True, device_scale_factor=2)
    assert page.evaluate("() => document.documentElement.scrollWidth <= 390")
    assert page.evaluate(f"() => document.querySelector(\"{MAIN}\").scrollWidth "
                         f"<= document.querySelector(\"{MAIN}\").clientWidth")
    first, second = (m.bounding_box() for m in page.get_by_test_id("stMetric").all()[:2])
    assert abs(first["y"] - second["y"]) < 2 and second["x"] > first["x"] + first["width"] - 1
    for table in page.get_by_test_id("stTable").all():
        table.scroll_into_view_if_needed()
        box = table.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390 + 0.5, box
    assert experiments_table_lines(page)["head"] == []                  # headers: one line each
    page.context.close()
