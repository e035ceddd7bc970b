"""The course's challenges, lesson by lesson. Every number in a check comes from irlib.

Sources (the boards the lessons show; ``ui/lessons/practice/lesson.py`` builds them from the catalog):
``cats`` (lesson 1, "cat in a box", relevant / not), ``white-cats`` (lesson 3, grades 0-4),
``query1``-``query3`` (lesson 2, the article's three queries), ``ranking1``-``ranking3``
(lesson 4, the lecture's three rankings of six documents A-F, relevant A, B and C). Lesson 5
reuses ``cats`` with the libraries' conventions (irlib.measures.conventions). Lesson 7's
challenges put the lesson's users (RBP, ERR, cascade clicks) on ``ranking1``, ``ranking3`` and
``white-cats`` (:mod:`course.challenges._online`). Lesson 8's challenges are on users' film
lists (``films-<name>``, :mod:`course.challenges._recommenders`); Lesson 9's make the learner a
rater on ``cats`` and ``white-cats`` (:mod:`course.challenges._judgments`).
"""
from __future__ import annotations

from course.challenges._board import Condition, moves_between, number, regrades_between
from course.challenges._judgments import SPECS as JUDGMENT_SPECS
from course.challenges._online import SPECS as ONLINE_SPECS
from course.challenges._recommenders import SPECS as RECOMMENDER_SPECS
from course.challenges._spec import Spec, judge, move
from irlib.measures.ap import average_precision, mean_average_precision
from irlib.measures.binary import f1_at_k, precision_at_k, recall_at_k
from irlib.measures.conventions import score_under
from irlib.measures.dcg import ndcg_at_k
from irlib.measures.rank import mean_reciprocal_rank, reciprocal_rank

QUERIES = ("query1", "query2", "query3")
RANKINGS = ("ranking1", "ranking2", "ranking3")


def _judgments_kept(boards, start) -> Condition:
    return Condition.kept("the judgments", sum(map(regrades_between, start, boards)), "grade")


def _order_kept(board, start) -> Condition:
    return Condition.kept("the order", moves_between(start, board), "move", "from the start")


def _moves(board, start, limit) -> Condition:
    return Condition.moves(moves_between(start, board), limit)


def _untouched(boards, start, which, what) -> Condition:
    changed = sum(moves_between(start[n], boards[n]) + regrades_between(start[n], boards[n])
                  for n in which)
    return Condition.kept(what, changed, "change", "made")


def _listed(numbers) -> str:
    """``3`` / ``1 and 3`` / ``1, 2 and 3``."""
    numbers = [str(n) for n in numbers]
    return numbers[0] if len(numbers) == 1 else f"{', '.join(numbers[:-1])} and {numbers[-1]}"


def _named(one: str, many: str, numbers) -> str:
    """``rank 3`` / ``ranks 1 and 3``."""
    return f"{one if len(numbers) == 1 else many} {_listed(numbers)}"


def _hits(board, k: int) -> int:
    """How many relevant cards the top ``k`` of ``board`` holds (from irlib's P@k)."""
    return round(precision_at_k(board.ranked(), k) * k)


# --------------------------------------------------------------------------- lesson 1

def _top_three(boards, start):
    (b,), (s,) = boards, start
    return [Condition.compare("P@3", precision_at_k(b.ranked(), 3), "=", 1),
            _moves(b, s, 2), _judgments_kept(boards, start)]


def _top_three_hint(boards, start):
    """Which of the learner's first three cards are not cats in boxes (as judged at the start)."""
    (b,), (s,) = boards, start
    misses = [n for n, item in enumerate(b.order[:3], 1) if not s.grades[item]]
    if not misses:
        moved = moves_between(s, b)
        return ("On your board the first three cards are all cats in boxes"
                + ("." if moved <= 2 else f", but {moved} moves from the start: start again "
                                          "and send down only the cards that are not."))
    if len(misses) == 1:
        return (f"On your board, the card at {_named('rank', 'ranks', misses)} is not a cat "
                "in a box: send it down.")
    return (f"On your board, the cards at {_named('rank', 'ranks', misses)} are not cats in "
            "boxes: send them down.")


