"""Lessons on paper: Chromium prints the playground and Lessons 2-4 to PDF (A4 and Letter),
and the pages must be few, none blank, with no sidebar or buttons, nothing wider than the
paper, and the tiles, tables, verdicts and charts each whole on one page.

What is measured where:
- the PDF's text (pypdf): page count, a blank page, which page each piece of content is on;
- the layout Chromium prints (a ``matchMedia("print")`` listener runs inside the print
  layout itself, at the paper's width): the app's chrome is hidden, every chart, grid,
  table, formula and tile lies inside its own element and the paper's width.
"""
from __future__ import annotations

import io
import os

import pytest

if os.environ.get("IRLAB_BROWSER_TESTS", "").lower() != "required":
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

import pypdf  # noqa: E402  (requirements-dev.txt)
from playwright.sync_api import Page  # noqa: E402

from tests.browser.helpers import TIMEOUT_MS, wait_for_app_idle, wait_for_assets  # noqa: E402

pytestmark = pytest.mark.browser

#: Runs inside Chromium's print layout and lists what would look wrong on paper.
PROBE_JS = """() => {
  window.__printProblems = null;
  const mql = matchMedia("print");
  const name = (el) => el.dataset?.testid || String(el.className?.baseVal ?? el.className);
  const probe = (event) => {
    if (!event.matches) return;
    mql.removeEventListener("change", probe);
    const problems = [];
    const main = document.querySelector('[data-testid="stMainBlockContainer"]')
      .getBoundingClientRect();
    const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
    for (const el of document.querySelectorAll(
        '[data-testid="stSidebar"], [data-testid="stHeader"], [data-testid="stToolbar"], '
        + '[data-testid="stButton"], [data-testid="stElementToolbar"], .modebar-container')) {
      if (shown(el)) problems.push(`on paper: ${name(el)}`);
    }
    for (const el of document.querySelectorAll(
        '.js-plotly-plot .svg-container, [data-testid="data-grid-canvas"], '
        + '[data-testid="stTable"] table, .katex-display > .katex, [data-testid="stMetric"], '
        + '.irlab-print-table table')) {
      const r = el.getBoundingClientRect();
      if (!r.width) continue;
      const own = el.closest('[data-testid="stElementContainer"]')?.getBoundingClientRect() ?? main;
      for (const [box, what] of [[main, "the paper"], [own, "its element"]]) {
        if (r.left < box.left - 1 || r.right > box.right + 1) {
          problems.push(`${name(el)} ${Math.round(r.left)}-${Math.round(r.right)} is wider than `
                        + `${what} ${Math.round(box.left)}-${Math.round(box.right)}`);
        }
      }
    }
    window.__printProblems = problems;
  };
  mql.addEventListener("change", probe);
}"""

#: page -> (most pages on A4 or Letter, charts it draws, content whole on one page)
LESSONS = {
    "playground": (2, 2, [
        ["Precision@2", "Recall@2", "F1@2", "RR@2", "AP@2", "NDCG@2"],      # the tiles
        ["score at K", "DCG at K"],                  # both charts, by their axis titles
    ]),
    "mrr_map": (3, 0, [
        ["MRR@8", "0.57", "MAP@8", "0.48"],
        ["The whole test set in one number", "MRR averages the reciprocal ranks"],
    ]),
    "ndcg": (4, 2, [
        ["1. Cumulative gain", "CG is order-unaware"],
        ["2. Discounted cumulative gain", "Dividing each gain by log2"],
        ["3. Ideal DCG", "IDCG@2 is the DCG of the first 2"],
        ["4. Normalised DCG", "This ranking", "Ideal ranking", "NDCG@K is order-aware"],
        ["DCG at K", "DCG (grade)"],
        ["NDCG at K", "NDCG (grade)"],
    ]),
    "choosing": (2, 1, [
        ["Relevant at ranks", "★ 0.83 0.47 0.48"],                      # the table, last row
        ["At K = 2, Ranking 1 scores highest", "does not depend on K at all"],     # the verdict
        ["Success@2 RR@2 P@2 R@2 F1@2 AP", "Ranking 1 Ranking 2 Ranking 3"],   # the chart
    ]),
    "online": (3, 3, [
        ["Measure The user Score", "stops when satisfied"],        # the metrics' users, table
        ["Click-through, A", "Click-through, B"],                  # the two rates
        ["A/B test Interleaving", "Users for 80 %", "Wrong way, 1,000 users"],  # experiments
        ["For the product team", "a reason to size an experiment, not a forecast"],
    ]),
}
#: Text only the app's sidebar or buttons hold (the playground's chart switch included).
NOT_ON_PAPER = ["Join a class", "Run a class room", "Shuffle", "Swap the first two",
                "Precision–recall"]


@pytest.fixture(scope="module")
def app_url(start_app, browser) -> str:
    return start_app("app.py").url


def print_pdf(page: Page, paper: str) -> list[str]:
    """Print ``page`` as Chromium does (``page.pdf``); each page's text, spaces folded.
    Fails on what the probe saw in the print layout."""
    page.evaluate(PROBE_JS)
    data = page.pdf(format=paper)
    assert page.evaluate("window.__printProblems") == [], paper
    return [" ".join(p.extract_text().split()) for p in pypdf.PdfReader(io.BytesIO(data)).pages]


