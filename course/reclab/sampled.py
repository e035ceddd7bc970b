"""Sampled metrics (Krichene & Rendle, "On Sampled Metrics for Item Recommendation", KDD 2020).

Instead of ranking a user's held-out film among every film they have not watched, many papers
rank it among N films drawn at random from those ("100 sampled negatives") and report
HitRate@10 or NDCG@10 on that short list. It is cheaper, and it measures something else: a
film in the top 10 of 101 candidates may be at rank 150 of the whole catalogue, so the
sampled numbers reward a good *average* rank more than a good *top* of the list, and they
can order two systems the other way round from the full-catalogue numbers.

Here every user holds out one film (leave-last-out). A user's negatives are the first N of a
seeded random order of the films they never watched (training or test), so the sample for a
larger N contains the smaller one. Each candidate is scored by its place in the model's full
ranking, and the candidate lists go through :func:`irlib.evaluate`: one metric code for both.
"""
from __future__ import annotations

import functools

import numpy as np
import pandas as pd

import irlib
from course.reclab.data import SEED, Dataset, generate
from course.reclab.evaluation import NAMES, qrels
from course.reclab.models import Ranking, lesson_ranking
from course.reclab.splits import Split, lesson_split

#: The most negatives a slider offers: every user of the lesson's data has at least this
#: many unwatched films (tests/test_reclab.py checks it).
MAX_NEGATIVES = 100
#: Papers often sample 100 negatives from catalogues of thousands of items; the lesson's
#: catalogue has 200 films, and 50 of a user's 120-190 unwatched ones is where the sampled
#: order of its systems has already turned (asserted in tests/test_reclab.py).
DEFAULT_NEGATIVES = 50


def negative_orders(data: Dataset, s: Split, seed: int) -> dict[str, np.ndarray]:
    """Each test user's never-watched films (column indices) in a seeded random order."""
    users = pd.Index(data.users["user_id"])
    items = pd.Index(data.items["item_id"])
    views = data.interactions
    watched = np.zeros((len(users), len(items)), bool)
    watched[users.get_indexer(views["user_id"]), items.get_indexer(views["item_id"])] = True
    rng = np.random.default_rng(seed)
    return {user: rng.permutation(np.flatnonzero(~watched[users.get_loc(user)]))
            for user in sorted(set(s.test["user_id"]))}


def candidate_run(ranking: Ranking, s: Split, orders: dict[str, np.ndarray],
                  n: int | None) -> pd.DataFrame:
    """irlib's run: per test user the held-out film(s) and the first ``n`` negatives (all of
    them for None), each scored minus its position in the model's full ranking."""
    return _candidates(ranking, s, orders, [n], tagged=False)[1]


def _candidates(ranking: Ranking, s: Split, orders: dict[str, np.ndarray], ns,
                tagged: bool) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(qrels, run) with every test user's candidates for each ``n`` of ``ns``; the query of
    user u at n is ``"<n>|<u>"`` when ``tagged``, else ``u`` (one ``n`` only)."""
    users = sorted(orders)
    row_of = pd.Index(ranking.user_ids).get_indexer(users)
    col_of = {film: i for i, film in enumerate(ranking.item_ids)}
    held = {user: [] for user in users}
    for user, film in zip(s.test["user_id"], s.test["item_id"]):
        held[user].append(col_of[film])
    held_cols = [np.asarray(held[user], dtype=np.int64) for user in users]
    queries, rows, cols, judged_q, judged_c = [], [], [], [], []
    for n in ns:
        for user, row, mine in zip(users, row_of, held_cols):
            query = f"{n}|{user}" if tagged else user
            these = np.concatenate([mine, orders[user][:n]])
            queries.append(np.full(len(these), query, dtype=object))
            rows.append(np.full(len(these), row))
            cols.append(these)
            judged_q.append(np.full(len(mine), query, dtype=object))
            judged_c.append(mine)
    cols_all = np.concatenate(cols)
    films = np.asarray(ranking.item_ids, dtype=object)
    run = pd.DataFrame({"query_id": np.concatenate(queries), "doc_id": films[cols_all],
                        "score": -ranking.position[np.concatenate(rows), cols_all]
                        .astype(float)})
    judged = pd.DataFrame({"query_id": np.concatenate(judged_q),
                           "doc_id": films[np.concatenate(judged_c)], "relevance": 1})
    return judged, run


def sampled_accuracy(ranking: Ranking, s: Split, orders: dict[str, np.ndarray],
                     n: int | None, k: int, keys=("hit", "ndcg", "mrr")) -> irlib.Evaluation:
    """The metrics of ``ranking`` on each user's held-out film plus ``n`` sampled negatives
    (``None``: every unwatched film, the full-catalogue number)."""
    names = [NAMES[key].format(k=k) for key in keys]
    return irlib.evaluate(qrels(s.test), candidate_run(ranking, s, orders, n), names,
                          complete=True)


def sampled_sweep(ranking: Ranking, s: Split, orders: dict[str, np.ndarray],
                  ns, k: int, keys=("hit", "ndcg", "mrr")) -> pd.DataFrame:
    """:func:`sampled_accuracy`'s means for every ``n`` in ``ns`` (rows) in one
    :func:`irlib.evaluate` call: each (n, user) is its own query, ``"<n>|<user>"``, and a
    row's value is the mean over its ``n``'s queries, as ``evaluate`` averages one call."""
    names = [NAMES[key].format(k=k) for key in keys]
    judged, run = _candidates(ranking, s, orders, ns, tagged=True)
    ev = irlib.evaluate(judged, run, names, complete=True)
    which = ev.per_query.index.str.split("|").str[0].astype(int)
    return ev.per_query.groupby(which).mean().reindex(list(ns)).rename_axis("negatives")


@functools.lru_cache(maxsize=8)
def _lesson_orders(seed: int, data_seed: int) -> dict[str, np.ndarray]:
    return negative_orders(generate(data_seed), lesson_split("last", data_seed), seed)


def lesson_sampled(model: str, n: int | None, k: int, seed: int,
                   data_seed: int = SEED) -> pd.Series:
    """Means over users of HitRate, NDCG and MRR at ``k`` on the lesson's leave-last-out
    split, with ``n`` negatives drawn with ``seed`` (None: the full catalogue). Cached."""
    return _lesson_sampled(model, n, k, seed, data_seed)


@functools.lru_cache(maxsize=256)
def _lesson_sampled(model: str, n: int | None, k: int, seed: int,
                    data_seed: int) -> pd.Series:
    s = lesson_split("last", data_seed)
    return sampled_accuracy(lesson_ranking("last", model, data_seed), s,
                            _lesson_orders(seed, data_seed), n, k).means


def lesson_sweep(model: str, ns: tuple[int, ...], k: int, seed: int,
                 data_seed: int = SEED) -> pd.DataFrame:
    """:func:`sampled_sweep` on the lesson's leave-last-out split (cached)."""
    return _lesson_sweep(model, tuple(ns), k, seed, data_seed)


@functools.lru_cache(maxsize=64)
def _lesson_sweep(model: str, ns: tuple[int, ...], k: int, seed: int,
                  data_seed: int) -> pd.DataFrame:
    return sampled_sweep(lesson_ranking("last", model, data_seed), lesson_split("last", data_seed),
                         _lesson_orders(seed, data_seed), ns, k)
