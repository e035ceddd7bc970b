"""Each library's conventions for AP@K, NDCG@K and HitRate@K, one :class:`Convention` record
per library: what it calls, what it does on the six points where libraries differ, in words
(and in a few words), and the sources behind each record. :mod:`irlib.measures.conventions`
turns a record into irlib's switches and scores a ranking under it.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Convention:
    """One library's choices. ``ap_denominator``/``gains``/``ideal`` are irlib's switches
    (None: the library has no such measure); the ``*_note`` fields say it in words."""
    key: str
    name: str
    version: str
    ap_call: str | None
    ap_denominator: str | None        # "relevant" | "min_r_k" | "retrieved" | None
    hit_call: str | None              # HitRate@K (= Success@K), where the library has one
    ap_note: str
    ndcg_call: str | None
    gains: tuple[str, ...]            # supported gains ("linear", "exponential", "binary"),
                                      # the default first
    gain_note: str
    ideal: str | None                 # "judged" | "shown" | None
    ideal_note: str
    threshold_note: str
    threshold_in_ndcg: bool           # grades below the threshold gain nothing in NDCG
    ties: str                         # "doc_id_desc" | "input" | "average" | "none"
    ties_note: str
    empty_note: str
    sources: tuple[tuple[str, str], ...]   # (what, where)
    short: dict[str, str]             # the same six notes in a few words, by field name
    other_ap: tuple[tuple[str, str, str], ...] = ()  # a second AP: (name, call, denominator)


CONVENTIONS: dict[str, Convention] = {c.key: c for c in (
    Convention(
        key="trec_eval",
        name="trec_eval / pytrec_eval / ir_measures",
        version="trec_eval 9.0.x; pytrec-eval-terrier 0.5 wraps its C code; ir_measures uses "
                "pytrec_eval by default",
        ap_call="map_cut.K (pytrec_eval 'map_cut.2', ir_measures AP@2)",
        ap_denominator="relevant",
        hit_call="success.K (ir_measures Success@K)",
        ap_note="R: every judged relevant document of the query, retrieved or not",
        ndcg_call="ndcg_cut.K (ir_measures nDCG@K)",
        gains=("linear", "exponential"),
        gain_note="the grade; 2^grade − 1 only through ir_measures' nDCG(dcg='exp-log2')",
        ideal="judged",
        ideal_note="all judged documents of the query (the qrels)",
        threshold_note="grade ≥ 1 (-l 1, pytrec_eval's relevance_level); NDCG ignores it "
                       "and uses the grades",
        threshold_in_ndcg=False,
        ties="doc_id_desc",
        ties_note="score descending, then doc id descending (string order)",
        empty_note="scores 0 and counts in the mean. A query in the qrels that the run does "
                   "not answer is left out of the mean (the mean is over the queries the run "
                   "answers); with -c it scores 0 and counts",
        sources=(("trec_eval, m_map_cut.c and m_ndcg_cut.c", "github.com/usnistgov/trec_eval"),
                 ("pytrec_eval", "github.com/terrierteam/pytrec_eval"),
                 ("ir_measures documentation", "ir-measur.es")),
        short=dict(ap_note="R", gain_note="grade (2^grade − 1 via ir_measures)",
                   ideal_note="all judged", threshold_note="grade ≥ 1 (-l); not in NDCG",
                   ties_note="doc id descending",
                   empty_note="0, counted; unanswered: left out (-c: 0)"),
    ),
    Convention(
        key="ranx",
        name="ranx",
        version="ranx 0.3 (checked against 0.3.21)",
        ap_call="map@K (rel_lvl: map@K-l2)",
        ap_denominator="relevant",
        hit_call="hit_rate@K (ranx hits@K counts the hits)",
        ap_note="R: the query's judged documents with grade ≥ rel_lvl",
        ndcg_call="ndcg@K (linear), ndcg_burges@K (2^grade − 1)",
        gains=("linear", "exponential"),
        gain_note="ndcg: the grade (Järvelin & Kekäläinen); ndcg_burges: 2^grade − 1",
        ideal="judged",
        ideal_note="the query's qrels, sorted by grade",
        threshold_note="grade ≥ rel_lvl (default 1); NDCG too: grades below it gain nothing",
        threshold_in_ndcg=True,
        ties="input",
        ties_note="score descending; ties keep the input order in practice (numba's argsort, "
                  "not promised to be stable)",
        empty_note="scores 0 and counts in the mean; qrels and run must list the same queries "
                   "(make_comparable=True fills in the missing ones: an unanswered query "
                   "scores 0 and counts, like trec_eval -c)",
        sources=(("ranx/metrics/average_precision.py, ranx/metrics/ndcg.py",
                  "github.com/AmenRa/ranx"),
                 ("ranx/data_structures/common.py, sort_dict_by_value",
                  "github.com/AmenRa/ranx")),
        short=dict(ap_note="R", gain_note="grade; 2^grade − 1 (ndcg_burges)",
                   ideal_note="all judged", threshold_note="grade ≥ rel_lvl, NDCG too",
                   ties_note="input order (in practice)",
                   empty_note="0, counted; unanswered: error (make_comparable: 0)"),
    ),
    Convention(
        key="sklearn",
        name="scikit-learn",
        version="scikit-learn 1.x (checked against 1.9)",
        ap_call="average_precision_score(y_true[:K], y_score[:K])",
        ap_denominator="retrieved",
        hit_call=None,
        ap_note="no K: it scores every row you pass. Pass the top K and the denominator is "
                "the relevant documents found there",
        ndcg_call="ndcg_score([y_true], [y_score], k=K)",
        gains=("linear",),
        gain_note="the grade (y_true is used as the gain)",
        ideal="shown",
        ideal_note="y_true of the rows you pass: relevant documents never retrieved are "
                   "invisible",
        threshold_note="AP: y_true must already be 0/1 (you pick the threshold); NDCG uses "
                       "the grades",
        threshold_in_ndcg=False,
        ties="average",
        ties_note="tied scores share their group's average gain (ignore_ties=False, the "
                  "default); in AP a tie is one threshold",
        empty_note="ndcg_score: 0 for that query, counted; average_precision_score: 0 with a "
                   "warning (no positive class)",
        sources=(("sklearn.metrics.ndcg_score", "scikit-learn.org/stable/modules/generated/"
                  "sklearn.metrics.ndcg_score.html"),
                 ("sklearn.metrics.average_precision_score",
                  "scikit-learn.org/stable/modules/generated/"
                  "sklearn.metrics.average_precision_score.html")),
        short=dict(ap_note="found in top K (if you pass the top K)", gain_note="grade",
                   ideal_note="given list", threshold_note="you binarize (AP)",
                   ties_note="averaged", empty_note="0 (AP: + warning)"),
    ),
    Convention(
        key="torchmetrics",
        name="torchmetrics",
        version="torchmetrics 1.x (read from its source; not installed here)",
        ap_call="retrieval_average_precision(preds, target, top_k=K)",
        ap_denominator="retrieved",
        hit_call="retrieval_hit_rate(preds, target, top_k=K)",
        ap_note="the relevant documents found in the top K (the mean of precision at each hit)",
        ndcg_call="retrieval_normalized_dcg(preds, target, top_k=K)",
        gains=("linear",),
        gain_note="the grade (target is used as the gain)",
        ideal="shown",
        ideal_note="target of the documents you pass, sorted",
        threshold_note="AP: target must be 0/1 or bool, otherwise an error; NDCG uses the "
                       "grades",
        threshold_in_ndcg=False,
        ties="average",
        ties_note="NDCG: tied scores averaged (recent releases port scikit-learn's rule); AP: "
                  "torch.topk's order, unspecified. The main branch also drops documents whose "
                  "predicted score is ≤ 0",
        empty_note="functional: 0; RetrievalMAP / RetrievalNormalizedDCG: empty_target_action="
                   "'neg' (0) by default, or 'skip', 'pos', 'error'",
        sources=(("torchmetrics/functional/retrieval/average_precision.py and ndcg.py",
                  "github.com/Lightning-AI/torchmetrics"),),
        short=dict(ap_note="found in top K", gain_note="grade", ideal_note="given list",
                   threshold_note="you binarize (AP)", ties_note="NDCG averaged; AP unspecified",
                   empty_note="0 by default (configurable)"),
    ),
    Convention(
        key="apk",
        name="Kaggle apk (ml_metrics)",
        version="benhamner/Metrics, Python/ml_metrics/average_precision.py",
        ap_call="apk(actual, predicted, k=K)",
        ap_denominator="min_r_k",
        hit_call=None,
        ap_note="min(R, K): a list of K results cannot hold more than K relevant ones",
        ndcg_call=None,
        gains=(),
        gain_note="no NDCG",
        ideal=None,
        ideal_note="no NDCG",
        threshold_note="actual is the list of relevant ids: you pick the threshold",
        threshold_in_ndcg=False,
        ties="none",
        ties_note="no scores: the predicted list's order is the ranking (a repeated id counts "
                  "once)",
        empty_note="0.0 (the current source; an earlier revision returned 1.0); mapk averages "
                   "it in",
        sources=(("ml_metrics/average_precision.py, apk and mapk",
                  "github.com/benhamner/Metrics"),),
        short=dict(ap_note="min(R, K)", gain_note="no NDCG", ideal_note="no NDCG",
                   threshold_note="you list the relevant", ties_note="no scores: list order",
                   empty_note="0"),
    ),
    Convention(
        key="spark",
        name="Apache Spark RankingEvaluator",
        version="pyspark.ml.evaluation.RankingEvaluator, Spark 3.0–4.x (checked against "
                "pyspark 4.3); Microsoft Recommenders' SparkRankingEvaluation runs it",
        ap_call="RankingEvaluator(metricName='meanAveragePrecisionAtK', k=K)",
        ap_denominator="min_r_k",
        hit_call=None,
        ap_note="meanAveragePrecisionAtK: min(R, K), R the size of the label array; "
                "meanAveragePrecision (no K): the whole prediction array, divided by R",
        ndcg_call="RankingEvaluator(metricName='ndcgAtK', k=K)",
        gains=("binary",),
        gain_note="1 for every item in the label array: grades are not used. (The Scala "
                  "RDD API takes relevance values since 3.4, 2^rel − 1; PySpark's "
                  "RankingMetrics drops them)",
        ideal="judged",
        ideal_note="the label array: min(R, K) gains of 1",
        threshold_note="what you put in the label array: you pick the threshold (a grade-0 "
                       "item in it counts as relevant)",
        threshold_in_ndcg=True,
        ties="input",
        ties_note="no scores: the prediction array's order is the ranking. You sort it "
                  "(collect_list after a shuffle keeps no order); a repeated item counts "
                  "again",
        empty_note="an empty label array scores 0 and counts (a warning is logged); the "
                   "mean is over the rows you build: an inner join drops unanswered queries",
        sources=(("mllib/src/main/scala/org/apache/spark/mllib/evaluation/RankingMetrics.scala",
                  "github.com/apache/spark"),
                 ("pyspark.ml.evaluation.RankingEvaluator", "spark.apache.org/docs/latest/"
                  "api/python/reference/api/pyspark.ml.evaluation.RankingEvaluator.html")),
        other_ap=(("meanAveragePrecision",
                   "RankingEvaluator(metricName='meanAveragePrecision') given the top K",
                   "relevant"),),
        short=dict(ap_note="min(R, K) (MAP: R)", gain_note="1 per relevant (binary)",
                   ideal_note="label array", threshold_note="you fill the labels",
                   ties_note="your array order",
                   empty_note="0, counted; rows you build"),
    ),
    Convention(
        key="recommenders",
        name="Microsoft Recommenders",
        version="recommenders 1.2 (recommenders/evaluation/python_evaluation.py; read from "
                "its source: it needs pandas < 3, not installed here)",
        ap_call="map_at_k(rating_true, rating_pred, k=K)",
        ap_denominator="min_r_k",
        hit_call=None,
        ap_note="map_at_k: min(R, K); map (same k): R, every held-out item of the user",
        ndcg_call="ndcg_at_k(..., k=K, score_type='binary' | 'raw' | 'exp')",
        gains=("binary", "linear", "exponential"),
        gain_note="score_type='binary' (default): 1 per held-out item; 'raw': the rating; "
                  "'exp': 2^rating − 1",
        ideal="judged",
        ideal_note="every held-out item of the user (rating_true), sorted by rating",
        threshold_note="every row of rating_true is relevant, whatever its rating: you drop "
                       "the low ratings first (NDCG too)",
        threshold_in_ndcg=True,
        ties="input",
        ties_note="top k by prediction with pandas' sort_values: ties keep the input order "
                  "(in practice)",
        empty_note="cannot happen: only users in both rating_true and rating_pred are "
                   "averaged, so users without recommendations are left out, like trec_eval",
        sources=(("recommenders/evaluation/python_evaluation.py: map, map_at_k, ndcg_at_k, "
                  "merge_ranking_true_pred", "github.com/recommenders-team/recommenders"),),
        short=dict(ap_note="min(R, K) (map: R)", gain_note="1 per relevant; rating; 2^r − 1",
                   ideal_note="all held-out", threshold_note="you drop low ratings",
                   ties_note="input order (in practice)",
                   empty_note="common users only"),
        other_ap=(("map", "map(rating_true, rating_pred, k=K)", "relevant"),),
    ),
    Convention(
        key="recbole",
        name="RecBole",
        version="RecBole 1.x (recbole/evaluator/metrics.py; read from its source: it needs "
                "PyTorch, not installed here)",
        ap_call="metrics: ['MAP'], topk: [K]",
        ap_denominator="min_r_k",
        hit_call="metrics: ['Hit'], topk: [K]",
        ap_note="min(R, K), R the user's test items (its docstring says min(|R̂(u)|, K), "
                "the list's length; the code divides by the test items)",
        ndcg_call="metrics: ['NDCG'], topk: [K]",
        gains=("binary",),
        gain_note="1 per test item (pos_index is true/false): ratings are not used",
        ideal="judged",
        ideal_note="min(R, K) gains of 1",
        threshold_note="every test interaction, or those with label ≥ the config's threshold: "
                       "you pick it in the config",
        threshold_in_ndcg=True,
        ties="input",
        ties_note="torch.topk over every item's score: the order of ties is not specified",
        empty_note="cannot happen: only users with test interactions are evaluated, each "
                   "ranked against the whole catalogue",
        sources=(("recbole/evaluator/metrics.py: Hit, MAP, NDCG", "github.com/RUCAIBox/RecBole"),),
        short=dict(ap_note="min(R, K)", gain_note="1 per relevant (binary)",
                   ideal_note="all test items", threshold_note="config threshold",
                   ties_note="torch.topk: unspecified",
                   empty_note="users with test items only"),
    ),
)}
