"""How each number is made: the intermediate terms and the formula with today's numbers.

One explainer per measure. :func:`~irlib.measures.registry.explain` (``irlib.explain``) looks a
measure up in the registry and calls its explainer here, which returns an :class:`Explanation`
whose ``latex`` is the formula written the way the article writes it
(``Recall@2 = 1/(1+3) = 0.25``) and whose ``rows`` hold the per-rank table (AP's precision and
rel_k, NDCG's gain / discount / running DCG). The explainers never look the registry up: it
imports them.
"""
from __future__ import annotations

import math

from dataclasses import dataclass, field

import numpy as np

from irlib._common import GEOMETRIC_FLOOR, judged_or_shown
from irlib._common import fmt_number as fmt
from irlib.measures.ap import average_precision, precision_at_ranks, _ap_denominator
from irlib.measures.binary import (f1_at_k, precision_at_k, r_precision, recall_at_k, set_f,
                                   set_precision, set_recall, success_at_k)
from irlib.measures.bpref import bpref, bpref_terms
from irlib.measures.counts import judged_at_k
from irlib.measures.infap import infap, infap_rows, pool_marks
from irlib.measures.dcg import cg_at_k, dcg_at_k, discounts, gain_values, ideal_grades
from irlib.measures.interpolated import (ELEVEN_LEVELS, eleven_point_average,
                                         interpolated_precision, precision_at_relevant,
                                         relevant_needed)
from irlib.measures.rank import first_relevant_rank

@dataclass(frozen=True)
class Explanation:
    """One metric at one K: its value, the substituted formula and the per-rank terms."""
    metric: str
    k: int
    value: float
    latex: str
    rows: list[dict] = field(default_factory=list)
    ideal_rows: list[dict] = field(default_factory=list)
    details: dict = field(default_factory=dict)


def _dcg_rows(grades: np.ndarray, gain: str) -> list[dict]:
    """The notebook's table: rank, grade, gain, discount, discounted gain, running DCG."""
    gains = gain_values(grades, gain)
    disc = discounts(len(grades))
    dg = gains / disc
    running = np.cumsum(dg)
    return [{"rank": i + 1, "grade": float(grades[i]), "gain": float(gains[i]),
             "discount": float(disc[i]), "discounted_gain": float(dg[i]),
             "running_dcg": float(running[i])} for i in range(len(grades))]


def _dcg_sum_latex(grades: np.ndarray, gain: str) -> str:
    if len(grades) == 0:
        return "0"
    terms = []
    for i, g in enumerate(grades):
        top = fmt(g) if gain == "linear" else f"(2^{{{fmt(g)}}}-1)"
        terms.append(rf"\frac{{{top}}}{{\log_2({i + 2})}}")
    return " + ".join(terms)


@dataclass(frozen=True)
class Step:
    """What every explainer gets: validated inputs and the confusion counts at K."""
    grades: np.ndarray
    k: int
    judged: object
    rel: int
    gain: str
    ideal: str
    denominator: str
    details: dict                      # tp, fp, fn, tn, outcomes
    p: float = 0.8                     # RBP's persistence
    T: float = 1.0                     # INST's target
    max_rel: int = 4                   # INST's and ERR's highest grade
    unjudged: object = None            # infAP's marks: shown results nobody judged
    pooled: object = None              # ... and which of those were in the pool

    def graded(self) -> tuple[list[dict], list[dict], dict]:
        """DCG's rows for the ranking and for the ideal one, and the details with DCG/IDCG."""
        top = self.grades[:self.k]
        ideal_top = ideal_grades(self.grades, judged=self.judged, ideal=self.ideal)[:self.k]
        dcg = dcg_at_k(self.grades, self.k, gain=self.gain)
        idcg = dcg_at_k(ideal_top, gain=self.gain)
        details = {**self.details, "dcg": dcg, "idcg": idcg, "ideal_grades": ideal_top.tolist()}
        return _dcg_rows(top, self.gain), _dcg_rows(ideal_top, self.gain), details


def explain_precision(s: Step) -> Explanation:
    k, tp = s.k, s.details["tp"]
    value = precision_at_k(s.grades, k, rel=s.rel)
    latex = (rf"\text{{Precision@{k}}} = \frac{{p\hat{{p}}}}{{p\hat{{p}} + n\hat{{p}}}}"
             rf" = \frac{{p\hat{{p}}}}{{K}} = \frac{{{tp}}}{{{k}}} = {fmt(value)}")
    if len(s.grades) < k:      # trec_eval's P@k still divides by k when fewer were returned
        latex += rf" \quad \text{{(only {len(s.grades)} returned; still divided by K)}}"
    return Explanation("P", k, value, latex, details=s.details)


