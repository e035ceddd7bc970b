"""Files given the wrong way round: held-out interactions where the lists go, and back.

A recommendations file is *lists*: nearly every user has the same number of rows (K), each
with a score or a rank. Held-out interactions are what users did later: a few rows per user,
a different number for each, with ratings on a small scale. Given the wrong way round, both
files still read (a score read as a rating, the rows' order read as a rank) and every number
would be wrong; :func:`check_roles` recognises the swap from the files' shapes and refuses it
with the reason.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .._common import InputError

__all__ = ["check_roles", "list_shape"]

#: A file is list-like when at least this share of its users have the same number of rows
#: (K; a few users may have shorter lists), and that number is at least 2.
LIST_SHARE = 0.9
#: A file is interaction-like when fewer than this share of its users share a row count.
INTERACTION_SHARE = 0.6


def list_shape(frame: pd.DataFrame) -> tuple[int, float, int, int]:
    """Rows per user: the most common count, the share of users with it, the fewest, the most.

    >>> list_shape(pd.DataFrame({"user_id": ["a", "a", "b", "b", "c"]}))
    (2, 0.6666666666666666, 1, 2)
    """
    counts = frame["user_id"].value_counts(sort=False).to_numpy()
    if not len(counts):
        return 0, 0.0, 0, 0
    values, times = np.unique(counts, return_counts=True)
    mode = int(values[np.argmax(times)])
    return mode, float(times.max() / len(counts)), int(counts.min()), int(counts.max())


def _scores_as_ratings(heldout: pd.DataFrame) -> str:
    """' and its rating column holds scores such as 0.156' when the ratings are not on a
    rating scale (not multiples of 0.5, or many distinct values), else ''."""
    if "rating" not in heldout.columns or not len(heldout):
        return ""
    rating = heldout["rating"].to_numpy(dtype=float)
    off_scale = not np.allclose(rating * 2, np.round(rating * 2))
    if not off_scale and len(np.unique(rating)) <= 20:
        return ""
    column = heldout.attrs.get("columns", {}).get("rating", "rating")
    return (f", and what was read as their rating, column {column!r}, holds scores such as "
            f"{rating[0]:.3g}, not ratings")


def check_roles(recommendations: pd.DataFrame, heldout: pd.DataFrame) -> None:
    """Raise :class:`~irlib.InputError` when the two files look given the wrong way round.

    The held-out file looks like lists (at least 90 % of its users have the same number
    ``c >= 2`` of rows) while the recommendations file does not (fewer than 60 % share a
    count) and has fewer rows per user on average than ``c``. A held-out set with the same
    number of items per user (leave-5-out) beside real lists passes: both look like lists.

    >>> lists = pd.DataFrame({"user_id": list("aaabbbccc"), "item_id": list("xyzxyzxyz"),
    ...                       "rating": [0.91, 0.52, 0.33] * 3})
    >>> later = pd.DataFrame({"user_id": list("aabccc"), "item_id": list("xyzxyz")})
    >>> check_roles(later, lists)
    Traceback (most recent call last):
    ...
    irlib._common.InputError: the files seem to be the wrong way round: the held-out \
interactions look like recommendation lists (3 of their 3 users have exactly 3 rows, and \
what was read as their rating, column 'rating', holds scores such as 0.91, not ratings), \
while the recommendations look like interactions (1 to 3 rows per user, a different number \
for each user). Give each system's top-K lists as the recommendations and what users did later as \
the held-out interactions.
    >>> check_roles(lists, later)          # the right way round: nothing to say
    """
    held_mode, held_share, _, _ = list_shape(heldout)
    rec_mode, rec_share, rec_low, rec_high = list_shape(recommendations)
    n_users = heldout["user_id"].nunique()
    rec_mean = len(recommendations) / max(1, recommendations["user_id"].nunique())
    if not (held_mode >= 2 and held_share >= LIST_SHARE and n_users >= 2
            and rec_share < INTERACTION_SHARE and rec_mean < held_mode):
        return
    with_mode = int(round(held_share * n_users))
    order = "" if {"score", "rank"} & set(recommendations.attrs.get("columns", {})) or \
        not recommendations.attrs.get("columns") else ", no score or rank column"
    raise InputError(
        "the files seem to be the wrong way round: the held-out interactions look like "
        f"recommendation lists ({with_mode:,} of their {n_users:,} users have exactly "
        f"{held_mode} rows{_scores_as_ratings(heldout)}), while the recommendations look like "
        f"interactions ({rec_low} to {rec_high} rows per user, a different number for each "
        f"user{order}). Give each system's top-K lists as the recommendations and what users "
        "did later as the held-out interactions.")
