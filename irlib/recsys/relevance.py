"""What counts as a hit, in a recommender's words: the measures' names, the relevance rule
and who was evaluated.

* **Relevant**: every held-out item (``relevant_from=None``), or those rated
  ``>= relevant_from`` (a 1-star rating is a dislike, not a hit). When the held-out file has
  ratings and no rule is given, the rule says so in words (:func:`relevance_grades`) and
  :func:`liked_from` proposes the usual threshold ("rated 4 or more" on 1-5 stars).
* **Gain** (NDCG): ``"binary"`` (1 per relevant item) or ``"graded"``
  (``rating - relevant_from + 1``).
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["ACCURACY", "AccuracyInfo", "GAINS", "UserAccounting", "liked_from",
           "relevance_grades"]


@dataclass(frozen=True)
class AccuracyInfo:
    """A recommender's name for an irlib measure."""
    label: str                 # shown with "@K": "HitRate@10"
    title: str
    description: str           # one line, for help texts
    irlib: str                 # the registry name irlib.evaluate computes it with


#: The accuracy measures in a recommender's words, in display order.
ACCURACY = {
    "HitRate": AccuracyInfo(
        "HitRate", "Hit rate",
        "Share of users with at least one relevant held-out item in their top K "
        "(= Success@K).", "Success"),
    "Recall": AccuracyInfo(
        "Recall", "Recall",
        "Share of a user's relevant held-out items that are in the top K, averaged over "
        "users.", "R"),
    "Precision": AccuracyInfo(
        "Precision", "Precision",
        "Share of the top K that is relevant (divided by K even for a shorter list).", "P"),
    "NDCG": AccuracyInfo(
        "NDCG", "Normalised DCG",
        "Hits discounted by log2(rank + 1), divided by the best possible for the user's "
        "relevant held-out items.", "nDCG"),
    "MAP": AccuracyInfo(
        "MAP", "Mean average precision",
        "Precision at each hit in the top K, summed and divided by all the user's relevant "
        "held-out items (trec_eval's map_cut), averaged over users.", "AP"),
    "MRR": AccuracyInfo(
        "MRR", "Mean reciprocal rank",
        "1 / rank of the first hit in the top K (0 without one), averaged over users.", "RR"),
}
GAINS = ("binary", "graded")
_EXAMPLES = 3


@dataclass(frozen=True)
class UserAccounting:
    """Who was evaluated, and who was not and why (ids in text order, at most all)."""
    evaluated: int                              # held-out users with a relevant item
    without_recommendations: tuple[str, ...]    # evaluated, no list: scored 0
    recommendations_only: tuple[str, ...]       # a list, no held-out item: left out
    without_relevant: tuple[str, ...]           # held-out items, none relevant: left out

    def sentences(self) -> list[str]:
        """What the page says about the users, one sentence per group that is not empty."""
        out = [f"{self.evaluated:,} users evaluated (each has at least one relevant "
               "held-out item)."]
        groups = (
            (self.without_recommendations, "have relevant held-out items but no "
             "recommendations: they score 0 on every accuracy measure and count in the means"),
            (self.recommendations_only, "have recommendations but no held-out items: left "
             "out (nothing to hit)"),
            (self.without_relevant, "have held-out items but none relevant: left out "
             "(nothing to hit)"))
        for ids, what in groups:
            if ids:
                shown = ", ".join(repr(i) for i in ids[:_EXAMPLES])
                more = ", ..." if len(ids) > _EXAMPLES else ""
                out.append(f"{len(ids):,} user{'s' if len(ids) != 1 else ''} ({shown}{more}) "
                           f"{what}.")
        return out


def _examples(ids: Iterable) -> str:
    ids = list(ids)[:_EXAMPLES]
    return ", ".join(repr(str(i)) for i in ids) if ids else "(none)"


def _check_frame(frame, columns, what):
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"{what} must be a pandas DataFrame, got {type(frame).__name__}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{what} needs columns {', '.join(columns)} (missing "
                         f"{', '.join(missing)}; found: {', '.join(map(str, frame.columns))}); "
                         "irlib.recsys.read_interactions reads any column names")


def _text(column: pd.Series) -> pd.Series:
    if pd.api.types.is_string_dtype(column.dtype) and column.dtype != object:
        return column.reset_index(drop=True)
    return column.astype("str").reset_index(drop=True)


def relevance_grades(heldout: pd.DataFrame, relevant_from, gain: str) -> tuple[np.ndarray, str]:
    """The grade of each held-out row (0: not relevant) and the rule in words."""
    if gain not in GAINS:
        raise ValueError(f"gain must be one of {', '.join(GAINS)}, got {gain!r}")
    if relevant_from is None:
        if gain == "graded":
            raise ValueError("gain='graded' needs relevant_from (grade = rating - "
                             "relevant_from + 1)")
        rule = "every held-out item is relevant (gain 1)"
        if "rating" in heldout.columns and len(heldout):
            low, high = heldout["rating"].min(), heldout["rating"].max()
            if low != high:     # said, never silent: a 1-star rating counts as a hit
                rule += (f", whatever its rating ({low:g} to {high:g}): a {low:g} counts as "
                         f"much as a {high:g}")
        return np.ones(len(heldout)), rule
    if isinstance(relevant_from, bool) or not isinstance(relevant_from, (int, float, np.number)) \
            or not np.isfinite(relevant_from):
        raise ValueError(f"relevant_from must be a number (a rating), got {relevant_from!r}")
    if "rating" not in heldout.columns:
        raise ValueError(f"relevant_from={relevant_from:g} needs ratings, but the held-out "
                         f"interactions have none (columns: {', '.join(heldout.columns)}); "
                         "map the rating column, or leave relevant_from out to count every "
                         "held-out item as relevant")
    rating = heldout["rating"].to_numpy(dtype=float)
    relevant = rating >= relevant_from
    t = f"{relevant_from:g}"
    if gain == "binary":
        return relevant.astype(float), f"a held-out item rated {t} or more is relevant (gain 1)"
    grade = np.where(relevant, rating - relevant_from + 1, 0.0)
    return grade, (f"a held-out item rated {t} or more is relevant, with gain rating - {t} + 1 "
                   f"(a {t} gains 1)")


def liked_from(ratings) -> float | None:
    """The usual "liked" threshold of a rating scale: three quarters of the way from the
    lowest rating to the highest, rounded up to a whole rating (4 on 1-5 stars or 0.5-5,
    8 on 1-10, 1 on 0/1); None when every rating is the same.

    >>> liked_from([1, 2, 5, 3]), liked_from([0.5, 5.0]), liked_from([1, 10]), liked_from([3, 3])
    (4, 4, 8, None)
    """
    values = np.asarray(ratings, dtype=float)
    values = values[np.isfinite(values)]
    if not len(values) or values.min() == values.max():
        return None
    low, high = float(values.min()), float(values.max())
    return int(math.ceil(low + 0.75 * (high - low) - 1e-9))