def _first_hit_poor_list(boards, start):
    g = boards[0].ranked()
    return [Condition.compare("RR", reciprocal_rank(g), "=", 1),
            Condition.compare("AP@8", average_precision(g, 8), "<", 0.6),
            _judgments_kept(boards, start)]


def _recall_not_precision(boards, start):
    g = boards[0].ranked()
    return [Condition.compare("Recall@4", recall_at_k(g, 4), "=", 1),
            Condition.compare("Precision@4", precision_at_k(g, 4), "=", 0.5)]


def _f1(boards, start):
    (b,), (s,) = boards, start
    return [Condition.compare("F1@4", f1_at_k(b.ranked(), 4), "=", 0.75), _moves(b, s, 1),
            _judgments_kept(boards, start)]


def _f1_hint(boards, start):
    found = _hits(boards[0], 4)
    return ("There are four relevant cats, so at K = 4 precision and recall share a "
            "denominator: F1@4 = 0.75 needs three of them in the top four. Your top four holds "
            f"{found}.")


def _order_matters(boards, start):
    g = boards[0].ranked()
    return [Condition.compare("P@4", precision_at_k(g, 4), "=", 0.5),
            Condition.compare("AP@4", average_precision(g, 4), ">=", 0.5),
            _judgments_kept(boards, start)]


# --------------------------------------------------------------------------- lesson 2

def _rankings(boards) -> list[list[int]]:
    return [b.ranked() for b in boards]


def _mrr_one(boards, start):
    moved = list(map(moves_between, start, boards))
    far = [n for n, m in enumerate(moved, 1) if m > 1]
    if not far:
        within = Condition(True, "each query at most 1 move from its start")
    else:
        counts = _listed(moved[n - 1] for n in far)
        within = Condition(False, f"{_named('query', 'queries', far)} "
                           + (f"is {counts} moves from its start" if len(far) == 1
                              else f"are {counts} moves from their starts")
                           + ": each query can be done in 1")
    return [Condition.compare("MRR@8", mean_reciprocal_rank(_rankings(boards), 8), "=", 1),
            within, _judgments_kept(boards, start)]


def _mrr_one_hint(boards, start):
    """The queries of the learner's boards that do not start with a relevant card."""
    lacking = [n for n, b in enumerate(boards, 1) if reciprocal_rank(b.ranked()) < 1]
    head = "MRR is the mean of the three queries' RR: each query needs a relevant card first. "
    if not lacking:
        return head + "On your boards all three do."
    return (head + f"On your boards, {_named('query', 'queries', lacking)} "
            + ("does" if len(lacking) == 1 else "do") + " not start with one.")


def _map_not_mrr(boards, start):
    mrr = mean_reciprocal_rank(_rankings(boards), 8)
    return [Condition.compare("MAP@8", mean_average_precision(_rankings(boards), 8), ">", 0.6),
            Condition.same("MRR@8", mrr, mean_reciprocal_rank(_rankings(start), 8)),
            _judgments_kept(boards, start)]


def _one_query_lifts_map(boards, start):
    return [Condition.compare("MAP@8", mean_average_precision(_rankings(boards), 8), ">", 0.6),
            _untouched(boards, start, (0, 1), "queries 1 and 2"),
            _judgments_kept(boards, start)]


def _one_query_hint(boards, start):
    """The three APs of the learner's boards and what query 3 needs (MAP is their mean)."""
    ap1, ap2, ap3 = (average_precision(g, 8) for g in _rankings(boards))
    need = 3 * 0.6 - ap1 - ap2
    text = (f"MAP@8 is the plain mean of the queries' AP@8, on your boards {number(ap1)}, "
            f"{number(ap2)} and {number(ap3)}: query 3's counts as much as the others'. ")
    if need >= 1:
        return text + "Queries 1 and 2 must stay as given: start again or undo their changes."
    return text + f"Query 3 needs an AP@8 above {number(need)}."


