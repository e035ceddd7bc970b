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
from irlib.dcg import discounts, gain_values


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
