"""Two recommenders side by side: accuracy and beyond, and whether the winner just went popular.

A most-popular list often wins offline accuracy: the held-out items are themselves drawn
from a popularity-skewed log, so "recommend the hits" hits. What it gives up shows beyond
accuracy: a handful of items for everyone (low coverage, high exposure Gini, high average
popularity). :func:`compare_recommenders` puts both systems' numbers in one table and says in
one sentence who wins accuracy and whether it did so by collapsing onto popular items.

"Wins" is said only where a paired test over the users finds the difference (the page's
test, corrected over its systems, or the two systems' own test); otherwise the sentence
says "no clear winner" with both numbers and the p-value. Means closer than
:data:`irlib.stats.ties.TIE_TOLERANCE` are a tie, whatever a test says.

The rule (:data:`COLLAPSE`): the accuracy winner *collapsed* when its coverage is at most half
the other's ("shows everyone the same few items"), or its average recommended popularity at
least 1.5 times the other's ("collapsing onto popular items"). Only the second says it won by
popularity: a narrow list can hold items fewer users had (a trending list), and the sentence
then says its items are less popular.
"""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from .._common import fmt_number as fmt
from ..stats.compare import compare_systems
from ..stats.compare_many import TESTS
from ..stats.ties import TIE_TOLERANCE, is_tie
from .evaluate import RecommenderEvaluation

__all__ = ["COLLAPSE", "Finding", "RecommenderComparison", "compare_recommenders",
           "own_finding"]

#: When the accuracy winner counts as having collapsed onto popular items: its coverage at
#: most this share of the other's, or its mean popularity at least this many times the other's.
COLLAPSE = {"coverage_ratio": 0.5, "popularity_ratio": 1.5}


@dataclass(frozen=True)
class Finding:
    """What a paired test found for one measure, system against another: the p-value the
    table marks by (corrected over the family when there is one) and how it was reached."""
    p_value: float | None          # the test's own p-value
    p_corrected: float | None      # after the multiple-comparison correction (= p_value alone)
    significant: bool              # the table's mark: p_corrected < alpha
    method: str                    # "paired randomization test, corrected for the 2 ..."
    means: tuple[float, float] | None = None    # (first, second) as the table shows them

    @property
    def corrected(self) -> bool:
        return self.p_corrected is not None and self.p_value is not None and \
            "corrected" in self.method

    def p_text(self) -> str:
        """'p = 0.066; uncorrected p = 0.033', or 'p = 0.003' without a correction. A
        corrected p always has the uncorrected one beside it, even when Holm leaves it as
        it was (the largest p of the family), so the reader sees which is which.

        >>> Finding(0.139, 0.139, False, "paired t-test, corrected for the 3 ...").p_text()
        'p = 0.139; uncorrected p = 0.139'
        >>> Finding(0.002, 0.002, True, "paired t-test over the users, at 0.05").p_text()
        'p = 0.002'
        """
        if self.p_corrected is None:
            return "no p-value (fewer than two users to pair)"
        text = f"p {_p(self.p_corrected)}"
        if self.corrected:
            text += f"; uncorrected p {_p(self.p_value)}"
        return text


@dataclass(frozen=True)
class RecommenderComparison:
    """Two systems' numbers and the verdict."""
    table: pd.DataFrame            # rows: measures (accuracy, then beyond); columns: the names
    winner: str | None             # the better on `by` *when the test finds the difference*
    collapsed: bool                # that winner went popular or narrow (see COLLAPSE)
    sentence: str                  # the verdict in one sentence
    by: str                        # the accuracy measure that decides ("NDCG@10")
    finding: Finding | None = None   # the paired test behind the verdict
    tie: bool = False              # the means differ by less than irlib.stats.ties.TIE_TOLERANCE
    leader: str | None = None      # the higher mean, found or not (None: a tie)

    @property
    def warning(self) -> bool:
        """Style the sentence as a warning: a winner that won by collapsing. A healthy win,
        a tie and "no clear winner" are information."""
        return self.winner is not None and self.collapsed


def percent_text(x: float) -> str:
    """A share as the sentences print it, and the tables beside them (Lesson 8's):
    '15.8 %', '12 %'."""
    return f"{fmt(100 * x, 1)} %"


def score_text(x: float) -> str:
    """A mean as the sentences print it, and every accuracy table: three decimals, kept
    ('0.180', not '0.18')."""
    return f"{x:.3f}"


def _p(p: float | None) -> str:
    """'= 0.066', or '< 0.001'."""
    return "= n/a" if p is None else ("< 0.001" if p < 0.001 else f"= {p:.3f}")


