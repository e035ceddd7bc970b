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
    touched: float = 1.0          # share of searches whose ranking the change alters


@dataclass(frozen=True)
class OnlineComparison:
    """Rankings A and B (orders of the same results) offline and online."""
    ndcg_a: float
    ndcg_b: float
    ctr_a: float                  # chance that a user clicks anything (closed form)
    ctr_b: float                  # ... on a search the change touches
    traffic_ctr_a: float          # ... over all searches (untouched ones behave as A)
    traffic_ctr_b: float
    clicks_a: np.ndarray          # chance of a click at each rank
    clicks_b: np.ndarray
    votes: Votes                  # an interleaved user's vote, over all searches
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
        """B's NDCG minus A's on a search the change touches."""
        return self.ndcg_b - self.ndcg_a

    @property
    def mean_ndcg_difference(self) -> float:
        """The same over all searches: the untouched ones differ by nothing."""
        return self.setting.touched * self.ndcg_difference


def compare_online(order_a: Sequence, order_b: Sequence, grades: Mapping, top_grade: int, *,
                   setting: Setting = Setting(), users: int = 1000,
                   experiments: int = 600) -> OnlineComparison:
    """Score ``order_a`` and ``order_b`` (result ids, rank 1 first) offline and online.

    A change rarely alters every search: with ``setting.touched`` = :math:`f`, a share
    :math:`1 - f` of the users see A's list under both arms (click-through
    :math:`p_A`, and under interleaving two identical lists, whose votes are noise), so the
    A/B test compares :math:`p_A` with :math:`(1-f)p_A + f p_B` and the votes mix alike.

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
    f = float(s.touched)
    if not 0 < f <= 1:
        raise ValueError(f"touched must be above 0 and at most 1, got {s.touched!r}")
    votes = vote_probabilities(order_a, order_b, attract, method=s.method, model=s.model, **kw)
    if f < 1:
        same = vote_probabilities(order_a, order_a, attract, method=s.method, model=s.model,
                                  **kw)
        votes = Votes(f * votes.a + (1 - f) * same.a, f * votes.b + (1 - f) * same.b)
    traffic_b = f * ctr_b + (1 - f) * ctr_a
    ab_n = ab_users_needed(ctr_a, traffic_b)
    il_n = interleaving_users_needed(votes.a, votes.b)

    def run(kind: str, n: int | None, salt: int) -> Outcomes | None:
        if n is None:
            return None
        rate_a, rate_b = (ctr_a, traffic_b) if kind == "ab" else (votes.a, votes.b)
        return simulate_experiments(kind, max(int(n), 2), rate_a=rate_a, rate_b=rate_b,
                                    experiments=experiments, rng=[s.seed, salt])

    n = len(order_a)
    return OnlineComparison(
        ndcg_a=ndcg_at_k([grades[d] for d in order_a], n),
        ndcg_b=ndcg_at_k([grades[d] for d in order_b], n),
        ctr_a=ctr_a, ctr_b=ctr_b, traffic_ctr_a=ctr_a, traffic_ctr_b=traffic_b,
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


def percent_text(x: float) -> str:
    """A share as the sentences print it, and the lesson's tables beside them: '32 %'."""
    return f"{100 * x:.0f} %"


def _points(x: float) -> str:
    """A click-through change in percentage points, with the digits it needs."""
    return f"{format_number(100 * abs(x))} points"


def _offline(r: OnlineComparison, name_a: str, name_b: str, measure: str) -> str:
    d = r.ndcg_difference
    if abs(d) < 1e-9:
        return (f"Offline, {name_a} and {name_b} have the same {measure} "
                f"({format_number(r.ndcg_a)}).")
    hi, lo = (name_b, name_a) if d > 0 else (name_a, name_b)
    return (f"Offline, {hi} scores {format_number(abs(d))} {measure} above {lo} "
            f"({format_number(max(r.ndcg_a, r.ndcg_b))} against "
            f"{format_number(min(r.ndcg_a, r.ndcg_b))}).")


