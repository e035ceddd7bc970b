"""A fresh server's first visit shows the course's navigation and never Streamlit's raw list of
the pages/ folder's files (app, beyond, choosing …): with that folder beside app.py, Streamlit
runs a fresh server's first session in its legacy mode, which drew the file list for the
seconds the first imports took (app.py and every page now call the navigation first).

Each case needs a server nobody has visited yet, started as the README says. A
MutationObserver, installed before the page's own scripts, records every sidebar label the
browser ever drew.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

if os.environ.get("IRLAB_BROWSER_TESTS", "").lower() != "required":
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from tests.browser.helpers import readme_app, wait_until  # noqa: E402
from ui.shared.course import sections  # noqa: E402

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
RAW = {"app"} | {path.stem for path in (ROOT / "pages").glob("*.py")}

RECORD_LABELS = """
window.__navSeen = new Set();
new MutationObserver(() => {
  for (const link of document.querySelectorAll('[data-testid=stSidebarNavLink]')) {
    const label = link.querySelector('[data-testid=stMarkdownContainer]');
    window.__navSeen.add((label ? label.textContent : link.textContent).trim());
  }
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


@pytest.mark.parametrize("path", ["", "playground"], ids=["home", "a shared link"])
def test_the_first_visit_never_shows_the_raw_page_list(browser, path):
    titles = {p.title for pages in sections().values() for p in pages}
    with readme_app() as app:
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        try:
            context.add_init_script(RECORD_LABELS)
            page = context.new_page()
            page.goto(f"{app.url}/{path}")
            wait_until(page, lambda: titles <= set(page.evaluate("[...window.__navSeen]")),
                       timeout_ms=180_000)
            seen = set(page.evaluate("[...window.__navSeen]"))
        finally:
            context.close()
    assert not seen & RAW, f"the raw page list was drawn: {sorted(seen & RAW)}"
    assert seen == titles
