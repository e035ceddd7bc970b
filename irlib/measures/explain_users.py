"""How the user-model measures are made (:mod:`irlib.measures.user_measures`), rank by rank.

Each explainer returns an :class:`~irlib.measures.explain.Explanation` whose ``rows`` hold, per
rank, the grade, the gain the measure credits, the user's C(i), W(i) and L(i), and the running
value; ``latex`` is the formula with today's numbers.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from irlib._common import fmt_number as fmt
from irlib.measures.explain import Explanation, Step
from irlib.measures.user_measures import (INST_DEPTH, err, inst, inst_gains, rbp,
                                          rbp_residual, vectors)


@dataclass(frozen=True)
class _User:
    """C, W, L and gains per rank (as irlib.measures.user_models.UserModel, which reads
    measure names with the registry's parser: the registry imports this module)."""
    continuation: np.ndarray
    weight: np.ndarray
    stopping: np.ndarray
    gain: np.ndarray

    @property
    def ranks(self) -> np.ndarray:
        return np.arange(1, len(self.weight) + 1)


def user_model(grades: np.ndarray, name: str, k=None, *, rel=1, p=0.8, T=1.0,
               max_rel=4) -> _User:
    c, w, g = vectors(grades, SimpleNamespace(name=name, k=k, rel=rel, p=p, T=T,
                                              max_rel=max_rel, dcg="log2"))
    reach = np.ones_like(c)
    reach[1:] = np.cumprod(c[:-1])
    return _User(c, w, reach * (1.0 - c), g)


def _rows(grades: np.ndarray, model, contribution: np.ndarray) -> list[dict]:
    running = np.cumsum(contribution)
    return [{"rank": i + 1, "grade": float(grades[i]), "gain": float(model.gain[i]),
             "continuation": float(model.continuation[i]), "weight": float(model.weight[i]),
             "stopping": float(model.stopping[i]), "term": float(contribution[i]),
             "running": float(running[i])} for i in range(len(contribution))]


def explain_rbp(s: Step) -> Explanation:
    k, p = s.k, s.p
    model = user_model(s.grades, "RBP", k, rel=s.rel, p=p)
    terms = model.weight * model.gain
    value = rbp(s.grades, k, p=p, rel=s.rel)
    residual = rbp_residual(s.grades, k, p=p)
    hits = [i + 1 for i in range(len(terms)) if model.gain[i]]
    sum_tex = " + ".join(rf"{fmt(p)}^{{{i - 1}}}" for i in hits) or "0"
    latex = (rf"\text{{RBP@{k}}} = (1-p) \sum_{{i=1}}^{{{k}}} r_i\, p^{{i-1}}"
             rf" = {fmt(1 - p)} \cdot ({sum_tex}) = {fmt(value, 4)}"
             rf" \quad \text{{(residual {fmt(residual, 4)})}}")
    return Explanation("RBP", k, value, latex, rows=_rows(s.grades, model, terms),
                       details={**s.details, "p": p, "residual": residual,
                                "expected_results_read": 1.0 / (1.0 - p)})


def explain_rbp_residual(s: Step) -> Explanation:
    k, p = s.k, s.p
    d = min(k, len(s.grades))
    value = rbp_residual(s.grades, k, p=p)
    latex = (rf"\text{{residual@{k}}} = (1-p) \sum_{{i \le d,\ \text{{unjudged}}}} p^{{i-1}}"
             rf" + p^{{d}} = {fmt(p)}^{{{d}}} = {fmt(value, 4)}"
             r" \quad \text{(every shown result judged)}")
    return Explanation("RBPResidual", k, value, latex,
                       details={**s.details, "p": p, "depth": d,
                                "rbp": rbp(s.grades, k, p=p, rel=s.rel)})


def explain_inst(s: Step) -> Explanation:
    T, max_rel = s.T, s.max_rel
    model = user_model(s.grades, "INST", T=T, max_rel=max_rel)
    terms = model.weight * model.gain
    value = inst(s.grades, T=T, max_rel=max_rel)
    latex = (rf"\text{{INST}} = \sum_{{i=1}}^{{{INST_DEPTH}}} W(i)\, g_i, \quad "
             rf"C(i) = \left(\frac{{i + T + T_i - 1}}{{i + T + T_i}}\right)^2, "
             rf"T_i = {fmt(T)} - \sum_{{j \le i}} \frac{{grade_j}}{{{max_rel}}}"
             rf" \;\Rightarrow\; \text{{INST}} = {fmt(value, 4)}")
    found = float(inst_gains(s.grades, max_rel).sum())
    return Explanation("INST", s.k, value, latex, rows=_rows(s.grades, model, terms),
                       details={**s.details, "T": T, "max_rel": max_rel, "gain_found": found,
                                "expected_results_read": 1.0 / model.weight[0]
                                if len(model.weight) else float("nan")})


def explain_err(s: Step) -> Explanation:
    k, max_rel = s.k, s.max_rel
    model = user_model(s.grades, "ERR", k, max_rel=max_rel)
    terms = model.stopping / model.ranks
    value = err(s.grades, k, max_rel=max_rel)
    shown = [rf"\frac{{{fmt(model.stopping[i], 3)}}}{{{i + 1}}}"
             for i in range(len(terms)) if model.stopping[i] > 0]
    latex = (rf"\text{{ERR@{k}}} = \sum_{{r=1}}^{{{k}}} \frac{{1}}{{r}}\, R_r "
             rf"\prod_{{i<r}} (1 - R_i), \ R = \frac{{2^{{g}} - 1}}{{2^{{{max_rel}}}}}"
             rf" = {' + '.join(shown) or '0'} = {fmt(value, 4)}")
    return Explanation("ERR", k, value, latex, rows=_rows(s.grades, model, terms),
                       details={**s.details, "max_rel": max_rel,
                                "unsatisfied": float(1.0 - model.stopping.sum())})
