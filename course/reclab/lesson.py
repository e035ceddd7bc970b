"""The lesson's numbers, one function per trap, cached: the page asks for them on every run.

Every accuracy number comes from :func:`irlib.evaluate` (through
:mod:`course.reclab.evaluation` and :mod:`course.reclab.sampled`); this module only chooses
what to evaluate and shapes the results for the page. The frames it returns are shared
between sessions: callers must not change them.
"""
from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from course.reclab.data import SEED, generate
from course.reclab.evaluation import LABELS, NAMES, accuracy, per_view
from course.reclab.models import MODELS, TRENDING_DAYS, chart, lesson_ranking
from course.reclab.sampled import lesson_sampled, lesson_sweep
from course.reclab.splits import SPLITS, Leak, leak, lesson_split

#: The split the popularity and many-users traps use: the one that does not leak.
HONEST_SPLIT = "time"


def cut_day(how: str = HONEST_SPLIT) -> float:
    """The day the temporal split cuts at."""
    return lesson_split(how).cut_day


def metric_name(key: str, k: int) -> str:
    """irlib's name of a lesson metric at ``k`` (``"hit"`` -> ``"Success@10"``)."""
    return NAMES[key].format(k=k)


# --------------------------------------------------------------------------- 1. the split

@functools.lru_cache(maxsize=64)
def split_scores(key: str, k: int) -> pd.DataFrame:
    """Rows: models; columns: splits; cells: the mean of metric ``key`` at ``k``."""
    table = {how: {m: float(accuracy(lesson_split(how).test,
                                     lesson_ranking(how, m).top_k(k), k, (key,)).means.iloc[0])
                   for m in MODELS}
             for how in SPLITS}
    return pd.DataFrame(table)


@functools.lru_cache(maxsize=64)
def split_standings(key: str, k: int):
    """Every pair of models under each split, tested over the split's test users and
    corrected over the 9 comparisons the table shows (:func:`irlib.recsys.standings`): what
    the table's ★ and the trap's sentence say."""
    from irlib.recsys.standings import standings

    name = metric_name(key, k)
    per_user = {how: {m: accuracy(lesson_split(how).test, lesson_ranking(how, m).top_k(k), k,
                                  (key,)).per_query[name]
                      for m in MODELS}
                for how in SPLITS}
    return standings(per_user, measure=LABELS[key].format(k=k))


@functools.lru_cache(maxsize=4)
def leaks() -> dict[str, Leak]:
    return {how: leak(lesson_split(how)) for how in SPLITS}


@functools.lru_cache(maxsize=4)
def timeline(how: str) -> pd.DataFrame:
    """Every view with its user's row on a timeline (users by their first day) and whether
    the split ``how`` holds it out."""
    s = lesson_split(how)
    data = generate()
    views = data.interactions
    first = views.groupby("user_id")["day"].min().sort_values()
    row = pd.Series(np.arange(len(first)), index=first.index)
    held = pd.MultiIndex.from_frame(s.test[["user_id", "item_id"]])
    is_test = pd.MultiIndex.from_frame(views[["user_id", "item_id"]]).isin(held)
    return pd.DataFrame({"user_id": views["user_id"].to_numpy(),
                         "name": views["user_id"].map(data.names).to_numpy(),
                         "title": views["item_id"].map(data.titles).to_numpy(),
                         "day": views["day"].to_numpy(),
                         "row": views["user_id"].map(row).to_numpy(),
                         "test": is_test})


# --------------------------------------------------------------------------- 2. sampled

#: The numbers of negatives the sampled chart draws (the chosen one is added).
CURVE_NEGATIVES = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90, 100)


def sampled_curve(key: str, k: int, seed: int, n: int | None = None) -> pd.DataFrame:
    """Rows: :data:`CURVE_NEGATIVES` and ``n``; columns: models; cells: metric ``key`` at
    ``k`` with that many negatives sampled with ``seed``."""
    curve = _sampled_grid(key, k, seed)
    if n is None or n in curve.index:
        return curve
    return pd.concat([curve, sampled_at(key, k, seed, n).to_frame(n).T]).sort_index()


@functools.lru_cache(maxsize=64)
def _sampled_grid(key: str, k: int, seed: int) -> pd.DataFrame:
    name = metric_name(key, k)
    return pd.DataFrame({m: lesson_sweep(m, CURVE_NEGATIVES, k, seed)[name].to_numpy(float)
                         for m in MODELS}, index=pd.Index(CURVE_NEGATIVES, name="negatives"))


def sampled_at(key: str, k: int, seed: int, n: int) -> pd.Series:
    """Metric ``key`` at ``k`` of each model with ``n`` negatives sampled with ``seed``."""
    name = metric_name(key, k)
    return pd.Series({m: float(lesson_sampled(m, n, k, seed)[name]) for m in MODELS})


