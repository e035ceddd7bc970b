"""The formula view: irlib's explanation rendered as LaTeX plus its per-rank table."""
from __future__ import annotations

from dataclasses import replace

import pandas as pd
import streamlit as st

from irlib import Explanation
from ui.shared.texts import METRIC_TEXT

#: Display formulas (st.latex). One too wide for the page scrolls inside its own box, so the
#: page never scrolls sideways; on phones the math is the size of the text around it; and a
#: formula that scrolls fades out at the edge where it goes on (browsers with scroll timelines;
#: elsewhere it simply scrolls).
FORMULA_CSS = """<style>
:is([data-testid="stMarkdown"], .fm-formula) .katex-display {
  overflow-x: auto; overflow-y: hidden; max-width: 100%; scrollbar-width: thin;
  padding: 0 2px;   /* KaTeX's 2px spacer (.vlist-s) would otherwise make it scroll */
}
@media (max-width: 640px) {
  :is([data-testid="stMarkdown"], .fm-formula) .katex-display > .katex { font-size: 1em; }
}
@supports (animation-timeline: scroll()) {
  :is([data-testid="stMarkdown"], .fm-formula) .katex-display {
    animation: formula-goes-on linear both; animation-timeline: scroll(self inline);
  }
}
@keyframes formula-goes-on {
  0% { mask-image: linear-gradient(to left, transparent, #000 1.5rem); }
  1%, 99% { mask-image: linear-gradient(to right, transparent, #000 1.5rem,
                                        #000 calc(100% - 1.5rem), transparent); }
  100% { mask-image: linear-gradient(to right, transparent, #000 1.5rem); }
}
</style>"""


def formula_style() -> None:
    """Add :data:`FORMULA_CSS` to the page (style only: it takes no space). app.py calls it
    on every full run, for every page's formulas."""
    st.html(FORMULA_CSS)


def dcg_table(rows: list[dict]) -> pd.DataFrame:
    """The notebook's table: rank, grade, gain, discount, discounted gain, running DCG."""
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    table = table.rename(columns={"discounted_gain": "discounted gain", "running_dcg": "DCG so far",
                                  "discount": "discount log2(rank+1)"})
    return table.astype({"rank": int})


def ap_table(rows: list[dict]) -> pd.DataFrame:
    table = pd.DataFrame(rows).rename(columns={"rel": "rel_k", "precision": "Precision@k",
                                               "term": "Precision@k · rel_k"})
    return table


def show_explanation(expl: Explanation, *, table: bool = True, pros_cons: bool = True) -> None:
    """Draw the substituted formula, then the per-rank terms and the metric's pros and cons."""
    st.latex(expl.latex)
    if table and expl.metric == "AP" and expl.rows:
        st.dataframe(ap_table(expl.rows), hide_index=True, width="stretch",
                     column_config={c: st.column_config.NumberColumn(format="%.3f")
                                    for c in ("Precision@k", "Precision@k · rel_k")})
    if table and expl.metric in ("DCG", "IDCG", "nDCG", "CG") and expl.rows:
        # One above the other: side by side, six columns each get clipped on most screens.
        fmt = {c: st.column_config.NumberColumn(format="%.3f")
               for c in ("gain", "discount log2(rank+1)", "discounted gain", "DCG so far")}
        st.caption("This ranking")
        st.dataframe(dcg_table(expl.rows), hide_index=True, column_config=fmt, width="stretch")
        st.caption("Ideal ranking (highest grades first)")
        st.dataframe(dcg_table(expl.ideal_rows), hide_index=True, column_config=fmt,
                     width="stretch")
    if pros_cons:
        show_pros_cons(expl.metric)


def show_pros_cons(metric: str) -> None:
    """Whether ``metric`` is order-aware, and what speaks for and against it."""
    if metric in METRIC_TEXT:
        text = METRIC_TEXT[metric]
        aware = "order-aware" if text.order_aware else "order-unaware"
        st.markdown(f"**{text.label}** is *{aware}*.  \n**For:** {text.pros}  \n**Against:** {text.cons}")


#: A line break in an aligned derivation, with a strut so stacked fractions do not touch.
BREAK = r" \\ \rule{0pt}{2.4em}"
#: The same for a next line without fractions.
BREAK_FLAT = r" \\[0.4em]"


def two_lines(latex: str) -> str:
    r"""Break ``A = B = C = D`` after the definition: ``A = B`` on one line, ``= C = D`` below.

    Keeps irlib's formula as it is, only narrower (it fits a phone).
    """
    parts = latex.split(" = ")
    if len(parts) < 4:
        return latex
    rest = " = ".join(parts[2:])
    gap = BREAK if r"\frac" in rest else BREAK_FLAT
    return (r"\begin{aligned}" + parts[0] + " &= " + parts[1] + gap + " &= " + rest
            + r"\end{aligned}")


def narrow(expl: Explanation) -> Explanation:
    """The same explanation with its formula broken after the definition (:func:`two_lines`)."""
    return replace(expl, latex=two_lines(expl.latex))


def show_swapped(expl: Explanation) -> None:
    """The same formula for the ranking with its first two results swapped, labelled above."""
    st.caption("With the first two results swapped:")
    st.latex(two_lines(expl.latex))


#: The per-rank tables' columns as the formula view names them, and which show 3 decimals
#: (as ``show_explanation``'s ``%.3f`` columns); the rest are whole numbers.
_TABLE_COLUMNS = {
    "AP": (("rank", "rank"), ("rel", "rel_k"), ("precision", "Precision@k"),
           ("term", "Precision@k · rel_k")),
    "DCG": (("rank", "rank"), ("grade", "grade"), ("gain", "gain"),
            ("discount", "discount log2(rank+1)"), ("discounted_gain", "discounted gain"),
            ("running_dcg", "DCG so far")),
}
_DECIMAL_COLUMNS = {"precision", "term", "gain", "discount", "discounted_gain", "running_dcg"}


def _cell(name: str, value) -> str:
    if name in _DECIMAL_COLUMNS:
        return f"{float(value):.3f}"
    number = float(value)
    return str(int(number)) if number.is_integer() else str(value)


def explanation_tables(expl: Explanation) -> list[dict]:
    """The per-rank tables of :func:`show_explanation` as text, for a view that draws them
    itself (``ui/shared/formula_view.py``): ``[{"caption", "columns", "rows"}]``, each cell
    as the table prints it (3 decimals in the same columns). No metric is computed here."""
    def table(caption: str, kind: str, rows: list[dict]) -> dict:
        columns = _TABLE_COLUMNS[kind]
        return {"caption": caption, "columns": [label for _, label in columns],
                "rows": [[_cell(name, row[name]) for name, _ in columns] for row in rows]}
    if expl.metric == "AP" and expl.rows:
        return [table("", "AP", expl.rows)]
    if expl.metric in ("DCG", "IDCG", "nDCG", "CG") and expl.rows:
        return [table("This ranking", "DCG", expl.rows),
                table("Ideal ranking (highest grades first)", "DCG", expl.ideal_rows)]
    return []
