"""User-model measures: RBP (with its residual), INST and ERR, and their users' C/W/L vectors.

The measures and the per-rank vectors behind them; :mod:`irlib.measures.user_models` explains
the framework and gives :func:`~irlib.measures.user_models.user_model`, the public view of
those vectors. (Two modules: the registry imports this one, and ``user_model`` reads measure
names with the registry's parser.)
"""
from __future__ import annotations


import numpy as np

from irlib._common import DEFAULT_REL, check_grades, check_k, check_rel

#: RBP's default persistence (ir_measures' and cwl_eval's examples use 0.8).
DEFAULT_P = 0.8
#: INST's default target: one unit of gain (ir_measures' default).
DEFAULT_T = 1.0
#: The highest grade: TREC's 0-4 scale (gdeval's MAX_JUDGMENT).
DEFAULT_MAX_REL = 4
#: INST's horizon: its weights are normalised over the first 1000 ranks (cwl_eval's depth).
INST_DEPTH = 1000


def check_p(p) -> float:
    """RBP's persistence: a number strictly between 0 and 1."""
    if isinstance(p, bool) or not isinstance(p, (int, float, np.integer, np.floating)) \
            or not 0 < p < 1:
        raise ValueError(f"p must be a number between 0 and 1 (exclusive), got {p!r}")
    return float(p)


def check_target(T) -> float:
    """INST's target gain: a positive number."""
    if isinstance(T, bool) or not isinstance(T, (int, float, np.integer, np.floating)) \
            or not np.isfinite(T) or T <= 0:
        raise ValueError(f"T must be a positive number, got {T!r}")
    return float(T)


def check_max_rel(max_rel) -> int:
    """The highest grade of the scale: a whole number >= 1."""
    if isinstance(max_rel, bool) or not isinstance(max_rel, (int, np.integer)) or max_rel < 1:
        raise ValueError(f"max_rel must be a whole number >= 1, got {max_rel!r}")
    return int(max_rel)


def _top(grades, k):
    grades = check_grades(grades)
    k = check_k(k, allow_none=True)
    return grades[:k]


def rbp_weights(n: int, p: float) -> np.ndarray:
    """(1 − p) p^(i−1) for i = 1..n: RBP's weight of each rank."""
    return (1.0 - p) * p ** np.arange(n)


def rbp(grades, k=None, *, p=DEFAULT_P, rel=DEFAULT_REL) -> float:
    r"""RBP (RBP@K): the user reads rank 1, then goes on to each next rank with probability p.

    .. math:: RBP = (1 - p) \sum_{i=1}^{K} r_i \, p^{i-1}, \qquad r_i = [grade_i \ge rel]

    Nothing is normalised by the number of relevant documents: a patient user (p near 1)
    expects to read 1/(1 − p) results, and RBP is the share of them that are relevant.

    Examples
    --------
    >>> rbp([1, 0, 1], p=0.5)              # 0.5 * (1 + 0.25)
    0.625
    >>> round(rbp([0, 1, 0, 1, 1], p=0.8), 4), round(rbp([0, 1, 0, 1, 1], 2, p=0.8), 4)
    (0.3443, 0.16)
    """
    top = _top(grades, k)
    p, rel = check_p(p), check_rel(rel)
    return float(np.sum(rbp_weights(len(top), p)[top >= rel]))


def rbp_residual(grades, k=None, *, p=DEFAULT_P, unjudged=None) -> float:
    r"""RBP's residual: how much RBP could still grow (Moffat & Zobel 2008, section 4).

    The weight of the results nobody judged among the first d = min(K, results returned),
    plus the weight of everything past rank d, which the user may reach but nobody has seen:

    .. math:: \text{residual} = (1 - p) \sum_{i \le d,\ i \text{ unjudged}} p^{i-1} + p^{d}

    RBP lies between its value and value + residual whatever the unjudged results hold.
    ``unjudged`` marks the shown results nobody judged (True = unjudged), as in
    :func:`irlib.measures.counts.judged_at_k`; without it every shown result is judged.

    Examples
    --------
    >>> rbp_residual([1, 0, 1], p=0.5)                                   # 0.5^3
    0.125
    >>> rbp_residual([1, 0, 1], p=0.5, unjudged=[False, True, False])   # + 0.5 * 0.5
    0.375
    """
    top = _top(grades, k)
    p = check_p(p)
    missing = np.zeros(len(top), dtype=bool)
    if unjudged is not None:
        marks = np.asarray(unjudged, dtype=bool)
        if marks.ndim != 1 or len(marks) < len(top):
            raise ValueError(f"unjudged must mark each of the {len(top)} results, "
                             f"got {marks.shape}")
        missing = marks[:len(top)]
    return float(np.sum(rbp_weights(len(top), p)[missing]) + p ** len(top))


def inst_gains(grades: np.ndarray, max_rel: int) -> np.ndarray:
    """INST's gains, 0 to 1: grade / max_rel, clipped (ir_measures' scaling for cwl_eval)."""
    return np.clip(grades, 0.0, max_rel) / max_rel


def inst_continuation(gains: np.ndarray, T: float) -> np.ndarray:
    r"""INST's C(i) = ((i + T + T_i − 1) / (i + T + T_i))^2, T_i = T − (gain in the top i).

    Works on the last axis, so on one ranking or on rows of them.
    """
    i = np.arange(1, gains.shape[-1] + 1, dtype=float)
    t_i = T - np.cumsum(gains, axis=-1)
    return ((i + T + t_i - 1.0) / (i + T + t_i)) ** 2