# --------------------------------------------------------------------------- lesson 3

def _ndcg_one_move(boards, start):
    (b,), (s,) = boards, start
    return [Condition.compare("NDCG@3", ndcg_at_k(b.ranked(), 3), ">", 0.7),
            Condition.same("Recall@3", recall_at_k(b.ranked(), 3), recall_at_k(s.ranked(), 3)),
            _moves(b, s, 1), _judgments_kept(boards, start)]


def _gain_matters(boards, start):
    g = boards[0].ranked()
    return [Condition.compare("NDCG@3 with gain = grade", ndcg_at_k(g, 3), ">", 0.6),
            Condition.compare("with gain = 2^grade − 1", ndcg_at_k(g, 3, gain="exponential"),
                              "<", 0.4),
            _judgments_kept(boards, start)]


def _judge_to_ideal(boards, start):
    (b,), (s,) = boards, start
    return [Condition.compare("NDCG@3", ndcg_at_k(b.ranked(), 3), "=", 1), _order_kept(b, s)]


def _lower_to_raise(boards, start):
    (b,), (s,) = boards, start
    raised = sum(b.grades[i] > s.grades[i] for i in s.order)
    return [Condition.compare("NDCG@3", ndcg_at_k(b.ranked(), 3), ">", 0.5), _order_kept(b, s),
            Condition(not raised, "no grade raised" if not raised
                      else f"{raised} grade{'' if raised == 1 else 's'} raised (only lower)")]


# --------------------------------------------------------------------------- lesson 4

_LABELS = ["ranking 1", "ranking 2", "ranking 3"]


def _p2_vs_ap(boards, start):
    rankings = _rankings(boards)
    return [Condition.winner("P@2", [precision_at_k(g, 2) for g in rankings], _LABELS, 0),
            Condition.winner("AP", [average_precision(g) for g in rankings], _LABELS, 2),
            _judgments_kept(boards, start)]


def _k_decides_hint(boards, start):
    r1, r2, _ = boards
    return ("P@5 and P@2 count the relevant documents in the top five and the top two. On your "
            f"boards ranking 1 has {_hits(r1, 5)} and {_hits(r1, 2)}, ranking 2 has "
            f"{_hits(r2, 5)} and {_hits(r2, 2)}: ranking 2 needs more than ranking 1 in its top "
            "five but fewer in its top two.")


def _k_decides(boards, start):
    r1, r2, _ = _rankings(boards)
    return [Condition.versus("P@5", precision_at_k(r2, 5), precision_at_k(r1, 5), ">",
                             "ranking 2", "ranking 1"),
            Condition.versus("P@2", precision_at_k(r2, 2), precision_at_k(r1, 2), "<",
                             "ranking 2", "ranking 1"),
            _untouched(boards, start, (0, 2), "rankings 1 and 3"),
            _judgments_kept(boards, start)]


# --------------------------------------------------------------------------- lesson 5

#: Three AP@K denominators: all relevant (trec_eval), min(R, K) (apk), found in the top K
#: (torchmetrics).
_LIBRARIES = ("trec_eval", "apk", "torchmetrics")


def _libraries_agree(boards, start):
    g = boards[0].ranked()
    values = [score_under(lib, g, 4)["AP"] for lib in _LIBRARIES]
    agree = max(values) - min(values) < 1e-12
    listed = ", ".join(f"{number(v)} ({lib})" for v, lib in zip(values, _LIBRARIES))
    return [Condition(agree, f"AP@4 = {listed}: "
                      + ("they agree as asked" if agree else "not one number")),
            Condition.compare("trec_eval's AP@4", values[0], ">", 0),
            _judgments_kept(boards, start)]


