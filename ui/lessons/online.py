"""The lesson "Metrics as users": its state, its pairs of rankings, and its charts.

Every number is irlib's (:mod:`irlib.online`, :mod:`irlib.measures`); every sentence comes
from :func:`irlib.online.online_claims`. This module picks the rankings, keeps the settings in
the address bar and draws.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import irlib
from irlib import online
from irlib.online.compare import percent_text
from irlib.measures.user_models import err, user_model
from ui.shared import page_state as ps
from ui.shared.catalog import load_catalog
from ui.shared.charts import layout_dict

PREFIX = "on_"
GRADED_QUERY = "white-cat-in-a-box"
PLAYGROUND = "pg_"                  # the playground's session keys (ui/lessons/playground/session.py)
USERS = (100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000)
TOUCHED = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)
#: the users each power curve is drawn at (seeded experiments at each)
CURVE_SIZES = tuple(int(m * 10 ** e) for e in range(1, 7) for m in (1, 2, 5)) + (10 ** 7,)
NOISE = tuple(round(0.05 * i, 2) for i in range(11))           # 0 to 0.5
BIAS = tuple(0.25 * i for i in range(9))                       # 0 to 2
PATIENCE = tuple(round(0.5 + 0.05 * i, 2) for i in range(11))  # 0.5 to 1
RBP_P = tuple(round(0.05 * i, 2) for i in range(10, 20))     # 0.5 to 0.95
INST_T = (0.5, 1.0, 1.5, 2.0, 3.0, 4.0)
CURVES = {"weight": "W(i): attention", "continuation": "C(i): goes on",
          "stopping": "L(i): stops here"}
#: what each measure's user does, and the colour its curve gets
USERS_OF = {
    "P": ("reads exactly K results, each as closely", "#0072B2"),
    "RR": ("stops at the first relevant result", "#E69F00"),
    "RBP": ("goes on with the same chance p after every result", "#009E73"),
    "INST": ("came for T units of gain; reads on longer while the goal is unmet", "#CC79A7"),
    "nDCG": ("reads on with NDCG's log discount, up to K", "#56B4E9"),
    "ERR": ("stops when satisfied, more often at a higher grade", "#D55E00"),
}
COLOURS = {"A": "#0072B2", "B": "#D55E00", "ab": "#0072B2", "interleaving": "#009E73"}

PAIRS = {
    "swap": "The cats: the sources' order (A) and its first two swapped (B)",
    "playground": "Lesson 1's board (A) and its ideal order (B)",
    "lecture": "Lesson 4's rankings 1 and 3",
}


@dataclass(frozen=True)
class Pair:
    """Two orders of the same judged results, and how to name them."""
    order_a: tuple[str, ...]
    order_b: tuple[str, ...]
    grades: dict[str, int]
    top_grade: int
    titles: dict[str, str]
    name_a: str
    name_b: str
    source: str


def page_state() -> ps.PageState:
    return ps.PageState(PREFIX, [
        ps.Field("pair", "swap", ps.one_of(tuple(PAIRS))),
        ps.Field("model", "cascade", ps.one_of(online.MODELS)),
        ps.Field("noise", 0.1, ps.one_of(NOISE)),
        ps.Field("bias", 1.0, ps.one_of(BIAS)),
        ps.Field("patience", 0.9, ps.one_of(PATIENCE)),
        ps.Field("method", "team_draft", ps.one_of(online.METHODS)),
        ps.Field("users", 1000, ps.one_of(USERS)),
        ps.Field("touched", 0.1, ps.one_of(TOUCHED)),
        ps.Field("seed", 0, ps.whole_number(0, 9999)),
        ps.Field("k", 5, ps.whole_number(1, 12)),
        ps.Field("p", 0.8, ps.one_of(RBP_P)),
        ps.Field("T", 1.0, ps.one_of(INST_T)),
        ps.Field("curve", "weight", ps.one_of(tuple(CURVES))),
        ps.Field("present", False, ps.switch(on="present", off="learn"), "view"),
    ])


def init() -> None:
    page_state().start()


def _cats() -> tuple[tuple[str, ...], dict[str, int], dict[str, str]]:
    catalog = load_catalog()
    query = catalog.queries[GRADED_QUERY]
    titles = {i: item.title for i, item in catalog.items.items()}
    return tuple(query.order), dict(query.grades), titles


def pair(key: str) -> Pair:
    """The two rankings the page compares (``key`` one of :data:`PAIRS`)."""
    if key == "lecture":
        from ui.lessons.choosing import LECTURE_GRADES, LECTURE_ORDERS
        return Pair(tuple(LECTURE_ORDERS[1]), tuple(LECTURE_ORDERS[3]), dict(LECTURE_GRADES), 1,
                    {d: f"document {d}" for d in LECTURE_GRADES}, "Ranking 1", "Ranking 3",
                    "Lesson 4's rankings 1 and 3 of documents A–F (relevant A, B and C)")
    order, grades, titles = _cats()
    if key == "swap":
        return Pair(order, (order[1], order[0], *order[2:]), grades, 4, titles, "A", "B",
                    "the graded cats (“white cat in a box”, grades 0–4): A in the sources' "
                    "order, B the same with its first two results swapped")
    ss = st.session_state
    example = ss.get(PLAYGROUND + "ex")
    if example is not None:                      # the lecturer's own example
        titles = {i: item.title for i, item in zip(example.ids, example.items)}
        order, grades = tuple(ss.get(PLAYGROUND + "order", example.ids)), dict(example.grades)
        source = (f"the lecturer's own example (“{example.query}”): A as Lesson 1's board "
                  "has it, B the same results in their ideal order")
    else:
        order = tuple(ss.get(PLAYGROUND + "order", order))
        grades = dict(ss.get(PLAYGROUND + "grades", grades))
        source = ("the graded cats: A as Lesson 1's board has them, B the same results in "
                  "their ideal order")
    grades = {d: int(grades.get(d, 0)) for d in order}
    ideal = tuple(sorted(order, key=lambda d: -grades[d]))        # stable: ties keep order
    return Pair(order, ideal, grades, 4, titles, "A", "B", source)


def setting(values) -> online.Setting:
    return online.Setting(model=values["model"], noise=float(values["noise"]),
                          bias=float(values["bias"]), patience=float(values["patience"]),
                          method=values["method"], seed=int(values["seed"]),
                          touched=float(values["touched"]))


@st.cache_data(show_spinner=False, max_entries=64)
def comparison(p: Pair, s: online.Setting, users: int) -> online.OnlineComparison:
    return online.compare_online(p.order_a, p.order_b, p.grades, p.top_grade, setting=s,
                                 users=users)


#: seeded experiments at each point of a power curve: fewer than behind the sentences, as the
#: curve has a point per size
CURVE_EXPERIMENTS = 400


@st.cache_data(show_spinner=False, max_entries=64)
def curves(rates: tuple[float, float, float, float], seed: int) -> dict[str, list]:
    """Power against users for both experiments: the share of seeded experiments that found
    the difference (A/B on click-through ``rates[:2]``, interleaving on votes ``rates[2:]``)."""
    ab = online.power_curve("ab", CURVE_SIZES, rate_a=rates[0], rate_b=rates[1], seed=seed,
                            experiments=CURVE_EXPERIMENTS)
    il = online.power_curve("interleaving", CURVE_SIZES, rate_a=rates[2], rate_b=rates[3],
                            seed=seed + 1, experiments=CURVE_EXPERIMENTS)
    return {"ab": ab, "interleaving": il}


def clicks_figure(p: Pair, r: online.OnlineComparison, day_a: np.ndarray, day_b: np.ndarray,
                  height: int = 330) -> go.Figure:
    """Clicks by rank: the model's chance (bars) and one simulated day's share (dots)."""
    fig = go.Figure()
    ranks = list(range(1, len(p.order_a) + 1))
    for name, probs, day, order in (("A", r.clicks_a, day_a, p.order_a),
                                    ("B", r.clicks_b, day_b, p.order_b)):
        label = p.name_a if name == "A" else p.name_b
        fig.add_bar(x=ranks, y=probs, name=f"{label}: model", marker_color=COLOURS[name],
                    opacity=0.75, hovertext=[p.titles[d] for d in order],
                    hovertemplate="%{hovertext}: %{y:.1%}<extra></extra>")
        fig.add_scatter(x=ranks, y=online.clicks_by_rank(day), mode="markers",
                        name=f"{label}: {len(day):,} simulated users",
                        marker={"color": COLOURS[name], "symbol": "diamond", "size": 9,
                                "line": {"color": "white", "width": 1}},
                        hovertemplate="simulated: %{y:.1%}<extra></extra>")
    layout = layout_dict(y_title="share of users who click", x_title="rank", height=height)
    layout["yaxis"]["tickformat"] = ".0%"
    layout["barmode"] = "group"
    fig.update_layout(layout)
    return fig


def power_figure(data: dict[str, list], needed: dict[str, int | None],
                 height: int = 330) -> go.Figure:
    """The share of experiments that find the difference, against the users they had."""
    fig = go.Figure()
    names = {"ab": "A/B test (click-through, z-test)",
             "interleaving": "interleaving (votes, sign test)"}
    for kind, outcomes in data.items():
        fig.add_scatter(x=[o.users for o in outcomes], y=[o.found for o in outcomes],
                        mode="lines+markers", name=names[kind],
                        line={"color": COLOURS[kind]},
                        hovertemplate="%{x:,} users: found %{y:.0%}<extra></extra>")
        if needed.get(kind):
            fig.add_vline(x=needed[kind], line={"color": COLOURS[kind], "dash": "dot"})
    fig.add_hline(y=0.8, line={"color": "#777", "dash": "dash"},
                  annotation_text="80 %", annotation_position="top left")
    layout = layout_dict(y_title="experiments that find it", x_title="users in the experiment",
                         height=height)
    layout["xaxis"] = {"type": "log", "title": {"text": "users in the experiment (log scale)"}}
    layout["yaxis"].update(range=[0, 1.02], tickformat=".0%")
    layout["hovermode"] = "closest"
    fig.update_layout(layout)
    return fig


def rate_text(x: float) -> str:
    """A tile's click-through: one decimal, for its change in points ('89.2 %')."""
    return f"{100 * x:.1f} %"


