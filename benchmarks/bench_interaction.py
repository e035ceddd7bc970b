"""Browser timing of the playground against a bare st.toggle, measured in the same run.

Times, 20 times each (median):
  (a) badge click on the board -> script finished with tiles and charts redrawn
  (b) a drag, from the drop (mouse-up) -> the same
  (c) the reference: a click on a lone st.toggle -> script finished
each from the page's own click / pointerup event to the last DOM change it caused
and prints a/c and b/c (target <= 1.1), plus the page script's own time measured with
AppTest (target < 30 ms). Run: ``python benchmarks/bench_interaction.py [--n 20]``.

Read the ratios with the second reference it also times: (c') the same toggle app with
Streamlit's after-run garbage collection off (``--runner.postScriptGC false``). By default
Streamlit runs a full ``gc.collect()`` after every script run, and on this machine that
collection is most of (c). The playground's process freezes its long-lived objects first
(``gc.freeze()`` in ``ui/__init__.py``), so its own collection is ~1 ms; a/c' is what the page
costs over Streamlit's bare round trip.
"""
from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright

from tests.browser.helpers import board_card, launch_browser, open_app, streamlit_app

DONE = "[data-testid='stApp'][data-test-script-state='notRunning']"
RUNNING = "[data-testid='stApp'][data-test-script-state='running']"


def hold_over(page, src: int, dst: int) -> None:
    """Pick up the card at rank ``src`` and hold it over rank ``dst`` (mouse still down)."""
    source, target = board_card(page, rank=src), board_card(page, rank=dst)
    source.scroll_into_view_if_needed()
    sb, tb = source.bounding_box(), target.bounding_box()
    sx, sy = sb["x"] + sb["width"] / 2, sb["y"] + sb["height"] / 2
    tx, ty = tb["x"] + tb["width"] / 2, tb["y"] + tb["height"] / 2
    page.mouse.move(sx, sy)
    page.mouse.down()
    for i in range(1, 13):
        page.mouse.move(sx + (tx - sx) * i / 12, sy + (ty - sy) * i / 12)
        page.wait_for_timeout(16)
    page.wait_for_timeout(400)          # Sortable's swap animation settles before the drop


def timed_rerun(page, action, quiet_ms: int = 400, before=None) -> float:
    """Seconds from the user's click or drop to the last change it caused on the page.

    The clock starts at the page's own click or drop event (seen by a capturing
    listener, through the board's shadow root too), not when Playwright starts its click:
    Playwright first locates, scrolls and waits for the element to be still, harness time
    that differs between a plain toggle and a card in a shadow root. A MutationObserver
    notes the time of every DOM change; once the page has been quiet for ``quiet_ms``, the
    last change is the end: the rerun's output (tiles, charts, or the reference app's run
    counter) has been drawn.
    """
    page.evaluate("""() => {
        if (window.__obs) window.__obs.disconnect();
        window.__last = null;
        window.__obs = new MutationObserver(() => { window.__last = performance.now(); });
        window.__obs.observe(document.body, {subtree: true, childList: true,
                                              characterData: true, attributes: true});
        if (!window.__armed) {
            window.__armed = true;
            const mark = () => { if (window.__start === null) window.__start = performance.now(); };
            // a drop is a pointerup, or with Sortable's native drag and drop a drop/dragend
            for (const type of ["click", "pointerup", "mouseup", "drop", "dragend"])
                window.addEventListener(type, mark, true);
        }
    }""")
    if before:
        before()
    page.evaluate("() => { window.__last = null; window.__start = null; }")
    action()
    page.wait_for_function(
        f"() => window.__last !== null && performance.now() - window.__last > {quiet_ms}",
        timeout=20_000)
    page.locator(DONE).wait_for(state="attached")
    start = page.evaluate("() => window.__start")
    if start is None:
        raise RuntimeError("the action sent no click, pointerup or drop event")
    return (page.evaluate("() => window.__last") - start) / 1000


def page_script_ms(repeat: int = 30) -> float:
    from streamlit.testing.v1 import AppTest
    at = AppTest.from_file(str(ROOT / "pages" / "playground.py"), default_timeout=30)
    at.run()
    # Setting session state between runs warns "missing ScriptRunContext"; it is harmless.
    # (After the first run: Streamlit sets its loggers' levels when it starts one.)
    logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").setLevel(
        logging.ERROR)
    times = []
    for i in range(repeat):
        at.session_state["pg_k"] = 1 + i % 8
        start = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=20)
    args = parser.parse_args()
    results = {"(c) bare toggle": [], "(c') toggle, no GC": [], "(a) badge click": [],
               "(b) drag": []}
    with sync_playwright() as pw:
        browser = launch_browser(pw)
        with (streamlit_app("app.py") as app, streamlit_app("toggle_app.py") as ref,
              streamlit_app("toggle_app.py", extra_args=["--runner.postScriptGC", "false"])
              as ref_nogc):
            ref_page = open_app(browser, ref.url)
            toggle = ref_page.get_by_text("Bare toggle")
            nogc_page = open_app(browser, ref_nogc.url)
            nogc_toggle = nogc_page.get_by_text("Bare toggle")
            page = open_app(browser, app.url + "/playground")
            badge = board_card(page, rank=3).locator(".rb-badge")
            # Interleaved, so a slow spell of this noisy machine hits all three alike.
            for i in range(args.n):
                results["(c) bare toggle"].append(timed_rerun(ref_page, toggle.click))
                results["(c') toggle, no GC"].append(timed_rerun(nogc_page, nogc_toggle.click))
                results["(a) badge click"].append(timed_rerun(page, badge.click))
                src, dst = (2, 1) if i % 2 == 0 else (1, 2)
                results["(b) drag"].append(timed_rerun(page, page.mouse.up,
                                                       before=lambda s=src, d=dst: hold_over(page, s, d)))
            for p in (page, ref_page, nogc_page):
                p.context.close()
        browser.close()

    medians = {name: statistics.median(v) for name, v in results.items()}
    for name, value in medians.items():
        print(f"{name:20s} median {value * 1000:7.1f} ms  (n={len(results[name])})")
    ref = medians["(c) bare toggle"]
    print(f"a/c = {medians['(a) badge click'] / ref:.2f}   (target <= 1.10)")
    print("b/c = {:.2f}   (from the drop, i.e. mouse-up; target <= 1.10)".format(
        medians["(b) drag"] / ref))
    bare = medians["(c') toggle, no GC"]
    print(f"against (c'), Streamlit's round trip without its after-run gc.collect(): "
          f"a/c' = {medians['(a) badge click'] / bare:.2f}   b/c' = {medians['(b) drag'] / bare:.2f}")
    print(f"playground script (AppTest run, median of 30): {page_script_ms():.1f} ms "
          "(target < 30 ms; includes AppTest's own overhead)")


if __name__ == "__main__":
    main()
