"""Why libraries disagree: each library's conventions for AP@K, NDCG@K and HitRate@K, as data.

Eight columns, as practitioners meet them: trec_eval (and pytrec_eval and ir_measures, which
run it), ranx, scikit-learn, torchmetrics and Kaggle's ``apk`` (benhamner/Metrics) from
search; Apache Spark's ``RankingEvaluator``, Microsoft Recommenders and RecBole from
recommender systems. Each :class:`Convention` records what the library does on six points
where they differ (the records are in :mod:`irlib.measures.libraries`; this module hands them
on):

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

import numpy as np
import pandas as pd

from irlib._common import DEFAULT_REL, check_grades, check_k, check_rel, safe_div
from irlib.measures.ap import average_precision
from irlib.measures.binary import success_at_k
from irlib.measures.dcg import dcg_at_k, idcg_at_k, ndcg_at_k
from irlib.measures.libraries import CONVENTIONS, Convention

__all__ = ["CONVENTIONS", "ROWS", "TIE_RULES", "Convention", "conventions_table", "score_under",
           "tie_scores"]


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

