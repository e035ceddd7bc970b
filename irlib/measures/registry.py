"""The measure registry: a measure looked up by name.

The measures themselves are declared once, in :mod:`irlib.measures.catalogue`
(:data:`MEASURES`, :data:`PARAMS`; this module hands them on, so every reader imports them from
here). Here: :func:`parse_measure` (ir_measures' syntax ``nDCG(dcg='exp-log2')@10``, the aliases
and trec_eval's own names) giving a :class:`Measure`, and :func:`explain`, which calls a
measure's explainer.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from irlib._common import DEFAULT_REL, check_grades, check_k, check_rel
from irlib.measures.binary import confusion_at_k
from irlib.measures.catalogue import (AGGREGATES, CUTOFFS, FAMILIES, MEASURES, NEEDS_CUTOFF,
                                      PARAMS, RUN_MEASURES, TAUGHT_MEASURES, MeasureInfo,
                                      ParamInfo)
from irlib.measures.explain import Explanation, Step
from irlib.measures.interpolated import check_level
from irlib.measures.user_measures import check_max_rel, check_p, check_target

__all__ = ["AGGREGATES", "ALIASES", "CUTOFFS", "FAMILIES", "MEASURES", "NEEDS_CUTOFF", "PARAMS",
           "RUN_MEASURES", "TAUGHT_MEASURES", "TREC_EVAL_NAMES", "Measure", "MeasureInfo",
           "ParamInfo", "explain", "parse_measure"]


#: Other names for a measure, lower case: recommender systems call Success@K HitRate@K.
ALIASES = {"hitrate": "Success", "hit_rate": "Success"}

_DIGITS = re.compile(r"[0-9]+")   # ASCII only: str.isdigit() accepts "²", which int() rejects
_LEVEL = re.compile(r"(0?\.[0-9]+|[01](\.[0-9]*)?)")      # a recall level: 0 to 1
_NUMBER = re.compile(r"([0-9]+\.?[0-9]*|\.[0-9]+)")       # a positive decimal, e.g. beta
_SYNTAX = re.compile(r"^\s*(?P<name>[A-Za-z0-9_]+)\s*(?:\((?P<params>[^)]*)\))?\s*"
                     r"(?:@\s*(?P<k>[^\s]+))?\s*$")


@dataclass(frozen=True)
class Measure:
    """A parsed measure. ``str(m)`` gives its canonical name, e.g. ``nDCG(dcg='exp-log2')@10``.

    ``k`` is the cut-off (a rank), or for IPrec the recall level (0 to 1).
    """
    name: str
    k: int | float | None = None
    rel: int = 1
    dcg: str = "log2"
    beta: float = 1.0
    rule: str = "v9"
    p: float = PARAMS["p"].default
    T: float = PARAMS["T"].default
    max_rel: int = PARAMS["max_rel"].default

    def __str__(self) -> str:
        params = []
        for key in MEASURES[self.name].params:
            value = getattr(self, key)
            if value != PARAMS[key].default:
                shown = f"'{value}'" if isinstance(value, str) else f"{value:g}"
                params.append(f"{key}={shown}")
        text = self.name + (f"({','.join(params)})" if params else "")
        return text + (f"@{self.k:g}" if self.k is not None else "")

    @property
    def gain(self) -> str:
        """The per-ranking functions' name for this measure's gain."""
        return "linear" if self.dcg == "log2" else "exponential"

    @property
    def info(self) -> MeasureInfo:
        return MEASURES[self.name]


def _trec_eval_names() -> dict[str, tuple[str, str]]:
    """trec_eval's printed names -> (registry name, "plain" | "cut")."""
    names = {}
    for key, info in MEASURES.items():
        if info.trec_eval:
            names[info.trec_eval] = (key, "plain")
        if info.trec_eval_cut:
            names[info.trec_eval_cut] = (key, "cut")
    return names


TREC_EVAL_NAMES = _trec_eval_names()
_TREC_CUT = re.compile(r"^(?P<base>[A-Za-z0-9_]+?)_(?P<k>[0-9.]+)$")


