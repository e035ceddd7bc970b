"""Lesson "Recommenders: the same metrics, new traps": its state and what every trap shares.

The page (``pages/recommenders.py``) picks a trap and K; each trap draws itself from its own
module (``split``, ``sampled``, ``popularity``, ``users``) with numbers from
:mod:`course.reclab.lesson`. Everything the learner sets is a field of one
:class:`~ui.shared.page_state.PageState`, so it survives navigation and lives in the link.
"""
from __future__ import annotations

import functools

import pandas as pd

from course.reclab import lesson
from course.reclab.evaluation import LABELS
from course.reclab.models import MODELS
from course.reclab.sampled import DEFAULT_NEGATIVES, MAX_NEGATIVES
from course.reclab.splits import SPLITS
from irlib.stats.claims import STAR, leaders
from ui.shared import page_state as ps

PREFIX = "rec_"
TRAPS = {"split": "1 · The split", "sampled": "2 · Sampled metrics",
         "popularity": "3 · Popularity", "users": "4 · Many users"}
SPLIT_LABELS = {"random": "Random 20 %", "last": "Leave-last-out", "time": "Temporal"}
MAX_K = 20
#: Okabe-Ito, as every chart of the app: one colour per model on every trap.
MODEL_COLORS = {"popular": "#E69F00", "trending": "#CC79A7", "mf": "#0072B2"}
WINNER_MARK = STAR
#: The models' names in sentences (irlib's tested sentences print them).
MODEL_NAMES = dict(MODELS)

#: One sentence per metric, for someone who will never read its formula.
PLAIN = {
    "hit": "the share of users for whom at least one film they went on to watch is in "
           "their top {k}",
    "recall": "the share of each user's later films that made their top {k}, averaged "
              "over users",
    "ndcg": "every hit in the top {k} counts, more the higher it sits (1 / log2(rank + 1)), "
            "divided by the most the user's later films allow: 1 when the top {k} starts "
            "with as many of them as fit",
    "mrr": "1 / the position of the first hit in the top {k} (0 without one), averaged "
           "over users: a mean of reciprocals, not a position (0.5 can be every user's "
           "first hit second, or half the users' first hit first and none for the rest)",
}


def plain(key: str, k: int) -> str:
    return PLAIN[key].format(k=k)


def metric_label(key: str, k: int) -> str:
    return LABELS[key].format(k=k)


def model_name(model: str) -> str:
    return MODELS[model]


@functools.cache
def page_state() -> ps.PageState:
    """The trap shown, K, and each trap's settings."""
    return ps.PageState(PREFIX, [
        ps.Field("trap", "split", ps.one_of(tuple(TRAPS))),
        ps.Field("k", 10, ps.whole_number(1, MAX_K)),
        ps.Field("split", "random", ps.one_of(SPLITS)),
        ps.Field("split_metric", "ndcg", ps.one_of(tuple(LABELS)), "metric"),
        ps.Field("negatives", DEFAULT_NEGATIVES, ps.whole_number(1, MAX_NEGATIVES), "n"),
        ps.Field("seed", 0, ps.whole_number(0, 9999)),
        ps.Field("sampled_metric", "hit", ps.one_of(("hit", "ndcg", "mrr")), "smetric"),
        ps.Field("users_model", "mf", ps.one_of(tuple(MODELS)), "model"),
        ps.Field("users_metric", "hit", ps.one_of(tuple(LABELS)), "umetric"),
        ps.Field("cap", lesson.most_held_out(), ps.whole_number(1, lesson.most_held_out())),
    ])


def init() -> None:
    page_state().start()


def winners(values: pd.Series) -> list[str]:
    """The index labels with the top mean (several on a tie within the project's
    :data:`~irlib.stats.ties.TIE_TOLERANCE`; none when all tie): the highest mean, not a
    tested win."""
    return list(leaders(values.to_dict()))


def tested_stars(values: pd.Series, stars, digits: int = 3) -> list[str]:
    """The values as text, the models in ``stars`` (a tested result's) with the ★."""
    return [f"{WINNER_MARK}\u00a0{v:.{digits}f}" if i in stars else f"{v:.{digits}f}"
            for i, v in values.items()]


def starred(values: pd.Series, digits: int = 3) -> list[str]:
    """The values as text, the winners' with the star (not colour alone)."""
    won = winners(values)
    return [f"{WINNER_MARK}\u00a0{v:.{digits}f}" if i in won else f"{v:.{digits}f}"
            for i, v in values.items()]


def names(models) -> str:
    """"Most popular", "Most popular and Trending (last 7 days)"."""
    labels = [f"**{model_name(m)}**" for m in models]
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]
