"""Items a user already had in training, found in their recommendations.

Held-out items are, by the split, items the user had *not* had before; a list that repeats
training items wastes slots that can never be hits, and a system that does so looks worse
than the same model with them filtered out. Recommender libraries filter them ("remove
seen", "exclude_seen"); :func:`seen_in_training` finds them so the page and the command line
can say how many each system lists, and :func:`drop_seen` removes them before the top K is
taken (the next items move up, as the libraries do).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .lists import as_frame, joint_codes, ranking_score, sorted_unique, top_rows

__all__ = ["SeenItems", "drop_seen", "seen_in_training"]


@dataclass(frozen=True)
class SeenItems:
    """What one system's top-K lists repeat from training."""
    k: int
    rows: int                     # top-K recommendations that are a training item of the user
    users: int                    # users with at least one
    dropped: bool                 # removed before the top K was taken

    def sentence(self, system: str | None = None) -> str | None:
        """What the page and the command line say (None when nothing is seen)."""
        if not self.rows:
            return None
        who = f"{system}: " if system else ""
        recs = f"{self.rows:,} top-{self.k} recommendation{'s' if self.rows != 1 else ''}"
        users = f"{self.users:,} user{'s' if self.users != 1 else ''}"
        if self.dropped:
            return (f"{who}{recs} ({users}) were items the user already had in training: "
                    "dropped before the top K was taken, the next items moving up.")
        return (f"{who}{recs} ({users}) are items the user already had in training: they "
                "take slots that can never be a held-out hit. Drop them (recommender "
                "libraries' \"remove seen\") to score the lists a user would see.")


def seen_in_training(recommendations, train: pd.DataFrame) -> np.ndarray:
    """A bool per recommendation row: is the (user, item) pair in ``train``?

    >>> train = pd.DataFrame({"user_id": ["ann"], "item_id": ["hat"]})
    >>> seen_in_training({"ann": ["hat", "boots"], "bob": ["hat"]}, train).tolist()
    [True, False, False]
    """
    recs = as_frame(recommendations)
    (rec_user, train_user), _ = joint_codes([recs["user_id"], train["user_id"]])
    (rec_item, train_item), items = joint_codes([recs["item_id"], train["item_id"]])
    n = max(1, len(items))
    known = sorted_unique(train_user * n + train_item)
    key = rec_user * n + rec_item
    at = np.searchsorted(known, key)
    return (at < len(known)) & (known[np.minimum(at, len(known) - 1)] == key)


def count_seen(recommendations, train: pd.DataFrame, k: int, *, dropped: bool = False,
               seen: np.ndarray | None = None) -> SeenItems:
    """How many of the top-``k`` rows (and users) are seen in training."""
    recs = as_frame(recommendations)
    seen = seen_in_training(recs, train) if seen is None else seen
    if not seen.any():
        return SeenItems(k, 0, 0, dropped)
    (user,), users = joint_codes([recs["user_id"]])
    (item,), items = joint_codes([recs["item_id"]])
    rows = top_rows(user, ranking_score(recs), items, item, len(users), k)
    in_top = rows[seen[rows]]
    return SeenItems(k, len(in_top), len(np.unique(user[in_top])), dropped)


def drop_seen(recommendations, train: pd.DataFrame) -> pd.DataFrame:
    """The recommendations without the items each user already had in training.

    >>> train = pd.DataFrame({"user_id": ["ann"], "item_id": ["hat"]})
    >>> drop_seen({"ann": ["hat", "boots"]}, train)[["user_id", "item_id"]]
      user_id item_id
    1     ann   boots
    """
    recs = as_frame(recommendations)
    return recs[~seen_in_training(recs, train)]