def _from_trec_eval_name(text: str) -> Measure | None:
    """trec_eval's name of one measure (``map``, ``P_10``, ``iprec_at_recall_0.10``,
    ``set_F_0.5``) as a Measure, or None when it is not one."""
    if text in TREC_EVAL_NAMES and TREC_EVAL_NAMES[text][1] == "plain":
        return Measure(TREC_EVAL_NAMES[text][0])
    match = _TREC_CUT.match(text)
    if not match or match["base"] not in TREC_EVAL_NAMES:
        return None
    name, how = TREC_EVAL_NAMES[match["base"]]
    if name == "SetF" and _NUMBER.fullmatch(match["k"]):       # set_F_0.5: beta 0.5
        return Measure(name, beta=_positive(match["k"], "beta", text))
    if how != "cut":
        return None
    return Measure(name, _cutoff(name, match["k"], text))


def _positive(raw: str, key: str, text) -> float:
    if not _NUMBER.fullmatch(raw) or float(raw) <= 0:
        raise ValueError(f"{key} in {text!r} must be a positive number, got {raw!r}")
    return float(raw)


def _cutoff(name: str, raw: str, text) -> int | float:
    """A cut-off as the measure takes it: a rank >= 1, or IPrec's recall level 0..1."""
    if MEASURES[name].cutoff == "level":
        if not _LEVEL.fullmatch(raw) or float(raw) > 1:
            raise ValueError(f"the recall level in {text!r} must be a number from 0 to 1, "
                             f"got {raw!r}")
        return float(raw)
    if not _DIGITS.fullmatch(raw) or int(raw) < 1:
        raise ValueError(f"cut-off in {text!r} must be a positive integer, got {raw!r}")
    return int(raw)


def parse_measure(text, *, rel: int | None = None) -> Measure:
    """Parse one measure: ir_measures' syntax, or trec_eval's name for it.

    ``rel`` is the threshold for binary measures whose text does not set one (the CLI's
    ``-l``). trec_eval's parameter lists (``P.5,10``, ``official``) name several measures:
    :func:`irlib.measures.trec_names.expand_measures` reads those.

    Examples
    --------
    >>> m = parse_measure("nDCG(dcg='exp-log2')@10")
    >>> m.name, m.k, m.dcg
    ('nDCG', 10, 'exp-log2')
    >>> str(parse_measure("AP(rel=2)")), str(parse_measure("P_10")), str(parse_measure("map"))
    ('AP(rel=2)', 'P@10', 'AP')
    >>> str(parse_measure("iprec_at_recall_0.10")), str(parse_measure("recip_rank", rel=2))
    ('IPrec@0.1', 'RR(rel=2)')
    >>> str(parse_measure("HitRate@10"))      # a recommender's name for Success@10
    'Success@10'
    """
    if isinstance(text, Measure):
        return text
    trec = _from_trec_eval_name(str(text).strip())
    if trec is not None:
        return _with_rel(trec, rel)
    match = _SYNTAX.match(str(text))
    if not match:
        raise ValueError(f"cannot read measure {text!r}; write e.g. P@5, AP, nDCG@10, "
                         "nDCG(dcg='exp-log2')@10, AP(rel=2), or trec_eval's map, P_10, "
                         "P.5,10, ndcg_cut.10, official")
    name = match["name"]
    canonical = {**ALIASES, **{n.lower(): n for n in MEASURES}}
    if name.lower() not in canonical:
        if name in TREC_EVAL_NAMES:         # recall, map_cut, iprec_at_recall: no cut-off
            base = MEASURES[TREC_EVAL_NAMES[name][0]]
            example = f"{name}_{base.trec_eval_cutoffs[1]:g}"
            raise ValueError(f"{name!r} is trec_eval's name for {base.title} at several "
                             f"cut-offs; one measure needs one, e.g. {example} (irlib.evaluate "
                             f"and irlib-trec-eval take {name!r} alone for all of trec_eval's)")
        known = ", ".join(n for n in RUN_MEASURES if n.lower() != name.lower())
        trec = ", ".join(n for n in TREC_EVAL_NAMES if n != name)
        raise ValueError(f"unknown measure {name!r} in {text!r}; known: {known}; or "
                         f"trec_eval's: {trec}")
    name = canonical[name.lower()]
    if name not in RUN_MEASURES:
        raise ValueError(f"{name} is shown per ranking in the app but is not a run measure "
                         f"(in {text!r}); known: {', '.join(RUN_MEASURES)}")
    k = None if match["k"] is None else _cutoff(name, match["k"], text)
    if k is not None and not MEASURES[name].takes_k:
        raise ValueError(f"{name} takes no cut-off: it uses the whole ranking"
                         + (" and cuts each query at its number of relevant documents"
                            if name == "Rprec" else "") + f" (in {text!r})")
    if k is None and name in NEEDS_CUTOFF:
        example = f"{name}@0.5" if MEASURES[name].cutoff == "level" else f"{name}@10"
        raise ValueError(f"{name} needs a cut-off, e.g. {example} (in {text!r})")
    values = {}
    for part in filter(None, (p.strip() for p in (match["params"] or "").split(","))):
        key, sep, raw = part.partition("=")
        key, raw = key.strip(), raw.strip().strip("'\"")
        if not sep or key not in MEASURES[name].params:
            allowed = ", ".join(MEASURES[name].params) or "none"
            raise ValueError(f"{name} has no parameter {part!r} (in {text!r}); allowed: {allowed}")
        info = PARAMS[key]
        if info.choices is not None:
            if raw not in info.choices:
                raise ValueError(f"{key} in {text!r} must be one of {info.choices}, got {raw!r}")
            values[key] = raw
        elif info.kind is float:
            values[key] = _positive(raw, key, text)
            if info.below is not None and values[key] >= info.below:
                raise ValueError(f"{key} in {text!r} must be below {info.below:g}, got {raw!r}")
        elif not _DIGITS.fullmatch(raw) or int(raw) < 1:
            raise ValueError(f"{key} in {text!r} must be a positive integer, got {raw!r}")
        else:
            values[key] = int(raw)
    measure = Measure(name, k, **values)
    return measure if "rel" in values else _with_rel(measure, rel)


