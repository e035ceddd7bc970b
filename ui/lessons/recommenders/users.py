"""Trap 4, many users: how HitRate, Recall, NDCG and MRR average over users who hold out one
film or thirty."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from course.reclab import lesson
from course.reclab.evaluation import LABELS
from course.reclab.models import MODELS
from ui.lessons.recommenders import MODEL_COLORS, PREFIX, metric_label, model_name, plain

USER_COLOR, VIEW_COLOR = "#009E73", "#D55E00"


def figure(table: pd.DataFrame, means: pd.Series, key: str, k: int, model: str,
           height: int = 290) -> dict:
    """One dot per user: held-out views across, the user's metric up; the two means as lines."""
    label = metric_label(key, k)
    hi = int(table["held_out"].max())
    traces = [{"type": "scatter", "mode": "markers", "name": "a user",
               "x": table["held_out"].tolist(), "y": table[key].round(4).tolist(),
               "marker": {"color": MODEL_COLORS[model], "size": 10, "opacity": 0.75,
                          "line": {"width": 1, "color": "#ffffff"}},
               "customdata": table["name"].tolist(),
               "hovertemplate": "%{customdata}: %{x} held-out films, " + label
                                + " %{y:.3f}<extra></extra>"}]
    for column, text, colour, dash in (("users", "mean over users", USER_COLOR, "solid"),
                                       ("views", "mean over held-out films", VIEW_COLOR,
                                        "dash")):
        traces.append({"type": "scatter", "mode": "lines", "name": f"{text}: "
                       f"{means[column]:.3f}", "x": [0.5, hi + 0.5],
                       "y": [float(means[column])] * 2,
                       "line": {"color": colour, "width": 2, "dash": dash},
                       "hoverinfo": "skip"})
    layout = {"height": height, "margin": {"l": 10, "r": 10, "t": 10, "b": 10},
              "font": {"size": 13},
              "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.0, "x": 0},
              "xaxis": {"title": {"text": "held-out films of the user"}, "range": [0, hi + 1]},
              "yaxis": {"title": {"text": label}, "range": [-0.03, 1.05]},
              "hovermode": "closest"}
    return {"data": traces, "layout": layout}


def spotlight(table: pd.DataFrame, k: int) -> str:
    """The heaviest and a lightest user side by side, all four numbers each."""
    heavy = table.sort_values(["held_out", "name"], ascending=[False, True]).iloc[0]
    light = table.sort_values(["held_out", "hit", "name"], ascending=[True, False, True]).iloc[0]

    def line(row) -> str:
        films = f"{int(row['held_out'])} held-out film{'s' if row['held_out'] != 1 else ''}"
        values = ", ".join(f"{metric_label(key, k)} {row[key]:.2f}" for key in LABELS)
        return f"**{row['name']}**, {films}: {values}."
    return line(heavy) + "  \n" + line(light)


#: How each metric treats a user with many held-out films, in one sentence.
MANY = {
    "hit": "one hit among a user's many held-out films is enough for a 1, so heavy users "
           "score 1 easily; counted per film, each film must make the top {k} on its own.",
    "recall": "it divides by the user's held-out films: with {k} slots, a user with 30 can "
              "reach at most {k}/30, so heavy users score low.",
    "ndcg": "the ideal list of a heavy user has a hit in all {k} slots, so one hit scores "
            "little; a one-film user's single hit at the top scores 1.",
    "mrr": "only the first hit counts: the more held-out films a user has, the likelier "
           "one of them sits near the top, so a heavy user's one number is their top-placed "
           "film's; counted per film, each film scores its own position.",
}


def insight(averages: pd.DataFrame, key: str, k: int, cap: int) -> str:
    label = metric_label(key, k)
    users, views = averages.loc[key, "users"], averages.loc[key, "views"]
    if cap == 1:
        return (f"One held-out film per user: both means are {users:.3f}, and HitRate equals "
                "Recall. Raise the cap and watch them part.")
    return (f"Each user once: **{users:.3f}**; each held-out film once: **{views:.3f}**. "
            f"{label}: " + MANY[key].format(k=k))


def show(S, k: int) -> None:
    most = lesson.most_held_out()
    controls = st.columns([3, 4, 3], vertical_alignment="bottom")
    controls[0].selectbox("Model", list(MODELS), **S.bind("users_model"),
                          format_func=model_name)
    controls[1].segmented_control("Metric", list(LABELS), **S.bind("users_metric"),
                                  required=True, wrap=True,
                                  format_func=lambda m: metric_label(m, k))
    controls[2].slider("Held-out films per user, at most", 1, most, **S.bind("cap"),
                       help="Keep each user's first n views after the cut day as test.")
    model, key, cap = S["users_model"], S["users_metric"], int(S["cap"])
    table = lesson.per_user(model, k, cap)
    averages = lesson.averages(model, k, cap)

    chart, numbers = st.columns([5, 4], gap="medium")
    with chart:
        st.plotly_chart(figure(table, averages.loc[key], key, k, model),
                        key=PREFIX + "users_chart", config={"displayModeBar": False})
        st.caption(spotlight(table, k))
    with numbers:
        shown = pd.DataFrame({"Each user once": averages["users"].map("{:.3f}".format),
                              "Each held-out film once": averages["views"].map("{:.3f}".format)})
        shown.index = [metric_label(m, k) for m in averages.index]
        st.table(shown.rename_axis("Mean"))
        st.caption(f"**{metric_label(key, k)}**: {plain(key, k)}. The {len(table)} users with "
                   f"views after day {lesson.cut_day():.0f}; {model_name(model)} learnt from "
                   "the views before it.")
        st.info(insight(averages, key, k, cap), icon=":material/lightbulb:")
