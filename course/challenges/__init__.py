"""Challenges: small tasks on the lessons' boards, each checked by irlib's own metrics.

A challenge starts from boards the lessons already show (``sources``: the cats, the article's
three queries, the lecture's three rankings), states a task in one sentence, and checks any
boards the learner makes with :meth:`Challenge.check`, which says in one sentence, with the
boards' numbers, why they do or do not solve it. A hint that speaks of a board is a function of
the learner's boards (:meth:`Challenge.hint_for`), so it never describes a start the learner has
left; the worked answer starts from the start. Nothing here draws anything; ``ui/lessons/practice/lesson.py``
does. The challenges themselves are declared in :mod:`course.challenges._lessons`.

A challenge on a three-item board: put a relevant item first.

>>> from irlib.measures.rank import reciprocal_rank
>>> def first_hit(boards, start):
...     return [Condition.compare("RR", reciprocal_rank(boards[0].ranked()), "=", 1)]
>>> spec = Spec("demo", 1, "Demo", "Put a relevant item first.", "Drag one up.", ("cats",),
...             first_hit, ((move("b", 1),),), "b first.")
>>> cats = Board(("a", "b", "c"), {"a": 0, "b": 1, "c": 1})
>>> (demo,) = build({"cats": cats}, [spec])
>>> demo.check(demo.start).why
'Not yet: RR = 0.5, not 1.'
>>> demo.check(demo.answer).why
'Solved: RR = 1 as asked.'
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from irlib._common import InputError
from course.challenges._board import Board, Condition, moves_between, regrades_between

__all__ = [
    "Board",
    "Challenge",
    "Condition",
    "Result",
    "Spec",
    "build",
    "challenges",
    "judge",
    "move",
    "moves_between",
    "regrades_between",
]


@dataclass(frozen=True)
class Result:
    """A check's verdict: ``solved`` and one sentence with the boards' numbers."""
    solved: bool
    why: str


Rule = Callable[[Sequence[Board], Sequence[Board]], Sequence[Condition]]
#: A hint: a sentence about the task, or one made from the boards (``(boards, start)``).
Hint = str | Callable[[Sequence[Board], Sequence[Board]], str]
Edit = Callable[[Board], Board]


def move(item: str, rank: int) -> Edit:
    """An edit for a worked answer: drag ``item`` to ``rank`` (1 = top)."""
    return lambda board: board.moved(item, rank)


def judge(item: str, grade: int) -> Edit:
    """An edit for a worked answer: give ``item`` the grade ``grade``."""
    return lambda board: board.judged(item, grade)


@dataclass(frozen=True)
class Spec:
    """A challenge as declared: its boards are named sources, its answer edits them."""
    id: str
    lesson: int
    title: str
    task: str
    hint: Hint
    sources: tuple[str, ...]
    rule: Rule
    answer_edits: tuple[tuple[Edit, ...], ...]
    answer_text: str
    k: int | None = None              # the cut the boards draw (the task's K), if one


@dataclass(frozen=True)
class Challenge:
    """A challenge on concrete boards (see :func:`build`)."""
    id: str
    lesson: int
    title: str
    task: str
    hint: Hint
    start: tuple[Board, ...]
    answer: tuple[Board, ...]
    answer_text: str
    rule: Rule = field(repr=False)
    k: int | None = None

    def fits(self, boards: Sequence[Board]) -> bool:
        """True when ``boards`` are this challenge's boards (same items, grades in range)."""
        return len(boards) == len(self.start) and all(
            sorted(b.order) == sorted(s.order) and b.top == s.top
            and all(0 <= int(b.grades.get(i, 0)) <= s.top for i in b.order)
            for b, s in zip(boards, self.start))

    def hint_for(self, boards: Sequence[Board]) -> str:
        """The hint for the learner's ``boards`` (the same sentence for a hint about the task)."""
        return self.hint(tuple(boards), self.start) if callable(self.hint) else self.hint

    def check(self, boards: Sequence[Board]) -> Result:
        """Solved or not, and why, in one sentence with the numbers of ``boards``."""
        if not self.fits(boards):
            raise InputError(f"challenge {self.id!r}: the boards do not match its "
                             f"{len(self.start)} starting board(s)")
        conditions = list(self.rule(tuple(boards), self.start))
        solved = all(c.ok for c in conditions)
        return Result(solved, ("Solved: " if solved else "Not yet: ")
                      + "; ".join(c.text for c in conditions) + ".")


def build(sources: Mapping[str, Board], specs: Sequence[Spec] | None = None) -> list[Challenge]:
    """The challenges on the given starting boards (by source name), in lesson order."""
    if specs is None:
        from course.challenges._lessons import SPECS as specs
    built = []
    for spec in specs:
        missing = [s for s in spec.sources if s not in sources]
        if missing:
            raise InputError(f"challenge {spec.id!r} needs the board(s) {missing}")
        start = tuple(sources[s] for s in spec.sources)
        answer = []
        for board, edits in zip(start, spec.answer_edits or ((),) * len(start)):
            for edit in edits:
                board = edit(board)
            answer.append(board)
        built.append(Challenge(spec.id, spec.lesson, spec.title, spec.task, spec.hint, start,
                               tuple(answer), spec.answer_text, spec.rule, spec.k))
    ids = [c.id for c in built]
    if len(set(ids)) != len(ids):
        raise InputError(f"challenge ids repeat: {ids}")
    return sorted(built, key=lambda c: c.lesson)


def challenges(sources: Mapping[str, Board]) -> dict[str, Challenge]:
    """Every challenge of the course by id, in lesson order."""
    return {c.id: c for c in build(sources)}
