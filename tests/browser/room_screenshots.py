"""Screenshots of a class room (not a test): the projector and the phones, light and dark.

    python tests/browser/room_screenshots.py [outdir]      # default /tmp/rooms

Writes teacher_{1920,1366}_{light,dark}_{asked,revealed}.png (three students answered) and
student_{light,dark}_{join,question,answered,revealed}.png (390x844, touch, 2x).
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.browser.helpers import launch_browser, open_app, streamlit_app  # noqa: E402

PHONE = dict(width=390, height=844, is_mobile=True, has_touch=True, device_scale_factor=2)
TEACHERS = {"1920": dict(width=1920, height=1080), "1366": dict(width=1366, height=768)}


def settle(page) -> None:
    """Until the page's pictures and the tally's chart have drawn."""
    page.wait_for_function("() => [...document.images].every(i => i.complete)")
    if page.locator(".stPlotlyChart").count():
        page.locator(".stPlotlyChart .main-svg").first.wait_for()


def main(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    os.environ["IRLAB_ROOMS_DB"] = str(Path(tempfile.mkdtemp()) / "rooms.sqlite3")
    written = []

    def shot(page, name):
        settle(page)
        written.append(out / f"{name}.png")
        page.screenshot(path=written[-1])

    with streamlit_app("app.py") as app, sync_playwright() as pw:
        browser = launch_browser(pw)
        for scheme in ("light", "dark"):
            teachers = {size: open_app(browser, app.url + "/room", color_scheme=scheme, **vp)
                        for size, vp in TEACHERS.items()}
            first = teachers["1920"]
            first.get_by_role("button", name="Open a room").click()
            first.locator(".room-code").wait_for()
            code = first.locator(".room-code").inner_text().strip()
            first.get_by_role("button", name="Which ranking is higher, A or B?").click()
            first.get_by_text("0 answered").wait_for()
            teachers["1366"].goto(first.url)                   # the same room, smaller screen
            students = [open_app(browser, f"{app.url}/join", color_scheme=scheme, **PHONE)]
            shot(students[0], f"student_{scheme}_join")
            students[0].goto(f"{app.url}/join?code={code}")
            students += [open_app(browser, f"{app.url}/join?code={code}", color_scheme=scheme,
                                  **PHONE) for _ in range(2)]
            answers = students[0].locator(".st-key-join_answers button")
            answers.first.wait_for()
            shot(students[0], f"student_{scheme}_question")
            for n, student in enumerate(students):
                student.locator(".st-key-join_answers button").nth(n % 2).click()
                student.get_by_text("Waiting for the reveal").wait_for()
            shot(students[0], f"student_{scheme}_answered")
            for size, teacher in teachers.items():
                teacher.get_by_text("3 answered").wait_for()
                shot(teacher, f"teacher_{size}_{scheme}_asked")
            first.get_by_role("button", name="Reveal the answer").click()
            for size, teacher in teachers.items():
                teacher.get_by_text("Right answer:").wait_for()
                shot(teacher, f"teacher_{size}_{scheme}_revealed")
            students[0].get_by_text("Right answer:").wait_for(timeout=20_000)
            shot(students[0], f"student_{scheme}_revealed")
            for page in [*teachers.values(), *students]:
                page.context.close()
        browser.close()
    return written


if __name__ == "__main__":
    for path in main(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/rooms")):
        print(path)
