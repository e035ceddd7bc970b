"""Screenshots of a class room (not a test): the projector and the phones, light and dark.

    python tests/browser/room_screenshots.py [outdir]      # default /tmp/rooms

Writes teacher_{1920,1366}_{light,dark}_{choose,asked,revealed,next,own}.png (choosing an A-or-B
question and its preview; three students answered; the reveal; choosing the next question
while the tally stays; writing one's own) and
student_{light,dark}_{join,question,answered,revealed,closed}.png (390x844, touch, 2x).
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.browser.helpers import launch_browser, open_app, streamlit_app  # noqa: E402
from tests.browser.waiting import wait_for_app_run  # noqa: E402

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
    os.environ["IRLAB_ROOMS_PER_ADDRESS"] = "20"    # every browser here is one address
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

            def click(page, role, name):
                page.get_by_role(role, name=name, exact=True).click()
                wait_for_app_run(page)

            def teachers_shot(name):
                """The 1366 page follows the 1920 one's address (room, key and preview)."""
                teachers["1366"].goto(first.url)
                wait_for_app_run(teachers["1366"])
                for size, teacher in teachers.items():
                    shot(teacher, f"teacher_{size}_{scheme}_{name}")

            click(first, "button", "Open a room")
            code = first.locator(".room-code").inner_text().strip()
            click(first, "radio", "A or B?")
            teachers_shot("choose")
            click(first, "button", "Ask the class")
            first.get_by_text("0 answered").wait_for()
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
            first.get_by_text("3 answered").wait_for()
            teachers_shot("asked")
            click(first, "button", "Reveal the answer")
            teachers_shot("revealed")
            students[0].get_by_text("Right answer:").wait_for(timeout=20_000)
            shot(students[0], f"student_{scheme}_revealed")
            click(first, "button", "Next question")
            click(first, "radio", "Up, down, same?")
            teachers_shot("next")
            click(first, "radio", "Your own")
            first.get_by_role("textbox", name="Question").fill("Which metric would you report to your boss?")
            first.get_by_role("textbox", name="Answers, one a line (2 to 6)").fill(
                "Precision@10\nRecall@100\nNDCG@10\nWhatever makes us look good")
            first.get_by_role("textbox", name="Question").click()            # leaves the answers: they count
            wait_for_app_run(first)
            teachers_shot("own")
            click(first, "button", "Close the room")
            click(first, "button", "Close it now")
            students[0].get_by_text("closed room").wait_for(timeout=20_000)
            shot(students[0], f"student_{scheme}_closed")
            for page in [*teachers.values(), *students]:
                page.context.close()
        browser.close()
    return written


if __name__ == "__main__":
    for path in main(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/rooms")):
        print(path)
