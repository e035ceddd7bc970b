"""Files given the wrong way round: held-out interactions where the lists go, and back.

A recommendations file is *lists*: nearly every user has the same number of rows (K), each
with a score or a rank. Held-out interactions are what users did later: a few rows per user,
a different number for each, with ratings on a small scale. Given the wrong way round, both
files still read (a score read as a rating, the rows' order read as a rank) and every number
would be wrong; :func:`check_roles` recognises the swap and refuses it, saying which file
looks like which. Any one of these signs is enough, whatever the rows per user (a
leave-one-out held-out set has one row per user, as regular as a list):

* the held-out file's "rating" holds **scores**: values off a half-star scale, in descending
  order within each user's rows or read from a column named like a score (``prediction``);
* the recommendations file has **no score or rank** but a column that held-out data has (a
  rating such as ``stars``, or a time), or its "score" holds **ratings**: a few half-star
  values, not in descending order within the users' rows;
* the shapes: the held-out file is as regular as lists while the recommendations are not.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .._common import InputError
from .columns import _ALIASES, normalise

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


#: Column names that say "a model's score" and never "a user's rating" (normalised).
SCORE_NAMES = frozenset((set(_ALIASES["score"]) - set(_ALIASES["rating"])) | {"score"})
#: A "score" column holds ratings when it has at most this many distinct half-star values.
RATING_VALUES = 11


def _descending_share(frame: pd.DataFrame, column: str) -> float | None:
    """Among the users with two or more rows and two or more values, the share whose values
    never rise from one row to the next (file order); None when no user has such rows.

    >>> frame = pd.DataFrame({"user_id": list("aabbc"), "v": [0.9, 0.2, 0.1, 0.7, 0.5]})
    >>> _descending_share(frame, "v")
    0.5
    """
    users = frame["user_id"].to_numpy()
    values = frame[column].to_numpy(dtype=float)
    order = np.argsort(users, kind="stable")
    users, values = users[order], values[order]
    same = users[1:] == users[:-1]
    if not same.any():
        return None
    step = np.diff(values)
    rises = pd.Series(same & (step > 0)).groupby(users[1:]).any()
    moves = pd.Series(same & (step != 0)).groupby(users[1:]).any()
    if not moves.any():
        return None
    return float((~rises[moves]).mean())


def _half_stars(values: np.ndarray) -> bool:
    return bool(np.allclose(values * 2, np.round(values * 2)))


def _scores_as_ratings(heldout: pd.DataFrame) -> str:
    """'what was read as their rating, column 'score', holds scores such as 0.156 ...' when
    the held-out ratings are off a half-star scale and either in descending order within
    the users' rows or read from a score's column name; else ''. Off-scale ratings alone
    are not scores (some data sets rate on a continuous scale)."""
    if "rating" not in heldout.columns or not len(heldout):
        return ""
    rating = heldout["rating"].to_numpy(dtype=float)
    if _half_stars(rating):
        return ""
    column = heldout.attrs.get("columns", {}).get("rating", "rating")
    share = _descending_share(heldout, "rating")
    sorted_lists = share is not None and share >= LIST_SHARE
    if not (sorted_lists or normalise(column) in SCORE_NAMES):
        return ""
    how = ", in descending order within each user's rows" if sorted_lists else ""
    return (f"what was read as their rating, column {column!r}, holds scores such as "
            f"{rating[0]:.3g}{how}, not ratings")


def _interactions_signs(recommendations: pd.DataFrame) -> list[str]:
    """Why a recommendations file reads as held-out interactions: no score or rank but a
    rating's or a time's column, or a "score" that holds ratings."""
    columns = recommendations.attrs.get("columns")
    if not columns:                     # built in code, not read from a file: no header
        return []
    if not {"score", "rank"} & set(columns):
        read = set(columns.values())
        kept = [h for h in recommendations.attrs.get("header", ()) if h not in read and
                normalise(h) in (*_ALIASES["rating"], *_ALIASES["timestamp"])]
        if kept:
            return [f"no score or rank column, but a rating's or a time's column, "
                    f"{kept[0]!r}"]
        return []
    if "score" not in columns or "rank" in columns or "score" not in recommendations:
        return []
    score = recommendations["score"].to_numpy(dtype=float)
    share = _descending_share(recommendations, "score")
    if (len(score) and _half_stars(score) and len(np.unique(score)) <= RATING_VALUES
            and share is not None and share < 0.5):
        return [f"what was read as their score, column {columns['score']!r}, holds ratings "
                f"({', '.join(f'{v:g}' for v in np.unique(score)[:6])}), not in descending "
                "order within the users' rows"]
    return []


def _named(frame: pd.DataFrame) -> str:
    source = frame.attrs.get("source")
    return f" ({source})" if source else ""


def check_roles(recommendations: pd.DataFrame, heldout: pd.DataFrame) -> None:
    """Raise :class:`~irlib.InputError` when the two files look given the wrong way round,
    saying which file looks like which (the signs: see the module).

    The shapes alone: the held-out file looks like lists (at least 90 % of its users have
    the same number ``c >= 2`` of rows) while the recommendations file does not (fewer than
    60 % share a count) and has fewer rows per user on average than ``c``. A held-out set
    with the same number of items per user (leave-5-out) beside real lists passes: both
    look like lists, and its ratings are ratings.

    >>> lists = pd.DataFrame({"user_id": list("aaabbbccc"), "item_id": list("xyzxyzxyz"),
    ...                       "rating": [0.91, 0.52, 0.33] * 3})
    >>> later = pd.DataFrame({"user_id": list("aabccc"), "item_id": list("xyzxyz")})
    >>> check_roles(later, lists)
    Traceback (most recent call last):
    ...
    irlib._common.InputError: the files seem to be the wrong way round: the held-out \
