"""Each measure's curve over K = 1..N, for many rankings at once: the registry's ``curve``.

A kernel takes a :class:`Rankings` (the validated grade rows and their pools) and returns an
``(n_rankings, N)`` array whose column K-1 is the measure at cut-off K. The shared pieces
(cumulative hits, R, DCG, IDCG) are computed once per call, on first use, so a kernel is a line
or two of NumPy along axis 1. :func:`irlib.metric_curves_batch` runs every registered kernel;
:func:`irlib.metric_curves` is its one-row case.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from irlib._common import safe_div
from irlib.measures.bpref import bpref_terms
from irlib.measures.dcg import discounts, gain_values
from irlib.measures.interpolated import eleven_point_average as _eleven_point_average
from irlib.measures.user_measures import (DEFAULT_MAX_REL, DEFAULT_P, err_probabilities,
                                        rbp_weights)


@dataclass(eq=False)
class Rankings:
    """Grade rows (rank order) and the pools that R, AP's denominator and IDCG come from."""
    grades: np.ndarray        # (n_rankings, N), validated
    pool: np.ndarray          # (n_rankings or 1, P): each row's judged grades
    rel: int
    gain: str
    ideal: str                # "judged": IDCG from the pool; "shown": from the row itself
    denominator: str          # AP's: "relevant", "min_r_k" or "retrieved"

    @cached_property
    def ks(self) -> np.ndarray:
        return np.arange(1, self.grades.shape[1] + 1)

    @cached_property
    def relevant(self) -> np.ndarray:
        return self.grades >= self.rel

    @cached_property
    def hits(self) -> np.ndarray:
        """Relevant results in the top K."""
        return np.cumsum(self.relevant, axis=1)

    @cached_property
    def n_relevant(self) -> np.ndarray:
        """R of every row, shaped (rows, 1) to broadcast over K."""
        return np.count_nonzero(self.pool >= self.rel, axis=1)[:, None]

    @cached_property
    def precision(self) -> np.ndarray:
        return self.hits / self.ks

    @cached_property
    def recall(self) -> np.ndarray:
        return safe_div(self.hits, self.n_relevant)

    @cached_property
    def dcg(self) -> np.ndarray:
        n = self.grades.shape[1]
        return np.cumsum(gain_values(self.grades, self.gain) / discounts(n), axis=1)

    @cached_property
    def idcg(self) -> np.ndarray:
        """IDCG@K of every row: its pool sorted high to low, cut or padded to N."""
        n = self.grades.shape[1]
        source = self.pool if self.ideal == "judged" else self.grades
        top = np.sort(source, axis=1)[:, ::-1][:, :n]
        if top.shape[1] < n:   # a pool smaller than the list: the ideal ranking ends in zeros
            top = np.pad(top, ((0, 0), (0, n - top.shape[1])))
        idcg = np.cumsum(gain_values(top, self.gain) / discounts(n), axis=1)
        return np.broadcast_to(idcg, self.grades.shape)


def precision(r: Rankings) -> np.ndarray:
    return r.precision


def recall(r: Rankings) -> np.ndarray:
    return r.recall


def f1(r: Rankings) -> np.ndarray:
    return safe_div(2 * r.precision * r.recall, r.precision + r.recall)


def success(r: Rankings) -> np.ndarray:
    return (r.hits > 0).astype(float)


def r_precision(r: Rankings) -> np.ndarray:
    """Precision at rank R, a single number: the same at every K (0 when nothing is relevant)."""
    # relevant results in the top R (a list shorter than R: all it found), over R
    found = np.count_nonzero(r.relevant & (r.ks <= r.n_relevant), axis=1)[:, None]
    return np.broadcast_to(safe_div(found, r.n_relevant), r.grades.shape).copy()


def reciprocal_rank(r: Rankings) -> np.ndarray:
    n = r.grades.shape[1]
    # rank of the first relevant result; n + 1 ("never") where a row has none
    first_index = np.argmax(r.relevant, axis=1) if n else np.zeros(len(r.grades), dtype=int)
    first = np.where(r.relevant.any(axis=1), first_index + 1, n + 1)[:, None]
    return np.where(r.ks >= first, 1.0 / first, 0.0)


def average_precision(r: Rankings) -> np.ndarray:
    numerator = np.cumsum(np.where(r.relevant, r.precision, 0.0), axis=1)
    denominator = {"relevant": r.n_relevant, "min_r_k": np.minimum(r.n_relevant, r.ks),
                   "retrieved": r.hits}[r.denominator]
    return safe_div(numerator, denominator)


