"""Scores per query: notes on how the files fit, the means, the table (worst first) beside the
precision-recall graph, and the table's download."""
from __future__ import annotations

import hashlib
from collections.abc import Mapping

import numpy as np
import pandas as pd
import streamlit as st

import irlib
from ui.shared import print_style
from ui.shared.charts import plotly_config
from ui.shared.downloads import DOWNLOAD_NOTE, csv_bytes
from ui.shared.texts import md_escape
from ui.upload.figures import precision_recall_figure
from ui.upload.measures import mean_label, measure_help
from ui.upload.model import Dataset, Settings, file_safe, judgments_name
from ui.upload.query import chosen_query
from ui.upload.settings import page_state
from ui.upload.tables import means_of, mean_interpolated, precision_recall

SAMPLE_TAG = "sample data"


def sample_tag(dataset: Dataset) -> str:
    """`` · sample data`` for labels of numbers computed from the app's sample files."""
    return f" · {SAMPLE_TAG}" if dataset.sample else ""


def sample_aside(dataset: Dataset) -> str:
    """`` (sample data)``: the same, inside a sentence."""
    return f" ({SAMPLE_TAG})" if dataset.sample else ""


def data_notes(dataset: Dataset, evaluations: Mapping[str, irlib.Evaluation]) -> bool:
    """Warnings about how the files fit together; returns whether to count missing queries."""
    qrels_name = judgments_name(dataset)
    for note in dataset.notes:
        st.warning(md_escape(note), icon=":material/warning:")
    if dataset.kind == "recsys":
        return _user_notes(dataset, evaluations)
    include_missing = True
    missing_any = False
    # Systems usually miss the same queries: say it once for all of them.
    by_missing: dict[tuple, list[str]] = {}
    for system, ev in evaluations.items():
        by_missing.setdefault(ev.missing_queries, []).append(system)
    for system, ev in evaluations.items():
        if ev.ignored_queries:
            n = len(ev.ignored_queries)
            shown = ", ".join(repr(q) for q in ev.ignored_queries[:5])
            more = f" and {n - 5:,} more" if n > 5 else ""
            st.warning(f"{md_escape(system)}: {n:,} {'query is' if n == 1 else 'queries are'} "
                       f"not in {md_escape(qrels_name)} ({md_escape(shown)}{more}); "
                       "without judgments they are left out.", icon=":material/warning:")
    for missing, systems in by_missing.items():
        if not missing:
            continue
        who = md_escape(" and ".join(systems) if len(systems) < 3 else
                        ", ".join(systems[:-1]) + " and " + systems[-1])
        verb = "answers" if len(systems) == 1 else "answer"
        n_qrels = len(evaluations[systems[0]].per_query)
        if len(missing) == n_qrels:
            st.error(f"{who} {verb} none of the {n_qrels:,} queries in "
                     f"{md_escape(qrels_name)}: every score is 0. Are these the right files "
                     "(same query ids)?", icon=":material/error:")
            continue
        missing_any = True
        n = len(missing)
        shown = ", ".join(repr(q) for q in missing[:5])
        more = f" and {n - 5:,} more" if n > 5 else ""
        st.warning(f"{who} {'does' if len(systems) == 1 else 'do'} not answer {n:,} of the "
                   f"{n_qrels:,} judged {'query' if n_qrels == 1 else 'queries'} "
                   f"({md_escape(shown)}{more}).", icon=":material/warning:")
    if missing_any:
        include_missing = st.toggle(
            "Count unanswered queries as 0 (trec_eval -c)", **page_state().bind("missing_zero"),
            help="On: a query the system does not answer scores 0 and pulls the mean down "
                 "(ir_measures, trec_eval -c). Off: it is left out of the table and the means "
                 "(trec_eval's default).")
        st.caption("Off, as trec_eval by default: the means cover the queries the system "
                   "answered — how well it ranks what it returns. On, as `trec_eval -c`: an "
                   "unanswered query counts as 0 — what a stakeholder asking about the whole "
                   "test set, failures included, needs to see.")
    return include_missing