def _checked(o: Outcomes | None) -> str:
    if o is None:
        return ""
    return (f" Run {o.experiments:,} times at that size, it found it "
            f"{percent_text(o.found)} of the time.")


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
    s = r.setting
    share = "" if s.touched == 1 else f" (the change touches {percent_text(s.touched)} of searches)"
    if r.ab_needed is None:
        ab = (f"Simulated users click through on {percent_text(r.ctr_a)} of the searches shown "
              f"{name_a} and as many of those shown {name_b}: no A/B test on that rate can "
              f"tell them apart.")
    else:
        ab_side = name_b if r.traffic_ctr_b > r.traffic_ctr_a else name_a
        # with part of the traffic touched, the rates of the touched searches and of all
        # searches are two scales: say which one the test needs users for
        rates = (f"{percent_text(r.ctr_a)} of the searches shown {name_a} and "
                 f"{percent_text(r.ctr_b)} of those shown {name_b}")
        ab = ((f"Simulated users click through on {rates}; an A/B test on that rate"
               if s.touched == 1 else
               f"On the {percent_text(s.touched)} of searches the change touches, simulated users "
               f"click through on {rates}; over all searches that is "
               f"{percent_text(r.traffic_ctr_a)} against {percent_text(r.traffic_ctr_b)}, and "
               f"an A/B test on this overall rate")
              + f" needs {_users(r.ab_needed)} (both groups) to find the difference 80 % of "
              f"the time, in favour of {ab_side}." + _checked(r.ab_at_needed))
    method = METHOD_NAMES[s.method]
    if r.interleaving_needed is None:
        il = (f"Interleaved ({method}), the users' clicks favour {name_a} and {name_b} "
              f"equally often ({percent_text(r.votes.a)} each): no number of users tells them "
              f"apart.")
    else:
        il_side = name_a if r.votes.a > r.votes.b else name_b
        il = (f"Interleaved ({method}), {percent_text(r.votes.a)} of users' clicks favour "
              f"{name_a} and {percent_text(r.votes.b)} favour {name_b}{share}; a sign test needs "
              f"{_users(r.interleaving_needed)} to find the preference 80 % of the time, in "
              f"favour of {il_side}." + _checked(r.interleaving_at_needed))
    ab_u, il_u = r.ab_at_users, r.interleaving_at_users
    budget = (f"With {r.users:,} users, the A/B test finds the difference in "
              f"{percent_text(ab_u.found)} of {ab_u.experiments:,} simulated experiments and "
              f"points the wrong way in {percent_text(ab_u.wrong_way)} (the worse ranking ahead, "
              f"found or not); interleaving finds it in {percent_text(il_u.found)} and points the "
              f"wrong way in {percent_text(il_u.wrong_way)}.")
    d = r.ndcg_difference
    if abs(d) < 1e-9:
        stakeholder = ("The two rankings have the same offline score here; in this simulation "
                       "no experiment size would find a difference worth shipping for.")
    elif r.ab_needed is None or r.interleaving_needed is None:
        stakeholder = (f"A {measure} difference of {format_number(abs(d))} does not change "
                       f"what these simulated users click: no experiment would see it.")
    else:
        offline_side = name_b if d > 0 else name_a
        online_side = name_b if r.traffic_ctr_b > r.traffic_ctr_a else name_a
        gain = (f"an offline gain of {format_number(abs(r.mean_ndcg_difference))} {measure} "
                f"on average for {offline_side} ({format_number(abs(d))} on the "
                f"{percent_text(s.touched)} of searches the change touches)"
                if s.touched < 1 else
                f"an offline gain of {format_number(abs(d))} {measure} for {offline_side}")
        ratio = r.ab_needed / r.interleaving_needed
        fewer = (f"{ratio:,.0f}× fewer" if ratio >= 1.5 else
                 f"{1 / ratio:,.1f}× more" if ratio < 1 / 1.5 else "about as many")
        stakeholder = (
            f"In this simulation, {gain} moves overall click-through by "
            f"{_points(r.traffic_ctr_b - r.traffic_ctr_a)}"
            + ("" if online_side == offline_side else
               f", the other way: towards {online_side}")
            + f". An A/B test needs {_users(r.ab_needed)} to see it 80 % of the time; an "
            f"interleaving {_users(r.interleaving_needed)} ({fewer}). With {r.users:,} users "
            f"the A/B test puts the worse ranking ahead {percent_text(ab_u.wrong_way)} of the "
            f"time (significant or not). One "
            f"query, one user model: a reason to size an experiment, not a forecast.")
    return {"offline": _offline(r, name_a, name_b, measure), "ab": ab, "interleaving": il,
            "budget": budget, "stakeholder": stakeholder}


def position_bias_claim(order: Sequence, grades: Mapping, clicks: Sequence[float],
                        titles: Mapping | None = None) -> str | None:
    """One sentence that shows clicks are a biased judgment, or None when this ranking's
    clicks follow its grades: the pair of results whose clicks most reverse their grades.

    Examples
    --------
    >>> position_bias_claim(["x", "y"], {"x": 0, "y": 2}, [0.3, 0.1])
    'x (grade 0) at rank 1 is clicked on 30 % of searches, y (grade 2) at rank 2 on only 10 %: read as judgments, clicks would rank them the other way round.'
    >>> position_bias_claim(["y", "x"], {"x": 0, "y": 2}, [0.6, 0.1]) is None
    True
    """
    titles = titles or {}
    best, gap = None, 0.0
    for i, low in enumerate(order):
        for j, high in enumerate(order):
            if grades[low] < grades[high] and clicks[i] - clicks[j] > gap + 1e-12:
                best, gap = (i, j), clicks[i] - clicks[j]
    if best is None:
        return None
    i, j = best
    low, high = order[i], order[j]
    return (f"{titles.get(low, low)} (grade {grades[low]}) at rank {i + 1} is clicked on "
            f"{percent_text(clicks[i])} of searches, {titles.get(high, high)} (grade "
            f"{grades[high]}) at rank {j + 1} on only {percent_text(clicks[j])}: read as "
            f"judgments, clicks would rank them the other way round.")


__all__ = ["POWER", "position_bias_claim", "Setting", "OnlineComparison", "compare_online", "simulate_one_day",
           "online_claims"]