def explain_recall(s: Step) -> Explanation:
    k, tp, fn = s.k, s.details["tp"], s.details["fn"]
    value = recall_at_k(s.grades, k, judged=s.judged, rel=s.rel)
    latex = (rf"\text{{Recall@{k}}} = \frac{{p\hat{{p}}}}{{p\hat{{p}} + p\hat{{n}}}}"
             rf" = \frac{{{tp}}}{{{tp} + {fn}}} = {fmt(value)}")
    if tp + fn == 0:
        latex += _NO_RELEVANT
    return Explanation("R", k, value, latex, details=s.details)


def explain_f1(s: Step) -> Explanation:
    k = s.k
    p = precision_at_k(s.grades, k, rel=s.rel)
    r = recall_at_k(s.grades, k, judged=s.judged, rel=s.rel)
    value = f1_at_k(s.grades, k, judged=s.judged, rel=s.rel)
    latex = (rf"\text{{F1@{k}}} = \frac{{2 \cdot P \cdot R}}{{P + R}} = "
             rf"\frac{{2 \cdot {fmt(p)} \cdot {fmt(r)}}}{{{fmt(p)} + {fmt(r)}}} = {fmt(value)}")
    if p + r == 0:
        latex += r" \quad \text{(P and R are both 0, so F1 is 0)}"
    return Explanation("F1", k, value, latex, details={**s.details, "precision": p, "recall": r})


def explain_success(s: Step) -> Explanation:
    k = s.k
    value = success_at_k(s.grades, k, rel=s.rel)
    verdict = "a relevant result is" if value else "no relevant result is"
    latex = rf"\text{{Success@{k}}} = {fmt(value)} \quad \text{{({verdict} in the top {k})}}"
    return Explanation("Success", k, value, latex, details=s.details)


def explain_r_precision(s: Step) -> Explanation:
    """R-precision ignores K: precision at rank R, the number of relevant documents."""
    n_relevant = int(np.count_nonzero(judged_or_shown(s.grades, s.judged) >= s.rel))
    value = r_precision(s.grades, judged=s.judged, rel=s.rel)
    found = int(np.count_nonzero(s.grades[:n_relevant] >= s.rel))
    latex = (rf"\text{{R-Precision}} = \frac{{\text{{relevant in the top }} R}}{{R}}"
             rf" = \frac{{{found}}}{{{n_relevant}}} = {fmt(value)}" if n_relevant else
             r"\text{R-Precision} = 0" + _NO_RELEVANT)
    return Explanation("Rprec", s.k, value, latex,
                       details={**s.details, "n_relevant": n_relevant, "found": found})


def explain_reciprocal_rank(s: Step) -> Explanation:
    k = s.k
    first = first_relevant_rank(s.grades, k, rel=s.rel)
    value = 1.0 / first if first else 0.0
    latex = (rf"\text{{RR@{k}}} = \frac{{1}}{{rank_1}} = \frac{{1}}{{{first}}} = {fmt(value)}"
             if first else rf"\text{{RR@{k}}} = 0 \quad \text{{(no relevant result in the top {k})}}")
    return Explanation("RR", k, value, latex, details={**s.details, "first_relevant_rank": first})


def explain_average_precision(s: Step) -> Explanation:
    k, denominator = s.k, s.denominator
    relevant = s.grades[:k] >= s.rel
    precision = precision_at_ranks(relevant)
    rows = [{"rank": i + 1, "rel": int(relevant[i]), "precision": float(precision[i]),
             "term": float(precision[i] * relevant[i])} for i in range(len(relevant))]
    n_relevant = int(np.count_nonzero(judged_or_shown(s.grades, s.judged) >= s.rel))
    den = _ap_denominator(denominator, n_relevant, k, int(relevant.sum()))
    value = average_precision(s.grades, k, judged=s.judged, rel=s.rel, denominator=denominator)
    terms = " + ".join(rf"{fmt(r['precision'])} \cdot 1" for r in rows if r["rel"]) or "0"
    latex = (rf"\text{{AP@{k}}} = \frac{{\sum_{{k=1}}^{{{k}}} P@k \cdot rel_k}}{{{_AP_DEN_TEX[denominator]}}}"
             rf" = \frac{{{terms}}}{{{den}}} = {fmt(value)}")
    if den == 0:
        latex += (_NO_RELEVANT if denominator != "retrieved" else
                  rf" \quad \text{{(no relevant result in the top {k}: scored 0)}}")
    found = [r["precision"] for r in rows if r["rel"]]      # P@k at each relevant rank
    return Explanation("AP", k, value, latex, rows=rows,
                       details={**s.details, "denominator": den, "n_relevant": n_relevant,
                                "terms": found, "numerator": float(sum(found))})


