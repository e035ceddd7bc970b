"""What a badge click's rerun costs: what it sends the browser (the numbers, not the
components' code), and the server's CPU against a bare Streamlit rerun.

The board's and the live charts' JavaScript (80 kB, one element's since issue 48) reaches a
tab once, with the page's full run; a fragment rerun sends a stub that calls it
(ui/shared/component_code.py). A tab that never got
the code (simulated here by forgetting it) asks for it, and the next run brings it back.
"""
from __future__ import annotations

import statistics

import pytest

from benchmarks.bench_interaction import server_cpu_seconds
from tests.browser.helpers import board_card, wait_for_app_run

pytestmark = [pytest.mark.browser, pytest.mark.serial]   # measures CPU or loads the machine

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


#: Server CPU per badge click over a bare ``st.toggle`` rerun's, one session at a time (the
#: lean form of ``benchmarks/bench_classroom.py``'s ratio, whose headline figure is this one:
#: the process's whole CPU per click; issue 48's target there is 1.5). A guard against growth,
#: not the target. Until 30 Nov 2026 the idle server's CPU over each click's wall time was
#: subtracted, which left the bare page's few milliseconds at the mercy of one idle reading:
#: with the idle servers at 26-36 ms/s that day, the same commit measured 1.66, 2.76 and 2.94
#: (a bare click 0.9 ms in places) while the whole CPU measured 1.19, 1.23 and 1.37 in the same
#: runs, and 1.39-1.72 in six more; the seventh look measured it at 1.48 (docs/benchmarks.md).
#: Past 2.2 a click costs clearly more than today's page.
MAX_CPU_RATIO = 2.2
CLICKS = 20


def click_cpu(page, pid: int, click) -> float:
    """The server's CPU seconds over one click's run (its polling meanwhile included, as in
    bench_classroom.py's headline figure)."""
    before = server_cpu_seconds(pid)
    click()
    wait_for_app_run(page)
    return server_cpu_seconds(pid) - before


def test_a_badge_clicks_server_cpu_stays_near_a_bare_rerun(start_app, open_page):
    app, bare = start_app("app.py"), start_app("toggle_app.py")
    page = open_page(app.url + "/playground", query="labels=00000010&k=2")
    board_card(page, rank=8).wait_for()
    badge = board_card(page, rank=1).locator(".rb-badge")
    ref = open_page(bare.url)
    toggle = ref.get_by_text("Bare toggle")
    for _ in range(2):                       # both states of the badge seen once: cached
        badge.click()
        wait_for_app_run(page)
        toggle.click()
        wait_for_app_run(ref)
    playground, reference = [], []
    for _ in range(CLICKS):                  # interleaved: a slow spell hits both alike
        playground.append(click_cpu(page, app.process.pid, badge.click))
        reference.append(click_cpu(ref, bare.process.pid, toggle.click))
    ratio = statistics.median(playground) / statistics.median(reference)
    assert ratio <= MAX_CPU_RATIO, (ratio, playground, reference)
