"""One query up close: pick it (weakest first), see its ranking as rows or cards, and how
the ordering measure is computed for it."""
from __future__ import annotations

import hashlib

import pandas as pd
import streamlit as st

from ui.shared.formula import show_explanation
from ui.shared.texts import md_escape
from ui.upload.measures import explain_measure
from ui.upload.model import Dataset, Settings
from ui.upload.settings import page_state
from ui.upload.tables import judged_grades, ranking_frame

GRADE_COLORS = {0: "gray", 1: "orange", 2: "blue"}


def _query_label(table: pd.DataFrame, by: str):
    text = table.set_index("query_id")
    has_text = "query" in text.columns

    def label(qid: str) -> str:
        row = text.loc[qid]
        name = f"{qid} · {row['query']}" if has_text and row["query"] else qid
        return f"{name}  ({by} {row[by]:.3f})"
    return label


def chosen_query(table: pd.DataFrame) -> str | None:
    """The query shown up close: the one picked (in the table, the picker or the link),
    or the weakest query the system answered that has something relevant to find."""
    options = table["query_id"].tolist()
    if not options:
        return None
    fields = page_state()
    if fields.get("query") not in options:
        # without an answer or a relevant document a query scores 0 whatever happens, and
        # its formula says little
        judged = table.loc[(table["relevant"] > 0) & (table["results"] > 0), "query_id"]
        fields.set("query", judged.iloc[0] if len(judged) else options[0])
    return fields["query"]


def query_picker(table: pd.DataFrame, settings: Settings, unit: str = "query") -> str | None:
    """The picker follows the query, never a position: a new ranking measure, K or order
    makes a new widget (fresh labels) that opens on the same query."""
    query_id = chosen_query(table)
    if query_id is None:
        return None
    options = table["query_id"].tolist()
    by = settings.label(settings.by)
    signature = hashlib.sha1(repr((by, options)).encode()).hexdigest()[:12]
    widget = f"upload_query_pick_{signature}"
    st.selectbox(f"{unit.capitalize()} (weakest first)", options, index=options.index(query_id), key=widget,
                 format_func=_query_label(table, by),
                 on_change=lambda: page_state().set("query", st.session_state[widget]))
    return page_state()["query"]


def query_view(dataset: Dataset, table: pd.DataFrame, settings: Settings, system: str) -> None:
    query_id = query_picker(table, settings, dataset.unit)
    if query_id is None:
        st.info(f"No {dataset.unit} to show.")
        return
    ranking = ranking_frame(dataset, system, query_id)
    judged = judged_grades(dataset, query_id)
    if ranking.empty:
        st.info(f"{md_escape(system)} returned nothing for this {dataset.unit}, so every "
                "measure is 0. "
                + (f"The user has {int((judged > 0).sum())} relevant held-out items."
                   if dataset.kind == "recsys" else f"It has {len(judged)} judged documents."))
        return
    view = st.segmented_control("Show the ranking as", ["rows", "cards"],
                                **page_state().bind("view"), required=True)
    k = settings.k
    if view == "cards":
        _cards(dataset, ranking, k)
    else:
        _rows(dataset, ranking, k)
    tie_note = _tie_note(ranking, dataset.kind)
    if tie_note:
        st.caption(tie_note)
    label = settings.label(settings.by)
    st.markdown(f"**How {label} is computed for this {dataset.unit}**")   # the label names the gain
    expl = explain_measure(settings.by, ranking["relevance"].to_numpy(), judged, settings.k,
                           settings.gain, settings.rel, ranking["judged"].to_numpy())
    show_explanation(expl)


