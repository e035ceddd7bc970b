"""Lesson 7's challenges (metrics as users): a metric is a model of a user, and clicks follow
the model.

Two are on the lesson's own pair of rankings, Lesson 4's rankings 1 and 3 (``ranking1``,
``ranking3``; ranking 1 stays as given), one on the graded cats (``white-cats``), which the
lesson compares by default. Every number comes from irlib: RBP and ERR from
:mod:`irlib.measures.user_models`, click-through and the users an A/B test needs from
:mod:`irlib.online`, under the simulated users the lesson starts with (:class:`irlib.online.Setting`:
cascade users, noise 10 %, patience 90 %).
"""
from __future__ import annotations

from course.challenges._board import Condition, moves_between, number_pair, regrades_between
from course.challenges._spec import Spec, move
from irlib.measures.binary import precision_at_k
from irlib.measures.dcg import ndcg_at_k
from irlib.measures.user_models import err, rbp
from irlib.online import Setting, ab_users_needed, any_click_probability, attractiveness

#: RBP's two users: a patient one and an impatient one.
PATIENT, IMPATIENT = 0.9, 0.5
#: Lesson 7's binary measures on the 0-4 scale count grade >= 3 (ui/lessons/online.py).
REL = 3
#: An offline gain "nobody sees": an A/B test needs more users than this.
MANY_USERS = 1_000_000
#: The simulated users of the lesson's start.
USERS = Setting()


def _judgments_kept(boards, start) -> Condition:
    return Condition.kept("the judgments", sum(map(regrades_between, start, boards)), "grade")


def _ranking1_kept(boards, start) -> Condition:
    changed = moves_between(start[0], boards[0]) + regrades_between(start[0], boards[0])
    return Condition.kept("ranking 1", changed, "change", "made")


def _relevant(board, label: str) -> str:
    """``ranking 3: relevant at ranks 1, 3 and 4`` (or ``nothing relevant``)."""
    ranks = [str(n) for n, g in enumerate(board.ranked(), 1) if g]
    if not ranks:
        return f"{label}: nothing relevant"
    if len(ranks) == 1:
        return f"{label}: relevant at rank {ranks[0]}"
    return f"{label}: relevant at ranks {', '.join(ranks[:-1])} and {ranks[-1]}"


# --------------------------------------------------------------------------- patience

def _rbp(board, p: float) -> float:
    return rbp(board.ranked(), p=p)


def _patience_decides(boards, start):
    r1, r3 = boards
    return [Condition.versus(f"RBP (p = {PATIENT})", _rbp(r3, PATIENT), _rbp(r1, PATIENT), ">",
                             "ranking 3", "ranking 1"),
            Condition.versus(f"RBP (p = {IMPATIENT})", _rbp(r3, IMPATIENT),
                             _rbp(r1, IMPATIENT), "<", "ranking 3", "ranking 1"),
            _ranking1_kept(boards, start), _judgments_kept(boards, start)]


def _patience_hint(boards, start):
    """Where the relevant documents sit on the learner's boards."""
    r1, r3 = boards
    return (f"RBP's user reads rank 1, then goes on to each next rank with chance p: a relevant "
            f"document at rank i adds (1 − p)·p^(i−1). With p = {IMPATIENT} ranks 1 and 2 hold "
            f"three quarters of the weight; with p = {PATIENT} rank 6 still counts more than "
            f"half as much as rank 1. On your boards, {_relevant(r1, 'ranking 1')}; "
            f"{_relevant(r3, 'ranking 3')}.")


# --------------------------------------------------------------------------- the user who stops

def _precision(board) -> float:
    return precision_at_k(board.ranked(), 5, rel=REL)


def _err(board) -> float:
    return err(board.ranked(), 5, max_rel=board.top)


def _in_the_way(boards, start):
    (b,), (s,) = boards, start
    return [Condition.compare(f"P@5 (grade ≥ {REL})", _precision(b), ">", _precision(s)),
            Condition.compare("ERR@5", _err(b), "<", _err(s)),
            _judgments_kept(boards, start)]


def _in_the_way_hint(boards, start):
    """The grades of the learner's top five."""
    (b,) = boards
    grades = [str(g) for g in b.ranked()[:5]]
    return ("P@5 reads exactly five pictures and counts those graded 3 or 4. ERR's user reads "
            "down until a picture satisfies them, a 4 in 15 cases of 16, a 3 in only 7, and "
            "scores 1/rank of that stop: a 3 ahead of a 4 stops fewer users early and sends the "
            f"rest one rank further. On your board the top five hold the grades "
            f"{', '.join(grades[:-1])} and {grades[-1]}.")


