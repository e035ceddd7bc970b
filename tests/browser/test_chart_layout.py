"""Charts that follow the window, in a real Chromium against the real app (app.py): a page
loaded on a 1366 x 768 laptop, then widened to a 1920 x 1080 projector and narrowed to a
390 x 844 phone, keeps every chart's legend off its axis's numbers and title and off the
"K = 2" label (bounding boxes, not pixels)."""
from __future__ import annotations

import pytest

from tests.browser.helpers import wait_until

pytestmark = pytest.mark.browser

SIZES = [(1920, 1080), (390, 844), (1366, 768)]

#: For each drawn Plotly chart on the page: its legend's box, the boxes of the labels the
#: legend must not meet, and whether plotly.js has laid it out at its div's current width.
#: Within 5 px: Streamlit sizes a chart from the width it last measured, and after a phone's
#: 358 px it sometimes keeps 358 for the laptop's 354 px column (about 1 run in 4 here); the
#: div clips those 4 px from the chart's own 10 px right margin, so no mark or label is lost.
CHART_BOXES_JS = """() => [...document.querySelectorAll('.js-plotly-plot')].map(gd => {
  const box = (el) => { const b = el.getBoundingClientRect();
    return b.width > 0 && b.height > 0 ? [b.left, b.top, b.right, b.bottom] : null; };
  const named = '.xtick text, .ytick text, .g-xtitle text, .g-ytitle text, .annotation';
  const labels = [...gd.querySelectorAll(named)]
    .map(el => ({text: el.textContent, box: box(el)})).filter(l => l.box);
  const legend = gd.querySelector('.legend');
  return {legend: legend && box(legend), labels, height: gd.clientHeight,
          width: [gd._fullLayout && gd._fullLayout.width, gd.clientWidth],
          fitted: Boolean(gd._fullLayout) && Math.abs(gd._fullLayout.width - gd.clientWidth) <= 5};
})"""


def overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def no_legend_clashes(page, charts: int) -> list[int]:
    """``charts`` charts with a legend are drawn at their current width, and no legend meets
    a label (the assertion lists each that does: label, legend box, label box). Returns the
    charts' heights."""
    found = page.evaluate(CHART_BOXES_JS)
    drawn = [c for c in found if c["legend"]]
    assert len(drawn) >= charts and all(c["fitted"] for c in drawn), \
        [(c["width"], c["height"]) for c in found]
    clashes = [(label["text"], chart["legend"], label["box"]) for chart in drawn
               for label in chart["labels"] if overlaps(chart["legend"], label["box"])]
    assert not clashes, clashes
    return [c["height"] for c in drawn]


@pytest.mark.parametrize("path, charts", [("/playground", 2), ("/playground?view=present", 2),
                                          ("/playground?chart=pr", 2),
                                          ("/ndcg", 2), ("/choosing", 1), ("/beyond", 1)])
def test_legends_stay_off_the_axis_labels_as_the_window_changes(start_app, open_page, path,
                                                                charts):
    app = start_app("app.py")
    page = open_page(app.url + path, width=1366, height=768)
    heights = {(1366, 768): wait_until(page, lambda: no_legend_clashes(page, charts),
                                       timeout_ms=30_000)}
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        # the charts take the new width (plotly.js has laid them out again), then nothing
        # clashes; the heights are those of that moment (a second look may find a relayout)
        heights[width, height] = wait_until(page, lambda: no_legend_clashes(page, charts),
                                            timeout_ms=30_000)
    if "view=present" in path:       # taller on the projector than on the laptop's screen
        assert min(heights[1920, 1080]) > max(heights[1366, 768]), heights
