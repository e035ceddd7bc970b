"""Why libraries disagree: each library's conventions for AP@K, NDCG@K and HitRate@K, as data.

Eight columns, as practitioners meet them: trec_eval (and pytrec_eval and ir_measures, which
run it), ranx, scikit-learn, torchmetrics and Kaggle's ``apk`` (benhamner/Metrics) from
search; Apache Spark's ``RankingEvaluator``, Microsoft Recommenders and RecBole from
recommender systems. Each :class:`Convention` records what the library does on six points
where they differ:

* the AP@K denominator (R, min(R, K), or the relevant documents found in the top K);
* the NDCG gain (the grade, 2^grade − 1, or 1 for every relevant item);
* where IDCG comes from (all judged documents, or only the list you pass in);
* what counts as relevant;
* the order of documents with tied scores;
* what a query without any relevant document scores.

:func:`score_under` turns a record into irlib's switches (``denominator``, ``gain``,
``ideal``) and returns that library's AP@K and NDCG@K. :func:`tie_scores` shows the tie
rule at work. ``tests/test_conventions.py`` checks every record against pytrec_eval, ranx
and scikit-learn (installed as dev dependencies) and against the published source of
torchmetrics, apk, Microsoft Recommenders and RecBole (transcribed in the test: they do not
install here); ``tests/test_spark_conventions.py`` checks Spark's against real pyspark. This
module never imports pyspark: the app shows irlib's reimplementation. The checks include
the documented numbers for the graded eight pictures [0, 4, 1, 3, 4, 1, 3, 2] (grade >= 1
relevant): AP@2 = 0.0714 (trec_eval) / 0.25 (apk, Spark, Recommenders' map_at_k, RecBole) /
0.5 (torchmetrics); NDCG@8 = 0.7283 (linear) / 0.6829 (exponential) / 0.8118 (binary: Spark,
RecBole, Recommenders' default).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from irlib._common import DEFAULT_REL, check_grades, check_k, check_rel, safe_div
from irlib.measures.ap import average_precision
from irlib.measures.binary import success_at_k
from irlib.measures.dcg import dcg_at_k, idcg_at_k, ndcg_at_k


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

#: The rows of the comparison, in display order: (label, Convention field).
ROWS = (("AP@K denominator", "ap_note"), ("NDCG gain", "gain_note"),
        ("IDCG comes from", "ideal_note"), ("Relevant when", "threshold_note"),
        ("Tied scores", "ties_note"), ("Query with no relevant document", "empty_note"))


def conventions_table(*, short: bool = False) -> pd.DataFrame:
    """The six conventions (rows) for every library (columns), in words (``short``: a few)."""
    return pd.DataFrame({c.name: [c.short[field] if short else getattr(c, field)
                                  for _, field in ROWS]
                         for c in CONVENTIONS.values()},
                        index=pd.Index([label for label, _ in ROWS], name="convention"))


def _convention(library: str) -> Convention:
    try:
        return CONVENTIONS[library]
    except KeyError:
        raise ValueError(f"unknown library {library!r}; known: {', '.join(CONVENTIONS)}") from None


def score_under(library: str, grades, k: int, *, judged: Sequence[float] | None = None,
                rel=DEFAULT_REL, gain: str | None = None,
                denominator: str | None = None) -> dict[str, float | None]:
    """AP@K, NDCG@K and HitRate@K of one ranking as ``library`` computes them.

    ``grades`` are the shown results' grades in rank order (no ties: the given order is the
    ranking); ``judged`` all judged grades of the query, including relevant documents that
    were never retrieved (default: the shown list is the whole pool). ``gain`` picks NDCG's
    gain (default: the library's own; "binary" gains 1 for grade >= ``rel``), and
    ``denominator`` one of the library's AP denominators (default: its AP@K's; see
    ``other_ap``). ``None`` values mean the library has no such measure.

    Examples
    --------
    >>> g = [0, 4, 1, 3, 4, 1, 3, 2]
    >>> {lib: round(score_under(lib, g, 2)["AP"], 4) for lib in CONVENTIONS}
    ... # doctest: +NORMALIZE_WHITESPACE
    {'trec_eval': 0.0714, 'ranx': 0.0714, 'sklearn': 0.5, 'torchmetrics': 0.5, 'apk': 0.25,
     'spark': 0.25, 'recommenders': 0.25, 'recbole': 0.25}
    >>> [round(score_under("ranx", g, 8, gain=gain)["NDCG"], 4)
    ...  for gain in ("linear", "exponential")]
    [0.7283, 0.6829]
    >>> round(score_under("spark", g, 8)["NDCG"], 4)      # every relevant item gains 1
    0.8118
    >>> score_under("apk", g, 8)["NDCG"] is None, score_under("ranx", g, 1)["HitRate"]
    (True, 0.0)
    """
    conv = _convention(library)
    grades = check_grades(grades)
    k = check_k(k)
    rel = check_rel(rel)
    judged_arr = check_grades(judged, "judged") if judged is not None else grades
    denominators = {conv.ap_denominator, *(d for _, _, d in conv.other_ap)} - {None}
    if denominator is not None and denominator not in denominators:
        raise ValueError(f"{conv.name} has no AP that divides by {denominator!r}")
    ap = None
    if conv.ap_denominator is not None:
        ap = average_precision(grades, k, judged=judged_arr, rel=rel,
                               denominator=denominator or conv.ap_denominator)
    gain = gain or (conv.gains[0] if conv.gains else None)
    ndcg = None
    if conv.ideal is not None and gain in conv.gains:
        shown, pool = grades, judged_arr
        if gain == "binary":                       # Spark, RecBole: 1 per relevant item
            shown, pool = (grades >= rel).astype(float), (judged_arr >= rel).astype(float)
            gain = "linear"
        elif conv.threshold_in_ndcg:               # ranx: clean_qrels drops grades < rel_lvl
            shown = np.where(grades >= rel, grades, 0.0)
            pool = np.where(judged_arr >= rel, judged_arr, 0.0)
        ndcg = ndcg_at_k(shown, k, judged=pool, gain=gain, ideal=conv.ideal)
    hit = success_at_k(grades, k, rel=rel) if conv.hit_call else None
    return {"AP": ap, "NDCG": ndcg, "HitRate": hit}


#: How each tie rule is described on the page, and which libraries follow it.
TIE_RULES = {
    "doc_id_desc": "doc id descending (trec_eval, pytrec_eval, ir_measures)",
    "input": "order given (ranx in practice; apk, Spark, Recommenders, RecBole)",
    "average": "gains averaged (scikit-learn, torchmetrics NDCG)",
}


def tie_scores(grades, doc_ids: Sequence[str], scores: Sequence[float], k: int, *,
               missed: Sequence[float] = (), rel=DEFAULT_REL) -> dict[str, dict]:
    """AP@K and NDCG@K (linear gain) of a ranking with tied scores, under each tie rule.

    ``grades``, ``doc_ids`` and ``scores`` are aligned and given in the input order;
    ``missed`` are the grades of judged documents the system never returned. The
    trec_eval rule runs :func:`irlib.evaluate` (which sorts as trec_eval does); "input"
    sorts by score alone, keeping ties in the given order, and scores that order with the
    per-ranking functions; "average" gives tied documents the mean gain of their group, as
    scikit-learn's ``ndcg_score`` does (it has no AP rule to match, so AP is None there).
    The missed documents count in R and in the ideal ranking under the first two rules, as
    in trec_eval and ranx; scikit-learn only sees the documents it is given, so "average"
    ignores them.

    Returns ``{rule: {"order": doc ids in rank order (None for "average"), "AP": ...,
    "NDCG": ...}}``.

    Examples
    --------
    Two documents tie at the top: "b" (not relevant) sorts before "a" in trec_eval.

    >>> r = tie_scores([1, 0, 1], ["a", "b", "c"], [2.0, 2.0, 1.0], 3)
    >>> r["doc_id_desc"]["order"], round(r["doc_id_desc"]["AP"], 4)
    (['b', 'a', 'c'], 0.5833)
    >>> r["input"]["order"], round(r["input"]["AP"], 4)
    (['a', 'b', 'c'], 0.8333)

    A relevant document the system never returned makes R = 3 under both rules.

    >>> r = tie_scores([1, 0, 1], ["a", "b", "c"], [2.0, 2.0, 1.0], 3, missed=[1])
    >>> round(r["doc_id_desc"]["AP"], 4), round(r["input"]["AP"], 4)
    (0.3889, 0.5556)
    """
    from irlib.batch.engine import evaluate        # local: batch imports pandas-heavy code

    grades = check_grades(grades)
    k = check_k(k)
    rel = check_rel(rel)
    missed = check_grades(missed, "missed")
    scores_arr = np.asarray(scores, dtype=float)
    ids = [str(d) for d in doc_ids]
    if not (len(ids) == len(scores_arr) == len(grades)):
        raise ValueError("grades, doc_ids and scores must have the same length: "
                         f"{len(grades)}, {len(ids)}, {len(scores_arr)}")
    missed_ids = [f"(never returned {i + 1})" for i in range(len(missed))]
    if len(set(ids + missed_ids)) != len(ids) + len(missed_ids):
        raise ValueError("doc_ids must be unique")
    judged = np.concatenate([grades, missed])
    out: dict[str, dict] = {}

    qrels = pd.DataFrame({"query_id": "q", "doc_id": ids + missed_ids, "relevance": judged})
    run = pd.DataFrame({"query_id": "q", "doc_id": ids, "score": scores_arr})
    ev = evaluate(qrels, run, [f"AP(rel={rel})@{k}" if rel != 1 else f"AP@{k}",
                               f"nDCG@{k}"]).per_query.iloc[0]
    by_id_desc = sorted(range(len(ids)), key=lambda i: ids[i], reverse=True)
    trec_order = sorted(by_id_desc, key=lambda i: -scores_arr[i])      # stable: ids stay desc
    out["doc_id_desc"] = {"order": [ids[i] for i in trec_order],
                          "AP": float(ev.iloc[0]), "NDCG": float(ev.iloc[1])}

    stable = sorted(range(len(ids)), key=lambda i: -scores_arr[i])
    ranked = grades[stable]
    out["input"] = {"order": [ids[i] for i in stable],
                    "AP": average_precision(ranked, k, judged=judged, rel=rel),
                    "NDCG": ndcg_at_k(ranked, k, judged=judged)}

    averaged = ranked.copy()
    sorted_scores = scores_arr[stable]
    for value in np.unique(sorted_scores):
        group = sorted_scores == value
        averaged[group] = ranked[group].mean()
    # scikit-learn: DCG of the averaged gains over the ideal of the true grades it was given
    out["average"] = {"order": None, "AP": None,
                      "NDCG": safe_div(dcg_at_k(averaged, k), idcg_at_k(ranked, k))}
    return out