interactions look like recommendation lists (3 of their 3 users have exactly 3 rows, and \
what was read as their rating, column 'rating', holds scores such as 0.91, in descending \
order within each user's rows, not ratings), while the recommendations look like \
interactions (1 to 3 rows per user, a different number for each user). Give each system's \
top-K lists as the recommendations and what users did later as the held-out interactions.
    >>> check_roles(lists, later)          # the right way round: nothing to say

    Leave-one-out: one held-out row per user, as regular as a list; the scores say it:

    >>> one = later.groupby("user_id").head(1)
    >>> check_roles(one, lists)
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    irlib._common.InputError: the files seem to be the wrong way round: the held-out ... holds \
scores such as 0.91, in descending order within each user's rows, not ratings). Give ...
    """
    held_mode, held_share, _, _ = list_shape(heldout)
    rec_mode, rec_share, rec_low, rec_high = list_shape(recommendations)
    n_users = heldout["user_id"].nunique()
    rec_mean = len(recommendations) / max(1, recommendations["user_id"].nunique())
    shapes = (held_mode >= 2 and held_share >= LIST_SHARE and n_users >= 2
              and rec_share < INTERACTION_SHARE and rec_mean < held_mode)
    held, recs = [], []
    signs = _interactions_signs(recommendations)
    if shapes:
        held.append(f"{int(round(held_share * n_users)):,} of their {n_users:,} users have "
                    f"exactly {held_mode} rows")
        order = "" if signs or {"score", "rank"} & set(recommendations.attrs.get(
            "columns", {})) or not recommendations.attrs.get("columns") else \
            ", no score or rank column"
        recs.append(f"{rec_low} to {rec_high} rows per user, a different number for each "
                    f"user{order}")
    scores = _scores_as_ratings(heldout)
    if scores:
        held.append(scores)
    recs += signs
    if not (held or recs):
        return
    said = []
    if held:
        said.append(f"the held-out interactions{_named(heldout)} look like recommendation "
                    f"lists ({', and '.join(held)})")
    if recs:
        said.append(f"the recommendations{_named(recommendations)} look like "
                    f"{'held-out ' if not held else ''}interactions ({'; '.join(recs)})")
    raise InputError(
        "the files seem to be the wrong way round: " + ", while ".join(said) + ". Give each "
        "system's top-K lists as the recommendations and what users did later as the "
        "held-out interactions.")
