r"""Interleaving: one list made of two rankings, and each user's clicks as a vote.

An A/B test shows each user one ranking and compares two groups. Interleaving shows every
user one list that mixes both, and credits each click to the ranking that contributed the
clicked result; a user whose clicks favour one ranking is a vote for it, and a sign test over
the votes decides (Radlinski, Kurup & Joachims, 2008; Chapelle et al., 2012).

* **Team draft**: like captains picking teams, a coin decides who picks first in each round;
  each ranking adds its best result not yet in the list, and the result plays for that team.
  A click counts for the team of the clicked result.
* **Balanced** (Joachims, 2002): one coin decides who starts, then the two rankings take turns
  down their own lists. Credit: with :math:`k` the smaller of the two rankings' ranks of the
  lowest clicked result, the ranking with more clicked results in its own top :math:`k` wins.

:func:`outcomes` enumerates every list a method can show, with its chance, so
:func:`vote_probabilities` is exact: the chance that a user votes for A, for B, or neither.
Under clicks that ignore the results (each rank clicked with the same chance, whatever sits
there) team draft gives each ranking the same chance to win; balanced interleaving does not
always (:func:`vote_probabilities` with ``random_clicks``).
"""
from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from irlib.online.clicks import click_probabilities, simulate_clicks

METHODS = ("team_draft", "balanced")
METHOD_NAMES = {"team_draft": "team draft", "balanced": "balanced"}
MAX_EXACT = 12        # position-based votes enumerate 2^n click patterns


def _check(a: Sequence, b: Sequence) -> tuple[list, list]:
    a, b = list(a), list(b)
    if not a or len(set(a)) != len(a) or len(set(b)) != len(b) or set(a) != set(b):
        raise ValueError("the two rankings must order the same results, each once")
    return a, b


def team_draft(a: Sequence, b: Sequence, rng: np.random.Generator | int = 0
               ) -> tuple[list, list[str]]:
    """One team-draft interleaving of rankings ``a`` and ``b``: (the list, each result's team).

    Examples
    --------
    >>> shown, teams = team_draft(["x", "y", "z"], ["y", "z", "x"], rng=3)
    >>> sorted(shown), len(teams)
    (['x', 'y', 'z'], 3)
    """
    a, b = _check(a, b)
    return _team_draft(a, b, np.random.default_rng(rng).integers(0, 2, size=len(a)))


def _team_draft(a: list, b: list, coins: Sequence[int]) -> tuple[list, list[str]]:
    shown, teams, placed = [], [], set()
    count = {"A": 0, "B": 0}
    flips = iter(coins)
    while len(shown) < len(a):
        if count["A"] < count["B"] or (count["A"] == count["B"] and next(flips) == 0):
            team, source = "A", a
        else:
            team, source = "B", b
        doc = next(d for d in source if d not in placed)
        shown.append(doc)
        teams.append(team)
        placed.add(doc)
        count[team] += 1
    return shown, teams


def _balanced(a: list, b: list, a_first: bool) -> list:
    shown, placed, ka, kb = [], set(), 0, 0
    while len(shown) < len(a):
        if ka < kb or (ka == kb and a_first):
            doc = a[ka]
            ka += 1
        else:
            doc = b[kb]
            kb += 1
        if doc not in placed:
            shown.append(doc)
            placed.add(doc)
    return shown


@dataclass(frozen=True)
class Shown:
    """One list a method can show, its chance, and each result's team (team draft only)."""
    results: tuple
    chance: float
    teams: tuple[str, ...] | None = None


def outcomes(a: Sequence, b: Sequence, method: str = "team_draft") -> list[Shown]:
    """Every list ``method`` can show for rankings ``a`` and ``b``, with its chance.

    Team draft flips a coin in every round in which the teams are level (once per two
    results), so :math:`2^{\\lceil n/2 \\rceil}` coin sequences, each as likely.

    Examples
    --------
    >>> [(s.results, s.teams) for s in outcomes("xy", "yx")]
    [(('x', 'y'), ('A', 'B')), (('y', 'x'), ('B', 'A'))]
    >>> [s.results for s in outcomes("xyz", "yxz", "balanced")]
    [('x', 'y', 'z'), ('y', 'x', 'z')]
    """
    a, b = _check(a, b)
    if method == "team_draft":
        rounds = (len(a) + 1) // 2
        found = []
        for coins in itertools.product((0, 1), repeat=rounds):
            shown, teams = _team_draft(a, b, coins)
            found.append(Shown(tuple(shown), 0.5 ** rounds, tuple(teams)))
        return found
    if method == "balanced":
        return [Shown(tuple(_balanced(a, b, first)), 0.5) for first in (True, False)]
    raise ValueError(f"method must be one of {METHODS}, got {method!r}")