def cumulative_gain(r: Rankings) -> np.ndarray:
    return np.cumsum(r.grades, axis=1)


def dcg(r: Rankings) -> np.ndarray:
    return r.dcg


def idcg(r: Rankings) -> np.ndarray:
    return np.array(r.idcg)


def ndcg(r: Rankings) -> np.ndarray:
    return safe_div(r.dcg, r.idcg)


# Whole-ranking measures (no K): one number per row, the same at every K, as R-precision.

def _constant(r: Rankings, values) -> np.ndarray:
    values = np.asarray(values, dtype=float).reshape(-1, 1)
    return np.broadcast_to(values if len(values) else values[:0], r.grades.shape).copy()


def num_queries(r: Rankings) -> np.ndarray:
    return _constant(r, np.ones(len(r.grades)))


def num_retrieved(r: Rankings) -> np.ndarray:
    return _constant(r, np.full(len(r.grades), r.grades.shape[1]))


def num_relevant(r: Rankings) -> np.ndarray:
    return _constant(r, r.n_relevant)


def _found(r: Rankings) -> np.ndarray:
    return r.hits[:, -1] if r.grades.shape[1] else np.zeros(len(r.grades))


def num_relevant_retrieved(r: Rankings) -> np.ndarray:
    return _constant(r, _found(r))


def num_nonrelevant_retrieved(r: Rankings) -> np.ndarray:
    return _constant(r, r.grades.shape[1] - _found(r))


def whole_average_precision(r: Rankings) -> np.ndarray:
    """AP of the whole ranking over R (trec_eval's ``map``): GMAP's per-query term."""
    numerator = np.where(r.relevant, r.precision, 0.0).sum(axis=1)
    return _constant(r, safe_div(numerator, r.n_relevant[:, 0]))


def bpref(r: Rankings) -> np.ndarray:
    above = np.cumsum(~r.relevant, axis=1)
    # every shown result is judged, so N is at least the non-relevant ones shown
    n_nonrelevant = np.maximum(r.pool.shape[1] - r.n_relevant,
                               above[:, -1:] if above.shape[1] else 0)
    terms = np.where(r.relevant, bpref_terms(above, r.n_relevant, n_nonrelevant), 0.0)
    return _constant(r, safe_div(terms.sum(axis=1), r.n_relevant[:, 0]))


def judged(r: Rankings) -> np.ndarray:
    """Every shown result of a grade row is judged: Judged@K is 1 at every K."""
    return np.ones(r.grades.shape)


def eleven_point_average(r: Rankings) -> np.ndarray:
    rows = r.grades if r.pool.shape[0] == len(r.grades) else None
    values = [_eleven_point_average(g, judged=r.pool[i if rows is not None else 0], rel=r.rel)
              for i, g in enumerate(r.grades)]
    return _constant(r, values)


def _set_precision_rows(r: Rankings) -> np.ndarray:
    return safe_div(_found(r), r.grades.shape[1])


def _set_recall_rows(r: Rankings) -> np.ndarray:
    return safe_div(_found(r), r.n_relevant[:, 0])


def set_precision(r: Rankings) -> np.ndarray:
    return _constant(r, _set_precision_rows(r))


def set_recall(r: Rankings) -> np.ndarray:
    return _constant(r, _set_recall_rows(r))


def set_f(r: Rankings) -> np.ndarray:
    p, rec = _set_precision_rows(r), _set_recall_rows(r)
    return _constant(r, safe_div(2 * p * rec, p + rec))


# user-model measures, at their default parameters (p = 0.8, max_rel = 4)

def rbp(r: Rankings) -> np.ndarray:
    weights = rbp_weights(r.grades.shape[1], DEFAULT_P)
    return np.cumsum(r.relevant * weights, axis=1)


def rbp_residual(r: Rankings) -> np.ndarray:
    """Every shown result of a grade row is judged: what is left is past rank K, p^K."""
    return np.broadcast_to(DEFAULT_P ** r.ks.astype(float), r.grades.shape).copy()


def err(r: Rankings) -> np.ndarray:
    probs = err_probabilities(r.grades, DEFAULT_MAX_REL)
    unsatisfied = np.ones_like(probs)
    unsatisfied[:, 1:] = np.cumprod(1.0 - probs[:, :-1], axis=1)
    return np.cumsum(probs * unsatisfied / r.ks, axis=1)
