"""Lesson 9's challenges (where judgments come from): the learner is a rater.

Both start from Lesson 1's and Lesson 3's cats. The board's starting judgments are the other
raters'; the learner's edits are their own grades. Every number comes from irlib.stats.raters and
irlib's metrics.
"""
from __future__ import annotations

from course.challenges._board import Condition, moves_between
from course.challenges._spec import Spec, judge
from irlib.measures.binary import precision_at_k
from irlib.measures.dcg import ndcg_at_k
from irlib.stats.raters import cohen_kappa, combine_ratings

MEAN_DROP = 0.05


def _order_kept(board, start) -> Condition:
    return Condition.kept("the order", moves_between(start, board), "move", "from the start")


def _second_rater(boards, start):
    (b,), (s,) = boards, start
    kappa = cohen_kappa(s.ranked(), b.ranked())
    return [Condition.same("Precision@4", precision_at_k(b.ranked(), 4),
                           precision_at_k(s.ranked(), 4)),
            Condition.compare("Cohen's κ with the first rater", kappa, "<=", 0.5),
            _order_kept(b, s)]


def _second_rater_hint(boards, start):
    (b,), (s,) = boards, start
    changed = sum(b.grades[i] != s.grades[i] for i in s.order)
    return ("κ counts the cards on which you and the first rater differ, beyond what chance "
            "would give. Disagree on cards inside the top four in pairs (one up, one down) so "
            f"that Precision@4 stays. You now differ on {changed} card"
            f"{'' if changed == 1 else 's'}.")


def _ratings(b, s):
    """Rows: the board's cards; columns: the two agreeing raters (the start) and the learner."""
    return [[s.grades[i], s.grades[i], b.grades[i]] for i in s.order]


def _outvoted(boards, start):
    (b,), (s,) = boards, start
    before = ndcg_at_k(s.ranked(), 5)
    ratings = _ratings(b, s)
    mean = ndcg_at_k(combine_ratings(ratings, "mean"), 5)
    median = ndcg_at_k(combine_ratings(ratings, "median"), 5)
    return [Condition.compare("NDCG@5 of the mean grades", mean, "<=", before - MEAN_DROP),
            Condition.same("NDCG@5 of the median grades", median, before),
            _order_kept(b, s)]


SPECS = [
    Spec("second-rater", 9, "Same precision, moderate agreement",
         "You are a second rater: the board starts with the first rater's judgments. Without "
         "moving a card, judge so that Precision@4 stays as it was but your Cohen's κ with "
         "the first rater is at most 0.5.",
         _second_rater_hint, ("cats",), _second_rater,
         ((judge("dog", 1), judge("ginger-cat-box", 0)),),
         "Call the dog relevant and the ginger cat not: the top four still holds two relevant "
         "cards, but you now disagree on two of eight cards, and with both raters calling "
         "half the cards relevant, chance alone agrees half the time: κ = (0.75 − 0.5) / "
         "(1 − 0.5) = 0.5.", k=4),
    Spec("outvoted", 9, "Outvoted by the median",
         "Two raters gave the board's grades. As the third rater, change your grades (no "
         f"moves) so that NDCG@5 of the mean of the three grades falls by at least "
         f"{MEAN_DROP}. What does the median do?",
         "The mean hears every rater; the median of three is the middle grade, so when the "
         "other two agree, it is theirs. Lower the grades of good cards high in the top five; "
         "each of your grades moves the mean by only a third.",
         ("white-cats",), _outvoted,
         ((judge("white-cat-box", 0), judge("ginger-cat-box", 0)),),
         "Grade the white cat at rank 2 and the ginger cat at rank 4 0: their mean grades fall "
         "from 4 to 2.67 and from 3 to 2, and NDCG@5 of the mean drops by 0.063, but the "
         "median of 4, 4 and 0 is still 4: two agreeing raters outvote you.", k=5),
]