def _user_notes(dataset: Dataset, evaluations: Mapping[str, irlib.Evaluation]) -> bool:
    """Recommenders: a user with relevant held-out items and no list scores 0 (always: a
    system that recommends nothing to someone failed them); users only in the lists have
    nothing to be judged by. Says how many of each."""
    for system, ev in evaluations.items():
        n_users = len(ev.per_query)
        if ev.missing_queries:
            n = len(ev.missing_queries)
            st.info(f"{md_escape(system)} has no recommendations for {n:,} of the {n_users:,} "
                    f"users with relevant held-out items: they count 0.",
                    icon=":material/person_off:")
        # users held out with nothing relevant are said once in the dataset's notes: only
        # those with no held-out item at all are "no held-out item" (issue 33)
        held = dataset.extras["heldout"]["user_id"]
        no_item = pd.Index(ev.ignored_queries).difference(pd.Index(held.unique()))
        if len(no_item):
            n = len(no_item)
            st.caption(f"{md_escape(system)}: {n:,} user{'s have' if n != 1 else ' has'} "
                       "recommendations but no held-out item, so nothing to be judged by: "
                       "left out.")
    return True


# --------------------------------------------------------------------------- per-query table

def _number_columns(table: pd.DataFrame, settings: Settings, unit: str = "query") -> dict:
    if settings.recsys:
        return _recsys_columns(table, settings)
    config = {"query_id": st.column_config.TextColumn("query id"),
              "query": st.column_config.TextColumn("query"),
              "below": st.column_config.TextColumn(
                  "", width=28, help="▶ The query shown in the chart and below, under 'One "
                                    "query up close'"),
              "results": st.column_config.NumberColumn(
                  "results", help="Documents the system returned for this query", format="%d"),
              "relevant": st.column_config.NumberColumn(
                  "relevant", format="%d",
                  help=f"Judged documents with grade ≥ {settings.rel}. With 0, every binary "
                       "measure is 0 whatever the system does."),
              "rater spread": st.column_config.NumberColumn(
                  "rater spread", format="%g",
                  help="Largest max − min of the raters' grades over this query's results")}
    for key in settings.measures:
        label = settings.label(key)
        config[label] = st.column_config.NumberColumn(label, format="%.4f",
                                                      help=measure_help(key))
    return {c: v for c, v in config.items() if c in table.columns}


def _recsys_columns(table: pd.DataFrame, settings: Settings) -> dict:
    """The per-user table in a recommender engineer's words."""
    config = {"query_id": st.column_config.TextColumn("user"),
              "below": st.column_config.TextColumn(
                  "", width=28, help="▶ The user shown in the chart and below"),
              "results": st.column_config.NumberColumn(
                  "recommended", format="%d", help="Items in the user's list"),
              "relevant": st.column_config.NumberColumn(
                  "relevant held out", format="%d",
                  help="The user's held-out items that count as relevant")}
    for key in settings.measures:
        label = settings.label(key)
        config[label] = st.column_config.NumberColumn(label, format="%.4f",
                                                      help=measure_help(key))
    return {c: v for c, v in config.items() if c in table.columns}


def _on_table_select(order: list[str], widget: str) -> None:
    # A clicked row picks the query shown below; the table's key changes with its order and
    # with the chosen query, so a tick never outlives the row it was on.
    rows = st.session_state[widget]["selection"]["rows"]
    if rows and rows[0] < len(order):
        page_state().set("query", order[rows[0]])


def means_row(dataset: Dataset, evaluation: irlib.Evaluation, settings: Settings,
              include_missing: bool, n_queries: int) -> None:
    means = means_of(evaluation, settings, include_missing)
    tag = sample_tag(dataset)
    with st.container(horizontal=True, gap="small"):
        for key in settings.measures:
            value = means[key]
            st.metric(mean_label(key, settings.k, settings.gain,
                                 settings.rel if settings.graded else None,
                                 settings.recsys) + tag,
                      "–" if np.isnan(value) else f"{value:.4f}", border=True,
                      help=f"Over the {n_queries:,} {dataset.units} in the table"
                           + (" (geometric mean: a query at 0 counts as 0.00001)"
                              if key == "GMAP" else ""), width="stretch")


