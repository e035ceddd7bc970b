"""Issue 48's floors: what a class's click costs on the playground's page before its live element.

    python benchmarks/class_floor.py --floor chrome    # the app's navigation, a one-toggle fragment
    python benchmarks/class_floor.py --floor page      # the playground's page, its live element
                                                       # replaced by that fragment
    python benchmarks/class_floor.py --floor none      # the playground as it is
    python benchmarks/class_floor.py --own-browsers    # one Chromium per session, not 30 contexts

bench_classroom.py's class (30 sessions clicking at the same moment, 6 rounds) and its bare
``st.toggle`` page in the same run, on a scratch copy of this checkout's tracked files whose
``pages/playground.py`` is the floor:

- ``chrome``: only what every page of the course has (``app.py``'s navigation and sidebar, the
  theme, the page setup), then a fragment holding a ``st.toggle`` and a ``st.text``;
- ``page``: the playground's page line for line (its heading, buttons, popover, controls, the
  metric's pros and cons, captions, links), with ``live_part`` (the board, the charts, the
  formula and the address they write) replaced by that fragment;
- ``none``: this checkout's playground, clicked as bench_classroom.py clicks it.

A click on the floors' toggle reruns its fragment: a rerun that changes one widget, the least
any fragment's rerun can be. The ratios to the bare page say how much of the targets (server CPU
per click <= 1.5x, click -> last change p95 <= 2x) the page's own structure spends before the
board draws anything. ``--own-browsers`` gives each session its own Chromium (a student's own
browser process: its URL bar, its history), where the class otherwise shares one browser process.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_classroom import PLAYGROUND, Target  # noqa: E402
from benchmarks.class_report import report_classes  # noqa: E402

PAGE = "pages/playground.py"
#: The one-widget fragment both floors click; its key names it for the class's selectors.
FRAGMENT = '''@st.fragment
def live_part() -> None:
    st.session_state["floor_runs"] = st.session_state.get("floor_runs", 0) + 1
    with st.container(key="floor"):
        st.toggle("Bare toggle", key="floor_bare")
        st.text(f"runs={st.session_state.floor_runs}")
'''
CHROME = f'''"""A floor of benchmarks/class_floor.py: the course's navigation and one fragment."""
from ui.shared.course import through_app_navigation

through_app_navigation()

import streamlit as st


{FRAGMENT}

live_part()
'''
FLOOR = Target("/playground", ".st-key-floor [data-testid=stCheckbox] input",
               ".st-key-floor [data-testid=stText]")
FLOORS = ("chrome", "page", "none")
_START, _END = "@st.fragment\ndef live_part()", "\nlive_part()\n"


def floor_page(floor: str, playground: str) -> str:
    """The source of ``pages/playground.py`` for ``floor`` (``playground``: today's source)."""
    if floor == "chrome":
        return CHROME
    start, end = playground.find(_START), playground.find(_END)
    if start < 0 or end < start:
        raise SystemExit(f"{PAGE}: no '{_START}' ... '{_END.strip()}' to replace; "
                         "benchmarks/class_floor.py needs its live part as one fragment")
    return playground[:start] + FRAGMENT + playground[end:]


def scratch_copy(floor: str, into: Path) -> Path:
    """This checkout's tracked files in ``into``, ``pages/playground.py`` the floor's."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                           capture_output=True).stdout.decode().split("\0")
    for name in filter(None, files):
        source, target = ROOT / name, into / name
        if source.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    page = into / PAGE
    page.write_text(floor_page(floor, page.read_text(encoding="utf-8")), encoding="utf-8")
    return into


class OwnBrowsers:
    """Stands in for a Browser in bench_classroom.py: every new context is a new Chromium."""

    def __init__(self, playwright) -> None:
        self.playwright, self.browsers = playwright, []

    def new_context(self, **kwargs):
        from tests.browser.helpers import launch_browser
        browser = launch_browser(self.playwright)
        self.browsers.append(browser)
        return browser.new_context(**kwargs)

    def close(self) -> None:
        for browser in self.browsers:
            browser.close()


def main() -> None:
    from benchmarks import class_order
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--floor", choices=FLOORS, default="page")
    parser.add_argument("--own-browsers", action="store_true",
                        help="one Chromium per session instead of one context each in one")
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--order", choices=class_order.ORDERS, default=class_order.ORDERS[0])
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from tests.browser.helpers import launch_browser
    with tempfile.TemporaryDirectory(prefix="irlab-floor-") as scratch:
        root = ROOT if args.floor == "none" else scratch_copy(args.floor, Path(scratch))
        run = argparse.Namespace(sessions=args.sessions, rounds=args.rounds, no_drag=True,
                                 processes=1, profile=None, no_reference=False,
                                 order=args.order, root=root)
        load = os.getloadavg()[0]
        with sync_playwright() as pw:
            browser = OwnBrowsers(pw) if args.own_browsers else launch_browser(pw)
            try:
                result, reference = class_order.run_both(
                    browser, run, PLAYGROUND if args.floor == "none" else FLOOR)
            finally:
                browser.close()
    print(f"floor: {args.floor}" + (", one Chromium per session" if args.own_browsers else ""))
    report_classes(result, reference, 1, args.order, load, targets=False)

if __name__ == "__main__":
    main()
