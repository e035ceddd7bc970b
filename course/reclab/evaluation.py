"""Accuracy of top-K lists against held-out views, every number by :func:`irlib.evaluate`.

A user is a query, a film a document, a held-out view a judgment of grade 1. The measures,
in a recommender engineer's words: HitRate@K (irlib's ``Success@K``: at least one held-out
film in the list), Recall@K, NDCG@K and MRR@K (``RR@K``, the first hit's reciprocal rank).
Every user with held-out views counts; one without a list scores 0 (``complete=True``).

:func:`per_view` scores each held-out view on its own instead (a query per view, the
user's list for each): the mean then weighs a user by how many views they have held out.
"""
from __future__ import annotations

import pandas as pd

import irlib

#: (key, irlib name with "{k}", label with "{k}")
MEASURES = (("hit", "Success@{k}", "HitRate@{k}"), ("recall", "R@{k}", "Recall@{k}"),
            ("ndcg", "nDCG@{k}", "NDCG@{k}"), ("mrr", "RR@{k}", "MRR@{k}"))
NAMES = {key: name for key, name, _ in MEASURES}
LABELS = {key: label for key, _, label in MEASURES}


def label(key: str, k: int) -> str:
    return LABELS[key].format(k=k)


def _names(keys, k: int) -> list[str]:
    return [NAMES[key].format(k=k) for key in keys]


def qrels(test: pd.DataFrame) -> pd.DataFrame:
    """Held-out views as irlib's qrels: each (user, film) relevant with grade 1."""
    return pd.DataFrame({"query_id": test["user_id"].to_numpy(),
                         "doc_id": test["item_id"].to_numpy(), "relevance": 1})


def run(lists: pd.DataFrame) -> pd.DataFrame:
    """Recommendation lists (``user_id, item_id, score``) as irlib's run."""
    return pd.DataFrame({"query_id": lists["user_id"].to_numpy(),
                         "doc_id": lists["item_id"].to_numpy(),
                         "score": lists["score"].to_numpy(dtype=float)})


def accuracy(test: pd.DataFrame, lists: pd.DataFrame, k: int,
             keys=tuple(NAMES)) -> irlib.Evaluation:
    """Per user and over users: columns named by :data:`NAMES` at ``k`` (``Success@10``...)."""
    return irlib.evaluate(qrels(test), run(lists), _names(keys, k), complete=True)


def per_view(test: pd.DataFrame, lists: pd.DataFrame, k: int,
             keys=tuple(NAMES)) -> irlib.Evaluation:
    """Each held-out view its own query (``<user>#<film>``), scored on its user's list."""
    views = pd.DataFrame({"user_id": test["user_id"].to_numpy(),
                          "query_id": (test["user_id"] + "#" + test["item_id"]).to_numpy(),
                          "doc_id": test["item_id"].to_numpy()})
    judged = views[["query_id", "doc_id"]].assign(relevance=1)
    per_query_run = views[["user_id", "query_id"]].merge(
        lists[["user_id", "item_id", "score"]], on="user_id")
    return irlib.evaluate(judged, per_query_run.rename(columns={"item_id": "doc_id"})[
        ["query_id", "doc_id", "score"]], _names(keys, k), complete=True)