def table_section(dataset: Dataset, table: pd.DataFrame, evaluation: irlib.Evaluation,
                  settings: Settings, system: str, include_missing: bool) -> None:
    by = settings.label(settings.by)
    means_row(dataset, evaluation, settings, include_missing, len(table))
    chosen = chosen_query(table)
    shown = table.copy()
    shown.insert(0, "below", np.where(shown["query_id"] == chosen, "▶", ""))
    order = shown["query_id"].tolist()
    widget = "upload_table_" + hashlib.sha1(repr((order, chosen)).encode()).hexdigest()[:12]
    columns = st.columns([8, 5], gap="medium")
    with columns[0]:
        st.caption(f"{len(table):,} {dataset.units} of {md_escape(system)}"
                   f"{sample_aside(dataset)}, weakest first by {md_escape(by)}. Click a row to "
                   f"look at that {dataset.unit} below.")
        print_style.dataframe(shown, hide_index=True, width="stretch", key=widget,
                              column_config=_number_columns(shown, settings, dataset.unit),
                              on_select=lambda: _on_table_select(order, widget),
                              selection_mode="single-row",
                              height=min(38 + 35 * len(table), 420))
    with columns[1]:
        pr_section(dataset, evaluation, settings, system, include_missing, chosen)
    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        st.download_button("Download the table (CSV)", csv_bytes(_with_tag(table, dataset)),
                           file_name=f"per_query_{file_safe(system)}_{file_safe(by)}.csv",
                           mime="text/csv", icon=":material/download:", key="upload_dl_table",
                           on_click="ignore", help=DOWNLOAD_NOTE)
        st.caption(DOWNLOAD_NOTE)
    if (table["relevant"] == 0).any() and not settings.recsys:
        n = int((table["relevant"] == 0).sum())
        st.caption(f"{n:,} {'query has' if n == 1 else 'queries have'} no judged document "
                   f"with grade ≥ {settings.rel}: every binary measure is 0 there, whatever "
                   "the system does. That is a gap in the judgments, not (only) in the system.")
    if settings.by == "DCG":
        st.caption("DCG grows with the number and grades of good results a query has, so a "
                   "low DCG can mean 'few good documents exist'. NDCG divides that out.")


def _with_tag(table: pd.DataFrame, dataset: Dataset) -> pd.DataFrame:
    return table.assign(data=SAMPLE_TAG) if dataset.sample else table


def pr_section(dataset: Dataset, evaluation: irlib.Evaluation, settings: Settings,
               system: str, include_missing: bool, query_id: str | None) -> None:
    """The precision-recall graph beside the table: the mean, and the chosen query."""
    mean = mean_interpolated(evaluation, settings.rel, include_missing)
    points = precision_recall(dataset, system, query_id, settings.rel) if query_id else None
    st.plotly_chart(precision_recall_figure(mean, points, query_id, system, height=340,
                                            unit=dataset.unit),
                    key="upload_pr_chart", config=plotly_config())
    st.caption(f"Precision against recall{sample_aside(dataset)}: the blue line is trec_eval's "
               f"interpolated precision at recall 0, 0.1, …, 1, averaged over the "
               f"{dataset.units} (recall levels counted as trec_eval 9 and pytrec_eval count "
               "them; trec_eval 10 rounds them differently, which can move this line and the "
               f"11-point average in the third decimal); the dots are the chosen {dataset.unit}'s "
               "precision at each rank, the purple steps their interpolation (the highest precision at that recall "
               "or beyond).")


def control_test_note(table: pd.DataFrame, settings: Settings) -> None:
    """The DCG notebook compares 'control' and 'test' as two orderings of one query."""
    if "query" not in table.columns:
        return
    texts = table.set_index(table["query"].str.lower())
    if not {"control", "test"} <= set(texts.index) or texts.index.duplicated().any():
        return
    label = settings.label(settings.by)
    control, test = texts.loc["control", label], texts.loc["test", label]
    st.info(f"The queries **control** and **test** are the notebook's two orderings of the "
            f"same documents: {label} {control:.4g} for control, {test:.4g} for test. That "
            "compares the two systems on a single query: it cannot show that test ranks "
            "better than control in general. For that, compare two runs over many queries "
            "under *TREC qrels + runs*.", icon=":material/science:")