# --------------------------------------------------------------------------- clicks

def click_through(board) -> float:
    """The chance that one of the lesson's simulated users clicks anything on ``board``."""
    attract = attractiveness(board.ranked(), board.top, USERS.noise)
    return any_click_probability(attract, USERS.model, bias=USERS.bias,
                                 patience=USERS.patience)


def _ab_users(r1, r3) -> Condition:
    """Users an A/B test of the two rankings needs (irlib's closed form, 80 % power)."""
    ctr1, ctr3 = click_through(r1), click_through(r3)
    needed = ab_users_needed(ctr1, ctr3)
    shown3, shown1 = number_pair(100 * ctr3, 100 * ctr1)
    rates = f"click-through {shown3} % for ranking 3 and {shown1} % for ranking 1"
    if needed is None:
        return Condition(True, f"{rates}: no number of users in an A/B test tells them apart, "
                               "as asked")
    head = (f"{rates}: an A/B test needs {needed:,} users to see the difference 80 % of "
            "the time")
    if needed > MANY_USERS:
        return Condition(True, f"{head}, more than {MANY_USERS:,} as asked")
    return Condition(False, f"{head}, not more than {MANY_USERS:,}")


def _unseen_gain(boards, start):
    r1, r3 = boards
    return [Condition.versus("NDCG@6", ndcg_at_k(r3.ranked(), 6), ndcg_at_k(r1.ranked(), 6),
                             ">", "ranking 3", "ranking 1"),
            _ab_users(r1, r3), _ranking1_kept(boards, start), _judgments_kept(boards, start)]


SPECS = [
    Spec("patience-decides", 7, "The user's patience decides",
         f"Reorder ranking 3 only, so that it scores higher than ranking 1 on RBP with "
         f"p = {PATIENT} (a patient user) but lower with p = {IMPATIENT} (an impatient one).",
         _patience_hint, ("ranking1", "ranking3"), _patience_decides,
         ((), (move("A", 1), move("E", 6))),
         "Drag document A to the top of ranking 3 and E to the bottom: relevant at ranks 1, 3 "
         "and 4. The impatient user gives ranks 1 and 2 three quarters of the weight, and "
         "ranking 1 has two relevant documents there; the patient one also reads on to ranks 3 "
         "and 4, which weigh more than ranking 1's rank 6."),
    Spec("good-picture-in-the-way", 7, "A good picture in the way",
         f"Reorder the pictures so that P@5 rises (grade {REL} or 4 is relevant, as in the "
         "lesson) but ERR@5 falls (keep the judgments).",
         _in_the_way_hint, ("white-cats",), _in_the_way,
         ((move("dark-cat-box", 2), move("empty-box", 8)),),
         "Drag the dark cat (3) to rank 2, in front of the white cat (4), and the empty box "
         "to the bottom: the top five now holds four pictures graded 3 or 4, but at rank 2 "
         "ERR's user meets a 3, which satisfies 7 in 16 where the 4 satisfied 15, and the rest "
         "reach the 4 only at rank 3.", k=5),
    Spec("unseen-gain", 7, "An offline gain nobody clicks on",
         f"Reorder ranking 3 only, so that it scores higher than ranking 1 on NDCG@6, yet an "
         f"A/B test of the two (the lesson's cascade users: noise "
         f"{100 * USERS.noise:.0f} %, patience {100 * USERS.patience:.0f} %) needs more than "
         f"{MANY_USERS:,} users to see the difference.",
         "A cascade user clicks the first result that attracts them and stops. With relevant "
         "documents at ranks 1 and 2 fewer than 1 user in 100 reads past rank 2, so a "
         "difference below it hardly moves click-through. NDCG@6 counts every rank: ranking 3 "
         "needs what ranking 1 has at the top, and its gain as deep as it can go.",
         ("ranking1", "ranking3"), _unseen_gain,
         ((), (move("A", 1), move("B", 2))),
         "Drag A and B to the top of ranking 3: relevant at ranks 1, 2 and 5 against ranking "
         "1's 1, 2 and 6. NDCG@6 is higher, but almost every simulated user has clicked before "
         "rank 5: the click-through rates differ by less than a tenth of a percentage point, "
         "and an A/B test would need over two million users."),
]
