"""A/B timing of the playground: the same badge click (and drag) on several checkouts at once.

bench_interaction.py says how fast the playground is; this says whether a change made it
faster. One bare-toggle reference and one server per checkout run side by side, and every
round times each of them once, so a slow spell of a noisy machine hits all alike. Prints
medians and each one's ratio to the toggle. Example, this commit against the one before::

    git worktree add /tmp/before HEAD~1
    python benchmarks/ab_interaction.py /tmp/before . [--n 25] [--drag]
    git worktree remove /tmp/before

Differences under ~3 ms are within the noise of 25 rounds on the 2-core development machine.
"""
from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright

from benchmarks.bench_interaction import hold_over, timed_rerun
from tests.browser.helpers import board_card, launch_browser, open_app, streamlit_app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("checkouts", nargs="+", type=Path, help="folders holding app.py")
    parser.add_argument("--n", type=int, default=25, help="rounds (default 25)")
    parser.add_argument("--drag", action="store_true", help="also time a drag per round")
    args = parser.parse_args()
    results: dict[str, list[float]] = {"toggle": []}
    with sync_playwright() as pw, contextlib.ExitStack() as stack:
        browser = launch_browser(pw)
        ref = stack.enter_context(streamlit_app("toggle_app.py"))
        ref_page = open_app(browser, ref.url)
        pages = []
        for checkout in args.checkouts:
            app = stack.enter_context(streamlit_app("app.py", root=checkout))
            page = open_app(browser, app.url + "/playground")
            board_card(page, rank=8).wait_for()
            pages.append((str(checkout), page))
        for i in range(args.n):
            results["toggle"].append(timed_rerun(ref_page, ref_page.get_by_text("Bare toggle").click))
            for name, page in pages:
                badge = board_card(page, rank=3).locator(".rb-badge")
                results.setdefault(f"{name} badge", []).append(timed_rerun(page, badge.click))
                if args.drag:
                    src, dst = (2, 1) if i % 2 == 0 else (1, 2)
                    results.setdefault(f"{name} drag", []).append(timed_rerun(
                        page, page.mouse.up, before=lambda p=page, s=src, d=dst: hold_over(p, s, d)))
    toggle = statistics.median(results["toggle"])
    for name, times in results.items():
        median = statistics.median(times)
        print(f"{name:40s} median {median * 1000:6.1f} ms   /toggle {median / toggle:.2f}")


if __name__ == "__main__":
    main()
