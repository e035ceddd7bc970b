"""Recommender systems: their files, their vocabulary and the measures beyond accuracy.

* :func:`read_interactions`, :func:`read_recommendations`, :func:`read_item_categories`
  read CSV/TSV/Parquet files with any column names (:func:`guess_columns`,
  :func:`read_header`; the caller's ``columns=`` mapping wins).
* :func:`evaluate_recommendations` scores top-K lists against held-out interactions:
  HitRate, Recall, Precision, NDCG, MAP and MRR at K (:data:`ACCURACY`, computed by
  :func:`irlib.evaluate`) per user and overall, and the beyond-accuracy measures
  (:data:`BEYOND`: coverage, exposure Gini, popularity, novelty, intra-list diversity).
* :func:`compare_recommenders` says whether an accuracy winner collapsed onto popular items,
  naming a winner only where a paired test finds the difference;
  :func:`recommender_verdicts` does so for many systems under the table's corrected test
  (``.claims()`` lays each sentence beside the table's mark);
  :func:`self_judged_problem` refuses the measures a table's own relevance column inflates.
* :func:`check_roles` refuses files given the wrong way round; :func:`seen_in_training` and
  :func:`drop_seen` find and remove items a user already had in training;
  :func:`liked_from` proposes the usual "liked" rating threshold.

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
from .compare import COLLAPSE, Finding, RecommenderComparison, compare_recommenders
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
from .readers import read_catalogue, read_interactions, read_item_categories, read_recommendations
from .relevance import liked_from
from .roles import check_roles
from .seen import SeenItems, drop_seen, seen_in_training
from .self_judged import pooled_labels
from .verdict import RecommenderVerdicts, finding_of, recommender_verdicts

__all__ = [
    "read_interactions", "read_recommendations", "read_item_categories", "read_catalogue",
    "guess_columns",
    "read_header", "ROLES", "ROLE_HELP", "evaluate_recommendations", "check_ids_meet",
    "RecommenderEvaluation",
    "UserAccounting", "ACCURACY", "AccuracyInfo", "GAINS", "self_judged_problem",
    "SELF_JUDGED_MEASURES", "BEYOND", "BeyondInfo", "BeyondValue", "beyond_accuracy",
    "explain", "catalogue_coverage", "exposure_gini", "average_popularity", "novelty",
    "intra_list_diversity", "compare_recommenders", "RecommenderComparison", "COLLAPSE",
    "MissingColumnError", "Finding", "liked_from", "check_roles", "SeenItems", "drop_seen",
    "seen_in_training", "RecommenderVerdicts", "finding_of", "recommender_verdicts",
    "pooled_labels",
]
