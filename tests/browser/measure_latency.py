"""Rough rerun latency: ranking-board actions vs a bare st.toggle (not a test).

    python tests/browser/measure_latency.py [tries]

For each action it times, in the page, from just before the input event until
the rerun it caused has been rendered (the app's "runs=N" line changed and
data-test-script-state is "notRunning"; a fast run may never show "running"
at all, so that attribute alone cannot be watched). It also checks that each
action caused exactly one rerun and how fast the board repaints locally.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from tests.browser.helpers import (  # noqa: E402
    board_card,
    hold_card_over,
    launch_browser,
    open_app,
    streamlit_app,
    text_line,
    wait_for_app_idle,
    wait_for_app_run,
)

ARM = """() => {
  const runsText = () => [...document.querySelectorAll('[data-testid=stText]')]
    .map(e => e.textContent).find(t => t.startsWith('runs=')) || '';
  const app = document.querySelector('[data-testid=stApp]');
  const start = runsText();
  window.__done = new Promise(resolve => {
    const obs = new MutationObserver(() => {
      if (runsText() !== start && app.getAttribute('data-test-script-state') === 'notRunning') {
        obs.disconnect();
        resolve(performance.now());
      }
    });
    obs.observe(app, {subtree: true, childList: true, characterData: true, attributes: true});
  });
  return performance.now();
}"""


def _runs(page: Page) -> int:
    return int(text_line(page, "runs=").split()[0])


def time_key(page: Page, target, tries: int) -> tuple[list[float], list[int]]:
    """Focus ``target()`` and press Space (activates a button or a switch)."""
    times, reruns = [], []
    for _ in range(tries):
        target().focus()
        before = _runs(page)
        t0 = page.evaluate(ARM)
        page.keyboard.press("Space")
        times.append(page.evaluate("() => window.__done") - t0)
        wait_for_app_idle(page)  # a second rerun would be asked for and waited for here
        reruns.append(_runs(page) - before)
    return times, reruns


def time_drop(page: Page, tries: int) -> tuple[list[float], list[int]]:
    """Mouse-drag rank 2 onto rank 1; time from the mouse-up."""
    times, reruns = [], []
    for _ in range(tries):
        before = _runs(page)
        hold_card_over(page, board_card(page, rank=2), board_card(page, rank=1))
        t0 = page.evaluate(ARM)
        page.mouse.up()
        times.append(page.evaluate("() => window.__done") - t0)
        wait_for_app_idle(page)
        reruns.append(_runs(page) - before)
    return times, reruns


def local_repaint(page: Page, tries: int) -> list[float]:
    """How long the board takes to show a badge change itself (no server)."""
    out = []
    for _ in range(tries):
        out.append(
            page.evaluate(
                """() => {
                  const root = document.querySelector('[data-testid=stBidiComponentIsolated]').shadowRoot;
                  const b = root.querySelector('.rb-card[data-item-id=i6] .rb-badge');
                  const g = b.dataset.grade, t0 = performance.now();
                  b.click();
                  return b.dataset.grade !== g ? performance.now() - t0 : -1;
                }"""
            )
        )
        wait_for_app_run(page)
    return out


def main(tries: int = 10) -> None:
    with streamlit_app("board_app.py") as app, sync_playwright() as pw:
        browser = launch_browser(pw)
        page = open_app(browser, app.url, height=1100)
        toggle = lambda: page.get_by_role("switch", name="Bare toggle")  # noqa: E731
        badge = lambda: board_card(page, item_id="i5").locator(".rb-badge")  # noqa: E731
        down = lambda: board_card(page, rank=4).locator(".rb-down")  # noqa: E731
        time_key(page, toggle, 3)  # warm up
        time_key(page, badge, 3)
        results = {}
        for name, target in (("st.toggle", toggle), ("board badge", badge), ("board ▼ button", down)):
            results[name] = time_key(page, target, tries)
        results["board drop"] = time_drop(page, tries)
        repaint = local_repaint(page, tries)
        browser.close()
    for name, (times, reruns) in results.items():
        print(
            f"{name:15s} median {statistics.median(times):6.1f} ms "
            f"(min {min(times):5.1f}, max {max(times):6.1f}, n={len(times)}); "
            f"reruns per action: {sorted(set(reruns))}"
        )
    print(f"board repaints itself before the rerun in {statistics.median(repaint):.2f} ms (median)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
