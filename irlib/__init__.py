"""irlib: offline IR evaluation metrics that agree with trec_eval and explain their steps.

Per-ranking functions take ``grades``, the relevance grades of the results in rank order
(0 = not relevant). :func:`evaluate` scores whole runs given as pandas DataFrames.
``__all__`` is the public surface (documented in docs/irlib.md); the subpackages add
:mod:`irlib.io`, :mod:`irlib.stats`, :mod:`irlib.recsys` and :mod:`irlib.spark`.
"""
from irlib._version import __version__
from irlib._common import DEFAULT_REL, InputError
from irlib.measures.ap import DENOMINATORS, average_precision, mean_average_precision
from irlib.batch.engine import Evaluation, evaluate
from irlib.batch.curves import (CONFUSION_NAMES, confusion_curves_batch, metric_curves_batch,
                                outcomes_at_k_batch)
from irlib.measures.binary import (Confusion, confusion_at_k, f1_at_k, precision_at_k, r_precision,
                                   recall_at_k, success_at_k)
from irlib.measures.curves import CURVE_NAMES, metric_curves
from irlib.measures.dcg import (GAINS, IDEALS, cg_at_k, dcg_at_k, idcg_at_k, ideal_grades,
                                mean_ndcg, ndcg_at_k)
from irlib.measures.explain import Explanation
from irlib.measures.interpolated import precision_recall_batch, precision_recall_points
from irlib.measures.registry import (MEASURES, PARAMS, RUN_MEASURES, Measure, MeasureInfo,
                                     explain, parse_measure)
from irlib.measures.neighbours import Neighbours, one_move_neighbours
from irlib.measures.rank import first_relevant_rank, mean_reciprocal_rank, reciprocal_rank
from irlib.measures.user_models import UserModel, err, inst, rbp, rbp_residual, user_model

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
