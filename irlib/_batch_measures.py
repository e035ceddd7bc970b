"""The measures of :func:`irlib.evaluate`, as NumPy segment sums over the judged hits.

Each function gets the judged documents the run returned (query, rank, grade; sorted by
query then rank) and the qrels, and returns one value per query: no per-query loop.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:      # the registry (irlib.measures) imports the kernels below
    from irlib.measures import Measure


@dataclass(frozen=True)
class Context:
    """The judged hits (query, rank, grade; sorted by query then rank) and the qrels."""
    n_queries: int
    hit_q: np.ndarray
    hit_rank: np.ndarray
    hit_grade: np.ndarray
    qrels_q: np.ndarray
    qrels_grade: np.ndarray
    ideal_rank: np.ndarray

    def per_query_sum(self, q, weights) -> np.ndarray:
        return np.bincount(q, weights=weights, minlength=self.n_queries)

    def n_relevant(self, rel) -> np.ndarray:
        return self.per_query_sum(self.qrels_q, self.qrels_grade >= rel)

    def hits_at(self, m: Measure) -> np.ndarray:
        mask = (self.hit_grade >= m.rel) & (self.hit_rank <= (m.k or np.inf))
        return self.per_query_sum(self.hit_q[mask], None)


def _ratio(num, den):
    out = np.zeros_like(num, dtype=float)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _precision(c: Context, m: Measure):
    return c.hits_at(m) / m.k


def _recall(c: Context, m: Measure):
    return _ratio(c.hits_at(m), c.n_relevant(m.rel))


def _f1(c: Context, m: Measure):
    p, r = _precision(c, m), _recall(c, m)
    return _ratio(2 * p * r, p + r)


def _success(c: Context, m: Measure):
    return (c.hits_at(m) > 0).astype(float)


def _reciprocal_rank(c: Context, m: Measure):
    mask = (c.hit_grade >= m.rel) & (c.hit_rank <= (m.k or np.inf))
    first = np.full(c.n_queries, np.inf)
    np.minimum.at(first, c.hit_q[mask], c.hit_rank[mask])
    return 1.0 / first


def _average_precision(c: Context, m: Measure):
    relevant = c.hit_grade >= m.rel
    q, rank = c.hit_q[relevant], c.hit_rank[relevant]
    # the i-th relevant hit of a query (rows are in rank order) has precision i / rank
    nth = np.arange(len(q)) - np.searchsorted(q, q) + 1
    within = rank <= (m.k or np.inf)
    return _ratio(c.per_query_sum(q[within], (nth / rank)[within]), c.n_relevant(m.rel))


def _gain(grades, m: Measure):
    grades = np.maximum(grades, 0.0)       # trec_eval: negative judgments gain nothing
    return grades if m.dcg == "log2" else np.exp2(grades) - 1.0


def _dcg(c: Context, m: Measure):
    within = c.hit_rank <= (m.k or np.inf)
    gains = _gain(c.hit_grade[within], m) / np.log2(c.hit_rank[within] + 1.0)
    return c.per_query_sum(c.hit_q[within], gains)


def _ndcg(c: Context, m: Measure):
    within = c.ideal_rank <= (m.k or np.inf)
    gains = _gain(c.qrels_grade[within], m) / np.log2(c.ideal_rank[within] + 1.0)
    return _ratio(_dcg(c, m), c.per_query_sum(c.qrels_q[within], gains))


def _r_precision(c: Context, m: Measure):
    n_relevant = c.n_relevant(m.rel)
    mask = (c.hit_grade >= m.rel) & (c.hit_rank <= n_relevant[c.hit_q])
    return _ratio(c.per_query_sum(c.hit_q[mask], None), n_relevant)