def change_text(a: float, b: float) -> str:
    """A click-through change from ``a`` to ``b`` as the tiles print it ('+8.0 points')."""
    return f"{100 * (b - a):+.1f} points"


def tile_scope(r: online.OnlineComparison) -> str | None:
    """What the click-through tiles cover when the change alters only a share of searches:
    those searches; and the rates over all searches, which the product team's sentence
    speaks of. None when it alters every search (the tiles are all searches')."""
    touched = r.setting.touched
    if touched >= 1:
        return None
    return (f"The tiles: the {percent_text(touched)} of searches the change touches. Over all "
            f"searches: {rate_text(r.traffic_ctr_a)} against {rate_text(r.traffic_ctr_b)}, "
            f"{change_text(r.traffic_ctr_a, r.traffic_ctr_b)}.")


def per_result_rows(p: Pair, r: online.OnlineComparison) -> dict[str, list]:
    """Each result's clicks under A and under B: one result, two ranks, two click rates."""
    rank_a = {d: i for i, d in enumerate(p.order_a)}
    rank_b = {d: i for i, d in enumerate(p.order_b)}
    rows = sorted(p.order_a, key=lambda d: (-p.grades[d], rank_a[d]))
    return {"Result": [p.titles[d] for d in rows],
            "Grade": [p.grades[d] for d in rows],
            f"{p.name_a}: rank": [rank_a[d] + 1 for d in rows],
            f"{p.name_a}: clicks": [percent_text(r.clicks_a[rank_a[d]]) for d in rows],
            f"{p.name_b}: rank": [rank_b[d] + 1 for d in rows],
            f"{p.name_b}: clicks": [percent_text(r.clicks_b[rank_b[d]]) for d in rows]}


