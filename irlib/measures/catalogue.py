"""The measure catalogue: every measure declared once, in ir_measures' spirit.

Each entry of :data:`MEASURES` says what a measure is (label, one-line help, family, whether it
takes a cut-off K, its parameters) and how it is computed: the
one-ranking function, the curve kernel behind :func:`irlib.metric_curves` (K = 1..N for many
rankings at once), the explainer behind :func:`irlib.explain`, and the per-query kernel behind
:func:`irlib.evaluate`. :data:`PARAMS` describes every parameter. The parser
(:func:`~irlib.measures.registry.parse_measure`, ir_measures' syntax ``nDCG(dcg='exp-log2')@10``),
the CLI's help, the app's labels, help texts and URL codecs all read these two tables
(the app's colours are its own: ``ui/shared/charts.py``),
through :mod:`irlib.measures.registry`.

Adding a measure is an entry here plus its functions (see ``Rprec``).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from irlib.measures import _batch_kernels as kernels
from irlib.measures import _curve_kernels as curves
from irlib.measures import counts
from irlib.measures import explain as steps
from irlib.measures import explain_users as steps_users
from irlib.measures import user_measures as users
from irlib.measures.ap import average_precision
from irlib.measures.binary import (f1_at_k, precision_at_k, r_precision, recall_at_k, set_f,
                                   set_precision, set_recall, success_at_k)
from irlib.measures.bpref import bpref
from irlib.measures.dcg import cg_at_k, dcg_at_k, idcg_at_k, ndcg_at_k
from irlib.measures.infap import infap
from irlib.measures.interpolated import (ELEVEN_LEVELS, RULES, eleven_point_average,
                                         interpolated_precision)
from irlib.measures.rank import reciprocal_rank


@dataclass(frozen=True)
class ParamInfo:
    """A measure parameter: its default, allowed values (None = any int >= 1) and meaning."""
    default: object
    choices: tuple | None
    description: str
    kind: type = int           # int: a whole number >= 1; float: a positive number
    below: float | None = None # a float parameter must also be below this (RBP's p < 1)


#: How each family decides relevance: a binary family needs a yes/no (grade >= rel).
FAMILIES = {"set": "order-unaware, binary: what is in the top K",
            "rank": "order-aware, binary: where the relevant results are",
            "graded": "order-aware, graded: how good the results are, and where",
            "count": "counts: how many results, relevant documents and relevant results"}
#: ``cutoff``: "required" (P@K), "optional" (AP or AP@K), "none" (R-precision has its own),
#: "level" (IPrec@0.5: a recall level from 0 to 1, not a rank).
CUTOFFS = ("required", "optional", "none", "level")
#: How per-query values become the line over all queries (trec_eval's ``all``): the mean,
#: the geometric mean (values below 1e-5 count as 1e-5), the sum, or the number of queries.
AGGREGATES = ("mean", "gmean", "sum", "count")
_TREC_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)   # trec_eval's P, recall, *_cut


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
    per_ranking: Callable      # the one-ranking function, e.g. precision_at_k
    curve: Callable | None     # _curve_kernels: Rankings -> (n_rankings, N); None: no K curve
    explain: Callable          # explain.Step -> Explanation
    kernel: Callable | None    # evaluate's per-query kernel; None: not a run measure
    tile: bool = True          # a headline number: the playground shows it as a tile
    teach: bool = True         # taught in the lessons (the playground's formula picker)
    aggregate: str = "mean"    # one of AGGREGATES
    trec_eval: str | None = None       # trec_eval's name without a cut-off ("map")
    trec_eval_cut: str | None = None   # ... with one ("map_cut"), printed as map_cut_10
    trec_eval_cutoffs: tuple = ()      # trec_eval's default cut-offs ("-m P" = P.5,10,...)
    per_query_line: bool = True        # trec_eval -q prints it per query (not num_q, gm_map)

    @property
    def order_aware(self) -> bool:
        return self.family in ("rank", "graded")

    @property
    def graded(self) -> bool:
        return self.family == "graded"

    @property
    def takes_k(self) -> bool:
        return self.cutoff != "none"

    @property
    def integer(self) -> bool:
        """A count: printed without decimals."""
        return self.family == "count"

    def label_at(self, k) -> str:
        """``Precision@3``; ``R-Prec`` (no K)."""
        return f"{self.label}@{k}" if self.takes_k else self.label


PARAMS = {
    "rel": ParamInfo(1, None, "minimum grade that counts as relevant (trec_eval's -l)"),
    "dcg": ParamInfo("log2", ("log2", "exp-log2"),
                     "gain and discount: 'log2' = grade / log2(rank+1) (trec_eval, Järvelin & "
                     "Kekäläinen 2002); 'exp-log2' = (2^grade - 1) / log2(rank+1) (Burges et al. 2005)"),
    "beta": ParamInfo(1.0, None, "weight of recall against precision in set F, as trec_eval's "
                      "set_F.<beta>: (beta+1)PR / (beta P + R)", float),
    "rule": ParamInfo("v9", RULES, "how a recall level becomes a number of relevant documents: "
                      "'v9' = floor(level R + 0.9) (trec_eval 9, pytrec_eval); 'v10' = "
                      "round(level R) (trec_eval 10.0)"),
    "p": ParamInfo(users.DEFAULT_P, None, "RBP's persistence: the probability of reading on "
                   "from one rank to the next (0 < p < 1); the user reads 1/(1-p) results on "
                   "average", float, below=1.0),
    "T": ParamInfo(users.DEFAULT_T, None, "INST's target: the gain the user came for, on the "
                   "0-1 gain scale (grade / max_rel)", float),
    "max_rel": ParamInfo(users.DEFAULT_MAX_REL, None, "the highest grade of the scale: INST's "
                         "gain is grade / max_rel (ir_measures' max_rel); ERR's satisfaction "
                         "is (2^grade - 1) / 2^max_rel (gdeval: 4); higher grades count as "
                         "max_rel"),
}

_BINARY = ("rel",)
_GRADED = ("dcg",)
# Display order: the playground's tiles and legends follow it; trec_eval's summary measures
# (teach=False) come after the lessons' own.
MEASURES = {
    "P": MeasureInfo(
        label="Precision", title="Precision",
        description="Share of the top K results that are relevant.",
        family="set", cutoff="required", params=_BINARY, bounded=True,
        per_ranking=precision_at_k, curve=curves.precision,
        explain=steps.explain_precision, kernel=kernels._precision,
        trec_eval_cut="P", trec_eval_cutoffs=_TREC_CUTOFFS),
    "R": MeasureInfo(
        label="Recall", title="Recall",
        description="Share of all relevant results that made it into the top K.",
        family="set", cutoff="required", params=_BINARY, bounded=True,
        per_ranking=recall_at_k, curve=curves.recall,
        explain=steps.explain_recall, kernel=kernels._recall,
        trec_eval_cut="recall", trec_eval_cutoffs=_TREC_CUTOFFS),
    "F1": MeasureInfo(
        label="F1", title="F1 score",
        description="Harmonic mean of Precision@K and Recall@K.",
        family="set", cutoff="required", params=_BINARY, bounded=True,
        per_ranking=f1_at_k, curve=curves.f1, explain=steps.explain_f1, kernel=kernels._f1),
    "Success": MeasureInfo(
        label="Success", title="Success",
        description="1 if at least one relevant result is in the top K.",
        family="set", cutoff="required", params=_BINARY, bounded=True,
        per_ranking=success_at_k, curve=curves.success,
        explain=steps.explain_success, kernel=kernels._success, tile=False,
        trec_eval_cut="success", trec_eval_cutoffs=(1, 5, 10)),
    "Rprec": MeasureInfo(
        label="R-Prec", title="R-precision",
        description="Precision at rank R, the number of relevant documents (no K).",
        family="set", cutoff="none", params=_BINARY, bounded=True,
        per_ranking=r_precision, curve=curves.r_precision,
        explain=steps.explain_r_precision, kernel=kernels._r_precision, tile=False,
        trec_eval="Rprec"),
    "RR": MeasureInfo(
        label="RR", title="Reciprocal rank",
        description="1 / rank of the first relevant result (averaged over queries: MRR).",
        family="rank", cutoff="optional", params=_BINARY, bounded=True,
        per_ranking=reciprocal_rank, curve=curves.reciprocal_rank,
        explain=steps.explain_reciprocal_rank, kernel=kernels._reciprocal_rank,
        trec_eval="recip_rank"),
    "AP": MeasureInfo(
        label="AP", title="Average precision",
        description="Precision at each relevant rank, summed and divided by all relevant "
                    "documents (averaged over queries: MAP).",
        family="rank", cutoff="optional", params=_BINARY, bounded=True,
        per_ranking=average_precision, curve=curves.average_precision,
        explain=steps.explain_average_precision, kernel=kernels._average_precision,
        trec_eval="map", trec_eval_cut="map_cut", trec_eval_cutoffs=_TREC_CUTOFFS),
    "CG": MeasureInfo(
        label="CG", title="Cumulative gain",
        description="Sum of the grades in the top K.",
        family="graded", cutoff="optional", params=(), bounded=False,
        per_ranking=cg_at_k, curve=curves.cumulative_gain, explain=steps.explain_cg,
        kernel=None, tile=False),
    "DCG": MeasureInfo(
        label="DCG", title="Discounted cumulative gain",
        description="Graded gains, discounted by log2(rank + 1).",
        family="graded", cutoff="optional", params=_GRADED, bounded=False,
        per_ranking=dcg_at_k, curve=curves.dcg, explain=steps.explain_dcg, kernel=kernels._dcg),
    "IDCG": MeasureInfo(
        label="IDCG", title="Ideal DCG",
        description="DCG@K of the best possible ordering of the judged documents.",
        family="graded", cutoff="optional", params=_GRADED, bounded=False,
        per_ranking=idcg_at_k, curve=curves.idcg, explain=steps.explain_idcg, kernel=None),
    "nDCG": MeasureInfo(
        label="NDCG", title="Normalised DCG",
        description="DCG@K divided by the ideal DCG@K (from all judged documents): 1 is a "
                    "perfect ordering.",
        family="graded", cutoff="optional", params=_GRADED, bounded=True,
        per_ranking=ndcg_at_k, curve=curves.ndcg, explain=steps.explain_ndcg,
        kernel=kernels._ndcg, trec_eval="ndcg", trec_eval_cut="ndcg_cut",
        trec_eval_cutoffs=_TREC_CUTOFFS),
    # trec_eval's summary measures: the CLI, evaluate and Lesson 9; not taught on the boards.
    "NumQ": MeasureInfo(
        label="queries", title="Number of queries",
        description="How many queries the means are over (trec_eval's num_q).",
        family="count", cutoff="none", params=(), bounded=False,
        per_ranking=counts.num_queries, curve=curves.num_queries,
        explain=steps.explain_num_queries, kernel=kernels._num_queries, tile=False,
        teach=False, aggregate="count", trec_eval="num_q", per_query_line=False),
    "NumRet": MeasureInfo(
        label="returned", title="Results returned",
        description="How many results the run returned (summed over queries).",
        family="count", cutoff="none", params=(), bounded=False,
        per_ranking=counts.num_retrieved, curve=curves.num_retrieved,
        explain=steps.explain_num_retrieved, kernel=kernels._num_retrieved, tile=False,
        teach=False, aggregate="sum", trec_eval="num_ret"),
    "NumRel": MeasureInfo(
        label="relevant", title="Relevant documents",
        description="How many judged documents are relevant, found or not (summed).",
        family="count", cutoff="none", params=_BINARY, bounded=False,
        per_ranking=counts.num_relevant, curve=curves.num_relevant,
        explain=steps.explain_num_relevant, kernel=kernels._num_relevant, tile=False,
        teach=False, aggregate="sum", trec_eval="num_rel"),
    "NumRelRet": MeasureInfo(
        label="relevant returned", title="Relevant results returned",
        description="How many of the results are relevant (summed over queries).",
        family="count", cutoff="none", params=_BINARY, bounded=False,
        per_ranking=counts.num_relevant_retrieved, curve=curves.num_relevant_retrieved,
        explain=steps.explain_num_relevant_retrieved, kernel=kernels._num_relevant_retrieved,
        tile=False, teach=False, aggregate="sum", trec_eval="num_rel_ret"),
    "NumNonrelRet": MeasureInfo(
        label="non-relevant returned", title="Judged non-relevant results returned",
        description="How many of the results were judged not relevant (unjudged ones are "
                    "not counted).",
        family="count", cutoff="none", params=_BINARY, bounded=False,
        per_ranking=counts.num_nonrelevant_retrieved, curve=curves.num_nonrelevant_retrieved,
        explain=steps.explain_num_nonrelevant_retrieved,
        kernel=kernels._num_nonrelevant_retrieved, tile=False, teach=False, aggregate="sum",
        trec_eval="num_nonrel_judged_ret"),
    "GMAP": MeasureInfo(
        label="GMAP", title="Geometric mean average precision",
        description="AP per query, averaged geometrically (a query at 0 counts as 1e-5): one "
                    "failed query costs much more than in MAP.",
        family="rank", cutoff="none", params=_BINARY, bounded=True,
        per_ranking=average_precision, curve=curves.whole_average_precision,
        explain=steps.explain_gmap, kernel=kernels._average_precision, tile=False,
        teach=False, aggregate="gmean", trec_eval="gm_map", per_query_line=False),
    "Bpref": MeasureInfo(
        label="bpref", title="Binary preference",
        description="How often judged relevant results rank above judged non-relevant ones; "
                    "unjudged results are ignored (for incomplete judgments).",
        family="rank", cutoff="none", params=_BINARY, bounded=True,
        per_ranking=bpref, curve=curves.bpref, explain=steps.explain_bpref,
        kernel=kernels._bpref, tile=False, teach=False, trec_eval="bpref"),
    "GMBpref": MeasureInfo(
        label="GM-bpref", title="Geometric mean bpref",
        description="bpref per query, averaged geometrically (a query at 0 counts as 1e-5).",
        family="rank", cutoff="none", params=_BINARY, bounded=True,
        per_ranking=bpref, curve=curves.bpref, explain=steps.explain_gm_bpref,
        kernel=kernels._bpref, tile=False, teach=False, aggregate="gmean",
        trec_eval="gm_bpref", per_query_line=False),
    "infAP": MeasureInfo(
        label="infAP", title="Inferred average precision",
        description="AP estimated from a judged random sample of the pool: above each "
                    "relevant result, the pooled results count as relevant in the share the "
                    "judged ones are (Yilmaz & Aslam 2006); a negative grade marks a pooled "
                    "document left unjudged.",
        family="rank", cutoff="none", params=_BINARY, bounded=True,
        per_ranking=infap, curve=None, explain=steps.explain_infap, kernel=kernels._infap,
        tile=False, teach=False, trec_eval="infAP"),
    "Judged": MeasureInfo(
        label="Judged", title="Judged share of the top K",
        description="Share of the top K results that have a judgment (ir_measures' Judged@K): "
                    "low values warn that unjudged results were counted as not relevant.",
        family="set", cutoff="optional", params=(), bounded=True,
        per_ranking=counts.judged_at_k, curve=curves.judged, explain=steps.explain_judged,
        kernel=kernels._judged, tile=False, teach=False),
    "IPrec": MeasureInfo(
        label="IPrec", title="Interpolated precision at a recall level",
        description="The best precision reached at this recall (0 to 1) or beyond: a point "
                    "of the standard precision-recall graph.",
        family="rank", cutoff="level", params=("rel", "rule"), bounded=True,
        per_ranking=interpolated_precision, curve=None,
        explain=steps.explain_interpolated_precision, kernel=kernels._interpolated_precision,
        tile=False, teach=False, trec_eval_cut="iprec_at_recall",
        trec_eval_cutoffs=ELEVEN_LEVELS),
    "IPrecAvg": MeasureInfo(
        label="11-pt avg", title="11-point average interpolated precision",
        description="Mean interpolated precision at recall 0, 0.1, ..., 1: the area under "
                    "the precision-recall graph, the old way. Recall levels as trec_eval 9 and "
                    "pytrec_eval count them (rule v9); trec_eval 10's rule (v10) can differ in "
                    "the third decimal.",
        family="rank", cutoff="none", params=("rel", "rule"), bounded=True,
        per_ranking=eleven_point_average, curve=curves.eleven_point_average,
        explain=steps.explain_eleven_point, kernel=kernels._eleven_point_average, tile=False,
        teach=False, trec_eval="11pt_avg"),
    "SetP": MeasureInfo(
        label="set P", title="Set precision",
        description="Share of all returned results that are relevant (the ranking as a set).",
        family="set", cutoff="none", params=_BINARY, bounded=True,
        per_ranking=set_precision, curve=curves.set_precision,
        explain=steps.explain_set_precision, kernel=kernels._set_precision, tile=False,
        teach=False, trec_eval="set_P"),
    "SetR": MeasureInfo(
        label="set R", title="Set recall",
        description="Share of the relevant documents returned at all.",
        family="set", cutoff="none", params=_BINARY, bounded=True,
        per_ranking=set_recall, curve=curves.set_recall,
        explain=steps.explain_set_recall, kernel=kernels._set_recall, tile=False,
        teach=False, trec_eval="set_recall"),
    "SetF": MeasureInfo(
        label="set F", title="Set F",
        description="Weighted harmonic mean of set precision and set recall.",
        family="set", cutoff="none", params=("rel", "beta"), bounded=True,
        per_ranking=set_f, curve=curves.set_f, explain=steps.explain_set_f,
        kernel=kernels._set_f, tile=False, teach=False, trec_eval="set_F"),
    # User-model measures (irlib.measures.user_models): not trec_eval's; ir_measures' names.
    "RBP": MeasureInfo(
        label="RBP", title="Rank-biased precision",
        description="A user reads on from each rank with probability p: the expected share "
                    "of relevant results among those read (Moffat & Zobel 2008).",
        family="rank", cutoff="optional", params=("rel", "p"), bounded=True,
        per_ranking=users.rbp, curve=curves.rbp, explain=steps_users.explain_rbp,
        kernel=kernels._rbp, tile=False, teach=False),
    "RBPResidual": MeasureInfo(
        label="RBP residual", title="RBP's residual",
        description="How much RBP could still grow if every unjudged result, and every result "
                    "past the end, were relevant: RBP lies in [RBP, RBP + residual].",
        family="rank", cutoff="optional", params=("p",), bounded=True,
        per_ranking=users.rbp_residual, curve=curves.rbp_residual,
        explain=steps_users.explain_rbp_residual, kernel=kernels._rbp_residual, tile=False,
        teach=False),
    "INST": MeasureInfo(
        label="INST", title="INST (adaptive target)",
        description="A user who wants T units of gain reads on while the goal is unmet: the "
                    "expected gain per result read (Moffat et al. 2015), as cwl_eval.",
        family="graded", cutoff="none", params=("T", "max_rel"), bounded=True,
        per_ranking=users.inst, curve=None,
        explain=steps_users.explain_inst, kernel=kernels._inst, tile=False, teach=False),
    "ERR": MeasureInfo(
        label="ERR", title="Expected reciprocal rank",
        description="A cascade user stops at the first result that satisfies them (more "
                    "likely the higher its grade): the expected 1/rank of that stop "
                    "(Chapelle et al. 2009), as gdeval.",
        family="graded", cutoff="optional", params=("max_rel",), bounded=True,
        per_ranking=users.err, curve=curves.err,
        explain=steps_users.explain_err, kernel=kernels._err, tile=False, teach=False),
}
#: The measures :func:`irlib.evaluate` and the parser take (the others are per-ranking only).
RUN_MEASURES = tuple(name for name, info in MEASURES.items() if info.kernel is not None)
#: The measures the lessons teach: the playground's formula picker and curves.
TAUGHT_MEASURES = tuple(name for name, info in MEASURES.items() if info.teach)
#: Measures that need a cut-off K (or, for IPrec, a recall level).
NEEDS_CUTOFF = tuple(name for name, info in MEASURES.items()
                     if info.cutoff in ("required", "level"))
