"""Every state one user action away from a ranking: each result moved, each result re-judged.

A state is the grades of the shown results in rank order. One action is either a *move* (the
result at position i is taken out and put back at position j, the others closing up, as
``order.insert(j, order.pop(i))`` on a list) or a *grade change* (the result at position i gets
another grade from a given set of levels). With the neighbours' grades as rows,
:func:`~irlib.batch.curves.metric_curves_batch` scores them all at once, so a front end can show
the numbers of whatever the learner does next without computing a metric itself.

Positions are 0-based, as list indices. Nothing here knows what the results are.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from irlib._common import check_grades

@dataclass(frozen=True)
class Neighbours:
    """The states one action away, one per row, with what the action was.

    Every row reads "the result at ``positions[r]`` goes to ``to_positions[r]`` with grade
    ``new_grades[r]``": a move keeps the grade, a grade change keeps the position.

    Attributes
    ----------
    grades : ndarray of shape (n_neighbours, N)
        Each neighbour's grades in its rank order.
    orders : ndarray of shape (n_neighbours, N)
        ``orders[r, p]`` is the current position of the result shown at position p in neighbour
        r (so ``grades[r] == current[orders[r]]`` for moves; the identity for grade changes).
    kinds : tuple of str
        "move" or "grade" for each row.
    positions, to_positions : ndarray of int, shape (n_neighbours,)
        Where the acted-on result is now, and where it is in the neighbour.
    new_grades : ndarray of float, shape (n_neighbours,)
        The acted-on result's grade in the neighbour.
    """
    grades: np.ndarray
    orders: np.ndarray
    kinds: tuple[str, ...]
    positions: np.ndarray
    to_positions: np.ndarray
    new_grades: np.ndarray

    def __len__(self) -> int:
        return len(self.kinds)

    def keys(self) -> list[str]:
        """A lookup key per row: ``"move:i:j"`` or ``"grade:i:g"`` (g printed as ``%g``)."""
        return [f"move:{i}:{j}" if kind == "move" else f"grade:{i}:{g:g}"
                for kind, i, j, g in zip(self.kinds, self.positions.tolist(),
                                         self.to_positions.tolist(), self.new_grades.tolist())]


@lru_cache(maxsize=16)
def move_orders(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """From-positions, to-positions and resulting orders of all n·(n−1) moves in a list of n.

    Moves come sorted by (from, to). For a move i -> j, position p of the new list holds the
    old position p + 1 when i <= p < j (the results between close up toward i), p − 1 when
    j < p <= i, i itself at p = j, and p everywhere else. Cached per n; read-only.

    Examples
    --------
    >>> from_pos, to_pos, orders = move_orders(3)
    >>> list(zip(from_pos.tolist(), to_pos.tolist(), orders.tolist()))[:3]
    [(0, 1, [1, 0, 2]), (0, 2, [1, 2, 0]), (1, 0, [1, 0, 2])]
    """
    from_pos = np.repeat(np.arange(n), n - 1)[:, None]
    to_pos = np.tile(np.arange(n - 1), n)[:, None]
    to_pos = to_pos + (to_pos >= from_pos)       # skip j == i: that is no move
    p = np.arange(n)[None, :]
    orders = (p + ((from_pos <= p) & (p < to_pos))
              - ((to_pos < p) & (p <= from_pos)))
    orders = np.where(p == to_pos, from_pos, orders)
    for array in (from_pos, to_pos, orders):
        array.flags.writeable = False
    return from_pos.ravel(), to_pos.ravel(), orders


def one_move_neighbours(grades, levels, *, moves=True, grade_changes=True) -> Neighbours:
    """All states one move or one grade change away from ``grades``.

    Rows come in this order: the n·(n−1) moves sorted by (from, to), then the grade changes
    sorted by (position, level), each result set to every level in ``levels`` other than its
    own: n·(len(levels) − 1) rows when every grade is one of the levels (binary levels (0, 1):
    n; graded 0..4: 4·n). Switch either kind off with ``moves`` / ``grade_changes``.

    Parameters
    ----------
    grades : array-like of shape (N,)
        The current grades in rank order.
    levels : array-like
        The grades a result can be given, e.g. ``(0, 1)`` or ``range(5)``.

    Returns
    -------
    Neighbours
        Their grades as one matrix, and what each action was.

    Notes
    -----
    To score the neighbours, pass the result's ``grades`` to
    :func:`~irlib.batch.curves.metric_curves_batch`. Each row is its own judged pool
    (``judged=None``) when the shown results are all judged (the playground), so a grade change
    moves R and the ideal ranking with it. When judged results are also hidden, pass
    ``judged=np.hstack([nb.grades, np.tile(hidden, (len(nb), 1))])``.

    Examples
    --------
    Three results, the first relevant: six moves and three flips.

    >>> nb = one_move_neighbours([1, 0, 0], levels=(0, 1))
    >>> len(nb), nb.keys()[:2], nb.keys()[6:]
    (9, ['move:0:1', 'move:0:2'], ['grade:0:0', 'grade:1:1', 'grade:2:1'])
    >>> nb.grades[1].tolist()           # move:0:2, the relevant result dropped to the bottom
    [0.0, 0.0, 1.0]
    >>> nb.grades[7].tolist()           # grade:1:1, the second result judged relevant
    [1.0, 1.0, 0.0]

    Scored in one call, the keys turn the table into a lookup of "what if":

    >>> from irlib.batch.curves import metric_curves_batch
    >>> rr = metric_curves_batch(nb.grades)["RR"][:, -1].round(3).tolist()
    >>> what_if = dict(zip(nb.keys(), rr))
    >>> what_if["move:0:2"], what_if["grade:0:0"]   # RR after the drag, and after the un-judging
    (0.333, 0.0)
    """
    grades = check_grades(grades)
    levels = check_grades(levels, "levels")
    if len(np.unique(levels)) != len(levels):
        raise ValueError(f"levels must not repeat a grade, got {levels.tolist()}")
    n = len(grades)
    nothing = (np.empty((0, n)), np.empty((0, n), dtype=int), np.empty(0, dtype=int),
               np.empty(0, dtype=int), np.empty(0))
    moved = _moves(grades) if moves else nothing
    changed = _grade_changes(grades, levels) if grade_changes else nothing
    rows, orders, positions, to_positions, new_grades = (
        np.concatenate(pair) for pair in zip(moved, changed))
    return Neighbours(grades=rows, orders=orders,
                      kinds=("move",) * len(moved[2]) + ("grade",) * len(changed[2]),
                      positions=positions, to_positions=to_positions, new_grades=new_grades)


def _moves(grades: np.ndarray):
    from_pos, to_pos, orders = move_orders(len(grades))
    return grades[orders], orders, from_pos, to_pos, grades[from_pos]


def _grade_changes(grades: np.ndarray, levels: np.ndarray):
    positions, level_index = np.nonzero(grades[:, None] != levels[None, :])
    new_grades = levels[level_index]
    rows = np.tile(grades, (len(positions), 1))
    rows[np.arange(len(positions)), positions] = new_grades
    orders = np.broadcast_to(np.arange(len(grades)), rows.shape)
    return rows, orders, positions, positions, new_grades