def experiments_rows(r: online.OnlineComparison) -> pd.DataFrame:
    """The two experiments side by side: a column each (their names are the only headers, short
    enough for the lesson's narrow column on a laptop and for a phone), a row each for the users
    they need for 80 %, how often that many found the difference, and the page's budget."""
    def users(n):
        return "—" if n is None else f"{n:,}"

    def share(o):
        return "—" if o is None else percent_text(o.found)
    return pd.DataFrame.from_dict({
        "Users for 80 %": [users(r.ab_needed), users(r.interleaving_needed)],
        "Found, run at that size": [share(r.ab_at_needed), share(r.interleaving_at_needed)],
        f"Found, {r.users:,} users": [percent_text(r.ab_at_users.found),
                                      percent_text(r.interleaving_at_users.found)],
        f"Wrong way, {r.users:,} users": [percent_text(r.ab_at_users.wrong_way),
                                          percent_text(r.interleaving_at_users.wrong_way)],
    }, orient="index", columns=["A/B test", "Interleaving"])


def user_measures(p: Pair, k: int, patience: float, target: float) -> dict[str, str]:
    """Each family's measure as irlib's parser reads it. Binary measures count grade ≥ 3 on
    the 0–4 scale (the cats judged relevant in Lesson 1's binary query), ≥ 1 on a binary one."""
    rel = 1 if p.top_grade == 1 else 3
    k = min(k, len(p.order_a))
    return {"P": f"P(rel={rel})@{k}", "RR": f"RR(rel={rel})",
            "RBP": f"RBP(p={patience},rel={rel})",
            "INST": f"INST(T={target},max_rel={p.top_grade})", "nDCG": f"nDCG@{k}",
            "ERR": f"ERR(max_rel={p.top_grade})@{k}"}