def _with_rel(measure: Measure, rel: int | None) -> Measure:
    if rel is None or "rel" not in MEASURES[measure.name].params:
        return measure
    if isinstance(rel, bool) or not isinstance(rel, int) or rel < 1:
        raise ValueError(f"the relevance level must be a whole number >= 1, got {rel!r}")
    return replace(measure, rel=rel)


def explain(metric: str, grades, k: int, *, judged=None, rel=DEFAULT_REL, gain="linear",
            ideal="judged", denominator="relevant", p=PARAMS["p"].default,
            T=PARAMS["T"].default, max_rel=PARAMS["max_rel"].default, unjudged=None,
            pooled=None) -> Explanation:
    r"""Explain ``metric`` (a name in :data:`irlib.MEASURES`) at cut-off ``k``.

    ``p`` (RBP), ``T`` and ``max_rel`` (INST, ERR) are the user-model measures' parameters
    (:data:`irlib.PARAMS`); ``unjudged`` and ``pooled`` are infAP's marks of the shown
    results nobody judged and of those among them in the pool
    (:func:`irlib.measures.infap.infap`).

    Examples
    --------
    >>> e = explain("R", [0, 1, 0, 1, 1, 0, 1, 0], 2)
    >>> e.value, e.latex
    (0.25, '\\text{Recall@2} = \\frac{p\\hat{p}}{p\\hat{p} + p\\hat{n}} = \\frac{1}{1 + 3} = 0.25')
    >>> e = explain("AP", [0, 1, 0, 1, 1, 0, 1, 0], 8)
    >>> [(r["rank"], round(r["precision"], 2)) for r in e.rows if r["rel"]]
    [(2, 0.5), (4, 0.5), (5, 0.6), (7, 0.57)]
    """
    grades = check_grades(grades)
    rel = check_rel(rel)
    if metric not in MEASURES:
        raise ValueError(f"metric must be one of {tuple(MEASURES)}, got {metric!r}")
    if (unjudged is not None or pooled is not None) and metric != "infAP":
        raise ValueError(f"unjudged and pooled are infAP's marks; {metric} does not read them")
    if MEASURES[metric].cutoff == "level":       # IPrec: k is a recall level, 0 to 1
        k = check_level(k)
        conf = confusion_at_k(grades, max(len(grades), 1), judged=judged, rel=rel)
    else:
        k = check_k(k)
        conf = confusion_at_k(grades, k, judged=judged, rel=rel)
    details = {"tp": conf.tp, "fp": conf.fp, "fn": conf.fn, "tn": conf.tn,
               "outcomes": conf.outcomes}
    return MEASURES[metric].explain(Step(grades, k, judged, rel, gain, ideal, denominator,
                                         details, check_p(p), check_target(T),
                                         check_max_rel(max_rel), unjudged, pooled))