def _tie_note(ranking: pd.DataFrame, kind: str) -> str:
    """Why a document may not sit at the rank its file gave it: trec_eval's order breaks
    ties of score by document id (``irlib.stats.compare.per_query_ranking``), and a file's own rank
    column is not read. Empty when no two scores of this ranking are equal.

    >>> ranking = pd.DataFrame({"score": [3.0, 1.0, 1.0, 0.5]})
    >>> _tie_note(ranking, "trec")[:60]
    '2 of these 4 documents share their score with another: equal'
    >>> _tie_note(ranking.iloc[:2], "trec")
    ''
    """
    if kind == "ratings" or "score" not in ranking.columns:
        return ""
    tied = int(ranking["score"].duplicated(keep=False).sum())
    if not tied:
        return ""
    what = "item" if kind == "recsys" else "document"
    return (f"{tied} of these {len(ranking):,} {what}s share their score with another: "
            f"equal scores are ranked by {what} id, the last in alphabetical order first, "
            f"as trec_eval ranks them. A rank column in the file is not read, so a {what} "
            "may sit at another rank than its file gave it.")


def _rows(dataset: Dataset, ranking: pd.DataFrame, k: int) -> None:
    shown = ranking.head(max(k, 100)).copy()
    shown.insert(1, f"in top {k}", shown["rank"] <= k)
    columns = ["rank", f"in top {k}", "doc_id", "relevance"]
    if dataset.kind != "ratings":     # a ratings sheet judges every row and has no scores
        columns += ["judged", "score"]
    columns += [c for c in dataset.rater_columns + ["disagreement"] if c in shown.columns]
    if dataset.kind == "recsys" and (shown["score"] == -shown["rank"]).all():
        columns.remove("score")          # a rank-only list: its score is -rank, nothing more
    config = _column_config(dataset.kind == "recsys")
    st.dataframe(shown[columns], hide_index=True, width="stretch", key="upload_ranking",
                 column_config={c: config[c] for c in columns if c in config},
                 height=min(38 + 35 * len(shown), 400))
    if len(ranking) > len(shown):
        st.caption(f"Showing the top {len(shown)} of {len(ranking):,} results.")


def _column_config(recsys: bool) -> dict:
    """The ranking's column heads: a search engineer's, or a recommender's (items, held out
    later or not, relevant under the page's rule)."""
    if recsys:
        return {"doc_id": st.column_config.TextColumn("item"),
                "relevance": st.column_config.NumberColumn(
                    "relevant", format="%d", help="1: a relevant held-out item (a hit)"),
                "judged": st.column_config.CheckboxColumn("held out",
                                                          help="The user had it later"),
                "score": st.column_config.NumberColumn("score", format="%.4f")}
    return {"doc_id": st.column_config.TextColumn("document"),
            "relevance": st.column_config.NumberColumn("grade", format="%d"),
            "score": st.column_config.NumberColumn("score", format="%.4f"),
            "disagreement": st.column_config.NumberColumn(
                "rater spread", format="%g", help="max − min of the raters' grades")}


def _cards(dataset: Dataset, ranking: pd.DataFrame, k: int) -> None:
    shown = ranking.head(max(k, 8) if k <= 20 else 20)
    per_row = 4
    raters = [c for c in dataset.rater_columns if c in shown.columns]
    for start in range(0, len(shown), per_row):
        columns = st.columns(per_row)
        for column, (_, row) in zip(columns, shown.iloc[start:start + per_row].iterrows()):
            with column, st.container(border=True):
                in_top = "" if row["rank"] <= k else f" · below the top {k}"
                st.caption(f"#{int(row['rank'])}{in_top}")
                st.text(str(row["doc_id"]))
                grade = row["relevance"]
                if dataset.kind == "recsys":
                    _held_out_badge(row)
                elif not row["judged"]:
                    st.badge("unjudged (grade 0)", color="gray")
                else:
                    st.badge(f"grade {grade:g}", color=GRADE_COLORS.get(int(grade), "green"))
                if raters:
                    votes = " · ".join(f"{row[c]:g}" for c in raters)
                    spread = row.get("disagreement", 0)
                    st.caption(f"raters {votes} (spread {spread:g})")
    if len(ranking) > len(shown):
        st.caption(f"Showing the top {len(shown)} of {len(ranking):,} results.")


def _held_out_badge(row) -> None:
    """A recommended item: a hit, held out but not relevant (rated below the rule), or not
    held out."""
    if row["relevance"] > 0:
        st.badge("held out: a hit", color="green")
    elif row["judged"]:
        st.badge("held out, not relevant", color="orange")
    else:
        st.badge("not held out", color="gray")
