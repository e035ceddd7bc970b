"""A challenge's board (an order and judgments) and the conditions its checks are made of."""
from __future__ import annotations

import bisect
import math
from collections.abc import Mapping
from dataclasses import dataclass

from irlib._common import fmt_number as _fmt    # course/ must not import ui
from irlib.stats import claims

#: How a bound reads in a sentence, and how it is tested (with a tolerance for equality).
_OPS = {">": ("above", lambda v, b: v > b + 1e-12),
        "<": ("below", lambda v, b: v < b - 1e-12),
        ">=": ("at least", lambda v, b: v >= b - 1e-12),
        "<=": ("at most", lambda v, b: v <= b + 1e-12),
        "=": ("", lambda v, b: math.isclose(v, b, abs_tol=1e-12))}
DIGITS = 3


def number(x: float) -> str:
    """A challenge's numbers: three decimals at most (0.599 must not read as 0.6)."""
    return _fmt(x, DIGITS)


def number_pair(a: float, b: float) -> tuple[str, str]:
    """Two numbers read side by side, with as many decimals each (0.22 and 0.249 read as
    0.220 and 0.249).

    >>> number_pair(0.22, 0.249), number_pair(0.6, 0.4), number_pair(1, 0.5)
    (('0.220', '0.249'), ('0.6', '0.4'), ('1.0', '0.5'))
    """
    texts = [number(a), number(b)]
    decimals = max(len(t.partition(".")[2]) for t in texts)
    if decimals == 0:
        return texts[0], texts[1]
    return tuple(f"{float(t):.{decimals}f}" for t in texts)


@dataclass(frozen=True)
class Board:
    """Items in rank order and a grade per item; ``top`` is the highest grade (1: binary).

    ``unlisted``: relevant items the board does not show (a recommender user's held-out films
    beyond the list). They are judged, so they count in recall, AP and NDCG's ideal
    (:meth:`judged`), and no move can bring them on the board.
    """
    order: tuple[str, ...]
    grades: Mapping[str, int]
    top: int = 1
    label: str = ""
    unlisted: int = 0

    def __post_init__(self):
        object.__setattr__(self, "order", tuple(self.order))
        object.__setattr__(self, "grades", {i: int(self.grades.get(i, 0)) for i in self.order})

    def ranked(self) -> list[int]:
        """The grades in rank order, as irlib's functions take them."""
        return [self.grades[i] for i in self.order]

    def judged_grades(self) -> list[int]:
        """Every judged grade of the board's query, as irlib's ``judged=`` takes them: the
        shown items' and one relevant grade per :attr:`unlisted` item.

        >>> Board(("a", "b"), {"a": 1}, unlisted=2).judged_grades()
        [1, 0, 1, 1]
        """
        return self.ranked() + [1] * self.unlisted

    def moved(self, item: str, rank: int) -> Board:
        """This board with ``item`` dragged to ``rank`` (1 = top)."""
        order = [i for i in self.order if i != item]
        order.insert(rank - 1, item)
        return self.with_state(order, self.grades)

    def judged(self, item: str, grade: int) -> Board:
        """This board with ``item`` given ``grade``."""
        return self.with_state(self.order, {**self.grades, item: grade})

    def with_state(self, order, grades) -> Board:
        """Another order and judgments of the same items."""
        return Board(tuple(order), dict(grades), self.top, self.label, self.unlisted)


def moves_between(before: Board, after: Board) -> int:
    """The fewest drags (take one card, put it anywhere) from one order to the other.

    The cards never dragged keep their relative order, so they are a longest common
    subsequence; here, a longest increasing run of old positions (patience sorting).

    >>> a = Board(("a", "b", "c", "d"), {})
    >>> moves_between(a, a.moved("d", 1)), moves_between(a, Board(("d", "c", "b", "a"), {}))
    (1, 3)
    """
    position = {item: n for n, item in enumerate(before.order)}
    tails: list[int] = []
    for item in after.order:
        p = position[item]
        at = bisect.bisect_left(tails, p)
        tails[at:at + 1] = [p]
    return len(after.order) - len(tails)