def credit(shown: Shown, clicks: np.ndarray, a: Sequence, b: Sequence) -> np.ndarray:
    """Each click pattern's vote: +1 for A, −1 for B, 0 for neither.

    ``clicks`` is a ``(patterns, n)`` array of bools over ``shown.results``.

    Examples
    --------
    >>> s = Shown(("x", "y"), 1.0, ("A", "B"))
    >>> credit(s, np.array([[1, 0], [0, 1], [1, 1], [0, 0]], bool), "xy", "yx").tolist()
    [1, -1, 0, 0]
    """
    clicks = np.asarray(clicks, dtype=bool)
    if shown.teams is not None:
        team_a = np.array([t == "A" for t in shown.teams])
        return np.sign(clicks[:, team_a].sum(axis=1) - clicks[:, ~team_a].sum(axis=1))
    rank_a = {d: i for i, d in enumerate(a)}
    rank_b = {d: i for i, d in enumerate(b)}
    in_a = np.array([[rank_a[d] < k for d in shown.results] for k in range(1, len(a) + 1)])
    in_b = np.array([[rank_b[d] < k for d in shown.results] for k in range(1, len(a) + 1)])
    votes = np.zeros(len(clicks), dtype=int)
    for row, pattern in enumerate(clicks):
        if not pattern.any():
            continue
        lowest = shown.results[int(np.flatnonzero(pattern)[-1])]
        k = min(rank_a[lowest], rank_b[lowest])          # top k + 1 of each ranking
        votes[row] = np.sign(int((pattern & in_a[k]).sum()) - int((pattern & in_b[k]).sum()))
    return votes


def _patterns(probs: np.ndarray, model: str) -> tuple[np.ndarray, np.ndarray]:
    """Every click pattern on one list with its chance: one click or none for a cascade
    user, any subset for a position-based one (independent clicks)."""
    n = len(probs)
    if model == "cascade":
        patterns = np.vstack([np.eye(n, dtype=bool), np.zeros((1, n), dtype=bool)])
        return patterns, np.append(probs, max(0.0, 1 - probs.sum()))
    if n > MAX_EXACT:
        raise ValueError(f"exact position-based votes need at most {MAX_EXACT} results")
    patterns = np.array(list(itertools.product((False, True), repeat=n)))
    return patterns, np.where(patterns, probs, 1 - probs).prod(axis=1)


@dataclass(frozen=True)
class Votes:
    """The chance that one interleaved user votes for A, for B, or for neither."""
    a: float
    b: float

    @property
    def neither(self) -> float:
        return max(0.0, 1 - self.a - self.b)

    @property
    def edge(self) -> float:
        """A's votes minus B's, per user: the mean a sign test looks at."""
        return self.a - self.b


def vote_probabilities(a: Sequence, b: Sequence, attract: Mapping | None, *,
                       method: str = "team_draft", model: str = "cascade",
                       bias: float = 1.0, patience: float = 1.0,
                       random_clicks: float | None = None) -> Votes:
    """Exact chances of a vote for A and for B, over every list and click pattern.

    ``attract`` maps each result to its attractiveness; ``random_clicks`` instead clicks
    every rank independently with that chance, whatever sits there (the fairness check).

    Examples
    --------
    Clicks that ignore the results: team draft favours neither ranking.

    >>> v = vote_probabilities("abcd", "dcba", None, random_clicks=0.3)
    >>> round(v.a, 12) == round(v.b, 12)
    True

    A cascade user on two rankings that differ at the top:

    >>> v = vote_probabilities("xy", "yx", {"x": 0.8, "y": 0.2})
    >>> round(v.a, 2), round(v.b, 2)
    (0.72, 0.12)
    """
    votes_a = votes_b = 0.0
    for shown in outcomes(a, b, method):
        n = len(shown.results)
        if random_clicks is not None:
            patterns, chance = _patterns(np.full(n, float(random_clicks)), "position")
        else:
            attract_list = np.array([attract[d] for d in shown.results], dtype=float)
            probs = click_probabilities(attract_list, model, bias=bias, patience=patience)
            patterns, chance = _patterns(probs, model)
        votes = credit(shown, patterns, a, b)
        votes_a += shown.chance * float(chance[votes > 0].sum())
        votes_b += shown.chance * float(chance[votes < 0].sum())
    return Votes(votes_a, votes_b)


def simulate_votes(a: Sequence, b: Sequence, attract: Mapping, users: int, *,
                   method: str = "team_draft", model: str = "cascade", bias: float = 1.0,
                   patience: float = 1.0, rng: np.random.Generator | int = 0) -> np.ndarray:
    """Each simulated user's vote (+1 A, −1 B, 0): an interleaved list drawn by its chance,
    then the user's clicks drawn by the click model, step by step.

    Examples
    --------
    >>> votes = simulate_votes("xy", "yx", {"x": 0.8, "y": 0.2}, 20_000, rng=2)
    >>> round(float((votes > 0).mean()), 2), round(float((votes < 0).mean()), 2)
    (0.72, 0.12)
    """
    rng = np.random.default_rng(rng)
    lists = outcomes(a, b, method)
    which = rng.choice(len(lists), size=users, p=[s.chance for s in lists])
    votes = np.zeros(users, dtype=int)
    for index, shown in enumerate(lists):
        chosen = np.flatnonzero(which == index)
        if not len(chosen):
            continue
        attract_list = [attract[d] for d in shown.results]
        clicks = simulate_clicks(attract_list, len(chosen), model, bias=bias,
                                 patience=patience, rng=rng)
        votes[chosen] = credit(shown, clicks, a, b)
    return votes


__all__ = ["METHODS", "METHOD_NAMES", "Shown", "Votes", "team_draft", "outcomes", "credit",
           "vote_probabilities", "simulate_votes"]