@functools.lru_cache(maxsize=64)
def sampled_standings(key: str, k: int, seed: int, n: int):
    """The three models with ``n`` sampled negatives and on the whole catalogue, every pair
    tested over the leave-last-out users and corrected over the 6 comparisons the table shows
    (:func:`irlib.recsys.standings`)."""
    from course.reclab.sampled import _lesson_orders, sampled_accuracy
    from irlib.recsys.standings import standings

    s = lesson_split("last")
    name = metric_name(key, k)
    per_user = {
        setting: {m: sampled_accuracy(lesson_ranking("last", m), s, _lesson_orders(seed, SEED),
                                      size, k, (key,)).per_query[name] for m in MODELS}
        for setting, size in (("sampled", n), ("full", None))}
    return standings(per_user, measure=LABELS[key].format(k=k))


@functools.lru_cache(maxsize=64)
def full_catalogue(key: str, k: int) -> pd.Series:
    """Metric ``key`` at ``k`` of each model on the leave-last-out split, every unwatched
    film a candidate (what the sampled numbers estimate)."""
    name = metric_name(key, k)
    return pd.Series({m: float(lesson_sampled(m, None, k, 0)[name]) for m in MODELS})


def unwatched_range() -> tuple[int, int]:
    """The fewest and the most films a test user of leave-last-out has never watched."""
    data = generate()
    watched = data.interactions.groupby("user_id").size()
    n = len(data.items) - watched
    return int(n.min()), int(n.max())


# --------------------------------------------------------------------------- 3. popularity

@functools.lru_cache(maxsize=32)
def chart_lists(k: int, how: str = HONEST_SPLIT) -> pd.DataFrame:
    """The top ``k`` of the two popularity lists before anyone's watched films are taken out:
    ``rank`` and each list's film titles."""
    data = generate()
    train = lesson_split(how).train
    out = {"rank": np.arange(1, k + 1)}
    for model in ("popular", "trending"):
        out[model] = [data.titles[i] for i in chart(data, train, model, k)]
    return pd.DataFrame(out)


@functools.lru_cache(maxsize=32)
def accuracy_table(k: int, how: str = HONEST_SPLIT) -> pd.DataFrame:
    """Rows: models; columns: the four metrics' labels at ``k``; cells: means over users."""
    s = lesson_split(how)
    rows = {}
    for m in MODELS:
        means = accuracy(s.test, lesson_ranking(how, m).top_k(k), k).means
        rows[m] = {LABELS[key].format(k=k): float(means[metric_name(key, k)])
                   for key in NAMES}
    return pd.DataFrame(rows).T


@functools.lru_cache(maxsize=32)
def recommendation_lists(k: int, how: str = HONEST_SPLIT) -> dict[str, pd.DataFrame]:
    """Each model's top-``k`` list for every test user (``user_id, item_id, score, rank``):
    with the training views (``lesson_split(how).train``) and the films' genres
    (``generate().items``), what beyond-accuracy measures need."""
    s = lesson_split(how)
    users = sorted(set(s.test["user_id"]))
    return {m: lesson_ranking(how, m).top_k(k, users) for m in MODELS}


@functools.lru_cache(maxsize=32)
def list_counts(k: int, how: str = HONEST_SPLIT) -> pd.DataFrame:
    """For every film, in order of training views: how many test users' top-``k`` lists
    hold it, per model (a picture of where the lists go, not a measure)."""
    s = lesson_split(how)
    data = generate()
    views = s.train["item_id"].value_counts().reindex(data.items["item_id"], fill_value=0)
    order = views.sort_values(ascending=False, kind="stable").index
    lists = recommendation_lists(k, how)
    table = pd.DataFrame({m: lists[m]["item_id"].value_counts().reindex(order, fill_value=0)
                          for m in MODELS})
    table.insert(0, "views", views.reindex(order).to_numpy())
    table.insert(0, "title", [data.titles[i] for i in order])
    return table.rename_axis("item_id").reset_index()


# --------------------------------------------------------------------------- 4. many users

@functools.lru_cache(maxsize=4)
def held_out(how: str = HONEST_SPLIT) -> dict[str, frozenset]:
    """Each test user's held-out films."""
    test = lesson_split(how).test
    return {user: frozenset(films) for user, films in test.groupby("user_id")["item_id"]}


def top_list(model: str, user: str, n: int, how: str = HONEST_SPLIT) -> tuple[str, ...]:
    """``user``'s first ``n`` films from ``model``, best first."""
    top = lesson_ranking(how, model).top_k(n, [user])
    return tuple(top.sort_values("rank")["item_id"])


def capped_test(cap: int, how: str = HONEST_SPLIT) -> pd.DataFrame:
    """Each test user's first ``cap`` held-out views (by day)."""
    test = lesson_split(how).test.sort_values(["user_id", "day"], kind="stable")
    return test[test.groupby("user_id").cumcount() < cap]


def most_held_out(how: str = HONEST_SPLIT) -> int:
    return int(lesson_split(how).test.groupby("user_id").size().max())


@functools.lru_cache(maxsize=64)
def per_user(model: str, k: int, cap: int, how: str = HONEST_SPLIT) -> pd.DataFrame:
    """One row per test user: name, held-out views counted, and the four metrics at ``k``
    (columns by :data:`NAMES` keys)."""
    test = capped_test(cap, how)
    ev = accuracy(test, lesson_ranking(how, model).top_k(k), k)
    table = ev.per_query.rename(columns={metric_name(key, k): key for key in NAMES})
    counts = test.groupby("user_id").size()
    table.insert(0, "held_out", counts.reindex(table.index).to_numpy())
    table.insert(0, "name", table.index.map(generate().names))
    return table


