"""Screenshots of the ranking-board test app (not a test).

    python tests/browser/screenshots.py [outdir]      # default /tmp

Writes board_{desktop,phone}_{light,dark}.png (what the viewport shows),
*_full.png (a viewport tall enough for the whole board) and
board_graded_{desktop,phone}_{light,dark}.png (graded mode, a picker open,
a title that looks like HTML). Desktop is 1280x800, phone 390x844 (touch, 2x).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.browser.helpers import (  # noqa: E402
    animation_frames,
    board_card,
    launch_browser,
    open_app,
    streamlit_app,
    wait_for_app_run,
    wait_for_assets,
)

SIZES = {
    "desktop": dict(width=1280, height=800),
    "phone": dict(width=390, height=844, is_mobile=True, has_touch=True, device_scale_factor=2),
}


def main(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with streamlit_app("board_app.py") as app, sync_playwright() as pw:
        browser = launch_browser(pw)
        for scheme in ("light", "dark"):
            for name, size in SIZES.items():
                page = open_app(browser, app.url, color_scheme=scheme, **size)
                wait_for_assets(page)                    # the cards' pictures and the fonts
                written.append(out / f"board_{name}_{scheme}.png")
                page.screenshot(path=written[-1])
                page.set_viewport_size({"width": size["width"], "height": 2400 if name == "phone" else 1100})
                animation_frames(page)                   # laid out again at the new size
                written.append(out / f"board_{name}_{scheme}_full.png")
                page.screenshot(path=written[-1])
                page.context.close()

                page = open_app(browser, app.url, color_scheme=scheme, query="xss=1", **size)
                page.get_by_test_id("stRadio").get_by_text("graded").click()
                wait_for_app_run(page)
                for item, key in (("i2", "3"), ("i1", "4")):
                    board_card(page, item_id=item).focus()
                    page.keyboard.press(key)
                    wait_for_app_run(page)
                board_card(page, item_id="i3").locator(".rb-badge").click()
                board_card(page, item_id="i3").locator(".rb-picker").wait_for()   # the grade picker
                wait_for_assets(page)
                if name == "phone":
                    page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTop = 150")
                written.append(out / f"board_graded_{name}_{scheme}.png")
                page.screenshot(path=written[-1])
                page.context.close()
        browser.close()
    return written


if __name__ == "__main__":
    for path in main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/tmp")):
        print(path)
