r"""Two rankings, offline and online: one result that holds every number the lesson shows,
and the sentences said from it.

:func:`compare_online` scores two orders of the same judged results offline (NDCG over the
whole list) and simulates them online under one click model: each ranking's click-through,
each rank's clicks, an A/B test's and an interleaving's users for 80 % power (closed form,
then checked by seeded experiments at that size), and what a fixed number of users would
conclude. :func:`online_claims` turns that result into sentences; the page writes none.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from irlib.measures.dcg import ndcg_at_k
from irlib.online.clicks import (any_click_probability, attractiveness, click_probabilities,
                                 simulate_clicks)
from irlib.online.experiments import (POWER, Outcomes, ab_users_needed,
                                      interleaving_users_needed, simulate_experiments)
from irlib.online.interleaving import METHOD_NAMES, Votes, vote_probabilities
from irlib.stats.verdict import format_number


@dataclass(frozen=True)
class Setting:
    """The simulated users: click model, noise, position bias, patience; and the seed."""
    model: str = "cascade"
    noise: float = 0.1
    bias: float = 1.0
    patience: float = 0.9
    method: str = "team_draft"
    seed: int = 0


@dataclass(frozen=True)
class OnlineComparison:
    """Rankings A and B (orders of the same results) offline and online."""
    ndcg_a: float
    ndcg_b: float
    ctr_a: float                  # chance that a user clicks anything (closed form)
    ctr_b: float
    clicks_a: np.ndarray          # chance of a click at each rank
    clicks_b: np.ndarray
    votes: Votes                  # an interleaved user's vote
    ab_needed: int | None         # users in all, 80 % power (closed form)
    interleaving_needed: int | None
    ab_at_needed: Outcomes | None         # the experiments run at that size
    interleaving_at_needed: Outcomes | None
    users: int                    # the budget the page asks about
    ab_at_users: Outcomes
    interleaving_at_users: Outcomes
    setting: Setting

    @property
    def ndcg_difference(self) -> float:
        return self.ndcg_b - self.ndcg_a


def compare_online(order_a: Sequence, order_b: Sequence, grades: Mapping, top_grade: int, *,
                   setting: Setting = Setting(), users: int = 1000,
                   experiments: int = 600) -> OnlineComparison:
    """Score ``order_a`` and ``order_b`` (result ids, rank 1 first) offline and online.

    Examples
    --------
    The graded cats' order against the same order with its first two swapped:

    >>> g = {"x": 0, "y": 3, "z": 1}
    >>> r = compare_online(["x", "y", "z"], ["y", "x", "z"], g, 3, users=500, experiments=200)
    >>> round(r.ndcg_difference, 2), r.ctr_b > r.ctr_a, r.votes.b > r.votes.a
    (0.3, True, True)
    >>> r.interleaving_needed < r.ab_needed
    True
    """
    s = setting
    attract = dict(zip(grades, attractiveness(list(grades.values()), top_grade, s.noise)))
    kw = {"bias": s.bias, "patience": s.patience}
    a_list = [attract[d] for d in order_a]
    b_list = [attract[d] for d in order_b]
    ctr_a = any_click_probability(a_list, s.model, **kw)
    ctr_b = any_click_probability(b_list, s.model, **kw)
    votes = vote_probabilities(order_a, order_b, attract, method=s.method, model=s.model, **kw)
    ab_n = ab_users_needed(ctr_a, ctr_b)
    il_n = interleaving_users_needed(votes.a, votes.b)

    def run(kind: str, n: int | None, salt: int) -> Outcomes | None:
        if n is None:
            return None
        rate_a, rate_b = (ctr_a, ctr_b) if kind == "ab" else (votes.a, votes.b)
        return simulate_experiments(kind, max(int(n), 2), rate_a=rate_a, rate_b=rate_b,
                                    experiments=experiments, rng=[s.seed, salt])

    n = len(order_a)
    return OnlineComparison(
        ndcg_a=ndcg_at_k([grades[d] for d in order_a], n),
        ndcg_b=ndcg_at_k([grades[d] for d in order_b], n),
        ctr_a=ctr_a, ctr_b=ctr_b,
        clicks_a=click_probabilities(a_list, s.model, **kw),
        clicks_b=click_probabilities(b_list, s.model, **kw),
        votes=votes, ab_needed=ab_n, interleaving_needed=il_n,
        ab_at_needed=run("ab", ab_n, 1), interleaving_at_needed=run("interleaving", il_n, 2),
        users=users, ab_at_users=run("ab", users, 3),
        interleaving_at_users=run("interleaving", users, 4), setting=s)


def simulate_one_day(order: Sequence, grades: Mapping, top_grade: int, users: int, *,
                     setting: Setting = Setting(), salt: int = 0) -> np.ndarray:
    """``users`` users' clicks on one ranking (a ``(users, n)`` bool array), drawn step by
    step by the click model: the data a search log would hold.

    >>> simulate_one_day(["x", "y"], {"x": 1, "y": 0}, 1, 3).shape
    (3, 2)
    """
    s = setting
    attract = attractiveness([grades[d] for d in order], top_grade, s.noise)
    return simulate_clicks(attract, users, s.model, bias=s.bias, patience=s.patience,
                           rng=[s.seed, 10 + salt])


def _users(n: int | None) -> str:
    return "no number of users" if n is None else f"about {n:,} users"


def _percent(x: float) -> str:
    return f"{100 * x:.0f} %"


def online_claims(r: OnlineComparison, name_a: str = "A", name_b: str = "B",
                  measure: str = "NDCG") -> dict[str, str]:
    """The lesson's sentences, each from a number of ``r``: ``offline``, ``ab``,
    ``interleaving``, ``budget`` and ``stakeholder`` (for the product team).

    Examples
    --------
    >>> g = {"x": 0, "y": 3, "z": 1}
    >>> r = compare_online(["x", "y", "z"], ["y", "x", "z"], g, 3, users=500, experiments=200)
    >>> online_claims(r)["offline"]
    'Offline, B scores 0.3 NDCG above A (0.96 against 0.66).'
    """
    d = r.ndcg_difference
    if abs(d) < 1e-9:
        offline = f"Offline, {name_a} and {name_b} score the same {measure} " \
                  f"({format_number(r.ndcg_a)})."
    else:
        hi, lo = (name_b, name_a) if d > 0 else (name_a, name_b)
        offline = (f"Offline, {hi} scores {format_number(abs(d))} {measure} above {lo} "
                   f"({format_number(max(r.ndcg_a, r.ndcg_b))} against "
                   f"{format_number(min(r.ndcg_a, r.ndcg_b))}).")
    ab_better = name_b if r.ctr_b > r.ctr_a else name_a
    ab = (f"Simulated users click through on {_percent(r.ctr_a)} of {name_a}'s searches and "
          f"{_percent(r.ctr_b)} of {name_b}'s; an A/B test on that rate needs "
          f"{_users(r.ab_needed)} (both groups) to find the difference 80 % of the time")
    ab += "." if r.ab_needed is None else f", in favour of {ab_better}."
    if r.ab_at_needed is not None:
        ab += (f" Run {r.ab_at_needed.experiments:,} times at that size, it found it "
               f"{_percent(r.ab_at_needed.found)} of the time.")
    method = METHOD_NAMES[r.setting.method]
    il_better = name_a if r.votes.a > r.votes.b else name_b
    il = (f"Interleaved ({method}), {_percent(r.votes.a)} of users' clicks favour "
          f"{name_a} and {_percent(r.votes.b)} favour {name_b}; a sign test needs "
          f"{_users(r.interleaving_needed)} to find the preference 80 % of the time")
    il += "." if r.interleaving_needed is None else f", in favour of {il_better}."
    if r.interleaving_at_needed is not None:
        il += (f" Run {r.interleaving_at_needed.experiments:,} times at that size, it found "
               f"it {_percent(r.interleaving_at_needed.found)} of the time.")
    ab_u, il_u = r.ab_at_users, r.interleaving_at_users
    budget = (f"With {r.users:,} users, the A/B test finds the difference in "
              f"{_percent(ab_u.found)} of experiments and its result points the wrong way in "
              f"{_percent(ab_u.wrong_way)}; interleaving finds it in {_percent(il_u.found)} "
              f"and points the wrong way in {_percent(il_u.wrong_way)}.")
    if r.ab_needed is None or r.interleaving_needed is None or abs(d) < 1e-9:
        stakeholder = (f"In this simulation the two rankings do not differ online in a way "
                       f"these users show: no experiment size would find a difference.")
        if abs(d) >= 1e-9:
            stakeholder = (f"A {measure} difference of {format_number(abs(d))} does not "
                           f"change what these simulated users click: "
                           f"{_users(r.ab_needed)} would show it in an A/B test.")
    else:
        ratio = r.ab_needed / r.interleaving_needed
        stakeholder = (f"A {measure} gain of {format_number(abs(d))} on this query shows up "
                       f"online as a click-through change of "
                       f"{100 * abs(r.ctr_b - r.ctr_a):.1f} points: an A/B test would need "
                       f"{_users(r.ab_needed)} to see it 80 % of the time, an interleaving "
                       f"{_users(r.interleaving_needed)} ({ratio:,.0f}× fewer). This is a "
                       f"simulation of one query under one user model, not a forecast.")
        if abs(r.ctr_b - r.ctr_a) * 100 < 0.05:
            stakeholder = stakeholder.replace(
                f"{100 * abs(r.ctr_b - r.ctr_a):.1f} points",
                f"{100 * abs(r.ctr_b - r.ctr_a):.2g} points")
    return {"offline": offline, "ab": ab, "interleaving": il, "budget": budget,
            "stakeholder": stakeholder}


__all__ = ["POWER", "Setting", "OnlineComparison", "compare_online", "simulate_one_day",
           "online_claims"]
