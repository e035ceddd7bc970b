"""Trap 2, sampled metrics: the held-out film ranked among N random films instead of the whole
catalogue (Krichene & Rendle, KDD 2020)."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from course.reclab import lesson
from course.reclab.models import MODELS
from course.reclab.sampled import MAX_NEGATIVES
from irlib.recsys.standings import order_sentence
from ui.lessons.recommenders import (MODEL_COLORS, MODEL_NAMES, PREFIX, metric_label, model_name,
                             plain, tested_stars)

METRICS = ("hit", "ndcg", "mrr")


def figure(curve: pd.DataFrame, full: pd.Series, n: int, key: str, k: int,
           height: int = 300) -> dict:
    """Each model's sampled metric against the number of negatives (log axis), its
    whole-catalogue value as a dotted line of the same colour, the chosen N marked."""
    label = metric_label(key, k)
    traces = []
    for m in MODELS:
        traces.append({"type": "scatter", "mode": "lines+markers", "name": model_name(m),
                       "x": curve.index.tolist(), "y": curve[m].round(4).tolist(),
                       "line": {"color": MODEL_COLORS[m], "width": 3},
                       "marker": {"size": [11 if x == n else 5 for x in curve.index]},
                       "hovertemplate": f"{model_name(m)}: {label} %{{y:.3f}} "
                                        "with %{x} negatives<extra></extra>"})
        traces.append({"type": "scatter", "mode": "lines", "showlegend": False,
                       "x": [1, MAX_NEGATIVES], "y": [float(full[m])] * 2,
                       "line": {"color": MODEL_COLORS[m], "width": 2, "dash": "dot"},
                       "hovertemplate": f"{model_name(m)}, whole catalogue: {label} "
                                        f"{float(full[m]):.3f}<extra></extra>"})
    layout = {"height": height, "margin": {"l": 10, "r": 10, "t": 10, "b": 10},
              "font": {"size": 13},
              "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.0, "x": 0},
              "xaxis": {"title": {"text": "sampled negatives N (log scale)"}, "type": "log",
                        "tickvals": [1, 2, 5, 10, 20, 50, 100]},
              "yaxis": {"title": {"text": label}, "range": [0, 1.02]},
              "hovermode": "closest",
              "shapes": [{"type": "line", "x0": n, "x1": n, "xref": "x", "y0": 0, "y1": 1,
                          "yref": "paper", "line": {"width": 2, "dash": "dash",
                                                    "color": "#888"}}],
              "annotations": [{"x": 0, "xref": "paper", "y": float(full.max()), "yref": "y",
                               "text": "dotted: whole catalogue", "showarrow": False,
                               "xanchor": "left", "yanchor": "bottom",
                               "font": {"size": 12, "color": "#888"}}]}
    return {"data": traces, "layout": layout}


def insight(found, sampled: pd.Series, full: pd.Series, n: int, key: str, k: int) -> str:
    """irlib's tested sentence on a pair whose order the sample turns, else how far the
    sampled numbers sit above the whole catalogue's."""
    turn = order_sentence(found, "sampled", "full", MODEL_NAMES, f"Among **{n}** sampled films",
                          "on the whole catalogue")
    if turn is not None:
        return turn
    return (f"Among **{n}** sampled films the means of the three on {metric_label(key, k)} "
            f"come in their whole-catalogue order, at {_ratio(sampled, full)} the numbers. "
            "Move N: the order of the means turns.")


def _ratio(sampled: pd.Series, full: pd.Series) -> str:
    positive = full[full > 0]
    if positive.empty:
        return "much"
    return f"{(sampled[positive.index] / positive).min():.1f}–" \
           f"{(sampled[positive.index] / positive).max():.1f}×"


def show(S, k: int) -> None:
    low, high = lesson.unwatched_range()
    controls = st.columns([4, 2, 3], vertical_alignment="bottom")
    controls[0].slider("N: random films each held-out film is ranked among", 1,
                       MAX_NEGATIVES, **S.bind("negatives"),
                       help=f"Each user has {low}–{high} films they never watched: the "
                            "whole-catalogue numbers rank the held-out film among all of them.")
    controls[1].number_input("Sampling seed", 0, 9999, **S.bind("seed"),
                             help="Each user's N films are the first N of a random order of the "
                                  "films they never watched, drawn with this seed: the same "
                                  "seed, the same films; a larger N adds films to the sample.")
    controls[2].segmented_control("Metric", list(METRICS), **S.bind("sampled_metric"),
                                  required=True, wrap=True,
                                  format_func=lambda m: metric_label(m, k))
    n, seed, key = int(S["negatives"]), int(S["seed"]), S["sampled_metric"]
    curve = lesson.sampled_curve(key, k, seed, n)
    full = lesson.full_catalogue(key, k)
    at_n = curve.loc[n]

    chart, numbers = st.columns([5, 4], gap="medium")
    with chart:
        st.plotly_chart(figure(curve, full, n, key, k), key=PREFIX + "sampled_chart",
                        config={"displayModeBar": False})
    with numbers:
        found = lesson.sampled_standings(key, k, seed, n)
        table = pd.DataFrame({f"Among {n} sampled": tested_stars(at_n, found.stars("sampled")),
                              "Whole catalogue": tested_stars(full, found.stars("full"))},
                             index=[model_name(m) for m in MODELS]).rename_axis("Model")
        st.table(table)
        st.caption(f"**{metric_label(key, k)}**: {plain(key, k)}. {found.legend_short()}. "
                   f"The top {k} of {n + 1} candidates is about the top "
                   f"{_equivalent(n, k, low, high)} of the whole catalogue: a sample rewards "
                   "a good *average* rank more than a good top of the list.",
                   help=f"Each user's last film is held out (leave-last-out); sampled with "
                        f"seed {seed}. {found.legend('in that column')}")
        st.info(insight(found, at_n, full, n, key, k), icon=":material/lightbulb:")


def _equivalent(n: int, k: int, low: int, high: int) -> str:
    """The whole-catalogue depth a sampled top-k stands for: k x (pool + 1) / (n + 1)."""
    a, b = round(k * (low + 1) / (n + 1)), round(k * (high + 1) / (n + 1))
    return str(a) if a == b else f"{a}–{b}"
