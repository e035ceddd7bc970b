"""What a page looks like on paper: one print stylesheet for every page, added by app.py.

A printed lesson is the page without the app around it: no sidebar, header, toolbars or
buttons; charts and tables at most as wide as the paper; headings kept with what follows;
tiles, verdict boxes, formulas and bordered boxes never split across two pages.

Streamlit (1.67) already prints its main column as one long page (its scroll containers
become ``overflow: visible`` in print) and stacks columns that hold a chart. Three things it
leaves need help, and the browser only reaches them in ``beforeprint`` (:data:`PRINT_JS`):

- **Plotly charts** are SVGs drawn at the screen's pixel width: wider than the paper they
  are cut at the right. Before printing each SVG gets a ``viewBox`` of its own size, so the
  stylesheet can scale it down to the paper's width (never up); afterwards it is taken off.
- **Bordered containers** (``st.container(border=True)``) carry no attribute to select
  them by; before printing they get the class ``irlab-print-keep`` (kept together).
- **Dataframes** are a canvas (glide-data-grid) holding only the rows in view. The stylesheet
  scales the canvas to the paper's width; :func:`dataframe` draws the same table a second
  time as plain HTML, shown only on paper, so that every row prints.

To keep something together on paper, draw it in ``keep_together("name")``.
"""
from __future__ import annotations

import functools
import html
import math
from collections.abc import Mapping
from typing import Any

import pandas as pd
import streamlit as st

from ui.shared.layout import hide_element

#: Containers whose key starts with this are never split across pages (:func:`keep_together`).
KEEP_PREFIX = "print_keep_"
#: The class of a table shown only on paper (:func:`dataframe`).
PRINT_TABLE_CLASS = "irlab-print-table"
#: Rows of a dataframe printed at most; the rest is counted in a line under the table.
PRINT_ROWS = 200

PRINT_CSS = """<style>
@media screen {
  [data-testid="stElementContainer"]:has(.irlab-print-table) { display: none; }
}
@media print {
  @page { margin: 12mm 12mm 14mm; }

  /* The app around the page, and what does nothing on paper (with its element's container,
     so that its gap goes too). */
  [data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"],
  [data-testid="stExpandSidebarButton"], [data-testid="stHeader"], [data-testid="stToolbar"],
  [data-testid="stDecoration"], [data-testid="stStatusWidget"], [data-testid="stSkipToContent"],
  [data-testid="stElementToolbar"], [data-testid="stHeaderActionElements"],
  [data-testid="stTooltipIcon"], .modebar-container, [data-testid="stButton"],
  [data-testid="stDownloadButton"], [data-testid="stFileUploader"],
  [data-testid="stFormSubmitButton"], [data-testid="stChatInput"],
  [data-testid="stElementContainer"]:has(> [data-testid="stButton"]),
  [data-testid="stElementContainer"]:has(> [data-testid="stDownloadButton"]),
  [data-testid="stElementContainer"]:has(> [data-testid="stFileUploader"]),
  [data-testid="stElementContainer"]:has(> [data-testid="stFormSubmitButton"]),
  [data-testid="stElementContainer"]:has(> [data-testid="stChatInput"]) {
    display: none !important;
  }
  /* The page's content takes the paper's width, from the top of the first page, at 80 %:
     laid out as on a 880-pixel-wide screen, so that columns keep their room (a tile beside
     a board, the tiles in a row), with 13-pixel (10 pt) text. */
  [data-testid="stMainBlockContainer"] {
    padding: 0 !important; max-width: none !important; zoom: 0.8;
  }
  /* A column left with only buttons goes, and its row's other columns take its room. */
  [data-testid="stColumn"]:has([data-testid="stButton"]):not(:has(
      [data-testid="stElementContainer"]:not(:has([data-testid="stButton"])))) {
    display: none !important;
  }
  [data-testid="stColumn"] { flex-grow: 1 !important; }
  [data-testid="stMain"] { margin: 0 !important; padding: 0 !important; }

  /* Headings stay with what follows; small boxes stay whole. */
  h1, h2, h3, h4, h5,
  [data-testid="stElementContainer"]:has([data-testid="stHeading"]) { break-after: avoid; }
  [data-testid="stElementContainer"]:not(:has(.irlab-print-table, [data-testid="stTable"])),
  [data-testid="stAlert"], [data-testid="stMetric"], [data-testid="stExpander"],
  [data-testid="stPlotlyChart"], [data-testid="stDataFrame"], [data-testid="stTable"],
  .katex-display, .irlab-print-keep, [class*="st-key-print_keep_"],
  .irlab-print-table tr, [data-testid="stTable"] tr {
    break-inside: avoid;
  }
  /* A formula that scrolls sideways on screen is whole on paper. */
  [data-testid="stMarkdown"] .katex-display {
    overflow: visible !important; mask-image: none !important; animation: none !important;
  }

  /* Plotly: each SVG scaled to the paper's width at most (the viewBox comes from PRINT_JS). */
  .js-plotly-plot[data-irlab-print] .svg-container {
    width: min(100%, var(--irlab-print-width)) !important;
    max-width: 100% !important;
    height: auto !important;
    aspect-ratio: var(--irlab-print-ratio);
  }
  .js-plotly-plot[data-irlab-print] .main-svg {
    width: 100% !important; height: 100% !important;
  }
  [data-testid="stPlotlyChart"], .js-plotly-plot { height: auto !important; }

  /* Dataframes: the grid's canvas scaled to the paper's width at most; a dataframe drawn
     with ui.shared.print_style.dataframe is replaced by its HTML copy (every row). */
  [data-testid="stDataFrame"] { display: block !important; width: 100% !important; }
  [data-testid="stDataFrameResizable"] {
    width: min(100%, var(--irlab-print-width, 100%)) !important; max-width: 100% !important;
    height: auto !important; max-height: none !important;
  }
  [data-testid="stDataFrameResizable"] div:has([data-testid="data-grid-canvas"]) {
    width: 100% !important; height: auto !important; min-height: 0 !important;
    max-height: none !important; position: static !important;
  }
  [data-testid="stDataFrame"] [data-testid="data-grid-canvas"] {
    contain: none !important; position: static !important;
    width: 100% !important; height: auto !important;
  }
  [data-testid="stDataFrame"] .dvn-underlay { position: relative !important; }
  [data-testid="stDataFrame"] .dvn-underlay > canvas:not([data-testid]) {   /* the header row */
    position: absolute !important; top: 0 !important; left: 0 !important;
    width: 100% !important; height: auto !important;
  }
  [data-testid="stDataFrame"] .dvn-scroller { display: none !important; }
  [data-testid="stDataFrame"][data-irlab-print-cut]::after {
    content: "The printed table shows only the rows and columns that were in view; the app "
             "shows it whole.";
    display: block; font-size: 0.75rem; opacity: 0.7; margin-top: 0.25rem;
  }
  [data-testid="stElementContainer"]:has([data-testid="stDataFrame"]):has(
      + [data-testid="stElementContainer"] .irlab-print-table) {
    display: none !important;
  }
}
.irlab-print-table table {
  border-collapse: collapse; width: 100%; font-size: 0.875rem; line-height: 1.3;
}
.irlab-print-table th, .irlab-print-table td {
  border: 1px solid rgba(128, 128, 128, 0.35); padding: 0.15rem 0.4rem; text-align: left;
  overflow-wrap: anywhere;
}
.irlab-print-table td.num, .irlab-print-table th.num { text-align: right; }
.irlab-print-table thead { display: table-header-group; }   /* repeated on every page */
.irlab-print-table p { font-size: 0.8rem; margin: 0.25rem 0 0; }
</style>"""

