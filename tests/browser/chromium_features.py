"""Chromium features the tests and benchmarks turn off, on top of Playwright's own.

Headless Chromium 156 (Debian's) opens, for every browser context, a WebUI page for the
address bar's suggestion popup (``chrome://omnibox-popup.top-chrome/``) in a renderer process
of its own, which nobody sees in a headless browser: that renderer's ~0.55-0.75 s of CPU per
new context, out of ~4 s for a context that loads the playground (docs/benchmarks.md, "The
browser tests' CPU").

Chromium reads one ``--disable-features`` switch (the last one given), and Playwright passes
its own list (features it turns off so that the browser calls no Google service at start-up
and its tests stay deterministic). So the switch given here repeats Playwright's list, read from
the installed Playwright, and adds ours; if that list cannot be read, nothing is added and the
popup stays (tests/browser/test_chromium_features.py then fails and says so).
"""
from __future__ import annotations

import functools
import re
from pathlib import Path

#: Off in every browser the tests and benchmarks launch.
OURS = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup")

#: Where Playwright's driver defines the list, newest layout first.
_SOURCES = ("lib/coreBundle.js", "lib/server/chromium/chromiumSwitches.js")
_LIST = re.compile(r"disabledFeatures\s*=\s*(?:\([^)]*\)\s*=>\s*)?\[(.*?)\]", re.DOTALL)


@functools.lru_cache(maxsize=1)
def playwright_disabled_features() -> tuple[str, ...]:
    """The features the installed Playwright disables in Chromium, in its order; () if its
    driver's source cannot be found or read."""
    import playwright

    package = Path(playwright.__file__).resolve().parent / "driver" / "package"
    for source in _SOURCES:
        path = package / source
        if not path.is_file():
            continue
        found = _LIST.search(path.read_text(encoding="utf-8", errors="replace"))
        if found:
            body = re.sub(r"//[^\n]*", "", found.group(1))     # its comments name features too
            return tuple(re.findall(r"""["']([A-Za-z0-9_]+)["']""", body))
    return ()


def disable_features_args() -> list[str]:
    """``["--disable-features=<Playwright's>,<ours>"]``, or [] if Playwright's list is unknown."""
    theirs = playwright_disabled_features()
    if not theirs:
        return []
    return ["--disable-features=" + ",".join(dict.fromkeys(theirs + OURS))]