def user_models(p: Pair, measures: dict[str, str]) -> dict[str, object]:
    grades = [p.grades[d] for d in p.order_a]
    return {family: user_model(grades, text) for family, text in measures.items()}


def user_rows(p: Pair, models: dict, measures: dict[str, str], k: int) -> dict[str, list]:
    """Each measure's user, its value and the expected utility Σ W(i)·g(i), all irlib's."""
    grades = [p.grades[d] for d in p.order_a]
    k = min(k, len(grades))
    values = {family: m.expected_gain for family, m in models.items()}
    values["nDCG"] = irlib.ndcg_at_k(grades, k)
    values["ERR"] = err(grades, k, max_rel=p.top_grade)
    return {"Measure": [measures[f] for f in models],
            "The user": [USERS_OF[f][0] for f in models],
            "Score": [f"{values[f]:.3f}" for f in models],
            "Σ W·g": [f"{models[f].expected_gain:.3f}" for f in models]}


def users_figure(models: dict, labels: dict[str, str], curve: str,
                 height: int = 300) -> go.Figure:
    """One curve per measure: its user's W(i), C(i) or L(i) at each rank."""
    fig = go.Figure()
    for family, m in models.items():
        y = getattr(m, curve)
        fig.add_scatter(x=m.ranks, y=y, mode="lines+markers", name=labels[family],
                        line={"color": USERS_OF[family][1],
                              "dash": "dot" if family == "ERR" else "solid"},
                        hovertemplate=f"{labels[family]}, rank %{{x}}: %{{y:.2f}}"
                                      "<extra></extra>")
    layout = layout_dict(y_title=CURVES[curve], x_title="rank", height=height)
    layout["yaxis"]["rangemode"] = "tozero"
    fig.update_layout(layout)
    return fig
