"""Two recommenders side by side: accuracy and beyond, and whether the winner just went popular.

A most-popular list often wins offline accuracy: the held-out items are themselves drawn
from a popularity-skewed log, so "recommend the hits" hits. What it gives up shows beyond
accuracy: a handful of items for everyone (low coverage, high exposure Gini, high average
popularity). :func:`compare_recommenders` puts both systems' numbers in one table and says in
one sentence who wins accuracy and whether it did so by collapsing onto popular items.

The rule (:data:`COLLAPSE`): the accuracy winner *collapsed* when its coverage is at most half
the other's ("shows everyone the same few items"), or its average recommended popularity at
least 1.5 times the other's ("collapsing onto popular items"). Only the second says it won by
popularity: a narrow list can hold items fewer users had (a trending list), and the sentence
then says its items are less popular.
"""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..explain import fmt
from .evaluate import RecommenderEvaluation

__all__ = ["COLLAPSE", "RecommenderComparison", "compare_recommenders"]

#: When the accuracy winner counts as having collapsed onto popular items: its coverage at
#: most this share of the other's, or its mean popularity at least this many times the other's.
COLLAPSE = {"coverage_ratio": 0.5, "popularity_ratio": 1.5}


@dataclass(frozen=True)
class RecommenderComparison:
    """Two systems' numbers and the verdict."""
    table: pd.DataFrame            # rows: measures (accuracy, then beyond); columns: the names
    winner: str | None             # higher accuracy on `by`; None: a tie
    collapsed: bool                # the winner went popular (see COLLAPSE)
    sentence: str                  # the verdict in one sentence
    by: str                        # the accuracy measure that decides ("NDCG@10")


def _percent(x: float) -> str:
    return f"{fmt(100 * x, 1)} %"


def compare_recommenders(a: RecommenderEvaluation, b: RecommenderEvaluation,
                         names: tuple[str, str] = ("A", "B"), *,
                         by: str | None = None) -> RecommenderComparison:
    """Compare two evaluations of the same held-out set; say whether the winner went popular.

    Parameters
    ----------
    a, b : RecommenderEvaluation
        From :func:`~irlib.recsys.evaluate_recommendations`, with the same K (and, for the
        popularity part, the same training interactions).
    names : (str, str)
        The systems' names in the table and the sentence.
    by : str, optional
        The accuracy measure that decides the winner (default: ``a.by``, NDCG@K).

    Returns
    -------
    RecommenderComparison
        ``table`` (measure x system), ``winner``, ``collapsed`` and ``sentence``.

    Examples
    --------
    >>> import pandas as pd
    >>> from irlib.recsys import evaluate_recommendations
    >>> heldout = pd.DataFrame({"user_id": ["u1", "u2", "u3", "u4"],
    ...                         "item_id": ["hit", "hit", "niche1", "hit"]})
    >>> train = pd.DataFrame({"user_id": ["t1", "t2", "t3", "t1"],
    ...                       "item_id": ["hit", "hit", "hit", "niche2"]})
    >>> popular = {u: ["hit"] for u in ["u1", "u2", "u3", "u4"]}
    >>> personal = {"u1": ["niche1"], "u2": ["hit"], "u3": ["niche1"], "u4": ["niche2"]}
    >>> e_pop = evaluate_recommendations(popular, heldout, k=1, train=train)
    >>> e_mine = evaluate_recommendations(personal, heldout, k=1, train=train)
    >>> print(compare_recommenders(e_pop, e_mine, ("popular", "personal")).sentence)
    ... # doctest: +NORMALIZE_WHITESPACE
    popular wins on NDCG@1 (0.75 vs 0.5) by collapsing onto popular items: its top-1 lists
    cover 33.3 % of the catalogue against 100 % for personal, and its recommended items are
    more popular, on average in the training history of 100 % of users against 33.3 % for
    personal's.
    """
    by = by or a.by
    if a.k != b.k:
        raise ValueError(f"the two evaluations have different K ({a.k} and {b.k}); compare "
                         "them at the same K")
    name_a, name_b = names
    if name_a == name_b:
        name_a, name_b = f"{name_a} (A)", f"{name_b} (B)"
    table = pd.DataFrame({name_a: a.overall, name_b: b.overall})
    if by not in table.index:
        raise ValueError(f"{by!r} is not among the measures compared: "
                         f"{', '.join(table.index)}")
    score_a, score_b = float(table.at[by, name_a]), float(table.at[by, name_b])
    if abs(score_a - score_b) <= 1e-12 * max(1.0, abs(score_a)):
        sentence = (f"{name_a} and {name_b} are tied on {by} ({fmt(score_a, 3)}); look at the "
                    "beyond-accuracy measures to choose.")
        return RecommenderComparison(table, None, False, sentence, by)
    if score_a > score_b:
        winner, loser, won, lost, w_eval, l_eval = name_a, name_b, score_a, score_b, a, b
    else:
        winner, loser, won, lost, w_eval, l_eval = name_b, name_a, score_b, score_a, b, a
    head = f"{winner} wins on {by} ({fmt(won, 3)} vs {fmt(lost, 3)})"
    coverage = _pair(w_eval, l_eval, "Coverage")
    popularity = _pair(w_eval, l_eval, "Popularity")
    narrow = coverage is not None and coverage[0] <= COLLAPSE["coverage_ratio"] * coverage[1]
    popular = popularity is not None and popularity[1] > 0 and \
        popularity[0] >= COLLAPSE["popularity_ratio"] * popularity[1]
    k = a.k
    facts = []
    if coverage is not None:
        facts.append(f"its top-{k} lists cover {_percent(coverage[0])} of the catalogue "
                     f"against {_percent(coverage[1])} for {loser}")
    if popularity is not None:
        more = _more_popular(popularity)
        # few items for everyone need not be popular ones (a trending list shows recent
        # films few users had): then the popularity goes against the narrowing
        joint = "yet" if narrow and more is False else "and"
        facts.append((f"{joint} " if facts else "") + _popularity_fact(popularity, more, loser))
    detail = ", ".join(facts)
    if popular:
        sentence = f"{head} by collapsing onto popular items: {detail}."
    elif narrow:         # a few items for everyone, not always the most popular ones (trending)
        sentence = f"{head} but shows everyone the same few items: {detail}."
    elif detail:
        sentence = f"{head} without narrowing its recommendations: {detail}."
    else:
        sentence = f"{head}."
    return RecommenderComparison(table, winner, bool(narrow or popular), sentence, by)


def _more_popular(popularity: tuple[float, float]) -> bool | None:
    """Are the winner's recommended items the more popular ones? None: as popular (the same
    percentage as shown)."""
    won, lost = popularity
    return None if _percent(won) == _percent(lost) else won > lost


def _popularity_fact(popularity: tuple[float, float], more: bool | None, loser: str) -> str:
    """The average recommended popularity of the winner against the loser's, and which way it
    goes: popularity is the share of training users who had a recommended item, averaged."""
    won, lost = popularity
    if more is None:
        return (f"its recommended items are as popular as {loser}'s, on average in the "
                f"training history of {_percent(won)} of users")
    return (f"its recommended items are {'more' if more else 'less'} popular, on average in "
            f"the training history of {_percent(won)} of users against {_percent(lost)} for "
            f"{loser}'s")


def _pair(winner: RecommenderEvaluation, loser: RecommenderEvaluation, name: str):
    """(winner's, loser's) value of a beyond-accuracy measure, when both have it."""
    if name not in winner.beyond or name not in loser.beyond:
        return None
    pair = (winner.beyond[name].value, loser.beyond[name].value)
    return None if any(pd.isna(v) for v in pair) else pair
