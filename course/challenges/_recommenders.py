"""Lesson 8's challenges: users' top-8 lists from the film service, checked by irlib.

Each board is one user's top 8 from one of the lesson's recommenders, trained on the temporal
split (the one that does not leak, :data:`course.reclab.lesson.HONEST_SPLIT`); a film is
relevant when the user watched it after the cut (held out). A user's held-out films that are
not on the list are judged too (:attr:`Board.unlisted`): they count in Recall, MAP and NDCG's
ideal, as in :func:`irlib.evaluate` with the whole held-out set. The users are fixed by id
(the data set is generated from a seed); ``tests/test_challenges.py`` checks that each
challenge's start, answer and hint still say what their sentences say.
"""
from __future__ import annotations

import functools

from course.challenges._board import Board, Condition, moves_between, number, regrades_between
from course.challenges._spec import Spec
from irlib._common import mean_over_queries
from irlib.measures.ap import average_precision, mean_average_precision
from irlib.measures.binary import success_at_k
from irlib.measures.dcg import ndcg_at_k

#: The films on a board: each user's top ``LIST_LENGTH``.
LIST_LENGTH = 8
#: Source name -> (user id, model). Names as the data set has them (tests check).
USERS = {
    "films-maya": ("u13", "mf"),       # 18 films after the cut, 4 of them in her top 8
    "films-cleo": ("u53", "mf"),       # 36 after the cut, 4 listed
    "films-vera": ("u22", "mf"),       # 3 after the cut, 1 listed at rank 7
    "films-zane": ("u26", "popular"),  # the Most-popular list, minus what each one watched
    "films-bruno": ("u52", "popular"),
    "films-jonah": ("u10", "popular"),
}
COVERAGE_USERS = ("films-zane", "films-bruno", "films-jonah")


def _data():
    from course.reclab.data import generate
    return generate()


@functools.cache
def film_boards() -> dict[str, Board]:
    """The users' boards by source name (:data:`USERS`), each labelled with the user, the
    model and how many films the user watched after the cut."""
    from course.reclab.lesson import held_out, top_list
    from course.reclab.models import MODELS

    data = _data()
    boards = {}
    for source, (user, model) in USERS.items():
        order = top_list(model, user, LIST_LENGTH)
        watched = held_out()[user]
        listed = sum(i in watched for i in order)
        label = (f"{data.names[user]}'s top {LIST_LENGTH} from {MODELS[model]}: watched "
                 f"{len(watched)} films after the cut, {listed} of them here (✓)")
        boards[source] = Board(order, {i: int(i in watched) for i in order}, 1, label,
                               unlisted=len(watched) - listed)
    return boards


def catalogue() -> list[str]:
    """Every film of the service: what coverage is a share of."""
    return list(_data().items["item_id"])


def _title(item: str) -> str:
    return _data().titles[item]


def _film(title: str) -> str:
    """A film's id from its title (titles are unique)."""
    return next(i for i, t in _data().titles.items() if t == title)


def move_film(title: str, rank: int):
    """An edit for a worked answer: drag the film called ``title`` to ``rank``."""
    return lambda board: board.moved(_film(title), rank)


def _to_bottom(board: Board) -> Board:
    """An edit: the board's first film to the bottom."""
    return board.moved(board.order[0], len(board.order))


def _first_hit_to_top(board: Board) -> Board:
    """An edit: the highest-ranked watched film to rank 1."""
    return board.moved(next(i for i in board.order if board.grades[i]), 1)


def _judgments_kept(boards, start) -> Condition:
    return Condition.kept("the judgments", sum(map(regrades_between, start, boards)), "grade")


def _listed(texts) -> str:
    texts = list(texts)
    return texts[0] if len(texts) == 1 else f"{', '.join(texts[:-1])} and {texts[-1]}"


# --------------------------------------------------------------------------- a hit is a hit

def _hit_not_ndcg(boards, start):
    (b,) = boards
    g = b.ranked()
    return [Condition.compare("HitRate@3", success_at_k(g, 3), "=", 1),
            Condition.compare("NDCG@3", ndcg_at_k(g, 3, judged=b.judged_grades()), "<", 0.25),
            _judgments_kept(boards, start)]


def _hit_not_ndcg_hint(boards, start):
    """Where the watched films sit in the learner's top 3."""
    (b,) = boards
    ranks = [n for n, i in enumerate(b.order[:3], 1) if b.grades[i]]
    head = ("HitRate@3 only asks whether the top 3 holds a film Maya watched; NDCG@3 also asks "
            "how many and how high, against an ideal top 3 of three watched films (she watched "
            f"{b.unlisted + sum(b.ranked())}). ")
    if not ranks:
        return head + "On your board the top 3 holds none: HitRate@3 is 0."
    where = f"at rank{'s' if len(ranks) > 1 else ''} {_listed(map(str, ranks))}"
    return head + (f"On your board the top 3 holds {len(ranks)}, {where}: keep one, as low as "
                   "it can go.")


# --------------------------------------------------------------------------- the light user

def _moves_in_all(boards, start, limit: int) -> Condition:
    n = sum(map(moves_between, start, boards))
    noun = "move" if n == 1 else "moves"
    if n <= limit:
        return Condition(True, f"{n} {noun} in all (at most {limit})")
    return Condition(False, f"the boards are {n} {noun} from their starts: it can be done in "
                            f"{limit}")


