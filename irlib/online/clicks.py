r"""Click models: how a user who scans a ranking turns relevance into clicks.

Two classic models (Chuklin, Markov & de Rijke, *Click Models for Web Search*, 2015):

* **position-based** (PBM): the result at rank :math:`i` is examined with a probability
  :math:`\gamma_i` that depends on the rank alone, and clicked when examined with its
  attractiveness :math:`a_i`: :math:`P(C_i) = \gamma_i\, a_i`. Here
  :math:`\gamma_i = 1 / i^{\eta}`, with :math:`\eta` the strength of the position bias
  (Joachims et al., 2017); :math:`\eta = 0` is a user who reads everything.
* **cascade**: the user reads from the top, clicks the first result that attracts them and
  stops; with a patience :math:`p` they read on past an unattractive result with chance
  :math:`p`. :math:`P(C_i) = a_i\, p^{i-1} \prod_{j<i} (1 - a_j)`; :math:`p = 1` is
  Craswell et al.'s (2008) original model.

The attractiveness comes from the judgments (:func:`attractiveness`), blurred by a *noise*
setting: with noise :math:`\varepsilon` a useless result still draws a click with chance
:math:`\varepsilon` and a perfect one misses with chance :math:`\varepsilon`. Everything random
takes a seed or a :class:`numpy.random.Generator`, so a simulation repeats exactly.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

MODELS = ("cascade", "position")
MODEL_NAMES = {"cascade": "cascade", "position": "position-based"}


def _grades(grades: Sequence[float]) -> np.ndarray:
    g = np.asarray(grades, dtype=float)
    if g.ndim != 1 or len(g) == 0 or not np.all(np.isfinite(g)) or np.any(g < 0):
        raise ValueError(f"grades must be a non-empty list of numbers ≥ 0, got {grades!r}")
    return g


def _unit(value: float, name: str, *, high: float = 1.0) -> float:
    if not 0 <= float(value) <= high:
        raise ValueError(f"{name} must be between 0 and {high}, got {value!r}")
    return float(value)


def attractiveness(grades: Sequence[float], top_grade: float, noise: float = 0.1) -> np.ndarray:
    r"""The chance that a user who reads a result clicks it, from its grade.

    .. math:: a = \varepsilon + (1 - 2\varepsilon)\,\frac{2^{g} - 1}{2^{G} - 1}

    with :math:`G` the scale's top grade and :math:`\varepsilon` the noise (the gain of
    NDCG's exponential form, scaled to 0–1). Noise 0 is a user who trusts the snippet fully;
    noise 0.5 clicks at random whatever the grade.

    Examples
    --------
    A binary scale: relevant results attract 90 % of readers, the others 10 %.

    >>> attractiveness([1, 0, 1], top_grade=1, noise=0.1).round(2).tolist()
    [0.9, 0.1, 0.9]
    >>> attractiveness([4, 2, 0], top_grade=4, noise=0).round(3).tolist()
    [1.0, 0.2, 0.0]
    """
    g = _grades(grades)
    if top_grade <= 0 or np.any(g > top_grade):
        raise ValueError(f"top_grade must be positive and at least every grade, got {top_grade!r}")
    eps = _unit(noise, "noise", high=0.5)
    return eps + (1 - 2 * eps) * (2.0 ** g - 1) / (2.0 ** top_grade - 1)


def examination(n: int, bias: float = 1.0) -> np.ndarray:
    r"""The position-based model's chance of reading rank :math:`i`: :math:`1 / i^{\eta}`.

    Examples
    --------
    >>> examination(4, bias=1).round(3).tolist()
    [1.0, 0.5, 0.333, 0.25]
    >>> examination(3, bias=0).tolist()
    [1.0, 1.0, 1.0]
    """
    if n < 1 or bias < 0:
        raise ValueError(f"need n ≥ 1 and bias ≥ 0, got n={n!r}, bias={bias!r}")
    return 1.0 / np.arange(1, n + 1, dtype=float) ** float(bias)


def click_probabilities(attract: Sequence[float], model: str = "cascade", *,
                        bias: float = 1.0, patience: float = 1.0) -> np.ndarray:
    r"""The chance of a click at each rank, in closed form.

    Position-based: :math:`\gamma_i a_i`. Cascade: :math:`a_i\, p^{i-1}\prod_{j<i}(1-a_j)`.

    Examples
    --------
    A cascade user and attractiveness 0.5 everywhere: half click the first result, a quarter
    the second, an eighth the third.

    >>> click_probabilities([0.5, 0.5, 0.5], "cascade").tolist()
    [0.5, 0.25, 0.125]
    >>> click_probabilities([0.5, 0.5, 0.5], "position", bias=1).round(3).tolist()
    [0.5, 0.25, 0.167]
    """
    a = np.asarray(attract, dtype=float)
    if model == "position":
        return examination(len(a), bias) * a
    if model == "cascade":
        p = _unit(patience, "patience")
        reach = np.concatenate(([1.0], np.cumprod((1 - a[:-1]) * p)))
        return reach * a
    raise ValueError(f"model must be one of {MODELS}, got {model!r}")


def any_click_probability(attract: Sequence[float], model: str = "cascade", *,
                          bias: float = 1.0, patience: float = 1.0) -> float:
    r"""The chance that a user clicks at least once (a search's click-through).

    Cascade: the clicks at each rank exclude one another, so it is their sum. Position-based:
    clicks are independent, :math:`1 - \prod_i (1 - \gamma_i a_i)`.

    Examples
    --------
    >>> any_click_probability([0.5, 0.5], "cascade")
    0.75
    >>> any_click_probability([0.5, 0.5], "position", bias=1)
    0.625
    """
    probs = click_probabilities(attract, model, bias=bias, patience=patience)
    if model == "cascade":
        return float(probs.sum())
    return float(1 - np.prod(1 - probs))


def simulate_clicks(attract: Sequence[float], users: int, model: str = "cascade", *,
                    bias: float = 1.0, patience: float = 1.0,
                    rng: np.random.Generator | int = 0) -> np.ndarray:
    """Clicks of ``users`` simulated users on one ranking: a ``(users, n)`` array of bools.

    Each user is drawn step by step, as the model reads (not from the closed form), so
    :func:`click_probabilities` is a check on the simulation.

    Examples
    --------
    >>> clicks = simulate_clicks([0.9, 0.1, 0.9], 20_000, "cascade", rng=1)
    >>> clicks.mean(axis=0).round(2).tolist()       # closed form: 0.9, 0.01, 0.081
    [0.9, 0.01, 0.08]
    >>> int(clicks.sum(axis=1).max())               # a cascade user clicks once at most
    1
    """
    rng = np.random.default_rng(rng)
    a = np.asarray(attract, dtype=float)
    if users < 0:
        raise ValueError(f"users must be ≥ 0, got {users!r}")
    attracted = rng.random((users, len(a))) < a
    if model == "position":
        read = rng.random((users, len(a))) < examination(len(a), bias)
        return read & attracted
    if model != "cascade":
        raise ValueError(f"model must be one of {MODELS}, got {model!r}")
    p = _unit(patience, "patience")
    goes_on = rng.random((users, len(a))) < p          # reads on past rank i (if not clicked)
    clicks = np.zeros((users, len(a)), dtype=bool)
    reading = np.ones(users, dtype=bool)
    for i in range(len(a)):
        clicks[:, i] = reading & attracted[:, i]
        reading = reading & ~attracted[:, i] & goes_on[:, i]
    return clicks


def clicks_by_rank(clicks: np.ndarray) -> np.ndarray:
    """The share of users who clicked each rank (a column mean).

    >>> clicks_by_rank(np.array([[True, False], [False, False]])).tolist()
    [0.5, 0.0]
    """
    return np.asarray(clicks, dtype=float).mean(axis=0) if len(clicks) else \
        np.zeros(np.shape(clicks)[1])