#: The dark theme's background (Streamlit's, as ui/shared/layout.keep_in_view measured it) on the
#: whole sheet.
DARK_PAGE_CSS = "<style>@media print { @page { background: #171614; } }</style>"

#: Before printing: a viewBox on every Plotly SVG (so the stylesheet can scale it), the
#: class irlab-print-keep on every bordered container, each grid's screen width as a CSS
#: variable. After printing the screen gets its page back as it was.
PRINT_JS = """
function irlabBeforePrint() {
  for (const plot of document.querySelectorAll(".js-plotly-plot")) {
    const svgs = plot.querySelectorAll(".main-svg");
    const first = svgs[0];
    if (!first) continue;
    const w = parseFloat(first.getAttribute("width")), h = parseFloat(first.getAttribute("height"));
    if (!(w > 0 && h > 0)) continue;
    for (const svg of svgs) svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
    plot.dataset.irlabPrint = "1";
    plot.style.setProperty("--irlab-print-width", `${w}px`);
    plot.style.setProperty("--irlab-print-ratio", `${w} / ${h}`);
  }
  for (const block of document.querySelectorAll('[data-testid="stVerticalBlock"]')) {
    if (parseFloat(getComputedStyle(block).borderTopWidth) > 0) block.classList.add("irlab-print-keep");
  }
  for (const grid of document.querySelectorAll('[data-testid="stDataFrame"]')) {
    const canvas = grid.querySelector('[data-testid="data-grid-canvas"]');
    if (canvas) grid.style.setProperty("--irlab-print-width", `${canvas.getBoundingClientRect().width + 2}px`);
    const scroller = grid.querySelector(".dvn-scroller");     // more rows or columns than in view
    if (scroller && (scroller.scrollHeight > scroller.clientHeight + 1
                     || scroller.scrollWidth > scroller.clientWidth + 1)) {
      grid.dataset.irlabPrintCut = "1";
    }
  }
}
function irlabAfterPrint() {
  for (const plot of document.querySelectorAll(".js-plotly-plot[data-irlab-print]")) {
    for (const svg of plot.querySelectorAll(".main-svg")) svg.removeAttribute("viewBox");
    delete plot.dataset.irlabPrint;
  }
  for (const block of document.querySelectorAll(".irlab-print-keep")) {
    block.classList.remove("irlab-print-keep");
  }
  for (const grid of document.querySelectorAll("[data-irlab-print-cut]")) delete grid.dataset.irlabPrintCut;
}
export default function () {
  if (window.irlabPrintReady) return;       // once per tab: every page draws this element
  window.irlabPrintReady = true;
  window.addEventListener("beforeprint", irlabBeforePrint);
  window.addEventListener("afterprint", irlabAfterPrint);
}
"""

