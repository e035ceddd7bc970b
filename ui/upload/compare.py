"""Does B beat A? The verdict, the paired tests, the per-query differences as bars and as a
table (the numbers come from irlib.compare)."""
from __future__ import annotations

import html
from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import irlib
from irlib.compare import Comparison, format_p, randomization_floor, summary_sentence, t_test_caveat
from ui.charts import _layout
from ui.downloads import DOWNLOAD_NOTE, csv_bytes
from ui.texts import md_escape
from ui.upload.cache import cached_compare
from ui.upload.measures import measure_name
from ui.upload.model import (Dataset, Settings, comparison_frame, coverage_problem, file_safe,
                             score_columns)

WIN, LOSS, TIE = "#009E73", "#D55E00", "#999999"     # Okabe-Ito, as in ui/charts.py


def deltas_figure(frame: pd.DataFrame, label: str, names: tuple[str, str],
                  mean_delta: float | None) -> go.Figure:
    """Bars of the per-query differences B − A, sorted; green = B better, orange = worse."""
    a, b = names
    d = frame["difference"].to_numpy()
    colors = np.where(d > 0, WIN, np.where(d < 0, LOSS, TIE))
    text = frame["query"] if "query" in frame.columns else frame["query_id"]
    hover = [f"query {html.escape(q)}" + (f" · {html.escape(t)}" if "query" in frame.columns
                                           and t else "")
             for q, t in zip(frame["query_id"], text)]
    x = np.arange(1, len(frame) + 1)
    fig = go.Figure(go.Bar(x=x, y=d, marker_color=colors, customdata=hover,
                           hovertemplate="%{customdata}<br>difference %{y:+.4f}<extra></extra>",
                           showlegend=False))
    ties = d == 0
    if ties.any():   # a tie is a bar of height 0: mark it so it can be seen and hovered
        fig.add_trace(go.Scatter(x=x[ties], y=d[ties], mode="markers", showlegend=False,
                                 marker=dict(color=TIE, size=7, symbol="diamond"),
                                 customdata=np.asarray(hover, dtype=object)[ties],
                                 hovertemplate="%{customdata}<br>tie<extra></extra>"))
    fig.add_hline(y=0, line_width=1, line_color="#888")
    if mean_delta is not None and mean_delta != 0:
        fig.add_hline(y=mean_delta, line_width=2, line_dash="dot", line_color="#0072B2",
                      annotation_text=f"mean {mean_delta:+.3f}", annotation_position="top left")
    fig = _layout(fig, y_title=html.escape(f"{label}: {b} − {a}"),
                  x_title=f"queries, sorted by difference ({len(frame):,})", height=340)
    fig.update_layout(hovermode="closest", bargap=0.15 if len(frame) < 200 else 0)
    fig.update_xaxes(dtick=None, showticklabels=len(frame) <= 40,
                     tickmode="array" if len(frame) <= 40 else "auto",
                     tickvals=list(x) if len(frame) <= 40 else None,
                     ticktext=[html.escape(q) for q in frame["query_id"]] if len(frame) <= 40
                     else None)
    return fig