SPECS = [
    Spec("top-three", 1, "Fill the top three",
         "In at most two moves, make Precision@3 equal 1 without changing a judgment.",
         _top_three_hint, ("cats",), _top_three, ((move("dog", 8), move("empty-box", 8)),),
         "Drag the dog and then the empty box to the bottom: the two white cats and the "
         "ginger cat move up into the top three.", k=3),
    Spec("first-hit-poor-list", 1, "A perfect first hit, a poor list",
         "Find an order where RR is 1 (this one query's MRR) but AP@8 is below 0.6.",
         "RR only looks at the first relevant card; AP also pays for every relevant card "
         "that sits low. Put one cat first and the other three at the very bottom.",
         ("cats",), _first_hit_poor_list,
         ((move("white-cat-box", 1), move("ginger-cat-box", 8), move("white-cat-box-2", 8),
           move("dark-cat-box", 8)),),
         "Put the white cat first and the other three cats in boxes at ranks 6, 7 and 8."),
    Spec("recall-not-precision", 1, "All found, half right",
         "Judge the cards so that Recall@4 = 1 but Precision@4 = 0.5.",
         "Recall@4 = 1 means every relevant card is in the top four; Precision@4 = 0.5 means "
         "exactly two of those four are relevant. How many relevant cards may there be?",
         ("cats",), _recall_not_precision,
         ((judge("white-cat-box-2", 0), judge("dark-cat-box", 0)),),
         "Mark the cats at ranks 5 and 7 not relevant: only the two relevant cats in the "
         "top four remain.", k=4),
    Spec("f1-three-quarters", 1, "F1 in one move",
         "With one move, make F1@4 equal 0.75.",
         _f1_hint, ("cats",), _f1, ((move("dog", 8),),),
         "Drag the dog from rank 1 to the bottom: the second white cat moves up to rank 4.", k=4),
    Spec("order-matters", 1, "Same precision, better order",
         "Keep Precision@4 at 0.5 but raise AP@4 to at least 0.5.",
         "Precision@4 does not care where the two relevant cards sit inside the top four; "
         "AP does.",
         ("cats",), _order_matters, ((move("white-cat-box", 1), move("ginger-cat-box", 2)),),
         "Move the white cat and the ginger cat to ranks 1 and 2: the top four still holds "
         "two relevant cards, now at the top ranks.", k=4),
    Spec("mrr-one", 2, "Every first hit at rank 1",
         "Make MRR@8 equal 1, moving at most one card on each query.",
         _mrr_one_hint, QUERIES, _mrr_one,
         ((move("white-cat-box", 1),), (), (move("two-cats", 1),)),
         "Drag the white cat to the top of query 1 and the two cats to the top of query 3."),
    Spec("map-not-mrr", 2, "MAP up, MRR still",
         "Raise MAP@8 above 0.6 without changing MRR@8.",
         "MRR only sees each query's first relevant card: leave those where they are and "
         "pull the later relevant cards up behind them.",
         QUERIES, _map_not_mrr,
         ((move("empty-box", 8),),
          (move("white-cat-box", 2), move("two-cats", 3), move("white-cat-box-2", 4)), ()),
         "Query 2 gets its four white animals at ranks 1–4 and query 1 sends the empty box to "
         "the bottom; every first hit stays where it was."),
    Spec("one-query-lifts-map", 2, "One query lifts the mean",
         "Raise MAP@8 above 0.6 by changing query 3 (“dark cats”) only.",
         _one_query_hint, QUERIES, _one_query_lifts_map, ((), (), (move("dark-cat-box", 1),)),
         "Drag the dark cat to the top of query 3."),
    Spec("ndcg-one-move", 3, "One move to a good top three",
         "With one move, raise NDCG@3 above 0.7 without changing Recall@3 (grade ≥ 1 is "
         "relevant).",
         "Recall@3 counts cards with grade 1 or more in the top three; NDCG@3 wants the 4s "
         "there. Which grade-4 picture can come up without changing that count?",
         ("white-cats",), _ndcg_one_move, ((move("white-cat-box-2", 1),),),
         "Drag the second white cat in a box (grade 4, rank 5) to the top: the dog drops to "
         "rank 2 and the empty box out of the top three.", k=3),
    Spec("gain-matters", 3, "The gain decides",
         "Find an order where NDCG@3 is above 0.6 with gain = grade but below 0.4 with "
         "gain = 2^grade − 1.",
         "An exponential gain makes a 4 worth 15 and a 3 only 7: fill the top three with "
         "good cards that are not the 4s.",
         ("white-cats",), _gain_matters,
         ((move("dog-box", 1), move("ginger-cat-box", 2), move("dark-cat-box", 3)),),
         "Put the dog in a box (2), the ginger cat (3) and the dark cat (3) at the top and "
         "leave both white cats (4) below rank 3.", k=3),
    Spec("judge-to-ideal", 3, "Perfect by judging",
         "Without moving a card, change judgments so that NDCG@3 equals 1.",
         "NDCG@3 = 1 when the top three hold the three highest grades of all the judged "
         "pictures, in falling order.",
         ("white-cats",), _judge_to_ideal,
         ((judge("dog", 4), judge("empty-box", 4)),),
         "Grade the dog and the empty box 4: the top three are 4, 4, 4, as good as any three "
         "judged pictures can be.", k=3),
    Spec("lower-to-raise", 3, "Lower a grade, raise NDCG",
         "Without moving a card and only lowering grades, raise NDCG@3 above 0.5.",
         "IDCG is built from every judged picture, not only the top three: good pictures "
         "below rank 3 raise the bar.",
         ("white-cats",), _lower_to_raise,
         ((judge("white-cat-box-2", 0), judge("ginger-cat-box", 0), judge("dark-cat-box", 0)),),
         "Grade the second white cat, the ginger cat and the dark cat 0: the ideal top three "
         "falls to 4, 2, 1 while the shown top three keeps its gains.", k=3),
    Spec("p2-vs-ap", 4, "Two metrics, two picks",
         "Reorder the rankings so that P@2 picks ranking 1 and AP picks ranking 3 (keep "
         "the judgments).",
         "From the starting boards, ranking 3 need not change: make ranking 1 top P@2 by a "
         "hair with a low AP, and push ranking 2's relevant documents down.",
         RANKINGS, _p2_vs_ap,
         ((move("D", 1), move("E", 3), move("F", 4)), (move("A", 4), move("B", 5)), ()),
         "Ranking 1 becomes D A E F B C (relevant at 2, 5, 6) and ranking 2 D E F A B C "
         "(relevant at 4, 5, 6); ranking 3 keeps 3, 4, 5.", k=2),
    Spec("k-decides", 4, "K decides which scores highest",
         "Reorder ranking 2 only, so that it scores higher than ranking 1 on P@5 but "
         "still lower on P@2.",
         _k_decides_hint, RANKINGS, _k_decides, ((), (move("F", 6),), ()),
         "Drag document F from rank 4 to the bottom of ranking 2: B and C move up to ranks "
         "4 and 5.", k=5),
    Spec("libraries-agree", 5, "Make the libraries agree",
         "Without making it zero, get trec_eval, Kaggle's apk and torchmetrics to agree on "
         "AP@4 (keep the judgments).",
         "trec_eval divides by all four relevant cats, apk by min(4, K) = 4, torchmetrics "
         "only by the relevant cats it found in the top four.",
         ("cats",), _libraries_agree,
         ((move("dog", 8), move("empty-box", 8), move("two-cats", 8)),),
         "Put all four relevant cats in the top four: every library then divides by 4 and "
         "finds precision 1 at each of them.", k=4),
    *ONLINE_SPECS,
    *RECOMMENDER_SPECS,
    *JUDGMENT_SPECS,
]