_ELEMENT_KEY = "irlab_print"


@functools.cache
def _mount():
    return st.components.v2.component("irlab_print", js=PRINT_JS)


def print_style() -> None:
    """Every page's print stylesheet and its ``beforeprint`` helper. app.py calls it on every
    run, before the page: style only, and a hidden element that draws nothing.

    The dark theme prints dark (Streamlit's colours are not variables a stylesheet could
    swap): then the paper's margins take the page's background too, not a white frame."""
    dark = getattr(st.context.theme, "type", None) == "dark"
    st.html(PRINT_CSS + (DARK_PAGE_CSS if dark else ""))
    hide_element(_ELEMENT_KEY)
    _mount()(key=_ELEMENT_KEY, height="content")


def keep_together(name: str):
    """A container that prints on one page when it fits one (``break-inside: avoid``): a
    verdict with its numbers, a chart with its caption. ``name`` makes its key unique."""
    return st.container(key=KEEP_PREFIX + name)


# --------------------------------------------------------------------------- dataframes

def dataframe(data: pd.DataFrame, *, print_rows: int = PRINT_ROWS, **kwargs: Any):
    """``st.dataframe`` on screen, and the same table as HTML for paper (see the module's
    note): the grid prints only the rows in view. Takes ``st.dataframe``'s arguments;
    ``column_config`` number formats (``"%.3f"``) and labels carry over."""
    shown = st.dataframe(data, **kwargs)
    st.html(print_table_html(data, column_config=kwargs.get("column_config"),
                             column_order=kwargs.get("column_order"),
                             hide_index=bool(kwargs.get("hide_index")), max_rows=print_rows))
    return shown


def print_table_html(frame: pd.DataFrame, *, column_config: Mapping | None = None,
                     column_order=None, hide_index: bool = False,
                     max_rows: int = PRINT_ROWS) -> str:
    """A plain HTML table of ``frame`` (every cell escaped) in a ``irlab-print-table`` div.

    >>> print(print_table_html(pd.DataFrame({"q": ["<b>"], "AP": [0.5]}), hide_index=True,
    ...       column_config={"AP": {"type_config": {"format": "%.3f"}}}))  # doctest: +ELLIPSIS
    <div class="irlab-print-table"><table><thead><tr><th>q</th><th class="num">AP</th></tr></thead><tbody><tr><td>&lt;b&gt;</td><td class="num">0.500</td></tr></tbody></table></div>
    """
    config = dict(column_config or {})
    columns = [c for c in (column_order or frame.columns) if c in frame.columns]
    if not hide_index:
        frame = frame.reset_index()
        columns = [c for c in frame.columns if c not in columns] + columns
    shown = frame.head(max_rows)
    numeric = {c: pd.api.types.is_numeric_dtype(frame[c]) and not pd.api.types.is_bool_dtype(frame[c])
               for c in columns}

    def head(column) -> str:
        label = _label(config.get(column))
        cls = ' class="num"' if numeric[column] else ""
        return f"<th{cls}>{html.escape(str(label or column))}</th>"

    def cell(column, value) -> str:
        cls = ' class="num"' if numeric[column] else ""
        return f"<td{cls}>{html.escape(_cell_text(value, _number_format(config.get(column))))}</td>"

    rows = "".join("<tr>" + "".join(cell(c, v) for c, v in zip(columns, values)) + "</tr>"
                   for values in shown[columns].itertuples(index=False, name=None))
    more = len(frame) - len(shown)
    note = (f"<p>… and {more:,} more rows: the app shows them all, and its CSV download holds "
            "them.</p>" if more > 0 else "")
    return (f'<div class="{PRINT_TABLE_CLASS}"><table><thead><tr>'
            + "".join(head(c) for c in columns) + f"</tr></thead><tbody>{rows}</tbody></table>"
            + note + "</div>")


def _label(config: object) -> str | None:
    """The header a ``column_config`` entry gives a column: a string, or its ``label``."""
    if isinstance(config, str):
        return config
    return config.get("label") if isinstance(config, Mapping) else None


def _number_format(config: object) -> str | None:
    """The printf format of a ``st.column_config`` number column (``"%.3f"``), if any."""
    if isinstance(config, Mapping):
        fmt = (config.get("type_config") or {}).get("format")
        if isinstance(fmt, str) and fmt.startswith("%"):
            return fmt
    return None


def _cell_text(value: object, fmt: str | None) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if fmt and isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return fmt % value
        except (TypeError, ValueError):
            pass
    if isinstance(value, float):       # as the grid shows it: at most four decimals
        return f"{value:.4f}".rstrip("0").rstrip(".")
    return str(value)
