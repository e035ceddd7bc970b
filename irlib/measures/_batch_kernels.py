"""The measures of :func:`irlib.evaluate`, as NumPy segment sums over the judged hits.

Each function gets the judged documents the run returned (query, rank, grade; sorted by
query then rank) and the qrels, and returns one value per query: no per-query loop.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from irlib.measures.bpref import bpref_terms
from irlib.measures.infap import infap_terms
from irlib.measures.interpolated import ELEVEN_LEVELS, relevant_needed
from irlib.measures.user_measures import (INST_DEPTH, err_probabilities, inst_continuation,
                                        inst_gains, weights_from_continuation)

class Measure(Protocol):
    """What a kernel reads of a parsed measure (:class:`irlib.measures.registry.Measure`): its
    cut-off and parameters. Said here, not imported, because the catalogue that names each
    measure's kernel imports this module."""
    k: int | float | None
    rel: int
    dcg: str
    beta: float
    rule: str
    p: float
    T: float
    max_rel: int


@dataclass(frozen=True)
class Context:
    """The judged hits (query, rank, grade; sorted by query then rank), the qrels, and how
    many results each query returned.

    A hit with a negative grade is in the pool but unjudged (trec_eval's "-2", a negative
    grade in the qrels): it is never relevant, bpref and the non-relevant count skip it, and
    infAP counts it as pooled. A result not in the qrels (outside the pool) is no hit.
    """
    n_queries: int
    hit_q: np.ndarray
    hit_rank: np.ndarray
    hit_grade: np.ndarray
    qrels_q: np.ndarray
    qrels_grade: np.ndarray
    ideal_rank: np.ndarray
    retrieved: np.ndarray          # results per query (0: not in the run)

    def per_query_sum(self, q, weights) -> np.ndarray:
        return np.bincount(q, weights=weights, minlength=self.n_queries)

    def n_relevant(self, rel) -> np.ndarray:
        return self.per_query_sum(self.qrels_q, self.qrels_grade >= rel)

    def hits_at(self, m: Measure) -> np.ndarray:
        mask = (self.hit_grade >= m.rel) & (self.hit_rank <= (m.k or np.inf))
        return self.per_query_sum(self.hit_q[mask], None)


    def n_judged_nonrelevant(self, rel) -> np.ndarray:
        judged = (self.qrels_grade >= 0) & (self.qrels_grade < rel)
        return self.per_query_sum(self.qrels_q, judged)

    def segment_start(self, q: np.ndarray) -> np.ndarray:
        """For rows sorted by query: the index of each row's query's first row."""
        return np.searchsorted(q, q)


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


# trec_eval's summary measures

def _num_queries(c: Context, m: Measure):
    return np.ones(c.n_queries)


def _num_retrieved(c: Context, m: Measure):
    return c.retrieved.astype(float)


def _num_relevant(c: Context, m: Measure):
    return c.n_relevant(m.rel).astype(float)


def _num_relevant_retrieved(c: Context, m: Measure):
    return c.hits_at(m).astype(float)


def _num_nonrelevant_retrieved(c: Context, m: Measure):
    mask = (c.hit_grade >= 0) & (c.hit_grade < m.rel)
    return c.per_query_sum(c.hit_q[mask], None)


def _judged(c: Context, m: Measure):
    """ir_measures' Judged@K: judged hits in the top K over min(K, results returned)."""
    judged = (c.hit_grade >= 0) & (c.hit_rank <= (m.k or np.inf))
    shown = c.retrieved if m.k is None else np.minimum(c.retrieved, m.k)
    return _ratio(c.per_query_sum(c.hit_q[judged], None), shown)


def _bpref(c: Context, m: Measure):
    judged = c.hit_grade >= 0                      # unjudged hits neither help nor hurt
    q, grade = c.hit_q[judged], c.hit_grade[judged]
    nonrelevant = grade < m.rel
    seen = np.cumsum(nonrelevant)                  # non-relevant so far, over all queries
    before_query = seen[c.segment_start(q)] - nonrelevant[c.segment_start(q)]
    relevant = ~nonrelevant
    above = (seen - before_query)[relevant]
    n_rel, n_non = c.n_relevant(m.rel), c.n_judged_nonrelevant(m.rel)
    rq = q[relevant]
    terms = bpref_terms(above, n_rel[rq], n_non[rq])
    return _ratio(c.per_query_sum(rq, terms), n_rel)


def _infap(c: Context, m: Measure):
    """trec_eval's infAP: at each relevant hit, the relevant, judged non-relevant and unjudged
    (negative grade) hits above it; results outside the pool are no hits but count in its rank."""
    relevant = c.hit_grade >= m.rel
    start = c.segment_start(c.hit_q)

    def above(flags):                              # flags above each hit, in its query
        before = np.cumsum(flags) - flags
        return (before - before[start])[relevant]
    terms = infap_terms(c.hit_rank[relevant], above(relevant),
                        above((c.hit_grade >= 0) & ~relevant), above(c.hit_grade < 0))
    return _ratio(c.per_query_sum(c.hit_q[relevant], terms), c.n_relevant(m.rel))