def own_finding(a: RecommenderEvaluation, b: RecommenderEvaluation, by: str, *,
                test: str = "randomization", alpha: float = 0.05) -> Finding:
    """The paired test of two systems alone (one comparison: nothing to correct), on their
    per-user values of ``by``."""
    if test not in TESTS:
        raise ValueError(f"test must be one of {tuple(TESTS)}, got {test!r}")
    c = compare_systems(a.per_user[by], b.per_user[by], randomization=test == "randomization")
    p = c.randomization_pvalue if test == "randomization" else c.t_pvalue
    return Finding(p, p, bool(p is not None and p < alpha),
                   f"paired {TESTS[test].removeprefix('paired ')} over the users, at {alpha:g}")


def compare_recommenders(a: RecommenderEvaluation, b: RecommenderEvaluation,
                         names: tuple[str, str] = ("A", "B"), *, by: str | None = None,
                         finding: Finding | None = None, test: str = "randomization",
                         alpha: float = 0.05, history: str = "training") -> RecommenderComparison:
    """Compare two evaluations of the same held-out set; name a winner only where a paired
    test finds the difference, and say whether it won by collapsing onto popular items.

    Parameters
    ----------
    a, b : RecommenderEvaluation
        From :func:`~irlib.recsys.evaluate_recommendations`, with the same K (and, for the
        popularity part, the same training interactions and catalogue).
    names : (str, str)
        The systems' names in the table and the sentence.
    by : str, optional
        The accuracy measure that decides the winner (default: ``a.by``, NDCG@K).
    history : str
        Where popularity was counted, for the sentence ("training"; "the last 7 days of
        training" when the evaluations' ``train`` was that window).
    finding : Finding, optional
        The test a page's table marks by (e.g. corrected over several systems,
        :func:`irlib.recsys.verdict.recommender_verdicts`); default the paired ``test`` of
        these two alone (:func:`own_finding`).

    Returns
    -------
    RecommenderComparison
        ``table`` (measure x system), ``winner`` (None: a tie, or no clear winner),
        ``collapsed``, ``sentence`` and the ``finding`` behind it.

    Examples
    --------
    >>> import pandas as pd
    >>> from irlib.recsys import evaluate_recommendations
    >>> users = [f"u{i}" for i in range(12)]
    >>> heldout = pd.DataFrame({"user_id": users, "item_id": ["hit"] * 9 + ["n1", "n2", "n3"]})
    >>> train = pd.DataFrame({"user_id": ["t1", "t2", "t3", "t1"],
    ...                       "item_id": ["hit", "hit", "hit", "n4"]})
    >>> popular = {u: ["hit"] for u in users}
    >>> personal = {u: [item] for u, item in zip(users, ["n1", "n2", "n3", "n4"] * 3)}
    >>> e_pop = evaluate_recommendations(popular, heldout, k=1, train=train)
    >>> e_mine = evaluate_recommendations(personal, heldout, k=1, train=train)
    >>> print(compare_recommenders(e_pop, e_mine, ("popular", "personal")).sentence)
    ... # doctest: +NORMALIZE_WHITESPACE
    popular wins on NDCG@1 (0.750 vs 0.000; paired randomization test over the users, at 0.05:
    p = 0.004) by collapsing onto popular items: its top-1 lists cover 20 % of the
    catalogue against 80 % for personal, and its recommended items are more popular: on
    average 100 % of users had them in training, against 8.3 % for personal's.

    With four users the same kind of gap could be chance, and the sentence says so:

    >>> few = heldout.iloc[[0, 1, 9, 10]]
    >>> print(compare_recommenders(evaluate_recommendations(popular, few, k=1),
    ...                            evaluate_recommendations(personal, few, k=1),
    ...                            ("popular", "personal")).sentence)
    ... # doctest: +NORMALIZE_WHITESPACE
    No clear winner on NDCG@1: popular 0.500 vs personal 0.000, a difference that could be chance
    (paired randomization test over the users, at 0.05: p = 0.500). Beyond accuracy:
    popular's top-1 lists cover 33.3 % of the catalogue against 66.7 % for personal.
    """
    by = by or a.by
    if a.k != b.k:
        raise ValueError(f"the two evaluations have different K ({a.k} and {b.k}); compare "
                         "them at the same K")
    if a.catalogue != b.catalogue:
        raise ValueError(f"the two evaluations have different catalogues ({a.catalogue} and "
                         f"{b.catalogue}): coverage and Gini would divide by different "
                         "numbers; evaluate both against the same files or catalogue")
    name_a, name_b = names
    if name_a == name_b:
        name_a, name_b = f"{name_a} (A)", f"{name_b} (B)"
    table = pd.DataFrame({name_a: a.overall, name_b: b.overall})
    if by not in table.index:
        raise ValueError(f"{by!r} is not among the measures compared: "
                         f"{', '.join(table.index)}")
    if finding is not None and finding.means is not None:
        score_a, score_b = finding.means
    else:
        score_a, score_b = float(table.at[by, name_a]), float(table.at[by, name_b])
    k = a.k
    if is_tie(score_a, score_b):
        sentence = (f"{name_a} and {name_b} are tied on {by} ({score_text(score_a)} vs "
                    f"{score_text(score_b)}, a difference below {TIE_TOLERANCE:g}): no clear "
                    "winner."
                    + _beyond(a, b, name_a, name_b, k, history))
        return RecommenderComparison(table, None, False, sentence, by, finding, True, None)
    if score_a > score_b:
        winner, loser, won, lost, w_eval, l_eval = name_a, name_b, score_a, score_b, a, b
    else:
        winner, loser, won, lost, w_eval, l_eval = name_b, name_a, score_b, score_a, b, a
    if finding is None:
        finding = own_finding(a, b, by, test=test, alpha=alpha)
    if not finding.significant:
        sentence = (f"No clear winner on {by}: {winner} {score_text(won)} vs {loser} "
                    f"{score_text(lost)}, a difference that could be chance ({finding.method}: "
                    f"{finding.p_text()})." + _beyond(w_eval, l_eval, winner, loser, k, history))
        return RecommenderComparison(table, None, False, sentence, by, finding, False, winner)
    head = (f"{winner} wins on {by} ({score_text(won)} vs {score_text(lost)}; {finding.method}: "
            f"{finding.p_text()})")
    coverage = _pair(w_eval, l_eval, "Coverage")
    popularity = _pair(w_eval, l_eval, "Popularity")
    narrow = coverage is not None and coverage[0] <= COLLAPSE["coverage_ratio"] * coverage[1]
    popular = popularity is not None and popularity[1] > 0 and \
        popularity[0] >= COLLAPSE["popularity_ratio"] * popularity[1]
    facts = []
    if coverage is not None:
        facts.append(f"its top-{k} lists cover {percent_text(coverage[0])} of the catalogue "
                     f"against {percent_text(coverage[1])} for {loser}")
    if popularity is not None:
        more = _more_popular(popularity)
        # few items for everyone need not be popular ones (a trending list shows recent
        # films few users had): then the popularity goes against the narrowing
        joint = "yet" if narrow and more is False else "and"
        facts.append((f"{joint} " if facts else "") + _popularity_fact(popularity, more, loser,
                                                                       history))
    detail = ", ".join(facts)
    if popular:
        sentence = f"{head} by collapsing onto popular items: {detail}."
    elif narrow:         # a few items for everyone, not always the most popular ones (trending)
        sentence = f"{head} but shows everyone the same few items: {detail}."
    elif detail:
        sentence = f"{head} without narrowing its recommendations: {detail}."
    else:
        sentence = f"{head}."
    return RecommenderComparison(table, winner, bool(narrow or popular), sentence, by,
                                 finding, False, winner)


