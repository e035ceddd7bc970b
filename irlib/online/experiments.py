r"""Online experiments: an A/B test and an interleaving, their tests, and the users they need.

**A/B test.** Half the users see ranking A, half see B; a user *clicks through* when they
click anything. With click-through rates :math:`p_A, p_B` and :math:`m` users per arm, the
two-proportion z-test (pooled) finds the difference with power :math:`1-\beta` at level
:math:`\alpha` once

.. math:: m = \frac{\big(z_{1-\alpha/2}\sqrt{2\bar p(1-\bar p)} +
          z_{1-\beta}\sqrt{p_A(1-p_A) + p_B(1-p_B)}\big)^2}{(p_A - p_B)^2}.

**Interleaving.** Every user sees both rankings mixed and votes for A with chance
:math:`v_A`, for B with :math:`v_B` (:func:`irlib.online.interleaving.vote_probabilities`).
A user's score :math:`s \in \{+1, -1, 0\}` has mean :math:`\mu = v_A - v_B` and variance
:math:`\sigma^2 = v_A + v_B - \mu^2`; the sign test over the votes needs about

.. math:: n = \frac{\big(z_{1-\alpha/2}\sqrt{v_A + v_B} + z_{1-\beta}\,\sigma\big)^2}{\mu^2}

users. Both formulas are normal approximations; :func:`simulate_experiments` runs the
experiments themselves (seeded) and counts how often each finds the difference and how often
it points to the wrong ranking.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

ALPHA, POWER = 0.05, 0.8


def _z(q: float) -> float:
    return float(stats.norm.ppf(q))


def ab_users_needed(p_a: float, p_b: float, *, power: float = POWER,
                    alpha: float = ALPHA) -> int | None:
    """Users an A/B test needs in all (both arms) to find ``p_a`` ≠ ``p_b`` with ``power``.

    None when the two rates are equal: no number of users finds a difference that is not
    there.

    Examples
    --------
    Click-through 50 % against 55 %: some 1,560 users per arm (Fleiss' table: 1,565).

    >>> ab_users_needed(0.50, 0.55)
    3130
    >>> ab_users_needed(0.3, 0.3) is None
    True
    """
    if not (0 <= p_a <= 1 and 0 <= p_b <= 1):
        raise ValueError(f"rates must be between 0 and 1, got {p_a!r}, {p_b!r}")
    if math.isclose(p_a, p_b, abs_tol=1e-12):
        return None
    mean = (p_a + p_b) / 2
    top = (_z(1 - alpha / 2) * math.sqrt(2 * mean * (1 - mean))
           + _z(power) * math.sqrt(p_a * (1 - p_a) + p_b * (1 - p_b)))
    return 2 * math.ceil(top ** 2 / (p_a - p_b) ** 2)


def interleaving_users_needed(vote_a: float, vote_b: float, *, power: float = POWER,
                              alpha: float = ALPHA) -> int | None:
    """Users an interleaving needs to find a preference with ``power`` (sign test).

    Examples
    --------
    Six users in ten vote A, four B: a sign test needs about 194.

    >>> interleaving_users_needed(0.6, 0.4)
    194
    >>> interleaving_users_needed(0.2, 0.2) is None
    True
    """
    mu = vote_a - vote_b
    if math.isclose(mu, 0, abs_tol=1e-12):
        return None
    sigma = math.sqrt(max(vote_a + vote_b - mu ** 2, 0.0))
    top = _z(1 - alpha / 2) * math.sqrt(vote_a + vote_b) + _z(power) * sigma
    return math.ceil(top ** 2 / mu ** 2)


def ab_test(clicked_a: int, users_a: int, clicked_b: int, users_b: int) -> float:
    """Two-sided p-value of the pooled two-proportion z-test (1 when nothing can differ).

    >>> round(ab_test(550, 1000, 500, 1000), 3)
    0.025
    """
    pooled = (clicked_a + clicked_b) / (users_a + users_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / users_a + 1 / users_b))
    if se == 0:
        return 1.0
    z = (clicked_a / users_a - clicked_b / users_b) / se
    return float(2 * stats.norm.sf(abs(z)))


def sign_test(votes_a, votes_b) -> np.ndarray | float:
    """Exact two-sided sign test (binomial, chance 1/2) on the users who voted.

    >>> round(sign_test(60, 40), 3)
    0.057
    >>> sign_test(0, 0)
    1.0
    """
    wins, losses = np.asarray(votes_a), np.asarray(votes_b)
    p = np.minimum(1.0, 2 * stats.binom.cdf(np.minimum(wins, losses), wins + losses, 0.5))
    return float(p) if p.ndim == 0 else p


@dataclass(frozen=True)
class Outcomes:
    """Out of many simulated experiments of ``users`` users each: the share that found the
    difference in the right direction (p < 0.05), and the share whose result pointed to the
    worse ranking (its observed difference the wrong way round, whatever its p-value)."""
    users: int
    experiments: int
    found: float
    wrong_way: float


def simulate_experiments(kind: str, users: int, *, rate_a: float, rate_b: float,
                         experiments: int = 1000, alpha: float = ALPHA,
                         rng: np.random.Generator | int = 0) -> Outcomes:
    """Run ``experiments`` experiments of ``users`` users and count what they conclude.

    ``kind="ab"``: the users split in two halves, ``rate_a``/``rate_b`` each arm's
    click-through, the z-test. ``kind="interleaving"``: every user votes A with chance
    ``rate_a``, B with ``rate_b``, the sign test. The better ranking is the one with the
    higher rate; with equal rates nothing is right and ``found`` counts false alarms.

    Examples
    --------
    At the users :func:`ab_users_needed` asks for, about 80 % of experiments find it:

    >>> n = ab_users_needed(0.50, 0.55)
    >>> o = simulate_experiments("ab", n, rate_a=0.50, rate_b=0.55, rng=4)
    >>> 0.77 < o.found < 0.83, o.wrong_way < 0.01
    (True, True)
    """
    rng = np.random.default_rng(rng)
    if users < 2 or experiments < 1:
        raise ValueError(f"need at least 2 users and 1 experiment, got {users!r}, {experiments!r}")
    better = 1 if rate_a > rate_b else -1 if rate_b > rate_a else 0
    if kind == "ab":
        half_a, half_b = users // 2, users - users // 2
        got_a = rng.binomial(half_a, rate_a, experiments)
        got_b = rng.binomial(half_b, rate_b, experiments)
        diff = got_a / half_a - got_b / half_b
        pooled = (got_a + got_b) / users
        se = np.sqrt(pooled * (1 - pooled) * (1 / half_a + 1 / half_b))
        with np.errstate(divide="ignore", invalid="ignore"):
            p = np.where(se > 0, 2 * stats.norm.sf(np.abs(diff) / np.where(se > 0, se, 1)), 1.0)
    elif kind == "interleaving":
        drawn = rng.multinomial(users, [rate_a, rate_b, max(0.0, 1 - rate_a - rate_b)],
                                size=experiments)
        diff = (drawn[:, 0] - drawn[:, 1]).astype(float)
        p = sign_test(drawn[:, 0], drawn[:, 1])
    else:
        raise ValueError(f"kind must be 'ab' or 'interleaving', got {kind!r}")
    direction = np.sign(diff)
    significant = np.asarray(p) < alpha
    if better == 0:
        found = float(significant.mean())
        wrong = 0.0
    else:
        found = float((significant & (direction == better)).mean())
        wrong = float((direction == -better).mean())
    return Outcomes(users, experiments, found, wrong)


def power_curve(kind: str, sizes, *, rate_a: float, rate_b: float, experiments: int = 400,
                seed: int = 0) -> list[Outcomes]:
    """:func:`simulate_experiments` at each number of users in ``sizes``, seeded per size.

    >>> [o.users for o in power_curve("ab", [100, 1000], rate_a=0.5, rate_b=0.6)]
    [100, 1000]
    """
    return [simulate_experiments(kind, int(n), rate_a=rate_a, rate_b=rate_b,
                                 experiments=experiments, rng=[seed, i])
            for i, n in enumerate(sizes)]