def _interpolated_at(c: Context, m: Measure, level: float):
    """IPrec at one level per query: the best precision at the c-th relevant hit or later."""
    relevant = c.hit_grade >= m.rel
    q, rank = c.hit_q[relevant], c.hit_rank[relevant]
    start = c.segment_start(q)
    nth = np.arange(len(q)) - start + 1
    precision = nth / rank
    # the best precision from each hit to its query's end: a running max from the right
    # that never crosses a query boundary. The key is complex, -q + precision·i: numpy
    # orders complex numbers by real part, then imaginary, so an earlier query always wins
    # over a later one, and the precision rides along untouched (adding a lift to it and
    # taking it off again rounded it: 3.9e-11 off at 500,000 queries)
    key = np.empty(len(q), dtype=complex)
    key.real, key.imag = -q, precision
    best = np.maximum.accumulate(key[::-1])[::-1].imag if len(q) else precision
    found = c.per_query_sum(q, None).astype(np.int64)
    needed = np.maximum(relevant_needed(level, c.n_relevant(m.rel), m.rule), 1)
    first = np.concatenate([[0], np.cumsum(found)[:-1]])
    reached = needed <= found
    out = np.zeros(c.n_queries)
    out[reached] = best[(first + needed - 1)[reached]]
    return out


def _interpolated_precision(c: Context, m: Measure):
    return _interpolated_at(c, m, m.k)


def _eleven_point_average(c: Context, m: Measure):
    return sum(_interpolated_at(c, m, level) for level in ELEVEN_LEVELS) / len(ELEVEN_LEVELS)


def _set_precision(c: Context, m: Measure):
    return _ratio(c.hits_at(m), c.retrieved)


def _set_recall(c: Context, m: Measure):
    return _ratio(c.hits_at(m), c.n_relevant(m.rel))


def _set_f(c: Context, m: Measure):
    p, r = _set_precision(c, m), _set_recall(c, m)
    return _ratio((m.beta + 1.0) * p * r, m.beta * p + r)


# user-model measures (irlib.measures.user_models)

def _rbp(c: Context, m: Measure):
    mask = (c.hit_grade >= m.rel) & (c.hit_rank <= (m.k or np.inf))
    return c.per_query_sum(c.hit_q[mask], (1.0 - m.p) * m.p ** (c.hit_rank[mask] - 1.0))


def _rbp_residual(c: Context, m: Measure):
    """1 − the RBP weight of the judged results in the top d = min(K, returned): the weight
    of the unjudged ones plus p^d, the weight past rank d."""
    judged = (c.hit_grade >= 0) & (c.hit_rank <= (m.k or np.inf))
    return 1.0 - c.per_query_sum(c.hit_q[judged],
                                 (1.0 - m.p) * m.p ** (c.hit_rank[judged] - 1.0))


_INST_ROWS = 2048           # queries per dense block of INST_DEPTH ranks (16 MB)


def _inst(c: Context, m: Measure):
    """INST needs every rank's C(i) to 1000 ranks: dense rows, for the queries with a gain."""
    keep = (c.hit_grade > 0) & (c.hit_rank <= INST_DEPTH)
    q, rank = c.hit_q[keep], c.hit_rank[keep].astype(np.int64)
    gains = inst_gains(c.hit_grade[keep], m.max_rel)
    queries, row = np.unique(q, return_inverse=True)
    out = np.zeros(c.n_queries)
    for start in range(0, len(queries), _INST_ROWS):
        take = (row >= start) & (row < start + _INST_ROWS)
        dense = np.zeros((min(_INST_ROWS, len(queries) - start), INST_DEPTH))
        dense[row[take] - start, rank[take] - 1] = gains[take]
        weights = weights_from_continuation(inst_continuation(dense, m.T))
        out[queries[start:start + _INST_ROWS]] = np.einsum("ij,ij->i", weights, dense)
    return out


def _err(c: Context, m: Measure):
    """gdeval's cascade, query by query in rank order: the nth judged hit of every query at
    once (unjudged and grade-0 results satisfy nobody, so they leave the product alone)."""
    mask = (c.hit_grade > 0) & (c.hit_rank <= (m.k or np.inf))
    q, rank = c.hit_q[mask], c.hit_rank[mask]
    probs = err_probabilities(c.hit_grade[mask], m.max_rel)
    nth = np.arange(len(q)) - np.searchsorted(q, q)
    order = np.argsort(nth, kind="stable")
    bounds = np.searchsorted(nth[order], np.arange(nth.max() + 2 if len(q) else 1))
    score, decay = np.zeros(c.n_queries), np.ones(c.n_queries)
    for a, b in zip(bounds[:-1], bounds[1:]):
        at = order[a:b]
        who, r = q[at], probs[at]
        score[who] += r * decay[who] / rank[at]
        decay[who] *= 1.0 - r
    return score
