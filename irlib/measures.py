"""The measure registry: every measure declared once, in ir_measures' spirit.

Each entry of :data:`MEASURES` says what a measure is (label, one-line help, family, whether it
takes a cut-off K, its parameters, its colour in the app's charts) and how it is computed: the
one-ranking function, the curve kernel behind :func:`irlib.metric_curves` (K = 1..N for many
rankings at once), the explainer behind :func:`irlib.explain`, and the per-query kernel behind
:func:`irlib.evaluate`. :data:`PARAMS` describes every parameter. The parser
(:func:`parse_measure`, ir_measures' syntax ``nDCG(dcg='exp-log2')@10``), the CLI's help, the
app's labels, help texts, colours and URL codecs all read these two tables.

Adding a measure is an entry here plus its functions (see ``Rprec``).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from irlib import _batch_measures as kernels
from irlib import _curve_kernels as curves
from irlib import explain as steps
from irlib.ap import average_precision
from irlib.binary import f1_at_k, precision_at_k, r_precision, recall_at_k, success_at_k
from irlib.dcg import cg_at_k, dcg_at_k, idcg_at_k, ndcg_at_k
from irlib.rank import reciprocal_rank


@dataclass(frozen=True)
class ParamInfo:
    """A measure parameter: its default, allowed values (None = any int >= 1) and meaning."""
    default: object
    choices: tuple | None
    description: str


#: How each family decides relevance: a binary family needs a yes/no (grade >= rel).
FAMILIES = {"set": "order-unaware, binary: what is in the top K",
            "rank": "order-aware, binary: where the relevant results are",
            "graded": "order-aware, graded: how good the results are, and where"}
#: ``cutoff``: "required" (P@K), "optional" (AP or AP@K), "none" (R-precision has its own).
CUTOFFS = ("required", "optional", "none")


@dataclass(frozen=True)
class MeasureInfo:
    """Everything the library and the app know about one measure."""
    label: str                 # short, for tiles and legends; the app adds "@K" when it takes K
    title: str                 # the long name
    description: str           # one line: what it measures (CLI help, tooltips)
    family: str                # a key of FAMILIES
    cutoff: str                # one of CUTOFFS
    params: tuple[str, ...]    # keys of PARAMS it accepts (ir_measures syntax)
    bounded: bool              # between 0 and 1 (the score chart); else the DCG chart
    colour: str                # the same colour on every page (Okabe-Ito, colour-blind safe)
    per_ranking: Callable      # the one-ranking function, e.g. precision_at_k
    curve: Callable            # _curve_kernels: Rankings -> (n_rankings, N) array
    explain: Callable          # explain.Step -> Explanation
    kernel: Callable | None    # evaluate's per-query kernel; None: not a run measure
    tile: bool = True          # a headline number: the playground shows it as a tile

    @property
    def order_aware(self) -> bool:
        return self.family != "set"

    @property
    def graded(self) -> bool:
        return self.family == "graded"

    @property
    def takes_k(self) -> bool:
        return self.cutoff != "none"

    def label_at(self, k) -> str:
        """``Precision@3``; ``R-Prec`` (no K)."""
        return f"{self.label}@{k}" if self.takes_k else self.label


PARAMS = {
    "rel": ParamInfo(1, None, "minimum grade that counts as relevant (trec_eval's -l)"),
    "dcg": ParamInfo("log2", ("log2", "exp-log2"),
                     "gain and discount: 'log2' = grade / log2(rank+1) (trec_eval, Järvelin & "
                     "Kekäläinen 2002); 'exp-log2' = (2^grade - 1) / log2(rank+1) (Burges et al. 2005)"),
}

_BINARY = ("rel",)
_GRADED = ("dcg",)
# Display order: the playground's tiles and legends follow it.
MEASURES = {
    "P": MeasureInfo(
        label="Precision", title="Precision",
        description="Share of the top K results that are relevant.",
        family="set", cutoff="required", params=_BINARY, bounded=True, colour="#0072B2",
        per_ranking=precision_at_k, curve=curves.precision,
        explain=steps.explain_precision, kernel=kernels._precision),
    "R": MeasureInfo(
        label="Recall", title="Recall",
        description="Share of all relevant results that made it into the top K.",
        family="set", cutoff="required", params=_BINARY, bounded=True, colour="#E69F00",
        per_ranking=recall_at_k, curve=curves.recall,
        explain=steps.explain_recall, kernel=kernels._recall),
    "F1": MeasureInfo(
        label="F1", title="F1 score",
        description="Harmonic mean of Precision@K and Recall@K.",
        family="set", cutoff="required", params=_BINARY, bounded=True, colour="#009E73",
        per_ranking=f1_at_k, curve=curves.f1, explain=steps.explain_f1, kernel=kernels._f1),
    "Success": MeasureInfo(
        label="Success", title="Success",
        description="1 if at least one relevant result is in the top K.",
        family="set", cutoff="required", params=_BINARY, bounded=True, colour="#999999",
        per_ranking=success_at_k, curve=curves.success,
        explain=steps.explain_success, kernel=kernels._success, tile=False),
    "Rprec": MeasureInfo(
        label="R-Prec", title="R-precision",
        description="Precision at rank R, the number of relevant documents (no K).",
        family="set", cutoff="none", params=_BINARY, bounded=True, colour="#000000",
        per_ranking=r_precision, curve=curves.r_precision,
        explain=steps.explain_r_precision, kernel=kernels._r_precision, tile=False),
    "RR": MeasureInfo(
        label="RR", title="Reciprocal rank",
        description="1 / rank of the first relevant result (averaged over queries: MRR).",
        family="rank", cutoff="optional", params=_BINARY, bounded=True, colour="#CC79A7",
        per_ranking=reciprocal_rank, curve=curves.reciprocal_rank,
        explain=steps.explain_reciprocal_rank, kernel=kernels._reciprocal_rank),
    "AP": MeasureInfo(
        label="AP", title="Average precision",
        description="Precision at each relevant rank, summed and divided by all relevant "
                    "documents (averaged over queries: MAP).",
        family="rank", cutoff="optional", params=_BINARY, bounded=True, colour="#D55E00",
        per_ranking=average_precision, curve=curves.average_precision,
        explain=steps.explain_average_precision, kernel=kernels._average_precision),
    "CG": MeasureInfo(
        label="CG", title="Cumulative gain",
        description="Sum of the grades in the top K.",
        family="graded", cutoff="optional", params=(), bounded=False, colour="#009E73",
        per_ranking=cg_at_k, curve=curves.cumulative_gain, explain=steps.explain_cg,
        kernel=None, tile=False),
    "DCG": MeasureInfo(
        label="DCG", title="Discounted cumulative gain",
        description="Graded gains, discounted by log2(rank + 1).",
        family="graded", cutoff="optional", params=_GRADED, bounded=False, colour="#0072B2",
        per_ranking=dcg_at_k, curve=curves.dcg, explain=steps.explain_dcg, kernel=kernels._dcg),
    "IDCG": MeasureInfo(
        label="IDCG", title="Ideal DCG",
        description="DCG@K of the best possible ordering of the judged documents.",
        family="graded", cutoff="optional", params=_GRADED, bounded=False, colour="#999999",
        per_ranking=idcg_at_k, curve=curves.idcg, explain=steps.explain_idcg, kernel=None),
    "nDCG": MeasureInfo(
        label="NDCG", title="Normalised DCG",
        description="DCG@K divided by the ideal DCG@K (from all judged documents): 1 is a "
                    "perfect ordering.",
        family="graded", cutoff="optional", params=_GRADED, bounded=True, colour="#56B4E9",
        per_ranking=ndcg_at_k, curve=curves.ndcg, explain=steps.explain_ndcg,
        kernel=kernels._ndcg),
}
#: The measures :func:`irlib.evaluate` and the parser take (the others are per-ranking only).
RUN_MEASURES = tuple(name for name, info in MEASURES.items() if info.kernel is not None)
#: Measures that need a cut-off K.
NEEDS_CUTOFF = tuple(name for name, info in MEASURES.items() if info.cutoff == "required")

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
        raise ValueError(f"unknown measure {name!r} in {text!r}; known: {', '.join(RUN_MEASURES)}")
    name = canonical[name.lower()]
    if name not in RUN_MEASURES:
        raise ValueError(f"{name} is shown per ranking in the app but is not a run measure "
                         f"(in {text!r}); known: {', '.join(RUN_MEASURES)}")
    k = None
    if match["k"] is not None:
        if not _DIGITS.fullmatch(match["k"]) or int(match["k"]) < 1:
            raise ValueError(f"cut-off in {text!r} must be a positive integer, got {match['k']!r}")
        k = int(match["k"])
    if k is not None and not MEASURES[name].takes_k:
        raise ValueError(f"{name} takes no cut-off: it cuts at each query's number of "
                         f"relevant documents (in {text!r})")
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
