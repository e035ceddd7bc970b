"""Browser timing of the playground against a bare st.toggle, measured in the same run.

Medians of ``--n`` rounds, interleaved so a slow spell of this noisy machine hits all alike:
  (c)  the reference: a click on a lone st.toggle -> the rerun's last DOM change
  (a)  badge click -> the Recall tile shows the new number, and -> the rerun's last change
  (h)  a card held over another rank (mouse down): the card taking its new place in the list
       -> the tiles show the order as it would be if dropped (the look-up of ui/lessons/playground/preview.py)
  (b)  the drop (mouse-up) -> the numbers show the dropped order, and -> the rerun's last change
"numbers" is the first animation frame after the tile's text changed: the pixels. Targets:
(a) and (b) numbers <= 50 ms, (h) <= 20 ms. It also prints the server's CPU time per badge
click and per drop (from /proc of the playground's server process; target: no more than
before this change, ~17 ms per badge click), and the page script's own time under AppTest.

Read the ratios with the second reference it also times: (c') the same toggle app with
Streamlit's after-run garbage collection off (``--runner.postScriptGC false``). By default
Streamlit runs a full ``gc.collect()`` after every script run, and on this machine that
collection is most of (c). The playground's process freezes its long-lived objects first
(``gc.freeze()``), so its own collection is ~1 ms; a/c' is what the page costs over Streamlit's
bare round trip. Run: ``python benchmarks/bench_interaction.py [--n 20]``.
"""
from __future__ import annotations

import argparse
import contextlib
import logging
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import sync_playwright

from tests.browser.helpers import (board_card, hold_card_over, launch_browser, open_app,
                                   streamlit_app)

DONE = "[data-testid='stApp'][data-test-script-state='notRunning']"
RUNNING = "[data-testid='stApp'][data-test-script-state='running']"


def hold_over(page, src: int, dst: int) -> None:
    """Pick up the card at rank ``src`` and hold it over rank ``dst`` (mouse still down).

    ``hold_card_over`` (tests/browser/gestures.py) returns once the card has taken its new
    place and Sortable's swap animation is over: a ``page.mouse.up()`` next drops it there.
    """
    hold_card_over(page, board_card(page, rank=src), board_card(page, rank=dst))


#: True once the tiles have been painted with numbers looked up for the held card's place.
PREVIEW_PAINTED_JS = "() => window.__tilePainted.some((m) => m.move !== null)"


#: Times, on the page's clock, of each change of the tiles' text, of the first frame after it,
#: and of the last move of a card in the board's list before it.
WATCH_TILES_JS = """() => {
    if (window.__tileWatch) return;
    window.__tileWatch = true;
    window.__lastMove = null;
    // SortableJS moves the held card's place in the list on a drag event (or, while its
    // 150 ms swap animation runs, a little later): that DOM change is what the learner sees.
    const host = [...document.querySelectorAll('*')].find(
        (e) => e.shadowRoot && e.shadowRoot.querySelector('.rb-list'));
    new MutationObserver(() => { window.__lastMove = performance.now(); })
        .observe(host.shadowRoot.querySelector('.rb-list'), {childList: true});
    const tiles = document.querySelector('.lc-tiles');
    new MutationObserver(() => {
        const changed = performance.now(), move = window.__lastMove;
        requestAnimationFrame(() => window.__tilePainted.push(
            {painted: performance.now(), changed, move}));
    }).observe(tiles, {childList: true, characterData: true, subtree: true});
    window.__tilePainted = [];
}"""


def server_cpu_seconds(pid: int) -> float:
    """CPU time of a process so far, its ended threads included (a script run's).

    Read from the process's CPU clock (Linux: clock id ``(~pid << 3) | 2``, nanoseconds):
    /proc's utime and stime count 10 ms ticks, too coarse for a click of a few milliseconds.
    """
    return time.clock_gettime(((~pid) << 3) | 2)


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


