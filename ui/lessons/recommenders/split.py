"""Trap 1, the split: random vs leave-last-out vs temporal, and the future each one leaks."""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from course.reclab import lesson
from course.reclab.evaluation import LABELS
from course.reclab.models import MODELS
from course.reclab.splits import SPLITS
from ui.lessons.recommenders import (MODEL_NAMES, PREFIX, SPLIT_LABELS, metric_label, model_name,
                             plain, tested_stars)

TRAIN_COLOR, TEST_COLOR = "#999999", "#D55E00"
HONEST = "time"
SPLIT_WORDS = {"random": "random", "last": "leave-last-out", "time": "temporal"}


def timeline_figure(how: str, height: int = 255) -> dict:
    """Every view as a dot: day across, one row per user (earliest first); held-out views
    orange and larger. A plain Plotly dict (no validation cost on every rerun)."""
    views = lesson.timeline(how)
    traces = []
    for is_test, label, colour, size in ((False, "training", TRAIN_COLOR, 4),
                                         (True, "held out (test)", TEST_COLOR, 7)):
        part = views[views["test"] == is_test]
        traces.append({
            "type": "scattergl", "mode": "markers", "name": label,
            "x": part["day"].round(1).tolist(), "y": part["row"].tolist(),
            "marker": {"color": colour, "size": size, "opacity": 0.9 if is_test else 0.6},
            "customdata": np.column_stack([part["name"], part["title"]]).tolist(),
            "hovertemplate": "%{customdata[0]} watched %{customdata[1]}<br>day %{x}"
                             f"<extra>{label}</extra>"})
    layout = {"height": height, "margin": {"l": 10, "r": 10, "t": 10, "b": 10},
              "font": {"size": 13},
              "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.0, "x": 0},
              "xaxis": {"title": {"text": "day"}, "range": [-1, 101]},
              "yaxis": {"title": {"text": "one row per user"}, "showticklabels": False,
                        "autorange": "reversed", "zeroline": False, "showgrid": False},
              "hovermode": "closest"}
    cut = lesson.cut_day(how)
    if cut is not None:
        layout["shapes"] = [{"type": "line", "x0": cut, "x1": cut, "xref": "x", "y0": 0,
                             "y1": 1, "yref": "paper",
                             "line": {"width": 2, "dash": "dash", "color": TEST_COLOR}}]
        # named under the axis, not beside the line: there it lay on the points
        layout["xaxis"]["title"]["text"] = f"day (dashed: the cut, day {cut:.0f})"
    return {"data": traces, "layout": layout}


def insight(found, how: str) -> str:
    """What the chosen split says, and what the temporal one says back: irlib's tested
    sentences (a model is first or last only where the paired test over the users finds it,
    corrected for the 9 comparisons the table shows)."""
    first = found.sentence(how, MODEL_NAMES, f"Under the {SPLIT_WORDS[how]} split")
    if how == HONEST:
        return first + " Trained on the past, judged on what came after: how it will be used."
    return first + " " + found.short(HONEST, MODEL_NAMES, "Cut by time")


def show(S, k: int) -> None:
    controls = st.columns([3, 4], vertical_alignment="bottom")
    controls[0].segmented_control(
        "Hold out", list(SPLITS), **S.bind("split"), required=True, wrap=True,
        format_func=SPLIT_LABELS.get,
        help="Random: any 20 % of the views. Leave-last-out: each user's last view. "
             "Temporal: every view after one cut day (the last 20 %).")
    controls[1].segmented_control(
        "Metric", list(LABELS), **S.bind("split_metric"), required=True, wrap=True,
        format_func=lambda key: metric_label(key, k))
    how, key = S["split"], S["split_metric"]
    scores = lesson.split_scores(key, k)
    found = lesson.split_standings(key, k)
    leak = lesson.leaks()[how]

    chart, numbers = st.columns([5, 4], gap="medium")
    with chart:
        st.plotly_chart(timeline_figure(how), key=PREFIX + "timeline",
                        config={"displayModeBar": False})
        own, anyone = st.columns(2)
        own.metric("Same user's later views in training", f"{leak.own:.0%}",
                   help="Share of the held-out views whose user also has a later view in "
                        "the training data.")
        own.caption("The model learns what this person did *after* the moment it predicts.")
        anyone.metric("Anyone's later views in training", f"{leak.anyone:.0%}",
                      help="Share of the held-out views with any training view on a later "
                           "day.")
        anyone.caption("The model knows which films become hits later.")
    with numbers:
        table = pd.DataFrame({SPLIT_LABELS[h] + (" ◀" if h == how else ""):
                              tested_stars(scores[h], found.stars(h)) for h in SPLITS},
                             index=[model_name(m) for m in MODELS])
        st.table(table.rename_axis("Model"))
        users = ", ".join(f"{SPLIT_WORDS[h]} {found.settings[h].n_users}" for h in SPLITS)
        st.caption(f"**{metric_label(key, k)}**: {plain(key, k)}. {found.legend_short()}; "
                   "◀ the chart's split.",
                   help=f"Means over each split's test users ({users}). "
                        f"{found.legend('under that split')}")
        st.info(insight(found, how), icon=":material/lightbulb:")
