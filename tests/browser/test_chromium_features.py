"""The browsers the tests launch keep Playwright's disabled features and drop the address
bar's hidden WebUI popup (tests/browser/chromium_features.py)."""
from __future__ import annotations

import os

import pytest

if os.environ.get("IRLAB_BROWSER_TESTS", "").lower() != "required":
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from tests.browser.chromium_features import (  # noqa: E402
    OURS,
    disable_features_args,
    playwright_disabled_features,
)

pytestmark = pytest.mark.browser


def test_playwrights_list_is_read_whole():
    """Read from the installed driver: the features that keep Chromium from calling Google at
    start-up are in it, and no comment's words are."""
    theirs = playwright_disabled_features()
    assert {"PaintHolding", "NetworkTimeServiceQuerying", "OptimizationHints"} <= set(theirs)
    assert all(name.isidentifier() for name in theirs), theirs
    (switch,) = disable_features_args()
    assert switch.split("=", 1)[1].split(",") == [*theirs, *OURS]


def test_a_new_context_opens_no_omnibox_popup(browser):
    """What the switch is for: with Playwright's switch alone, Chromium 156 adds two
    chrome://omnibox-popup.top-chrome/ targets to every new context."""
    session = browser.new_browser_cdp_session()
    context = browser.new_context()
    try:
        context.new_page().goto("about:blank")
        targets = session.send("Target.getTargets")["targetInfos"]
    finally:
        context.close()
        session.detach()
    assert "page" in [t["type"] for t in targets]
    assert [t["url"] for t in targets if "omnibox" in t["url"]] == []
