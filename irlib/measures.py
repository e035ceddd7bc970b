"""Measures as parameterised values, in ir_measures' syntax: ``nDCG(dcg='exp-log2')@10``.

One table, :data:`MEASURES`, describes every measure and :data:`PARAMS` every parameter
(choices, default, description). The parser, the CLI's help and the app's labels all read it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class ParamInfo:
    """A measure parameter: its default, allowed values (None = any int >= 1) and meaning."""
    default: object
    choices: tuple | None
    description: str


@dataclass(frozen=True)
class MeasureInfo:
    """What a measure is, for docs and labels."""
    label: str
    description: str
    params: tuple[str, ...]
    order_aware: bool
    graded: bool


PARAMS = {
    "rel": ParamInfo(1, None, "minimum grade that counts as relevant (trec_eval's -l)"),
    "dcg": ParamInfo("log2", ("log2", "exp-log2"),
                     "gain and discount: 'log2' = grade / log2(rank+1) (trec_eval, Järvelin & "
                     "Kekäläinen 2002); 'exp-log2' = (2^grade - 1) / log2(rank+1) (Burges et al. 2005)"),
}

MEASURES = {
    "P": MeasureInfo("Precision", "share of the top K that is relevant", ("rel",), False, False),
    "R": MeasureInfo("Recall", "share of all relevant documents found in the top K", ("rel",),
                     False, False),
    "F1": MeasureInfo("F1", "harmonic mean of precision and recall at K", ("rel",), False, False),
    "Success": MeasureInfo("Success", "1 if any relevant document is in the top K", ("rel",),
                           False, False),
    "RR": MeasureInfo("Reciprocal rank", "1 / rank of the first relevant document", ("rel",),
                      True, False),
    "AP": MeasureInfo("Average precision", "mean precision at the ranks of relevant documents, "
                      "divided by all relevant documents", ("rel",), True, False),
    "DCG": MeasureInfo("DCG", "discounted cumulative gain", ("dcg",), True, True),
    "nDCG": MeasureInfo("NDCG", "DCG divided by the DCG of the ideal ranking of all judged "
                        "documents", ("dcg",), True, True),
}
#: Measures that need a cut-off K.
NEEDS_CUTOFF = ("P", "R", "F1", "Success")

_DIGITS = re.compile(r"[0-9]+")   # ASCII only: str.isdigit() accepts "²", which int() rejects
_SYNTAX = re.compile(r"^\s*(?P<name>[A-Za-z0-9_]+)\s*(?:\((?P<params>[^)]*)\))?\s*"
                     r"(?:@\s*(?P<k>[^\s]+))?\s*$")


@dataclass(frozen=True)
class Measure:
    """A parsed measure. ``str(m)`` gives its canonical name, e.g. ``nDCG(dcg='exp-log2')@10``."""
    name: str
    k: int | None = None
    rel: int = 1
    dcg: str = "log2"

    def __str__(self) -> str:
        params = []
        if "rel" in MEASURES[self.name].params and self.rel != PARAMS["rel"].default:
            params.append(f"rel={self.rel}")
        if "dcg" in MEASURES[self.name].params and self.dcg != PARAMS["dcg"].default:
            params.append(f"dcg='{self.dcg}'")
        text = self.name + (f"({','.join(params)})" if params else "")
        return text + (f"@{self.k}" if self.k is not None else "")

    @property
    def gain(self) -> str:
        """The per-ranking functions' name for this measure's gain."""
        return "linear" if self.dcg == "log2" else "exponential"


def parse_measure(text) -> Measure:
    """Parse ir_measures' syntax into a :class:`Measure`.

    Examples
    --------
    >>> parse_measure("nDCG(dcg='exp-log2')@10")
    Measure(name='nDCG', k=10, rel=1, dcg='exp-log2')
    >>> str(parse_measure("AP(rel=2)"))
    'AP(rel=2)'
    """
    if isinstance(text, Measure):
        return text
    match = _SYNTAX.match(str(text))
    if not match:
        raise ValueError(f"cannot read measure {text!r}; write e.g. P@5, AP, nDCG@10, "
                         "nDCG(dcg='exp-log2')@10 or AP(rel=2)")
    name = match["name"]
    canonical = {n.lower(): n for n in MEASURES}
    if name.lower() not in canonical:
        raise ValueError(f"unknown measure {name!r} in {text!r}; known: {', '.join(MEASURES)}")
    name = canonical[name.lower()]
    k = None
    if match["k"] is not None:
        if not _DIGITS.fullmatch(match["k"]) or int(match["k"]) < 1:
            raise ValueError(f"cut-off in {text!r} must be a positive integer, got {match['k']!r}")
        k = int(match["k"])
    if k is None and name in NEEDS_CUTOFF:
        raise ValueError(f"{name} needs a cut-off, e.g. {name}@10 (in {text!r})")
    values = {}
    for part in filter(None, (p.strip() for p in (match["params"] or "").split(","))):
        key, sep, raw = part.partition("=")
        key, raw = key.strip(), raw.strip().strip("'\"")
        if not sep or key not in MEASURES[name].params:
            allowed = ", ".join(MEASURES[name].params) or "none"
            raise ValueError(f"{name} has no parameter {part!r} (in {text!r}); allowed: {allowed}")
        info = PARAMS[key]
        if info.choices is None:
            if not _DIGITS.fullmatch(raw) or int(raw) < 1:
                raise ValueError(f"{key} in {text!r} must be a positive integer, got {raw!r}")
            values[key] = int(raw)
        elif raw not in info.choices:
            raise ValueError(f"{key} in {text!r} must be one of {info.choices}, got {raw!r}")
        else:
            values[key] = raw
    return Measure(name, k, **values)