def explain_cg(s: Step) -> Explanation:
    k = s.k
    rows, _, details = s.graded()
    value = cg_at_k(s.grades, k)
    latex = (rf"\text{{CG@{k}}} = \sum_{{k=1}}^{{{k}}} rel_k = "
             + (" + ".join(fmt(g) for g in s.grades[:k]) or "0") + rf" = {fmt(value)}")
    return Explanation("CG", k, value, latex, rows=rows, details=details)


def explain_dcg(s: Step) -> Explanation:
    k = s.k
    rows, ideal_rows, details = s.graded()
    gain_tex = "rel_k" if s.gain == "linear" else "(2^{rel_k} - 1)"
    latex = (rf"\text{{DCG@{k}}} = \sum_{{k=1}}^{{{k}}} \frac{{{gain_tex}}}{{\log_2(k+1)}} = "
             + _dcg_sum_latex(s.grades[:k], s.gain) + rf" = {fmt(details['dcg'])}")
    return Explanation("DCG", k, details["dcg"], latex, rows=rows, ideal_rows=ideal_rows,
                       details=details)


def explain_idcg(s: Step) -> Explanation:
    k = s.k
    rows, ideal_rows, details = s.graded()
    latex = (rf"\text{{IDCG@{k}}} = "
             + _dcg_sum_latex(np.array(details["ideal_grades"]), s.gain)
             + rf" = {fmt(details['idcg'])}")
    return Explanation("IDCG", k, details["idcg"], latex, rows=rows, ideal_rows=ideal_rows,
                       details=details)


def explain_ndcg(s: Step) -> Explanation:
    k = s.k
    rows, ideal_rows, details = s.graded()
    dcg, idcg = details["dcg"], details["idcg"]
    value = dcg / idcg if idcg > 0 else 0.0
    latex = (rf"\text{{NDCG@{k}}} = \frac{{DCG@{k}}}{{IDCG@{k}}} = "
             rf"\frac{{{fmt(dcg)}}}{{{fmt(idcg)}}} = {fmt(value)}")
    if idcg == 0:
        latex += r" \quad \text{(no relevant result: IDCG = 0, so NDCG = 0)}"
    return Explanation("nDCG", k, value, latex, rows=rows, ideal_rows=ideal_rows, details=details)


_NO_RELEVANT = r" \quad \text{(nothing relevant to find: scored 0)}"

_AP_DEN_TEX = {"relevant": r"\text{number of relevant results}",
               "min_r_k": r"\min(\text{relevant}, K)",
               "retrieved": r"\text{relevant results in the top } K"}


# Whole-ranking measures (trec_eval's summary lines): no K.

def _count(s: Step, metric: str, title: str, value: float, how: str) -> Explanation:
    latex = rf"\text{{{title}}} = {how} = {fmt(value)}"
    return Explanation(metric, s.k, value, latex, details=s.details)


def _n_relevant(s: Step) -> int:
    return int(np.count_nonzero(judged_or_shown(s.grades, s.judged) >= s.rel))


def explain_judged(s: Step) -> Explanation:
    shown = min(s.k, len(s.grades))
    value = judged_at_k(s.grades, s.k)
    latex = (rf"\text{{Judged@{s.k}}} = \frac{{\text{{judged in the top }} K}}"
             rf"{{\min(K, \text{{returned}})}} = \frac{{{shown}}}{{{shown}}} = {fmt(value)}"
             r" \quad \text{(every shown grade is a judgment)}" if shown else
             rf"\text{{Judged@{s.k}}} = 0 \quad \text{{(nothing returned)}}")
    return Explanation("Judged", s.k, value, latex, details=s.details)


def explain_num_queries(s: Step) -> Explanation:
    return _count(s, "NumQ", "num\\_q", 1.0, r"\text{one query (summed over queries)}")


def explain_num_retrieved(s: Step) -> Explanation:
    return _count(s, "NumRet", "num\\_ret", float(len(s.grades)), r"\text{results returned}")


def explain_num_relevant(s: Step) -> Explanation:
    return _count(s, "NumRel", "num\\_rel", float(_n_relevant(s)),
                  rf"\text{{judged documents with grade}} \ge {s.rel}")


def explain_num_relevant_retrieved(s: Step) -> Explanation:
    found = float(np.count_nonzero(s.grades >= s.rel))
    return _count(s, "NumRelRet", "num\\_rel\\_ret", found,
                  rf"\text{{results with grade}} \ge {s.rel}")