def regrades_between(before: Board, after: Board) -> int:
    """How many items were judged differently."""
    return sum(before.grades[i] != after.grades.get(i, 0) for i in before.order)


@dataclass(frozen=True)
class Condition:
    """One part of a task, met or not, as a phrase with its number."""
    ok: bool
    text: str

    @classmethod
    def compare(cls, name: str, value: float, op: str, bound: float) -> Condition:
        """``name`` compared with a bound: ``NDCG@3 = 0.748, above 0.7 as asked``.

        >>> Condition.compare("P@4", 0.25, "=", 0.5).text
        'P@4 = 0.25, not 0.5'
        """
        word, test = _OPS[op]
        ok = test(value, bound)
        wanted = f"{word} {number(bound)}".strip()
        return cls(ok, f"{name} = {number(value)}, {wanted} as asked" if ok and word
                   else f"{name} = {number(value)} as asked" if ok
                   else f"{name} = {number(value)}, not {wanted}")

    @classmethod
    def same(cls, name: str, value: float, before: float) -> Condition:
        """A number that must not change: ``Recall@3 = 0.286, unchanged``."""
        if math.isclose(value, before, abs_tol=1e-12):
            return cls(True, f"{name} = {number(value)}, unchanged")
        return cls(False, f"{name} = {number(value)}, changed from {number(before)}")

    @classmethod
    def moves(cls, n: int, limit: int) -> Condition:
        """The board at most ``limit`` drags from the start: ``1 move from the start (at most 1)``.

        ``n`` is :func:`moves_between` (the fewest drags that make this board), not the drags
        made, so the sentence says so: three drags that end one drag away are one move.

        >>> Condition.moves(2, 1).text
        'the board is 2 moves from the start: it can be done in 1'
        """
        noun = "move" if n == 1 else "moves"
        if n <= limit:
            return cls(True, f"{n} {noun} from the start (at most {limit})")
        return cls(False, f"the board is {n} {noun} from the start: it can be done in {limit}")

    @classmethod
    def kept(cls, what: str, changed: int, unit: str, how: str = "changed") -> Condition:
        """Nothing of ``what`` changed: ``the judgments as given`` / ``2 grades changed …``.

        >>> Condition.kept("the order", 2, "move", "from the start").text
        '2 moves from the start (keep the order as given)'
        """
        if not changed:
            return cls(True, f"{what} as given")
        return cls(False, f"{changed} {unit}{'' if changed == 1 else 's'} {how} "
                          f"(keep {what} as given)")

    @classmethod
    def versus(cls, name: str, value: float, other: float, op: str, label: str,
               other_label: str) -> Condition:
        """One board's number against another's.

        >>> Condition.versus("P@5", 0.6, 0.4, ">", "ranking 2", "ranking 1").text
        'P@5 = 0.6 for ranking 2 and 0.4 for ranking 1: higher as asked'
        """
        word = {">": "higher", "<": "lower"}[op]
        ok = _OPS[op][1](value, other)
        shown, other_shown = number_pair(value, other)
        head = f"{name} = {shown} for {label} and {other_shown} for {other_label}"
        return cls(ok, f"{head}: {word} as asked" if ok else f"{head}: not {word}")

    @classmethod
    def winner(cls, name: str, values, labels, wanted: int) -> Condition:
        """Which board a metric picks (the single best), and whether it is ``wanted`` (0-based).

        >>> Condition.winner("P@2", [1, 0.5, 0], ["ranking 1", "ranking 2", "ranking 3"], 0).text
        'P@2 = 1, 0.5, 0 for ranking 1, 2, 3: it picks ranking 1 as asked'
        """
        # who scores highest, ties shared as everywhere (irlib.stats.claims)
        top = list(claims.leaders(dict(enumerate(values))))
        picked = labels[top[0]] if len(top) == 1 else claims.leaders_named(
            " and ".join(labels[n] for n in top), len(top), len(values))
        head = (f"{name} = {', '.join(number(v) for v in values)} for {labels[0]}, "
                + ", ".join(label.split()[-1] for label in labels[1:]))
        if top == [wanted]:
            return cls(True, f"{head}: it picks {picked} as asked")
        return cls(False, f"{head}: it picks {picked}, not {labels[wanted]}")
