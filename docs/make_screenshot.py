"""Remake docs/playground.png, the README's picture of the playground (Lesson 1).

The app is started exactly as the README says (``tests.browser.helpers.readme_app``, a free
port on 127.0.0.1) and shown in Debian's Chromium (``/usr/bin/chromium``) at 1440 x 900, light
theme, once its first run has ended and the board's cards are drawn.

Run from the repository's root: ``python docs/make_screenshot.py`` (``--out`` for another
file). Needs requirements-dev.txt (Playwright) and ``apt-get install chromium``.

The sidebar's titles, as the page showed them, go into the PNG (a text chunk, "navigation"):
``tests/test_docs_course.py`` fails when they differ from the app's navigation, so a new or
renamed lesson asks for a new picture.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    sys.path.insert(0, str(ROOT))
    from playwright.sync_api import sync_playwright

    from tests.browser import waiting
    from tests.browser.helpers import launch_browser, open_app, readme_app, wait_until
    waiting.TIMEOUT_MS = 180_000        # a busy machine's first run imports everything
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "playground.png")
    parser.add_argument("--width", type=int, default=1440)
    parser.add_argument("--height", type=int, default=900)
    args = parser.parse_args()
    with readme_app() as app, sync_playwright() as playwright:
        browser = launch_browser(playwright)
        try:
            page = open_app(browser, f"{app.url}/playground", width=args.width,
                            height=args.height)
            wait_until(page, lambda: page.locator(".rb-card").count() == 8, timeout_ms=60_000)
            wait_until(page, lambda: page.locator(".js-plotly-plot").count() >= 2,
                       timeout_ms=60_000)
            page.screenshot(path=str(args.out))
            links = "[data-testid=stSidebarNavLink] [data-testid=stMarkdownContainer]"
            titles = page.locator(links).all_inner_texts()
            _label(args.out, [" ".join(t.split()) for t in titles])
        finally:
            browser.close()
    print(f"wrote {args.out}")


def _label(path: Path, titles: list[str]) -> None:
    """Write the navigation the picture shows into the PNG itself."""
    from PIL import Image
    from PIL.PngImagePlugin import PngInfo
    info = PngInfo()
    info.add_text("navigation", "\n".join(titles))
    with Image.open(path) as shot:
        shot.load()
        shot.save(path, pnginfo=info, optimize=True)


if __name__ == "__main__":
    main()