@functools.lru_cache(maxsize=64)
def averages(model: str, k: int, cap: int, how: str = HONEST_SPLIT) -> pd.DataFrame:
    """Rows: the four metrics; columns ``users`` (each user counts once, irlib's mean over
    queries) and ``views`` (each held-out view its own query, :func:`per_view`)."""
    test = capped_test(cap, how)
    lists = lesson_ranking(how, model).top_k(k)
    by_user = accuracy(test, lists, k).means
    by_view = per_view(test, lists, k).means
    return pd.DataFrame({"users": [float(by_user[metric_name(key, k)]) for key in NAMES],
                         "views": [float(by_view[metric_name(key, k)]) for key in NAMES]},
                        index=list(NAMES))


# --------------------------------------------------------------------------- 3. beyond accuracy

#: The measure the trap's verdict tests: how soon a user meets the first hit, the accuracy a
#: one-list-for-everyone chart is built to win.
TRAP_MEASURE = "MRR"
#: Where the trap counts popularity: the views of the training's last week, what Trending
#: ranks by. Films here are watched in their first weeks (trap 1), so "popular" changes over
#: the 100 days; popularity over the whole history would call last week's hits obscure.
NOW = f"the last {TRENDING_DAYS:g} days of training"


def recent_views(how: str = HONEST_SPLIT) -> pd.DataFrame:
    """The training views of the last :data:`~course.reclab.models.TRENDING_DAYS` days
    (``user_id, item_id``): the popularity "now" that a trending list follows."""
    train = lesson_split(how).train
    recent = train[train["day"] >= train["day"].max() - TRENDING_DAYS]
    return recent[["user_id", "item_id"]]


@functools.lru_cache(maxsize=32)
def beyond_table(k: int, how: str = HONEST_SPLIT) -> pd.DataFrame:
    """Rows: models; columns: irlib's beyond-accuracy measures of their top-``k`` lists
    (coverage and exposure Gini over the 200 films, intra-list diversity over the films'
    genres; popularity and novelty counted in the training's last week, :func:`recent_views`),
    from :func:`irlib.recsys.beyond_accuracy`."""
    from irlib.recsys import beyond_accuracy

    items = generate().items
    categories = items[["item_id", "genre"]].rename(columns={"genre": "category"})
    rows = {}
    for model, top in recommendation_lists(k, how).items():
        values = beyond_accuracy(top, k, train=recent_views(how),
                                 catalogue=items["item_id"], item_categories=categories)
        rows[model] = {name: v.value for name, v in values.items()}
    return pd.DataFrame(rows).T.rename_axis("model")


def trap_models(k: int, how: str = HONEST_SPLIT) -> tuple[str, str]:
    """The one-list-for-everyone model with the higher :data:`TRAP_MEASURE`, and ``"mf"``."""
    table = accuracy_table(k, how)
    column = LABELS[_TRAP_KEY].format(k=k)
    return max(("trending", "popular"), key=lambda m: float(table.at[m, column])), "mf"


_TRAP_KEY = "mrr"


def popularity_verdict(k: int, how: str = HONEST_SPLIT) -> str:
    """The sentence of :func:`popularity_comparison`."""
    return popularity_comparison(k, how).sentence


def active_users(how: str = HONEST_SPLIT) -> int:
    """How many users watched anything in :func:`recent_views`: the base popularity "now"
    is a share of."""
    return int(recent_views(how)["user_id"].nunique())


@functools.lru_cache(maxsize=32)
def popularity_comparison(k: int, how: str = HONEST_SPLIT):
    """irlib's sentence on the best one-list-for-everyone model against the personalised
    one on MRR@``k``: a winner only where the paired randomization test over the test users
    finds the difference, corrected (Holm) for the two comparisons the choice was made from
    (each chart against matrix factorisation: the better chart is picked after looking), and
    whether it won by collapsing onto the films popular *now* (popularity counted in
    :func:`recent_views`, a share of its :func:`active_users`)."""
    from irlib.recsys import evaluate_recommendations, recommender_verdicts

    s = lesson_split(how)
    chart_model, personal = trap_models(k, how)
    lists = recommendation_lists(k, how)
    found = {MODEL_NAMES[m]: evaluate_recommendations(
                 lists[m], s.test[["user_id", "item_id"]], k=k, train=recent_views(how),
                 catalogue=generate().items["item_id"])
             for m in (personal, "popular", "trending")}
    history = f"{NOW} (of its {active_users(how)} active users)"
    verdicts = recommender_verdicts(found, MODEL_NAMES[personal], by=f"{TRAP_MEASURE}@{k}",
                                    history=history)
    return verdicts.comparisons[(MODEL_NAMES[chart_model], MODEL_NAMES[personal])]


#: The models' names in sentences.
MODEL_NAMES = {"popular": "Most popular", "trending": "Trending", "mf": "Matrix factorisation"}