def check_paper(texts: list[str], most: int, whole: list[list[str]], paper: str) -> None:
    assert 1 <= len(texts) <= most, f"{paper}: {len(texts)} pages"
    for n, text in enumerate(texts, 1):
        assert len(text) > 40, f"{paper}: page {n} of {len(texts)} is blank: {text!r}"
    everything = " ".join(texts)
    for word in NOT_ON_PAPER:
        assert word not in everything, f"{paper}: {word!r} is printed"
    for group in whole:
        pages = [n for n, text in enumerate(texts, 1) if all(part in text for part in group)]
        assert pages, f"{paper}: {group} is not whole on one page: " + " || ".join(
            f"p{n}: " + ", ".join(part for part in group if part in text)
            for n, text in enumerate(texts, 1))


def opened(open_page, url: str, charts: int) -> Page:
    """The lesson at a laptop's size, drawn: its pictures, fonts and ``charts`` charts."""
    page = open_page(url, width=1366, height=768)
    wait_for_assets(page)
    page.wait_for_function("""(charts) => {
        const plots = document.querySelectorAll('[data-testid="stPlotlyChart"], .lc-plot');
        return plots.length >= charts && [...plots].every(el => el.querySelector('.xtick'));
    }""", arg=charts, timeout=TIMEOUT_MS)
    wait_for_app_idle(page)
    return page


@pytest.mark.parametrize("lesson", list(LESSONS))
def test_a_lesson_prints_on_few_whole_pages(app_url, open_page, lesson):
    most, charts, whole = LESSONS[lesson]
    page = opened(open_page, f"{app_url}/{lesson}", charts)
    papers = ("A4", "Letter") if lesson in ("playground", "choosing") else ("A4",)
    for paper in papers:
        check_paper(print_pdf(page, paper), most, whole, paper)


def test_a_long_table_prints_every_row_and_a_kept_box_stays_whole(start_app, open_page):
    """ui.shared.print_style.dataframe: the grid shows ~10 rows on screen, paper gets all 40;
    keep_together: a group too long for the rest of a page starts on the next; no button,
    uploader or download button on paper."""
    page = open_page(start_app("print_table_app.py").url, width=1366, height=768)
    page.get_by_test_id("stDataFrame").wait_for()
    assert not page.locator(".irlab-print-table").is_visible()      # on screen: the grid only
    texts = print_pdf(page, "A4")
    everything = " ".join(texts)
    assert "AP (mean precision)" in everything
    assert all(f"q{n:02d} {n / 40:.3f}" in everything for n in range(1, 41))
    check_paper(texts, 5, [[f"GROUP{n} START", f"GROUP{n} END"] for n in (1, 2, 3)], "A4")
    for widget in ("Does nothing on paper", "Upload a run", "Drag and drop", "Download the table"):
        assert widget not in everything


def test_your_own_judgments_with_four_systems_prints_verdict_and_tables_whole(app_url,
                                                                             open_page):
    """Lesson 9 with the TREC samples (a baseline and three variants): the systems table,
    the per-query table down to its last row, and the verdict with its numbers each on one
    page, at A4 and Letter; no uploader, button or download on paper."""
    from tests.browser.helpers import expect_app_run

    page = open_page(f"{app_url}/upload?input=trec&k=5&vs=2", width=1366, height=768)  # test
    with expect_app_run(page):
        page.get_by_role("button", name="Load the samples").click()
    page.get_by_test_id("stAlertContentInfo").filter(has_text="test is better on").wait_for()
    page.wait_for_function("""() => [...document.querySelectorAll(
        '[data-testid="stPlotlyChart"]')].every(el => el.querySelector('.xtick'))""",
                           timeout=TIMEOUT_MS)
    wait_for_app_idle(page)
    for paper in ("A4", "Letter"):
        texts = print_pdf(page, paper)
        check_paper(texts, 9, [
            ["control", "test", "rm3", "dense", "Holm–Bonferroni"],          # systems table
            ["test is better on", "For a product team", "randomization test p"],  # verdict
        ], paper)
        everything = " ".join(texts)
        for widget in ("Load the samples", "Drag and drop", "Download the report"):
            assert widget not in everything, (paper, widget)
        # the per-query table prints every query (the grid on screen shows ~10 rows)
        assert all(f" {q} " in everything for q in ("101", "114", "2", "8")), paper


def test_the_boards_badges_print_whole_at_a_papers_width(app_url, open_page):
    """On A4 (about 700 px for the page) the eight cards are narrower than "✗ not relevant"
    on one line: the badge's words wrap on paper rather than being cut (a lecturer's walk)."""
    page = open_page(app_url + "/playground", width=703, height=1000)
    page.locator(".rb-card .rb-badge").first.wait_for()
    page.emulate_media(media="print")
    cut = page.locator(".rb-card .rb-badge").evaluate_all(
        "(badges) => badges.filter((b) => b.scrollWidth > b.clientWidth).map((b) => b.textContent)")
    assert len(page.locator(".rb-card .rb-badge").all()) == 8 and cut == [], cut