def painted_after(page, start: float) -> float | None:
    """Seconds from ``start`` (page clock, ms) to the first frame showing new tiles."""
    marks = [m["painted"] for m in page.evaluate("() => window.__tilePainted") if m["painted"] >= start]
    return (min(marks) - start) / 1000 if marks else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=20)
    args = parser.parse_args()
    names = ["(c) bare toggle", "(c') toggle, no GC", "(a) badge -> numbers", "(a) badge -> rerun",
             "(h) swap -> tiles set", "(h) swap -> painted", "(b) drop -> numbers",
             "(b) drop -> rerun"]
    results: dict[str, list[float]] = {name: [] for name in names}
    cpu = {"badge": 0.0, "drop": 0.0}
    with sync_playwright() as pw:
        browser = launch_browser(pw)
        with (streamlit_app("app.py") as app, streamlit_app("toggle_app.py") as ref,
              streamlit_app("toggle_app.py", extra_args=["--runner.postScriptGC", "false"])
              as ref_nogc):
            ref_page = open_app(browser, ref.url)
            toggle = ref_page.get_by_text("Bare toggle")
            nogc_page = open_app(browser, ref_nogc.url)
            nogc_toggle = nogc_page.get_by_text("Bare toggle")
            # one relevant picture at rank 7: every hold over rank 1 changes Recall@2
            page = open_app(browser, app.url + "/playground", width=1366, height=768,
                            query="labels=00000010&k=2")
            board_card(page, rank=8).wait_for()
            page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot').length == 2")
            page.evaluate(WATCH_TILES_JS)
            badge = board_card(page, rank=1).locator(".rb-badge")
            for i in range(args.n):
                results["(c) bare toggle"].append(timed_rerun(ref_page, toggle.click))
                results["(c') toggle, no GC"].append(timed_rerun(nogc_page, nogc_toggle.click))

                before = server_cpu_seconds(app.process.pid)
                results["(a) badge -> rerun"].append(timed_rerun(page, badge.click))
                cpu["badge"] += server_cpu_seconds(app.process.pid) - before
                start = page.evaluate("() => window.__start")
                results["(a) badge -> numbers"].append(painted_after(page, start))

                # rank 7 (relevant, or back at 7 after the last round) over rank 1, and back
                src, dst = (7, 1) if i % 2 == 0 else (1, 7)
                page.evaluate("() => { window.__tilePainted = []; }")
                hold_over(page, src, dst)
                with contextlib.suppress(PlaywrightTimeout):    # none painted: no (h) sample this round
                    page.wait_for_function(PREVIEW_PAINTED_JS, timeout=2_000, polling="raf")
                marks = page.evaluate("() => window.__tilePainted")
                preview = [m for m in marks if m["move"] is not None]
                if preview:
                    results["(h) swap -> tiles set"].append(
                        (preview[-1]["changed"] - preview[-1]["move"]) / 1000)
                    results["(h) swap -> painted"].append(
                        (preview[-1]["painted"] - preview[-1]["move"]) / 1000)
                before = server_cpu_seconds(app.process.pid)
                results["(b) drop -> rerun"].append(timed_rerun(page, page.mouse.up))
                cpu["drop"] += server_cpu_seconds(app.process.pid) - before
                # the numbers already show the dropped order: 0 unless the drop changed them
                start = page.evaluate("() => window.__start")
                late = painted_after(page, start)
                results["(b) drop -> numbers"].append(late or 0.0)
            for p in (page, ref_page, nogc_page):
                p.context.close()
        browser.close()

    measured = {name: [x for x in v if x is not None] for name, v in results.items()}
    medians = {name: statistics.median(v) for name, v in measured.items() if v}
    for name, value in medians.items():
        missed = len(results[name]) - len(measured[name])
        print(f"{name:24s} median {value * 1000:7.1f} ms  (n={len(measured[name])}"
              + (f"; {missed} without a change seen" if missed else "") + ")")
    ref, bare = medians["(c) bare toggle"], medians["(c') toggle, no GC"]
    for name in ("(a) badge -> numbers", "(a) badge -> rerun", "(b) drop -> numbers",
                 "(b) drop -> rerun"):
        if name in medians:
            print(f"{name:24s} / (c) = {medians[name] / ref:.2f}   / (c') = {medians[name] / bare:.2f}")
    print("targets: badge and drop -> numbers <= 50 ms; hold (swap) -> painted <= 20 ms")
    for kind, seconds in cpu.items():
        print(f"server CPU per {kind}: {seconds / args.n * 1000:.1f} ms "
              f"(playground's server process, {args.n} {kind}s; before this change ~17 ms "
              "per badge click)")
    print(f"playground script (AppTest run, median of 30): {page_script_ms():.1f} ms "
          "(includes AppTest's own overhead)")


if __name__ == "__main__":
    main()
