"""What a challenge is, for the modules that declare them: :class:`Spec` (a challenge as
declared, on named boards, with its answer as edits), :class:`Challenge` (the same on concrete
boards, which checks a learner's boards), :class:`Result` (a check's verdict) and the edits a
worked answer is made of (:func:`move`, :func:`judge`).

The lesson modules (``_lessons``, ``_online``, ``_recommenders``, ``_judgments``) import from
here, not from the package, whose ``__init__`` imports them: so no module finds another
half-initialised, whichever is imported first.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from course.challenges._board import Board, Condition
from irlib._common import InputError

__all__ = ["Challenge", "Edit", "Hint", "Result", "Rule", "Spec", "judge", "move"]


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
