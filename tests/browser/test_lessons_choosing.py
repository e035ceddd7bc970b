"""The "Choosing a metric" lesson in a real browser: move K from 2 to 5 and watch the
highlighted precision winner move from ranking 1 to ranking 3."""
from __future__ import annotations

import pytest

from tests.browser.helpers import board, expect_app_run

pytestmark = pytest.mark.browser

WINNER_MARK = "★"


@pytest.fixture
def choosing(start_app, open_page):
    app = start_app("app.py")
    page = open_page(app.url + "/choosing")
    page.get_by_test_id("stTable").first.wait_for()
    return page


def results(page) -> dict[str, dict[str, dict]]:
    """{row header: {column header: {"text", "background", "weight"}}} of the results table."""
    return page.get_by_test_id("stTable").first.evaluate("""t => {
        const table = t.querySelector('table');
        const heads = [...table.querySelectorAll('thead th')].map(th => th.innerText.trim());
        const out = {};
        for (const tr of table.querySelectorAll('tbody tr')) {
            const cells = [...tr.children];
            const row = {};
            cells.slice(1).forEach((td, i) => {
                const s = getComputedStyle(td);
                row[heads[i + 1]] = {text: td.innerText.trim(), background: s.backgroundColor,
                                     weight: s.fontWeight};
            });
            out[cells[0].innerText.trim()] = row;
        }
        return out;
    }""")


def highlighted(row: dict[str, dict]) -> list[str]:
    """Columns whose cell is marked as the winner: the star, a tint and bold text."""
    marked = [col for col, cell in row.items() if cell["text"].startswith(WINNER_MARK)]
    for col in marked:
        assert row[col]["background"] not in ("rgba(0, 0, 0, 0)", "transparent"), row[col]
        assert int(row[col]["weight"]) >= 600, row[col]
    if marked:
        tint = row[marked[0]]["background"]
        assert all(cell["background"] != tint for col, cell in row.items() if col not in marked)
    return marked


def set_k(page, value: int) -> None:
    slider = page.get_by_test_id("stSlider").filter(has_text="K — how many results").first
    thumb = slider.locator("input[type=range]")       # react-aria's slider: a hidden range input
    current = int(thumb.input_value())
    thumb.focus()
    key = "ArrowRight" if value > current else "ArrowLeft"
    with expect_app_run(page):                         # the slider sends its value a moment later
        for _ in range(abs(value - current)):
            page.keyboard.press(key)
    assert int(thumb.input_value()) == value


def test_moving_k_from_2_to_5_moves_the_precision_winner(choosing):
    page = choosing
    assert board(page).locator(".rb-card").count() == 6      # the visible tab's six documents
    table = results(page)
    assert highlighted(table["P@2"]) == ["Ranking 1"]
    assert highlighted(table["R@2"]) == ["Ranking 1"]
    assert table["P@2"]["Ranking 1"]["text"].endswith("1.00")
    info = page.get_by_test_id("stAlert").filter(has_text="At K = 2").first
    assert "Ranking 1 scores highest on both precision" in info.inner_text()

    set_k(page, 5)
    page.get_by_test_id("stTable").filter(has_text="P@5").wait_for()
    table = results(page)
    assert highlighted(table["P@5"]) == ["Ranking 3"]
    assert highlighted(table["R@5"]) == ["Ranking 3"]
    assert table["P@5"]["Ranking 3"]["text"].endswith("0.60")
    assert [table["AP"][f"Ranking {n}"]["text"].split()[-1] for n in (1, 2, 3)] == \
        ["0.83", "0.47", "0.48"]
    info = page.get_by_test_id("stAlert").filter(has_text="At K = 5").first
    assert "Ranking 3 scores highest on both precision" in info.inner_text()
    # the boards draw the new cut-off
    assert "top K = 5" in board(page).locator(".rb-cut").inner_text()