def weights_from_continuation(c: np.ndarray) -> np.ndarray:
    """W(i) = prod_{j<i} C(j) / its sum over the ranks there are (the last axis)."""
    reach = np.ones_like(c)
    reach[..., 1:] = np.cumprod(c[..., :-1], axis=-1)
    return reach / reach.sum(axis=-1, keepdims=True)


def inst(grades, *, T=DEFAULT_T, max_rel=DEFAULT_MAX_REL) -> float:
    r"""INST: a user who wants T units of gain reads on while the goal is unmet.

    .. math:: C(i) = \left(\frac{i + T + T_i - 1}{i + T + T_i}\right)^2, \quad
              T_i = T - \sum_{j \le i} g_j, \qquad INST = \sum_{i=1}^{1000} W(i)\, g_i

    with gains g = grade / max_rel (0 to 1) and W from C as in the module's formula,
    normalised over the first 1000 ranks (results past the ranking gain 0), as ``cwl_eval``
    and ir_measures compute it. The more gain the user has found, the sooner they stop.

    Examples
    --------
    >>> round(inst([4, 0, 0]), 4), round(inst([0, 0, 4]), 4)   # the same result, found later
    (0.6083, 0.1073)
    >>> round(inst([1, 1, 1], T=3, max_rel=1), 4)
    0.5003
    """
    grades = check_grades(grades)
    T, max_rel = check_target(T), check_max_rel(max_rel)
    gains = np.zeros(INST_DEPTH)
    shown = grades[:INST_DEPTH]
    gains[:len(shown)] = inst_gains(shown, max_rel)
    return float(weights_from_continuation(inst_continuation(gains, T)) @ gains)


def err_probabilities(grades: np.ndarray, max_rel: int) -> np.ndarray:
    """ERR's R_i = (2^g − 1) / 2^max_rel, the grade clipped to [0, max_rel] (gdeval)."""
    return (np.exp2(np.clip(grades, 0.0, max_rel)) - 1.0) / 2.0 ** max_rel


def err(grades, k=None, *, max_rel=DEFAULT_MAX_REL) -> float:
    r"""ERR@K: the expected reciprocal rank at which a cascade user is satisfied.

    .. math:: ERR@K = \sum_{r=1}^{K} \frac{1}{r}\, R_r \prod_{i<r} (1 - R_i), \qquad
              R_i = \frac{2^{g_i} - 1}{2^{g_{max}}}

    The user reads down the ranking and stops at rank r with probability R_r if nothing above
    satisfied them (Chapelle et al. 2009). TREC's ``gdeval`` (ir_measures' ``ERR@K``) fixes
    g_max = 4; grades above ``max_rel`` count as ``max_rel``.

    Examples
    --------
    >>> err([4, 0, 0], max_rel=4)                  # 15/16 at rank 1
    0.9375
    >>> round(err([0, 2, 4], max_rel=4), 6)        # 3/16 / 2 + (13/16)(15/16) / 3
    0.347656
    """
    top = _top(grades, k)
    probs = err_probabilities(top, check_max_rel(max_rel))
    score, decay = 0.0, 1.0
    for rank, r in enumerate(probs, start=1):      # gdeval's loop, in its order
        score += r * decay / rank
        decay *= 1.0 - r
    return float(score)


def vectors(grades: np.ndarray, m) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """C(i), W(i) and the gain g(i) of the user behind measure ``m`` (a name with ``k``,
    ``rel``, ``p``, ``T``, ``max_rel`` and ``dcg``, as a parsed measure has them), on
    validated grades; see :func:`irlib.measures.user_models.user_model`."""
    if m.name not in _MODELS:
        raise ValueError(f"user_model knows {', '.join(_MODELS)}; got {m.name!r}")
    return _MODELS[m.name](grades, m)


def _rbp_model(grades, m):
    top = grades[:m.k]
    g = (top >= m.rel).astype(float)
    return np.full(len(top), m.p), rbp_weights(len(top), m.p), g


def _inst_model(grades, m):
    gains = np.zeros(max(INST_DEPTH, len(grades)))
    gains[:len(grades)] = inst_gains(grades, m.max_rel)
    c = inst_continuation(gains[:INST_DEPTH], m.T)
    w = weights_from_continuation(c)
    n = min(len(grades), INST_DEPTH)
    return c[:n], w[:n], gains[:n]


def _stop_at(k: int) -> np.ndarray:
    c = np.ones(k)
    c[-1] = 0.0
    return c


def _precision_model(grades, m):
    g = np.zeros(m.k)
    top = grades[:m.k]
    g[:len(top)] = top >= m.rel
    return _stop_at(m.k), np.full(m.k, 1.0 / m.k), g


def _rr_model(grades, m):
    g = (grades[:m.k] >= m.rel).astype(float)
    c = 1.0 - g
    return c, weights_from_continuation(c) if len(c) else c, g


def _ndcg_model(grades, m):
    k = len(grades) if m.k is None else m.k
    g = np.zeros(k)
    top = grades[:k]
    g[:len(top)] = top if m.dcg == "log2" else np.exp2(top) - 1.0
    discount = 1.0 / np.log2(np.arange(2, k + 2))
    c = np.zeros(k)
    c[:-1] = discount[1:] / discount[:-1]          # log2(i+1) / log2(i+2); 0 at K
    return c, discount / discount.sum() if k else discount, g


def _err_model(grades, m):
    top = grades[:m.k]
    r = err_probabilities(top, m.max_rel)
    c = 1.0 - r
    return c, weights_from_continuation(c) if len(c) else c, r


_MODELS = {"RBP": _rbp_model, "INST": _inst_model, "P": _precision_model, "RR": _rr_model,
           "nDCG": _ndcg_model, "ERR": _err_model}
