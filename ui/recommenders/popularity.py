"""Trap 3, popularity: the same few films for everyone can win on accuracy.

Accuracy, then what accuracy cannot see: coverage, exposure, novelty and diversity of the
lists (irlib's beyond-accuracy measures, :func:`irlib.reclab.lesson.beyond_table`) and irlib's
sentence on whether the winner collapsed onto a few films.
"""
from __future__ import annotations

import pandas as pd
import streamlit as st

from irlib.reclab import lesson
from irlib.reclab.evaluation import LABELS
from irlib.reclab.models import MODELS
from ui.recommenders import (MODEL_COLORS, PREFIX, WINNER_MARK, metric_label, model_name,
                             names, winners)


def insight(table: pd.DataFrame, k: int) -> str:
    """Which model wins how many of the accuracy numbers, and what accuracy cannot see."""
    wins = {m: sum(m in winners(table[c]) for c in table.columns) for m in MODELS}
    best = max(wins, key=wins.get)
    if best != "mf" and wins[best] == len(table.columns):
        lead = (f"{names([best])}, the same {k} films for everyone, wins every accuracy "
                "number against the personalised model.")
    else:
        lead = f"{names([best])} wins {wins[best]} of the {len(table.columns)} accuracy numbers."
    return lead + " Accuracy cannot see how few films a popularity list shows: the " \
                  "beyond-accuracy numbers beside it can."


def counts_figure(counts: pd.DataFrame, height: int = 210) -> dict:
    """For every film (most watched on the left): in how many users' lists each model puts it."""
    x = list(range(1, len(counts) + 1))
    traces = [{"type": "bar", "name": model_name(m), "x": x, "y": counts[m].tolist(),
               "marker": {"color": MODEL_COLORS[m]}, "opacity": 0.8,
               "customdata": counts["title"].tolist(),
               "hovertemplate": "%{customdata}: in %{y} lists<extra>" + model_name(m)
                                + "</extra>"} for m in MODELS]
    layout = {"height": height, "barmode": "overlay", "bargap": 0,
              "margin": {"l": 0, "r": 0, "t": 0, "b": 0}, "font": {"size": 12},
              "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.0, "x": 0,
                         "font": {"size": 11}},
              "xaxis": {"title": {"text": "films, most watched first"}},
              "yaxis": {"title": {"text": "users' lists"}}, "hovermode": "closest"}
    return {"data": traces, "layout": layout}


#: irlib's beyond-accuracy measures as the table heads them, and which way is "more varied".
BEYOND_COLUMNS = {"Coverage": "coverage", "Gini": "exposure Gini", "Novelty": "novelty",
                  "ILD": "diversity"}


def beyond_frame(table: pd.DataFrame, k: int) -> pd.DataFrame:
    """Rows: the measures; columns: the models; percentages where a share reads better."""
    shown = pd.DataFrame({
        f"coverage@{k}": [f"{v:.0%}" for v in table["Coverage"]],
        f"exposure Gini@{k}": [f"{v:.2f}" for v in table["Gini"]],
        "novelty (bits)": [f"{v:.2f}" for v in table["Novelty"]],
        "genre diversity": [f"{v:.2f}" for v in table["ILD"]]},
        index=[model_name(m) for m in table.index]).T
    return shown.rename_axis("Beyond accuracy")


def beyond_accuracy(k: int) -> None:
    """Coverage@K, exposure Gini@K, novelty and genre diversity of the three models' lists
    (irlib's beyond-accuracy measures), irlib's verdict on the accuracy winner, and the
    picture of where the lists go."""
    with st.container(border=True, key=PREFIX + "beyond"):
        st.table(beyond_frame(lesson.beyond_table(k), k))
        st.caption(f"Coverage: the share of the 200 films in some top-{k} list. Exposure "
                   "Gini: 0 when every film is shown as often, near 1 when a few take every "
                   "slot. Novelty: how surprising the average film is (−log₂ of the share "
                   "of users who watched it). Diversity: how different two films in a list "
                   "are, by genre.")
        st.warning(lesson.popularity_verdict(k), icon=":material/trending_down:")
        st.plotly_chart(counts_figure(lesson.list_counts(k)), key=PREFIX + "counts",
                        config={"displayModeBar": False})


def accuracy_frame(table: pd.DataFrame) -> pd.DataFrame:
    """Rows: metrics; columns: models; the winners starred."""
    shown = table.T.copy().astype(object)
    for metric, row in table.T.iterrows():
        won = winners(row)
        shown.loc[metric] = [f"{WINNER_MARK}\u00a0{v:.3f}" if m in won else f"{v:.3f}"
                             for m, v in row.items()]
    shown.columns = [model_name(m) for m in table.index]
    return shown.rename_axis("Metric")


#: The four metrics in a few words each, for one caption under the table.
BRIEF = {"hit": "someone they went on to watch is in the list",
         "recall": "the share of their later films in it",
         "ndcg": "the same, a higher place counting more",
         "mrr": "how high the first hit sits"}


def show(S, k: int) -> None:
    table = lesson.accuracy_table(k)
    lists = lesson.chart_lists(k)
    left, middle, right = st.columns([5, 5, 4], gap="small")
    with left:
        shown = pd.DataFrame({model_name("popular"): lists["popular"].to_numpy(),
                              model_name("trending"): lists["trending"].to_numpy()},
                             index=pd.Index(lists["rank"].to_numpy(), name="#"))
        # a table, not a dataframe: no toolbar over the controls on a phone; beyond ten
        # films a fixed height keeps the list on a laptop's screen (it scrolls)
        st.table(shown, height="content" if k <= 10 else 388)
        st.caption("The two popularity lists: every user gets one of them, minus the films "
                   "they have already watched.")
    with middle:
        st.table(accuracy_frame(table))
        st.caption(f"Per user, averaged: " + "; ".join(
            f"**{metric_label(key, k)}**, {BRIEF[key]}" for key in LABELS)
            + f". Trained before day {lesson.cut_day():.0f}, judged after it (trap 1's "
              "temporal split); ★ the best.")
        st.info(insight(table, k), icon=":material/lightbulb:")
    with right:
        beyond_accuracy(k)