def _beyond(first: RecommenderEvaluation, second: RecommenderEvaluation, name_first: str,
            name_second: str, k: int, history: str) -> str:
    """' Beyond accuracy: A's top-K lists cover ... against ... for B.' (no verdict)."""
    facts = []
    coverage = _pair(first, second, "Coverage")
    if coverage is not None:
        facts.append(f"{name_first}'s top-{k} lists cover {percent_text(coverage[0])} of the "
                     f"catalogue against {percent_text(coverage[1])} for {name_second}")
    popularity = _pair(first, second, "Popularity")
    if popularity is not None:
        more = _more_popular(popularity)
        facts.append(_popularity_fact(popularity, more, name_second, history).replace(
            "its recommended", f"{name_first}'s recommended", 1))
    return f" Beyond accuracy: {'; '.join(facts)}." if facts else ""


def _more_popular(popularity: tuple[float, float]) -> bool | None:
    """Are the winner's recommended items the more popular ones? None: as popular (the same
    percentage as shown)."""
    won, lost = popularity
    return None if percent_text(won) == percent_text(lost) else won > lost


def _popularity_fact(popularity: tuple[float, float], more: bool | None, loser: str,
                     history: str = "training") -> str:
    """The average recommended popularity of the winner against the loser's, and which way it
    goes: popularity is the share of training users who had a recommended item, averaged."""
    won, lost = popularity
    if more is None:
        return (f"its recommended items are as popular as {loser}'s: on average "
                f"{percent_text(won)} of users had them in {history}")
    return (f"its recommended items are {'more' if more else 'less'} popular: on average "
            f"{percent_text(won)} of users had them in {history}, against {percent_text(lost)} for "
            f"{loser}'s")


def _pair(winner: RecommenderEvaluation, loser: RecommenderEvaluation, name: str):
    """(winner's, loser's) value of a beyond-accuracy measure, when both have it."""
    if name not in winner.beyond or name not in loser.beyond:
        return None
    pair = (winner.beyond[name].value, loser.beyond[name].value)
    return None if any(pd.isna(v) for v in pair) else pair