def _light_user(boards, start):
    rankings = [b.ranked() for b in boards]
    judged = [b.judged_grades() for b in boards]
    return [Condition.compare("MAP@8", mean_average_precision(rankings, 8, judged=judged), ">",
                              0.2),
            _moves_in_all(boards, start, 1), _judgments_kept(boards, start)]


def _light_user_hint(boards, start):
    """The two users' AP@8 on the learner's boards and the most each can reach (irlib's AP@8
    of the board's watched films put first)."""
    aps, caps = [], []
    for b in boards:
        aps.append(average_precision(b.ranked(), 8, judged=b.judged_grades()))
        best = sorted(b.ranked(), reverse=True)
        caps.append(average_precision(best, 8, judged=b.judged_grades()))
    cleo, vera = boards
    return (f"MAP@8 is the plain mean of the two users' AP@8, on your boards {number(aps[0])} "
            f"(Cleo) and {number(aps[1])} (Vera). AP@8 divides by every film a user watched "
            f"after the cut, listed or not: Cleo's {cleo.unlisted + sum(cleo.ranked())} films keep "
            f"hers at {number(caps[0])} or less however her list is ordered; Vera watched "
            f"{vera.unlisted + sum(vera.ranked())}, so hers can reach {number(caps[1])}.")


# --------------------------------------------------------------------------- coverage

def _lists(boards) -> dict[str, list[str]]:
    return {str(n): list(b.order) for n, b in enumerate(boards)}


def _coverage(boards):
    """irlib's Coverage@3 of the boards' top 3s over the whole catalogue."""
    from irlib.recsys.beyond import beyond_accuracy
    return beyond_accuracy(_lists(boards), 3, catalogue=catalogue(),
                           measures=["Coverage"])["Coverage"]


def _coverage_keeps_hits(boards, start):
    c = _coverage(boards)
    hit = mean_over_queries(lambda g, _: success_at_k(g, 3), [b.ranked() for b in boards], None)
    return [Condition.compare(f"Coverage@3 ({c.terms['covered']} of {c.terms['catalogue']} "
                              "films)", c.value, ">=", 9 / len(catalogue())),
            Condition.compare("HitRate@3", hit, "=", 1), _judgments_kept(boards, start)]


def _coverage_hint(boards, start):
    """The films the learner's top 3s repeat, and the users whose top 3 lost its hit."""
    names = ("Zane", "Bruno", "Jonah")
    c = _coverage(boards)
    tops = [b.order[:3] for b in boards]
    shown = [i for top in tops for i in top]
    repeated = sorted({i for i in shown if shown.count(i) > 1}, key=shown.index)
    text = (f"Coverage@3 counts the different films in the three top 3s: on your boards "
            f"{c.terms['covered']}")
    if repeated:
        titles = _listed(f"“{_title(i)}”" for i in repeated)
        text += (f", because {titles} {'is' if len(repeated) == 1 else 'are'} in more than one "
                 "top 3. ")
    else:
        text += ", none of them twice. "
    missing = [name for name, b, top in zip(names, boards, tops)
               if not any(b.grades[i] for i in top)]
    if missing:
        return text + (f"HitRate@3 needs a ✓ film in every top 3: {_listed(missing)} "
                       f"{'has' if len(missing) == 1 else 'have'} none now.")
    return text + "Every top 3 still holds a ✓ film."


SPECS = [
    Spec("hit-blind-to-order", 8, "A hit is a hit",
         "Reorder Maya's list so that HitRate@3 stays 1 but NDCG@3 falls below 0.25.",
         _hit_not_ndcg_hint, ("films-maya",), _hit_not_ndcg, ((_to_bottom, _to_bottom),),
         "Send Maya's first two films (both ✓) to the bottom: her third watched film, at rank "
         "5, comes up to rank 3, alone in the top 3. HitRate@3 cannot tell that top 3 from "
         "the first one.", k=3),
    Spec("light-user-lifts-map", 8, "The light user moves the mean",
         "With one move in all, raise MAP@8 over Cleo and Vera above 0.2 (keep the "
         "judgments).",
         _light_user_hint, ("films-cleo", "films-vera"), _light_user,
         ((), (_first_hit_to_top,)),
         "Drag Vera's one ✓ film (rank 7) to the top of her list and leave Cleo's as it is. "
         "Vera watched 3 films after the cut and Cleo 36: each user counts once in the mean, "
         "and no order of Cleo's 8 films can give her AP@8 much."),
    Spec("coverage-keeps-hits", 8, "Same hits, more of the catalogue",
         "Three users get the Most-popular list. Reorder the lists so that no film is in two "
         "top 3s (9 films, Coverage@3 = 0.045 of the 200) while HitRate@3 stays 1.",
         _coverage_hint, COVERAGE_USERS, _coverage_keeps_hits,
         ((move_film("The Silent Horizon", 3),), (move_film("The Hollow Signal", 8),),
          (move_film("The Crooked Well", 3),)),
         "Zane: “The Silent Horizon” up to rank 3 (“The Final Orbit” drops out). Bruno: “The "
         "Hollow Signal” to the bottom. Jonah: “The Crooked Well” up to rank 3. Nine different "
         "films, and each top 3 keeps a film its user watched.", k=3),
]
