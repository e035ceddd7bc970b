"""What a badge click's rerun sends the browser: the numbers, not the components' code.

The board's and the live charts' JavaScript (80 kB) reaches a tab once, with the page's full
run; a fragment rerun sends a stub that calls it (ui/component_code.py). A tab that never got
the code (simulated here by forgetting it) asks for it, and the next run brings it back.
"""
from __future__ import annotations

import pytest

from tests.browser.helpers import board_card, wait_for_app_run

pytestmark = pytest.mark.browser

#: Bytes a badge click's rerun may send: the board's and the charts' data with their preview
#: tables (~11 kB), the formula and Streamlit's own messages. With the components' code it was
#: ~77 kB (benchmarks/bench_classroom.py; git log -- README.md has the measurement).
MAX_RERUN_BYTES = 40_000


def received_bytes(page) -> list[int]:
    """A list that grows with the size of every websocket frame the page receives."""
    sizes: list[int] = []
    page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda payload: sizes.append(len(payload))))
    return sizes


def tiles(page) -> list[str]:
    return page.locator(".lc-tile-value").all_inner_texts()


def test_a_badge_click_sends_the_numbers_not_the_code(start_app, open_page):
    app = start_app("app.py")
    page = open_page(app.url + "/playground", query="k=2")
    sizes = received_bytes(page)
    page.reload()                            # a new session's websocket, seen from its start
    board_card(page, rank=8).wait_for()
    wait_for_app_run(page)
    full_run = sum(sizes)
    assert full_run > 80_000                 # the page's full run brings the code (and pictures)

    before = tiles(page)
    sizes.clear()
    board_card(page, rank=1).locator(".rb-badge").click()
    wait_for_app_run(page)
    assert tiles(page) != before             # the numbers followed
    assert 0 < sum(sizes) < MAX_RERUN_BYTES, sizes

    # A tab without the code: the stub asks for it and the next run brings it.
    page.evaluate("() => { delete globalThis.__irlabCode; }")
    before = tiles(page)
    board_card(page, rank=1).locator(".rb-badge").click()
    wait_for_app_run(page)
    page.wait_for_function("() => globalThis.__irlabCode && globalThis.__irlabCode.irlab_ranking_board"
                           " && globalThis.__irlabCode.irlab_live_chart")
    wait_for_app_run(page)
    assert tiles(page) != before
    board_card(page, rank=1).locator(".rb-badge").click()       # and it works as before
    wait_for_app_run(page)
    assert tiles(page) == before
