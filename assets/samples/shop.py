"""A shop's recommender data, made the way a recommender engineer would hold it (issue 24):
the "Recommendations + held-out interactions" samples of Lesson 9, and the tests' data.

200 users x 500 items with popularity-skewed interactions (Zipf-like item appeal times a
user's taste), a per-user random 20 % held out with 1-5 star ratings, and two systems'
top-10 lists: an MF-like model (PureSVD of the popularity-normalised training matrix: it
spreads over the catalogue) and the most-popular baseline (the training's most-had items
the user has not had). Deterministic for a seed.

The files use the engineers' own column names: training ``userId,movieId,rating,timestamp``
(MovieLens), held-out ``uid,iid,stars``, the MF lists ``user_id,item_id,score``, the
baseline's ``customer,product,rank``, and the categories ``movieId,genres`` (``A|B``).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

GENRES = ("Action", "Comedy", "Drama", "Horror", "Romance", "Sci-Fi", "Thriller", "Kids")


@dataclass(frozen=True)
class Shop:
    train: pd.DataFrame        # userId, movieId, rating, timestamp
    heldout: pd.DataFrame      # uid, iid, stars
    mf: pd.DataFrame           # user_id, item_id, score (top 10 per user)
    popular: pd.DataFrame      # customer, product, rank (top 10 per user)
    genres: pd.DataFrame       # movieId, genres
    n_items: int


def make_shop(n_users: int = 200, n_items: int = 500, k: int = 10, seed: int = 24) -> Shop:
    rng = np.random.default_rng(seed)
    appeal = 1.0 / np.arange(1, n_items + 1) ** 1.1          # Zipf-like popularity
    appeal = appeal[rng.permutation(n_items)]                 # item ids not in popularity order
    taste_u = rng.normal(size=(n_users, 6))
    taste_i = rng.normal(size=(n_items, 6))
    affinity = taste_u @ taste_i.T / np.sqrt(6)
    weight = appeal[None, :] * np.exp(1.0 * affinity)
    users, items, stars, times = [], [], [], []
    for u in range(n_users):
        n = int(rng.integers(15, 40))
        chosen = rng.choice(n_items, size=n, replace=False, p=weight[u] / weight[u].sum())
        score = affinity[u, chosen] + rng.normal(scale=0.7, size=n)
        rating = np.clip(np.round(3.2 + 1.3 * score), 1, 5).astype(int)
        users += [u] * n
        items += chosen.tolist()
        stars += rating.tolist()
        times += sorted(rng.integers(1_600_000_000, 1_700_000_000, size=n).tolist())
    log = pd.DataFrame({"u": users, "i": items, "r": stars, "t": times})
    held = log.groupby("u", group_keys=False).sample(frac=0.2, random_state=seed)
    train = log.drop(index=held.index)

    matrix = np.zeros((n_users, n_items))
    matrix[train["u"], train["i"]] = 1.0
    had = matrix > 0
    # PureSVD (16 factors) of the column-normalised matrix: popular items lose some of
    # their head start, so the lists spread over the catalogue
    counts = matrix.sum(axis=0)
    normalised = matrix / np.maximum(counts, 1)[None, :] ** 0.35
    left, sing, right = np.linalg.svd(normalised, full_matrices=False)
    scores = (left[:, :16] * sing[:16]) @ right[:16]
    scores[had] = -np.inf
    mf_top = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    pop_scores = np.where(had, -np.inf, counts[None, :] + 1e-6 * -np.arange(n_items)[None, :])
    pop_top = np.argsort(-pop_scores, axis=1, kind="stable")[:, :k]

    uid = np.array([f"u{u:03d}" for u in range(n_users)])
    iid = np.array([f"m{i:04d}" for i in range(n_items)])
    rows = np.repeat(np.arange(n_users), k)
    mf = pd.DataFrame({"user_id": uid[rows], "item_id": iid[mf_top.ravel()],
                       "score": np.round(scores[rows, mf_top.ravel()], 6)})
    popular = pd.DataFrame({"customer": uid[rows], "product": iid[pop_top.ravel()],
                            "rank": np.tile(np.arange(1, k + 1), n_users)})
    genre_sets = ["|".join(sorted(rng.choice(GENRES, size=int(rng.integers(1, 4)),
                                             replace=False))) for _ in range(n_items)]
    return Shop(
        train=pd.DataFrame({"userId": uid[train["u"]], "movieId": iid[train["i"]],
                            "rating": train["r"].to_numpy(), "timestamp": train["t"].to_numpy()}),
        heldout=pd.DataFrame({"uid": uid[held["u"]], "iid": iid[held["i"]],
                              "stars": held["r"].to_numpy()}),
        mf=mf, popular=popular,
        genres=pd.DataFrame({"movieId": iid, "genres": genre_sets}), n_items=n_items)


def write_shop(shop: Shop, folder: Path) -> dict[str, Path]:
    """The files as the engineer exports them: CSV, the baseline as TSV, training as Parquet."""
    paths = {"train": folder / "train.parquet", "heldout": folder / "test.csv",
             "mf": folder / "recs_mf.csv", "popular": folder / "recs_popular.tsv",
             "genres": folder / "movies.csv"}
    shop.train.to_parquet(paths["train"], index=False)
    shop.heldout.to_csv(paths["heldout"], index=False)
    shop.mf.to_csv(paths["mf"], index=False)
    shop.popular.to_csv(paths["popular"], index=False, sep="\t")
    shop.genres.to_csv(paths["genres"], index=False)
    return paths
