"""irlib: offline IR evaluation metrics that agree with trec_eval and explain their steps.

Per-ranking functions take ``grades``, the relevance grades of the results in rank order
(0 = not relevant). :func:`evaluate` scores whole runs given as pandas DataFrames.

Names are imported on first use (PEP 562), as ir_measures does: ``import irlib`` loads no
module of the library, and neither pandas nor pyarrow nor scipy until a name that needs
them is used (``irlib-trec-eval`` reads and evaluates a TREC run without pandas).
``__all__`` is the public surface (documented in docs/irlib.md); the subpackages add
:mod:`irlib.io`, :mod:`irlib.stats`, :mod:`irlib.recsys`, :mod:`irlib.online` and
:mod:`irlib.spark`.
"""

import importlib

from irlib._version import __version__

#: Where each public name lives: the module imported when the name is first used.
_SOURCES = {
    "irlib._common": ("DEFAULT_REL", "InputError"),
    "irlib.measures.ap": ("DENOMINATORS", "average_precision", "mean_average_precision"),
    "irlib.batch.engine": ("Evaluation", "evaluate"),
    "irlib.batch.curves": ("CONFUSION_NAMES", "confusion_curves_batch", "metric_curves_batch",
                           "outcomes_at_k_batch"),
    "irlib.measures.binary": ("Confusion", "confusion_at_k", "f1_at_k", "precision_at_k",
                              "r_precision", "recall_at_k", "success_at_k"),
    "irlib.measures.curves": ("CURVE_NAMES", "metric_curves"),
    "irlib.measures.dcg": ("GAINS", "IDEALS", "cg_at_k", "dcg_at_k", "idcg_at_k", "ideal_grades",
                           "mean_ndcg", "ndcg_at_k"),
    "irlib.measures.explain": ("Explanation",),
    "irlib.measures.interpolated": ("precision_recall_batch", "precision_recall_points"),
    "irlib.measures.registry": ("MEASURES", "PARAMS", "RUN_MEASURES", "Measure", "MeasureInfo",
                                "explain", "parse_measure"),
    "irlib.measures.neighbours": ("Neighbours", "one_move_neighbours"),
    "irlib.measures.rank": ("first_relevant_rank", "mean_reciprocal_rank", "reciprocal_rank"),
    "irlib.measures.user_models": ("UserModel", "err", "inst", "rbp", "rbp_residual",
                                   "user_model"),
}
_MODULE_OF = {name: module for module, names in _SOURCES.items() for name in names}

__all__ = [
    "DEFAULT_REL", "InputError", "DENOMINATORS", "average_precision", "mean_average_precision",
    "Evaluation", "evaluate", "Confusion", "confusion_at_k", "f1_at_k", "precision_at_k",
    "recall_at_k", "success_at_k", "CURVE_NAMES", "metric_curves", "GAINS", "IDEALS", "cg_at_k",
    "dcg_at_k", "idcg_at_k", "ideal_grades", "mean_ndcg", "ndcg_at_k", "Explanation",
    "explain", "MEASURES", "PARAMS", "RUN_MEASURES", "Measure", "MeasureInfo",
    "parse_measure", "r_precision", "first_relevant_rank",
    "mean_reciprocal_rank", "reciprocal_rank", "CONFUSION_NAMES", "confusion_curves_batch",
    "metric_curves_batch", "outcomes_at_k_batch", "Neighbours", "one_move_neighbours",
    "precision_recall_batch", "precision_recall_points", "rbp", "rbp_residual", "inst", "err",
    "UserModel", "user_model", "__version__",
]


def __getattr__(name: str):
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'irlib' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value             # once: later lookups do not come here
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