def explain_num_nonrelevant_retrieved(s: Step) -> Explanation:
    return _count(s, "NumNonrelRet", "num\\_nonrel\\_judged\\_ret",
                  float(np.count_nonzero(s.grades < s.rel)),
                  rf"\text{{judged results with grade}} < {s.rel}")


def _whole_ap(s: Step) -> tuple[float, int]:
    return average_precision(s.grades, judged=s.judged, rel=s.rel), _n_relevant(s)


def explain_gmap(s: Step) -> Explanation:
    ap, _ = _whole_ap(s)
    floor = max(ap, GEOMETRIC_FLOOR)
    latex = (rf"\text{{GMAP}} = \exp\Big(\frac{{1}}{{Q}} \sum_q \ln \max(AP_q, 10^{{-5}})\Big)"
             rf"; \quad \text{{this query: }} AP = {fmt(ap, 4)},\ "
             rf"\ln \max({fmt(ap, 4)}, 10^{{-5}}) = {fmt(math.log(floor), 3)}")
    return Explanation("GMAP", s.k, ap, latex, details={**s.details, "log_term": math.log(floor)})


def explain_bpref(s: Step) -> Explanation:
    pool = judged_or_shown(s.grades, s.judged)
    n_rel = int(np.count_nonzero(pool >= s.rel))
    relevant = s.grades >= s.rel
    n_non = max(len(pool) - n_rel, int(np.count_nonzero(~relevant)))
    above = np.cumsum(~relevant)[relevant]
    terms = bpref_terms(above, n_rel, n_non)
    value = bpref(s.grades, judged=s.judged, rel=s.rel)
    rows = [{"rank": int(r) + 1, "nonrelevant_above": int(a), "term": float(t)}
            for r, a, t in zip(np.flatnonzero(relevant), above, terms)]
    shown = " + ".join(rf"(1 - \frac{{\min({int(a)}, {n_rel})}}{{{min(n_rel, n_non)}}})"
                       if a else "1" for a in above) or "0"
    latex = (rf"\text{{bpref}} = \frac{{1}}{{R}} \sum_r \Big(1 - "
             rf"\frac{{\min(|n \text{{ above }} r|, R)}}{{\min(R, N)}}\Big) = "
             rf"\frac{{{shown}}}{{{n_rel}}} = {fmt(value)}"
             if n_rel else r"\text{bpref} = 0" + _NO_RELEVANT)
    return Explanation("Bpref", s.k, value, latex, rows=rows,
                       details={**s.details, "n_relevant": n_rel, "n_nonrelevant": n_non})


def explain_gm_bpref(s: Step) -> Explanation:
    value = bpref(s.grades, judged=s.judged, rel=s.rel)
    floor = max(value, GEOMETRIC_FLOOR)
    latex = (rf"\text{{GM-bpref}} = \exp\Big(\frac{{1}}{{Q}} \sum_q \ln \max(\text{{bpref}}_q, "
             rf"10^{{-5}})\Big); \quad \text{{this query: bpref}} = {fmt(value, 4)}")
    return Explanation("GMBpref", s.k, value, latex,
                       details={**s.details, "log_term": math.log(floor)})


def explain_infap(s: Step) -> Explanation:
    sampled_out, outside = pool_marks(s.grades, s.unjudged, s.pooled)
    n_rel = _n_relevant(s)
    found = infap_rows(s.grades, s.rel, sampled_out, outside)
    value = infap(s.grades, judged=s.judged, rel=s.rel, unjudged=s.unjudged, pooled=s.pooled)
    kind = np.where(outside, "outside the pool", np.where(sampled_out, "pooled, unjudged",
                    np.where(s.grades >= s.rel, "relevant", "not relevant")))
    rows = [{"rank": i + 1, "grade": float(g), "kind": str(kind[i])}
            for i, g in enumerate(s.grades)]
    for at, rank in enumerate(found["rank"]):       # a relevant result: what is above it
        rows[rank - 1].update(relevant_above=int(found["relevant_above"][at]),
                              nonrelevant_above=int(found["nonrelevant_above"][at]),
                              unjudged_above=int(found["unjudged_above"][at]),
                              term=float(found["term"][at]))
    shown = " + ".join(
        "1" if k == 1 else rf"\Big(\frac{{1}}{{{k}}} + \frac{{{r + n + u}}}{{{k}}} \cdot "
        rf"\frac{{{r} + \epsilon}}{{{r + n} + 2\epsilon}}\Big)"
        for k, r, n, u in zip(found["rank"], found["relevant_above"],
                              found["nonrelevant_above"], found["unjudged_above"])) or "0"
    latex = (r"\text{infAP} = \frac{1}{R} \sum_{k \text{ relevant}} \Big(\frac{1}{k} + "
             r"\frac{k-1}{k} \cdot \frac{r + n + u}{k-1} \cdot "
             rf"\frac{{r + \epsilon}}{{r + n + 2\epsilon}}\Big) = \frac{{{shown}}}{{{n_rel}}}"
             rf" = {fmt(value)}" if n_rel else r"\text{infAP} = 0" + _NO_RELEVANT)
    return Explanation("infAP", s.k, value, latex, rows=rows,
                       details={**s.details, "n_relevant": n_rel,
                                "sampled_out": int(sampled_out.sum()),
                                "outside_pool": int(outside.sum())})


