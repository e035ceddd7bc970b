"""Trap 3, popularity: the same few films for everyone can win on accuracy.

Accuracy, then what accuracy cannot see: coverage, exposure, popularity now, novelty and
diversity of the lists (irlib's beyond-accuracy measures,
:func:`course.reclab.lesson.beyond_table`; popularity counted in the training's last week, the
window Trending ranks by) and irlib's tested sentence on the best one-list-for-everyone model
against matrix factorisation: a win only where the paired test finds it, a warning when it
won by collapsing onto popular films.
"""
from __future__ import annotations

import pandas as pd
import streamlit as st

from course.reclab import lesson
from irlib.recsys.compare import percent_text, score_text
from irlib.recsys.standings import HIGHEST_MEAN_LEGEND, highest_mean_words
from course.reclab.data import DAYS
from course.reclab.models import MODELS, TRENDING_DAYS
from ui.lessons.recommenders import (MODEL_COLORS, PREFIX, WINNER_MARK, model_name,
                             names, winners)
from ui.shared.texts import md_escape


#: What the trap shows, said once under the verdict.
WHAT_IT_SHOWS = ("**The trap:** one list for everyone tops the accuracy table by showing "
                 "everyone what is popular now, and most films are never shown to anyone.")


def insight(table: pd.DataFrame, k: int) -> str:
    """Which model has the highest mean on how many accuracy numbers (★: the highest mean
    within the tie tolerance, not a tested win: the tested sentence follows it)."""
    wins = {m: sum(m in winners(table[c]) for c in table.columns) for m in MODELS}
    best = max(wins, key=wins.get)
    detail = ""
    if best != "mf" and wins[best] == len(table.columns):
        films = lesson.recommendation_lists(k)[best]["item_id"].nunique()
        detail = f", one chart for everyone ({films} distinct films in all),"
    return highest_mean_words(names([best]), wins[best], len(table.columns), detail)


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
BEYOND_COLUMNS = {"Coverage": "coverage", "Gini": "exposure Gini",
                  "Popularity": "popular now", "Novelty": "novelty now", "ILD": "diversity"}


def beyond_frame(table: pd.DataFrame, k: int) -> pd.DataFrame:
    """Rows: the beyond-accuracy measures; columns: the models (as accuracy_frame). Shares
    printed as the verdict's sentence beside the table prints them (irlib.recsys.compare)."""
    shown = pd.DataFrame({
        f"coverage@{k}": [percent_text(v) for v in table["Coverage"]],
        f"exposure Gini@{k}": [f"{v:.2f}" for v in table["Gini"]],
        "popular now": [percent_text(v) for v in table["Popularity"]],
        "novelty now (bits)": [f"{v:.2f}" for v in table["Novelty"]],
        "genre diversity": [f"{v:.2f}" for v in table["ILD"]]},
        index=[model_name(m) for m in table.index]).T
    return shown.rename_axis("Metric")


def beyond_accuracy(table: pd.DataFrame, k: int) -> None:
    """What accuracy says and what it cannot see in one box (irlib's tested sentence on the
    best chart against the personalised model: a warning when it won by collapsing onto
    popular films), what the trap shows, and the picture of where the lists go a click away
    (the numbers sit under the accuracy table)."""
    verdict = lesson.popularity_comparison(k)
    box = st.warning if verdict.warning else st.info
    box(f"{insight(table, k)} {md_escape(verdict.sentence)}",
        icon=":material/trending_down:" if verdict.warning else ":material/lightbulb:")
    with st.expander("Where the lists go, film by film", icon=":material/bar_chart:"):
        st.markdown(WHAT_IT_SHOWS)
        st.plotly_chart(counts_figure(lesson.list_counts(k), height=200),
                        key=PREFIX + "counts", config={"displayModeBar": False})


def accuracy_frame(table: pd.DataFrame) -> pd.DataFrame:
    """Rows: metrics; columns: models; the winners starred."""
    shown = table.T.copy().astype(object)
    for metric, row in table.T.iterrows():
        won = winners(row)
        shown.loc[metric] = [f"{WINNER_MARK}\u00a0{score_text(v)}" if m in won else score_text(v)
                             for m, v in row.items()]
    shown.columns = [model_name(m) for m in table.index]
    return shown.rename_axis("Metric")




def show(S, k: int) -> None:
    table = lesson.accuracy_table(k)
    lists = lesson.chart_lists(k)
    left, middle, right = st.columns([4, 5, 5], gap="small")
    with left:
        shown = pd.DataFrame({model_name("popular"): lists["popular"].to_numpy(),
                              model_name("trending"): lists["trending"].to_numpy()},
                             index=pd.Index(lists["rank"].to_numpy(), name="#"))
        # a table, not a dataframe: no toolbar over the controls on a phone; beyond ten
        # films a fixed height keeps the list on a laptop's screen (it scrolls)
        st.table(shown, height="content" if k <= 10 else 388)
        st.caption("The two popularity lists: every user gets one of them, minus the films "
                   f"they have already watched. Most popular counts all {DAYS} days of views, "
                   f"Trending the last {TRENDING_DAYS:g}: films here are watched in their first "
                   "weeks, so the recent chart hits.")
    with middle:
        st.table(pd.concat([accuracy_frame(table), beyond_frame(lesson.beyond_table(k), k)]))
        st.caption(f"Per user, averaged; judged after day {lesson.cut_day():.0f} (trap 1's "
                   f"temporal split); {HIGHEST_MEAN_LEGEND}. Below, what the lists hold: "
                   "the share of "
                   "the 200 films shown; how unevenly they share the slots (Gini 0: evenly); "
                   f"the share of the {lesson.active_users()} users active in the training's "
                   "last week who watched the average recommended film, and its surprise in "
                   "bits (now: what a trending list follows); how varied a list's genres "
                   "are.")
    with right:
        beyond_accuracy(table, k)