def comparison_section(dataset: Dataset, evaluations: Mapping[str, irlib.Evaluation],
                       settings: Settings, include_missing: bool) -> Comparison | None:
    names = tuple(dataset.runs)
    if len(names) < 2:
        return None
    name_a, name_b = names
    key = settings.by
    label = settings.label(key)
    measure = measure_name(key, settings.k, settings.gain)
    a = evaluations[name_a].per_query[measure]
    b = evaluations[name_b].per_query[measure]
    if not include_missing:
        gone = set(evaluations[name_a].missing_queries) | set(evaluations[name_b].missing_queries)
        a, b = a.drop(index=list(gone & set(a.index))), b.drop(index=list(gone & set(b.index)))
    blocker = coverage_problem(evaluations, (name_a, name_b), quote=md_escape)
    if blocker:
        st.warning(blocker, icon=":material/block:")
        return None
    comparison = cached_compare((dataset.key, measure, include_missing), a, b)
    sentence = summary_sentence(comparison, label, md_escape(name_a), md_escape(name_b))
    st.info(sentence, icon=":material/record_voice_over:")
    n = comparison.n
    caveat = t_test_caveat(comparison)
    with st.container(horizontal=True, gap="small"):
        st.metric(f"{md_escape(name_b)} better", f"{comparison.wins} of {n}", border=True,
                  width="stretch")
        st.metric(f"{md_escape(name_b)} worse", f"{comparison.losses} of {n}", border=True,
                  width="stretch")
        st.metric("ties", f"{comparison.ties} of {n}", border=True, width="stretch")
    with st.container(horizontal=True, gap="small"):
        ci = (None if comparison.ci_low is None else
              f"95% CI {comparison.ci_low:+.3f} to {comparison.ci_high:+.3f}")
        st.metric(f"mean difference in {label}",
                  "–" if comparison.mean_delta is None else f"{comparison.mean_delta:+.4f}",
                  delta=ci, delta_color="off", delta_arrow="off", border=True, width="stretch",
                  help=f"Mean of {md_escape(name_b)} − {md_escape(name_a)} over the queries, "
                       "with a t-based 95% confidence interval: if it excludes 0, the t-test's "
                       "p is below 0.05.")
        st.metric("paired t-test p", "not meaningful" if caveat else format_p(comparison.t_pvalue),
                  border=True, width="stretch",
                  help=(f"Not shown: {caveat}. " if caveat else "") +
                       "scipy.stats.ttest_rel on the per-query scores: how often a mean "
                       "difference this large would appear if the systems were equally good "
                       "(assumes roughly normal differences).")
        method = ("all sign patterns, exact" if comparison.exact_randomization
                  else f"{comparison.n_resamples:,} random sign patterns")
        st.metric("randomization test p", format_p(comparison.randomization_pvalue),
                  border=True, width="stretch",
                  help="scipy.stats.permutation_test: swaps each query's two scores at random "
                       f"({method}) and counts how often the mean difference is as large; "
                       "no normality assumption.")
    if caveat and n >= 2:
        st.caption(f"The paired t-test is left out: {caveat}.")
    floor = randomization_floor(n)
    if n and floor >= 0.01:
        st.caption(f"With {n} {'query' if n == 1 else 'queries'} the randomization test cannot "
                   f"give a p below 2/2^{n} = {format_p(floor)}: only the observed signs and "
                   "their mirror image are that extreme, so even a system better on every "
                   "query could be chance. Judge more queries to tell.")
    frame = comparison_frame(comparison, (name_a, name_b), dataset.query_text)
    if n:
        st.plotly_chart(deltas_figure(frame, label, (name_a, name_b), comparison.mean_delta),
                        key="upload_delta_chart", config={"displaylogo": False})
        st.caption("Each bar is one query: how much the score moved from "
                   f"{md_escape(name_a)} to {md_escape(name_b)}. Green: better, orange: "
                   "worse, grey: tie. The camera icon in the chart's toolbar saves it as PNG.")
    with st.expander("Per-query differences"):
        st.dataframe(frame, hide_index=True, width="stretch", key="upload_compare_table",
                     column_config=_comparison_columns((name_a, name_b)))
        st.download_button("Download the differences (CSV)",
                           csv_bytes(frame),
                           file_name=f"compare_{file_safe(name_a)}_{file_safe(name_b)}.csv",
                           mime="text/csv", icon=":material/download:", key="upload_dl_compare",
                           on_click="ignore", help=DOWNLOAD_NOTE)
        st.caption(DOWNLOAD_NOTE)
    with st.expander("How to read the tests"):
        st.markdown(
            "Both systems answered the same queries, so the comparison is **paired**: only "
            "each query's difference matters. The **t-test** asks whether the mean "
            "difference is far from 0 given how much the differences vary; the "
            "**randomization test** shuffles which system got which score on each query "
            "and counts how often the shuffled mean difference is as large as the real one. "
            "A small p (below 0.05) says the difference is unlikely to be luck of the "
            "query sample; a large p says *this test set cannot tell*, not that the systems "
            "are equal. With few queries, only large differences can be told apart from "
            "chance — judge more queries to be sure.")
    return comparison


def _comparison_columns(names: tuple[str, str]) -> dict:
    """Number formats of the per-query differences, keyed by the frame's own column names."""
    score = st.column_config.NumberColumn(format="%.4f")
    return {**dict.fromkeys(score_columns(names), score),
            "difference": st.column_config.NumberColumn(format="%+.4f"),
            "query_id": st.column_config.TextColumn("query id")}