def explain_interpolated_precision(s: Step) -> Explanation:
    level = s.k
    n_rel = _n_relevant(s)
    ranks, precision = precision_at_relevant(s.grades, rel=s.rel)
    needed = relevant_needed(level, n_rel)
    value = interpolated_precision(s.grades, level, judged=s.judged, rel=s.rel)
    rows = [{"rank": int(r), "found": i + 1, "recall": (i + 1) / n_rel if n_rel else 0.0,
             "precision": float(p)} for i, (r, p) in enumerate(zip(ranks, precision))]
    if not n_rel:
        latex = rf"\text{{IPrec@{fmt(level)}}} = 0" + _NO_RELEVANT
    elif needed > len(ranks):
        latex = (rf"\text{{IPrec@{fmt(level)}}} = 0 \quad \text{{(recall {fmt(level)} needs "
                 rf"{needed} of {n_rel} relevant; the ranking finds {len(ranks)})}}")
    else:
        later = ", ".join(fmt(p) for p in precision[max(needed, 1) - 1:])
        latex = (rf"\text{{IPrec@{fmt(level)}}} = \max_{{\text{{recall}} \ge {fmt(level)}}} P"
                 rf" = \max({later}) = {fmt(value)}")
    return Explanation("IPrec", 0, value, latex, rows=rows,
                       details={**s.details, "level": level, "needed": needed,
                                "n_relevant": n_rel})


def explain_eleven_point(s: Step) -> Explanation:
    points = [interpolated_precision(s.grades, lv, judged=s.judged, rel=s.rel)
              for lv in ELEVEN_LEVELS]
    value = eleven_point_average(s.grades, judged=s.judged, rel=s.rel)
    latex = (r"\text{11-pt avg} = \frac{1}{11} \sum_{r = 0, 0.1, \dots, 1} IPrec@r = \frac{"
             + " + ".join(fmt(p) for p in points) + rf"}}{{11}} = {fmt(value)}")
    rows = [{"recall": lv, "interpolated_precision": p} for lv, p in zip(ELEVEN_LEVELS, points)]
    return Explanation("IPrecAvg", s.k, value, latex, rows=rows, details=s.details)


def explain_set_precision(s: Step) -> Explanation:
    found = int(np.count_nonzero(s.grades >= s.rel))
    value = set_precision(s.grades, rel=s.rel)
    latex = (rf"\text{{set P}} = \frac{{\text{{relevant returned}}}}{{\text{{returned}}}}"
             rf" = \frac{{{found}}}{{{len(s.grades)}}} = {fmt(value)}")
    return Explanation("SetP", s.k, value, latex, details=s.details)


def explain_set_recall(s: Step) -> Explanation:
    found, n_rel = int(np.count_nonzero(s.grades >= s.rel)), _n_relevant(s)
    value = set_recall(s.grades, judged=s.judged, rel=s.rel)
    latex = (rf"\text{{set R}} = \frac{{\text{{relevant returned}}}}{{R}}"
             rf" = \frac{{{found}}}{{{n_rel}}} = {fmt(value)}" if n_rel else
             r"\text{set R} = 0" + _NO_RELEVANT)
    return Explanation("SetR", s.k, value, latex, details=s.details)


def explain_set_f(s: Step) -> Explanation:
    p = set_precision(s.grades, rel=s.rel)
    r = set_recall(s.grades, judged=s.judged, rel=s.rel)
    value = set_f(s.grades, judged=s.judged, rel=s.rel)
    latex = (rf"\text{{set F}} = \frac{{2 \cdot P \cdot R}}{{P + R}} = "
             rf"\frac{{2 \cdot {fmt(p)} \cdot {fmt(r)}}}{{{fmt(p)} + {fmt(r)}}} = {fmt(value)}"
             if p * r else r"\text{set F} = 0 \quad \text{(nothing relevant returned)}")
    return Explanation("SetF", s.k, value, latex,
                       details={**s.details, "precision": p, "recall": r})

