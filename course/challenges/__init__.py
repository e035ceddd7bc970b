"""Challenges: small tasks on the lessons' boards, each checked by irlib's own metrics.

A challenge starts from boards the lessons already show (``sources``: the cats, the article's
three queries, the lecture's three rankings), states a task in one sentence, and checks any
boards the learner makes with :meth:`Challenge.check`, which says in one sentence, with the
boards' numbers, why they do or do not solve it. A hint that speaks of a board is a function of
the learner's boards (:meth:`Challenge.hint_for`), so it never describes a start the learner has
left; the worked answer starts from the start. Nothing here draws anything; ``ui/lessons/practice/lesson.py``
does. The challenges themselves are declared in :mod:`course.challenges._lessons`; what a
challenge is (:class:`Spec`, :class:`Challenge`, :class:`Result`, the edits :func:`move` and
:func:`judge`) in :mod:`course.challenges._spec`, which the lesson modules import (not this
package, which imports them).

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

from collections.abc import Mapping, Sequence

from course.challenges._board import Board, Condition, moves_between, regrades_between
from course.challenges._lessons import SPECS
from course.challenges._spec import Challenge, Result, Spec, judge, move
from irlib._common import InputError

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


def build(sources: Mapping[str, Board], specs: Sequence[Spec] | None = None) -> list[Challenge]:
    """The challenges on the given starting boards (by source name), in lesson order."""
    if specs is None:
        specs = SPECS
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
