"""Screenshots of Lesson 8 ("Your own judgments") with the TREC samples loaded (not a test).

    python tests/browser/upload_screenshots.py [outdir] [query]     # default /tmp/shots/upload

For each size (1366x768, 1920x1080, 390x844) and theme: the page after "Load the samples"
(the view the page scrolls to), then the systems table, the per-query section, the
comparison and the report button, each scrolled into view; and the whole page.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.browser.helpers import (  # noqa: E402
    expect_app_run, launch_browser, open_app, streamlit_app, wait_for_app_run)

SIZES = {"laptop": dict(width=1366, height=768), "projector": dict(width=1920, height=1080),
         "phone": dict(width=390, height=844, is_mobile=True, has_touch=True,
                       device_scale_factor=2)}
SECTIONS = ("2. Scores", "3. ", "4. One ", "5. Does it beat the baseline?", "6. Hand it on")


def main(out: Path, query: str = "input=trec") -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with streamlit_app("app.py") as app, sync_playwright() as pw:
        browser = launch_browser(pw)
        for scheme in ("light", "dark"):
            for name, size in SIZES.items():
                page = open_app(browser, f"{app.url}/upload", color_scheme=scheme, query=query,
                                **size)
                with expect_app_run(page):
                    page.get_by_role("button", name="Load the samples").click()
                wait_for_app_run(page)
                page.wait_for_timeout(800)          # the smooth scroll to the scores
                written.append(out / f"upload_{name}_{scheme}_loaded.png")
                page.screenshot(path=written[-1])
                for i, heading in enumerate(SECTIONS):
                    page.get_by_role("heading", name=heading).first.evaluate(
                        "h => h.scrollIntoView({block: 'start'})")
                    written.append(out / f"upload_{name}_{scheme}_{i + 2}.png")
                    page.screenshot(path=written[-1])
                page.context.close()
        browser.close()
    return written


if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/tmp/shots/upload")
    for path in main(folder, *(sys.argv[2:3])):
        print(path)
