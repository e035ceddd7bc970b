"""Lesson 6: beyond accuracy. The lecture's end: latency, throughput, FLOPs, memory and cost,
and the cost/quality Pareto frontier of an editable table of systems."""

from ui.shared.course import through_app_navigation

through_app_navigation()   # first, before the slow imports (ui/shared/course.py)

import streamlit as st

from ui.lessons import beyond as by
from ui.shared.charts import plotly_config
from ui.shared.course import lesson_links
from ui.shared.layout import board_page
from ui.shared.texts import md_escape


P = by.PREFIX
S = by.page_state()
by.init()

board_page()          # the table and its chart share one screen: less padding, a smaller title
st.title("Beyond accuracy: latency and cost")
st.markdown(
    "A deployed search system is judged on more than accuracy: latency, throughput, FLOPs, "
    "memory and, summing them up, **cost** (the lecture's list is below the chart). Put cost "
    "on one axis and accuracy on the other and some systems **dominate** others: cheaper "
    "*and* better. The ones nobody dominates form the **Pareto frontier**. **Edit the "
    "table**: the frontier follows.")

table_side, chart_side = st.columns([3, 2], gap="medium")
# The chart's names are placed for a plot at least as wide as a phone's (ui/lessons/beyond.py,
# LABEL_ROOM): on a narrow laptop the table gives up width, not the chart.
st.html(f"""<style>
[data-testid="stColumn"]:has(.st-key-{P}chart_side) {{ min-width: 22rem; }}
</style>""")
with table_side:
    st.warning(f"**{by.ILLUSTRATIVE}.** Type your own: edit a cell, add a row at the bottom, "
               "delete one with its checkbox.", icon=":material/science:")
    edited = st.data_editor(
        by.editor_table(), key=by.EDITOR_KEY, num_rows="dynamic", hide_index=True,
        width="stretch",
        column_config={
            by.NAME: st.column_config.TextColumn(by.NAME, help="Any name; shown as plain text.",
                                                 width=180),
            by.MRR: st.column_config.NumberColumn(by.MRR, help="Mean reciprocal rank at 10, 0–1.",
                                                  format="%.3f", step=0.001),
            by.LATENCY: st.column_config.NumberColumn(by.LATENCY, help="Time for one query.",
                                                      format="%.0f"),
            # a shorter title, so all four columns fit beside the chart on a laptop
            by.COST: st.column_config.NumberColumn("Cost (USD/mo)", format="%.0f",
                                                   help="Hardware cost per month (USD), ≥ 0."),
        })
    by.keep_edits(edited)
    valid, warnings, n_empty = by.clean(edited)
    for text in warnings:
        st.warning(text, icon=":material/warning:")
    with st.container(horizontal=True, vertical_alignment="center"):
        st.button("↺ Illustrative rows", key=P + "reset", on_click=by.reset)
        if n_empty:
            st.caption(f"{n_empty} empty row{'s' if n_empty > 1 else ''} ignored.")

with chart_side.container(key=P + "chart_side"):
    controls = st.columns([3, 2], vertical_alignment="bottom")
    controls[0].number_input("Latency budget (ms), 0 = none", min_value=0, step=50,
                             **S.bind("budget"),
                             help="Systems slower than this are out, whatever their accuracy.")
    controls[1].toggle("Log scale for cost", **S.bind("log_x"))
    budget = float(S["budget"] or 0)
    log_x = bool(S["log_x"])
    if log_x and len(valid) and (valid[by.COST] <= 0).any():
        log_x = False
        st.caption("A cost of 0 cannot sit on a log scale: the chart uses a linear one.")
    judged = None if valid.empty else by.verdicts(valid, budget)
    if judged is None:
        st.info("No valid rows to draw yet: add a system with a name, an MRR@10 between 0 "
                "and 1, and a latency and cost of 0 or more.")
    else:
        st.plotly_chart(by.figure(judged, log_x=log_x, budget=budget, height=440),
                        key=P + "chart", config=plotly_config(displayModeBar=False))
        st.caption("Blue: on the frontier (the dashed step is the highest MRR@10 each budget "
                   "buys). Grey: dominated. Orange ×: over the latency budget. Marker size "
                   "grows with latency. Hover a point for its numbers (and its name, where "
                   "there is no room to write it).")

if judged is not None:
    verdict_side, steps_side = st.columns(2, gap="medium")
    with verdict_side:
        st.markdown("**Verdicts** — a system is dominated when another one costs no more and "
                    "scores at least as well (and is strictly better on one of the two)")
        # a static table: its cells wrap (a grid cut "dominated by learned spa…" on a
        # phone); its cells are Markdown, so the names are escaped to show as typed
        st.table(judged[[by.NAME, "Verdict"]].map(md_escape), hide_index=True)
    with steps_side:
        st.markdown("**Walking up the frontier**: what each step to a dearer system buys")
        # a static table, as the verdicts: its cells wrap, so a phone reads all five columns
        # without a sideways scroll (a grid scrolled); short headings, Markdown-escaped names
        steps = by.frontier_steps(judged)
        st.table({by.NAME: steps[by.NAME].map(md_escape).tolist(),
                  by.MRR: [f"{v:.3f}" for v in steps[by.MRR]],
                  "Cost (USD/mo)": [f"{v:,.0f}" for v in steps[by.COST]],
                  "MRR@10 gained": steps["MRR@10 gained"].tolist(),
                  "Extra cost": steps["Extra cost (USD / month)"].tolist()}, hide_index=True)

st.subheader("What a deployed system is judged on")
st.markdown(
    "The lecture ends by asking us to stop looking only at accuracy:\n"
    "- **Latency** — the time to answer one query. Users expect it to be low; a slow system "
    "is a non-starter however accurate it is.\n"
    "- **Throughput** — queries served in a fixed time, e.g. in batches. It can trade off "
    "against latency: batching serves more queries but each waits longer.\n"
    "- **FLOPs** — total compute, independent of the hardware: a good summary, but hard to "
    "measure and reason about.\n"
    "- **Disk and memory** — for the model and, above all, the index. Holding a web-scale "
    "index in memory for low latency gets very expensive, very fast.\n"
    "- **Cost** — one number for all of the above, which makes the trade-offs explicit: "
    "a smaller, cheaper system may give up some accuracy.\n\n"
    "A system below the frontier is one you would not pick — unless another dimension "
    "(latency, memory, privacy…) pulls it ahead.")
st.caption("After the lecture's cost-vs-MRR plot from its “synthetic leaderboard”: BM25 is "
           "cheap but weak, small learned sparse models jump far ahead for about the same "
           "cost, and an expensive system below them is dominated. The frontier is computed by "
           "irlib.stats.pareto.")

lesson_links("pages/beyond.py")
S.keep_address()
