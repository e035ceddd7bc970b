"""Recommender systems: their files, their vocabulary and the measures beyond accuracy.

* :func:`read_interactions`, :func:`read_recommendations`, :func:`read_item_categories`
  read CSV/TSV/Parquet files with any column names (:func:`guess_columns`,
  :func:`read_header`; the caller's ``columns=`` mapping wins).
* :func:`evaluate_recommendations` scores top-K lists against held-out interactions:
  HitRate, Recall, Precision, NDCG, MAP and MRR at K (:data:`ACCURACY`, computed by
  :func:`irlib.evaluate`) per user and overall, and the beyond-accuracy measures
  (:data:`BEYOND`: coverage, exposure Gini, popularity, novelty, intra-list diversity).
* :func:`compare_recommenders` says whether an accuracy winner collapsed onto popular items;
  :func:`self_judged_problem` refuses the measures a table's own relevance column inflates.

Nothing here imports Streamlit or does work at import time.
"""
from .beyond import (
                     BEYOND,
                     BeyondInfo,
                     BeyondValue,
                     average_popularity,
                     beyond_accuracy,
                     catalogue_coverage,
                     explain,
                     exposure_gini,
                     intra_list_diversity,
                     novelty,
)
from .columns import ROLE_HELP, ROLES, MissingColumnError, guess_columns, read_header
from .compare import COLLAPSE, RecommenderComparison, compare_recommenders
from .evaluate import (
                     ACCURACY,
                     GAINS,
                     SELF_JUDGED_MEASURES,
                     AccuracyInfo,
                     RecommenderEvaluation,
                     UserAccounting,
                     check_ids_meet,
                     evaluate_recommendations,
                     self_judged_problem,
)
from .readers import read_interactions, read_item_categories, read_recommendations

__all__ = [
    "read_interactions", "read_recommendations", "read_item_categories", "guess_columns",
    "read_header", "ROLES", "ROLE_HELP", "evaluate_recommendations", "check_ids_meet", "RecommenderEvaluation",
    "UserAccounting", "ACCURACY", "AccuracyInfo", "GAINS", "self_judged_problem",
    "SELF_JUDGED_MEASURES", "BEYOND", "BeyondInfo", "BeyondValue", "beyond_accuracy",
    "explain", "catalogue_coverage", "exposure_gini", "average_popularity", "novelty",
    "intra_list_diversity", "compare_recommenders", "RecommenderComparison", "COLLAPSE",
    "MissingColumnError",
]
