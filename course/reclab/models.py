"""Three recommenders computed with NumPy, each a score for every (user, film):

* ``popular``: the most-watched films in the training data (one list for everyone);
* ``trending``: the most-watched films in the training data's last 7 days;
* ``mf``: matrix factorisation, implicit-feedback ALS (Hu, Koren & Volinsky 2008): each user
  and film gets 8 numbers, fitted so that their dot product predicts "watched", with
  watched pairs weighted more. Started from a seeded random draw; deterministic.

:func:`rankings` turns scores into each user's ranking of the films they have not watched in
training (ties: the lower film id first), which both the top-K lists and the sampled
candidates read, so every evaluation sees one ordering.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd

from course.reclab.data import SEED, Dataset, generate
from course.reclab.splits import lesson_split

MODELS = {"popular": "Most popular", "trending": "Trending", "mf": "Matrix factorisation"}
TRENDING_DAYS = 7.0
MF_SEED = 0              # the factors' random start: fixed, so the model is the same every run


@dataclass(frozen=True)
class Ranking:
    """Every user's ranking of the films they did not watch in training."""
    model: str
    user_ids: tuple[str, ...]
    item_ids: tuple[str, ...]
    position: np.ndarray     # (users, items): 1 = best; films watched in training: 0

    def top_k(self, k: int, users=None) -> pd.DataFrame:
        """``user_id, item_id, score, rank``: each user's first ``k`` films; score k + 1 - rank
        (irlib ranks by score)."""
        rows = range(len(self.user_ids)) if users is None else \
            [self.user_ids.index(u) for u in users]
        pos = self.position[list(rows)]
        u, i = np.nonzero((pos >= 1) & (pos <= k))
        rank = pos[u, i]
        order = np.lexsort((rank, u))
        u, i, rank = u[order], i[order], rank[order]
        ids = np.asarray(self.user_ids, dtype=object)[list(rows)]
        return pd.DataFrame({"user_id": ids[u], "item_id": np.asarray(self.item_ids, object)[i],
                             "score": (k + 1 - rank).astype(float), "rank": rank})


def _matrix(data: Dataset, train: pd.DataFrame) -> np.ndarray:
    """Users x films, 1 where the user watched the film in training."""
    users = pd.Index(data.users["user_id"])
    items = pd.Index(data.items["item_id"])
    watched = np.zeros((len(users), len(items)))
    watched[users.get_indexer(train["user_id"]), items.get_indexer(train["item_id"])] = 1.0
    return watched


def popular_scores(data: Dataset, train: pd.DataFrame) -> np.ndarray:
    counts = _matrix(data, train).sum(axis=0)
    return np.tile(counts, (len(data.users), 1))


def trending_scores(data: Dataset, train: pd.DataFrame,
                    days: float = TRENDING_DAYS) -> np.ndarray:
    recent = train[train["day"] >= train["day"].max() - days]
    return popular_scores(data, recent)


def mf_scores(data: Dataset, train: pd.DataFrame, *, factors: int = 8, reg: float = 0.1,
              alpha: float = 10.0, iterations: int = 10, seed: int = MF_SEED) -> np.ndarray:
    """Implicit ALS: minimise sum c_ui (p_ui - x_u . y_i)^2 + reg (|x|^2 + |y|^2), with
    p = watched (0/1) and confidence c = 1 + alpha * watched; alternate exact solves."""
    p = _matrix(data, train)
    c = 1.0 + alpha * p
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 0.1, (p.shape[0], factors))
    y = rng.normal(0, 0.1, (p.shape[1], factors))
    eye = reg * np.eye(factors)

    def solve(other: np.ndarray, conf: np.ndarray, pref: np.ndarray) -> np.ndarray:
        # one (factors x factors) system per row r: other' C_r other + reg I = other' C_r p_r
        weighted = conf[:, :, None] * other[None]                  # (rows, n_other, factors)
        a = weighted.transpose(0, 2, 1) @ other + eye
        b = (conf * pref) @ other
        return np.linalg.solve(a, b[..., None])[..., 0]

    for _ in range(iterations):
        x = solve(y, c, p)
        y = solve(x, c.T, p.T)
    return x @ y.T


SCORERS = {"popular": popular_scores, "trending": trending_scores, "mf": mf_scores}


def rankings(data: Dataset, train: pd.DataFrame, model: str) -> Ranking:
    """``model``'s ranking of the unwatched films for every user."""
    scores = SCORERS[model](data, train)
    watched = _matrix(data, train) > 0
    n_items = scores.shape[1]
    # best first; ties: the lower film index first (a stable sort of -score)
    order = np.argsort(np.where(watched, np.inf, -scores), axis=1, kind="stable")
    position = np.empty_like(order)
    rows = np.arange(order.shape[0])[:, None]
    position[rows, order] = np.arange(1, n_items + 1)
    position[watched] = 0
    return Ranking(model, tuple(data.users["user_id"]), tuple(data.items["item_id"]),
                   position)


def chart(data: Dataset, train: pd.DataFrame, model: str, k: int) -> list[str]:
    """The first ``k`` films of a popularity model's one list, before any user's watched
    films are taken out (ties: the lower film id first, as :func:`rankings`)."""
    scores = SCORERS[model](data, train)[0]
    order = np.argsort(-scores, kind="stable")[:k]
    return [data.items["item_id"].iloc[i] for i in order]


def lesson_ranking(how: str, model: str, seed: int = SEED) -> Ranking:
    """``model`` trained on the training part of the lesson's split ``how`` (cached)."""
    return _lesson_ranking(how, model, seed)


@functools.lru_cache(maxsize=16)
def _lesson_ranking(how: str, model: str, seed: int) -> Ranking:
    return rankings(generate(seed), lesson_split(how, seed).train, model)
