r"""User-model measures: a metric is a model of a user who reads down the ranking.

The C/W/L framework (Moffat et al. 2013; Azzopardi, Thomas & Moffat, SIGIR 2019, the
``cwl_eval`` tool) describes a user by ``C(i)``, the probability of going on from rank ``i``
to rank ``i + 1``. From it follow ``W(i)``, the share of the user's attention that rank ``i``
gets, and ``L(i)``, the probability that the user stops at rank ``i``:

.. math::

    W(i) = \frac{\prod_{j<i} C(j)}{\sum_{m \ge 1} \prod_{j<m} C(j)}, \qquad
    L(i) = \Big(\prod_{j<i} C(j)\Big)\,\big(1 - C(i)\big), \qquad
    M = \sum_{i} W(i)\, g(i)

``M`` is the expected gain per result read. This module holds three such users:

(The measures themselves are in :mod:`irlib.measures.user_measures`; their names are
exported here too.)

``rbp``   Rank-biased precision (Moffat & Zobel 2008, ACM TOIS 27(1)): a user who goes on with
          a fixed probability ``p``. :func:`rbp_residual` is how much RBP could still grow if
          every unjudged result, and every result past the end, were relevant.
``inst``  INST (Moffat, Bailey, Scholer & Thomas, ADCS 2015; TOIS 2017): a user who came for
          ``T`` units of gain and reads on longer while that goal is unmet.
``err``   Expected reciprocal rank (Chapelle, Metzler, Zhang & Grinspan, CIKM 2009): a cascade
          user who stops at the first result that satisfies them, with a probability that grows
          with its grade. ERR is not a C/W/L measure (Azzopardi et al., ICTIR 2021): its
          utility is 1/rank at the stopping rank, not gain per result read; ``cwl_eval`` offers
          only C/W/L approximations of it (its NERR measures), not ERR.

:func:`user_model` gives ``C``, ``W`` and ``L`` rank by rank for these and for P@K, RR and
NDCG's discount, so a lesson can draw each measure as a user.

Gains. RBP is binary (grade >= ``rel`` gains 1), as ir_measures' ``RBP(rel=...)``. INST takes
gains from 0 to 1: grade / ``max_rel``, clipped to [0, 1] (ir_measures' ``max_rel``; ``cwl_eval``
reads such gains from its qrels). ERR's satisfaction probability is
(2^grade − 1) / 2^``max_rel`` with the grade clipped to [0, ``max_rel``] (TREC's ``gdeval``
fixes ``max_rel`` = 4).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from irlib._common import DEFAULT_REL, check_grades, check_k, check_rel
from irlib.measures.registry import parse_measure
from irlib.measures.user_measures import (DEFAULT_MAX_REL, DEFAULT_P, DEFAULT_T,  # noqa: F401
                                          INST_DEPTH, check_max_rel, check_p, check_target,
                                          err, inst, rbp, rbp_residual, vectors)

__all__ = ["UserModel", "user_model", "rbp", "rbp_residual", "inst", "err", "INST_DEPTH"]


@dataclass(frozen=True)
class UserModel:
    """One measure's user on one ranking, rank by rank (arrays of the same length).

    ``continuation`` C(i), ``weight`` W(i), ``stopping`` L(i), and the ``gain`` g(i) the
    measure credits at each rank. :attr:`expected_gain` is ``sum(W * g)``.
    """
    measure: str
    continuation: np.ndarray
    weight: np.ndarray
    stopping: np.ndarray
    gain: np.ndarray

    @property
    def ranks(self) -> np.ndarray:
        return np.arange(1, len(self.weight) + 1)

    @property
    def expected_gain(self) -> float:
        """Sum over ranks of W(i) g(i): the C/W/L measure (see :func:`user_model`)."""
        return float(self.weight @ self.gain)


class _Params(NamedTuple):
    name: str
    k: int | None
    rel: int
    p: float
    T: float
    max_rel: int
    dcg: str


def user_model(grades, measure, k=None, *, rel=DEFAULT_REL, p=DEFAULT_P, T=DEFAULT_T,
               max_rel=DEFAULT_MAX_REL, gain="linear") -> UserModel:
    r"""The user behind a measure: C(i), W(i) and L(i) at each rank of this ranking.

    ``measure`` is a name of the registry with ``k`` and the parameters as keywords
    (``user_model(g, "RBP", p=0.9)``), or written with its own, as the parser reads them
    (``user_model(g, "RBP(p=0.9)")``, ``"ERR@10"``, or a parsed :class:`irlib.Measure`):

    ``RBP``   C(i) = p; W(i) = L(i) = (1 − p) p^(i−1), over an endless ranking (the shown
              ranks' W sum to 1 − p^n); ``expected_gain`` is RBP.
    ``INST``  C(i) from the gain found so far (:func:`inst`), W over 1000 ranks; only the
              shown ranks are returned; ``expected_gain`` is INST.
    ``P``     (K required) C(i) = 1 before K and 0 at K: W(i) = 1/K for i <= K (K ranks even
              if fewer were returned); ``expected_gain`` is P@K.
    ``RR``    C(i) = 1 − r_i: the user stops at the first relevant result, rank f, so
              W(i) = 1/f up to f (1/n if none); ``expected_gain`` is RR.
    ``nDCG``  C(i) = log2(i+1)/log2(i+2) before K, 0 at K: W(i) is NDCG's discount
              1/log2(i+1) over the sum of the K discounts; ``expected_gain`` is DCG@K over
              that sum (cwl_eval's SDCG), not NDCG, which divides by IDCG@K.
    ``ERR``   the cascade: C(i) = 1 − R_i depends on the grade; L(i) = R_i prod_{j<i}(1 − R_j)
              is the probability of being satisfied at i; W is what those C(i) imply. ERR is
              not C/W/L: ERR@K = sum L(i) / i, not ``expected_gain`` (Azzopardi et al.,
              ICTIR 2021).

    Binary measures count grade >= ``rel``; NDCG's gain is the grade (``gain="linear"``)
    or 2^grade − 1 (``"exponential"``).

    Examples
    --------
    >>> m = user_model([0, 1, 0, 1], "RR")
    >>> m.continuation.tolist(), m.weight.tolist(), m.stopping.tolist()
    ([1.0, 0.0, 1.0, 0.0], [0.5, 0.5, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0])
    >>> user_model([1, 0, 1], "RBP", p=0.5).weight.tolist()
    [0.5, 0.25, 0.125]
    >>> user_model([1, 0, 1], "RBP(p=0.5)").weight.tolist()
    [0.5, 0.25, 0.125]
    >>> m = user_model([4, 0, 2], "ERR@3")
    >>> float(m.stopping @ (1 / m.ranks)) == err([4, 0, 2], 3)
    True
    """
    grades = check_grades(grades)
    if isinstance(measure, str) and ("(" in measure or "@" in measure):
        measure = parse_measure(measure)    # "RBP(p=0.9)", "ERR@10": its own parameters
    if hasattr(measure, "name"):            # a parsed measure: its own cut-off and parameters
        m = _Params(measure.name, measure.k, measure.rel, measure.p, measure.T,
                    measure.max_rel, measure.dcg)
    else:
        if gain not in ("linear", "exponential"):
            raise ValueError(f"gain must be 'linear' or 'exponential', got {gain!r}")
        m = _Params(str(measure), check_k(k, allow_none=measure != "P"), check_rel(rel),
                    check_p(p), check_target(T), check_max_rel(max_rel),
                    "log2" if gain == "linear" else "exp-log2")
    c, w, g = vectors(grades, m)
    reach = np.ones_like(c)
    reach[1:] = np.cumprod(c[:-1])
    shown = m.name + (f"@{m.k}" if m.k is not None else "")
    return UserModel(shown, c, w, reach * (1.0 - c), g)
