r"""Documents nobody judged: pooling as TREC does it, and what it does to a new system.

Nobody can judge every document of a large collection for every query. TREC judges a *pool*:
the union of the top ``depth`` results of every participating system; everything else stays
unjudged. A system that took part finds its top results judged; a new system that finds other
documents meets unjudged ones, and each way of scoring treats them differently:

* **unjudged = not relevant** (trec_eval's default): P, AP and NDCG count them as misses, so a
  new system that finds unjudged relevant documents is underrated;
* **judged only** (``trec_eval -J``, the "condensed list" of Sakai 2007): the unjudged results
  are removed and the judged ones move up, so they neither help nor hurt;
* **bpref** (Buckley & Voorhees 2004) ignores the unjudged results by its definition;
* **Judged@K** (ir_measures) does not score the system: it says how much of its top K was
  judged, i.e. how far to trust the other numbers.

:func:`pool` finds the pool, :func:`pooled_qrels` keeps the judgments a pool of that depth
would have made, and :func:`scores_under_pooling` scores every system under each rule with
:func:`irlib.evaluate`.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from irlib._common import InputError, check_k
from irlib.batch.engine import evaluate

#: The ways of scoring a system against a pool, in the order the lesson shows them.
RULES = {"complete": "every document judged",
         "unjudged_not_relevant": "unjudged = not relevant",
         "judged_only": "judged only (-J)",
         "bpref": "bpref",
         "judged_at_k": "Judged@K"}


def run_from_lists(lists: Mapping[str, Sequence[str]], query_id: str = "q") -> dict:
    """Runs (``query_id, doc_id, score``) from ranked lists of document ids: the first gets
    the highest score. Repeated ids are an error naming the list and the rank.

    >>> run_from_lists({"A": ["d1", "d2"]})["A"].to_dict("list")
    {'query_id': ['q', 'q'], 'doc_id': ['d1', 'd2'], 'score': [2.0, 1.0]}
    """
    runs = {}
    for name, docs in lists.items():
        docs = [str(d) for d in docs]
        seen: dict[str, int] = {}
        for rank, doc in enumerate(docs, 1):
            if doc in seen:
                raise InputError(f"{doc!r} is listed twice (ranks {seen[doc]} and {rank})",
                                 source=f"system {name}", column=f"rank {rank}")
            seen[doc] = rank
        runs[name] = pd.DataFrame({"query_id": [query_id] * len(docs), "doc_id": docs,
                                   "score": np.arange(len(docs), 0, -1, dtype=float)})
    return runs


def _ranked(run: pd.DataFrame) -> pd.DataFrame:
    """A run in trec_eval's order: query, score descending, doc id descending."""
    run = run.assign(query_id=run["query_id"].astype(str), doc_id=run["doc_id"].astype(str))
    return run.sort_values(["query_id", "score", "doc_id"], ascending=[True, False, False],
                           kind="mergesort")


def pool(runs: Mapping[str, pd.DataFrame], depth: int) -> pd.DataFrame:
    """The pool: every (query, document) in the top ``depth`` of at least one run.

    Returns ``query_id, doc_id, systems`` (the runs that put it there, comma-separated),
    sorted by query and document.

    >>> runs = run_from_lists({"A": ["d1", "d2", "d3"], "B": ["d3", "d4"]})
    >>> pool(runs, 2)[["doc_id", "systems"]].to_dict("list")
    {'doc_id': ['d1', 'd2', 'd3', 'd4'], 'systems': ['A', 'A', 'B', 'B']}
    """
    depth = check_k(depth, "depth")
    if not runs:
        raise ValueError("pool needs at least one run")
    tops = [_ranked(run).groupby("query_id", sort=False).head(depth)
            [["query_id", "doc_id"]].assign(system=str(name)) for name, run in runs.items()]
    both = pd.concat(tops, ignore_index=True)
    out = both.groupby(["query_id", "doc_id"], sort=True)["system"].agg(", ".join)
    return out.rename("systems").reset_index()


def pooled_qrels(qrels: pd.DataFrame, runs: Mapping[str, pd.DataFrame], depth: int) -> pd.DataFrame:
    """The judgments a pool of ``depth`` over ``runs`` would have made: the rows of ``qrels``
    (taken as the complete judgments) whose document is in the pool. This is how pool-depth
    experiments (Zobel 1998) shrink an official pool."""
    pooled = pool(runs, depth)
    keys = pd.MultiIndex.from_frame(pooled[["query_id", "doc_id"]])
    mine = pd.MultiIndex.from_arrays([qrels["query_id"].astype(str), qrels["doc_id"].astype(str)])
    return qrels[mine.isin(keys)].reset_index(drop=True)


def scores_under_pooling(qrels: pd.DataFrame, runs: Mapping[str, pd.DataFrame],
                         pooled: Sequence[str], depth: int, measure: str,
                         k: int) -> pd.DataFrame:
    """Every run's mean score under each rule of :data:`RULES`, judged by a pool of ``depth``
    over the runs named in ``pooled`` (the others did not take part).

    ``measure`` is an ir_measures name (``"P@5"``, ``"AP"``, ``"nDCG@5"``) for the first three
    rules; ``k`` is the cut-off of Judged@K. Returns one row per run (``pooled``: whether it
    took part) and one column per rule.

    Examples
    --------
    A new system C finds relevant documents that A and B never ranked high:

    >>> qrels = pd.DataFrame({"query_id": "q", "doc_id": ["d1", "d2", "d3", "d4", "d5", "d6"],
    ...                       "relevance": [1, 0, 1, 0, 1, 1]})
    >>> runs = run_from_lists({"A": ["d1", "d2", "d3"], "B": ["d2", "d1", "d4"],
    ...                        "C": ["d5", "d6", "d1"]})
    >>> t = scores_under_pooling(qrels, runs, ["A", "B"], 2, "P@3", 3)
    >>> bool(t.loc["C", "pooled"])
    False
    >>> t.loc["C"].drop("pooled").astype(float).round(3).to_dict()  # doctest: +NORMALIZE_WHITESPACE
    {'complete': 1.0, 'unjudged_not_relevant': 0.333, 'judged_only': 0.333, 'bpref': 1.0,
     'judged_at_k': 0.333}
    """
    depth, k = check_k(depth, "depth"), check_k(k)
    missing = [name for name in pooled if name not in runs]
    if missing:
        raise ValueError(f"pooled names runs that are not given: {missing}")
    if not pooled:
        raise ValueError("pooled must name at least one run: a pool needs systems")
    judged = pooled_qrels(qrels, {name: runs[name] for name in pooled}, depth)
    judged_k = f"Judged@{k}"
    rows = {}
    for name, run in runs.items():
        full = evaluate(qrels, run, [measure]).means.iloc[0]
        if len(judged):
            part = evaluate(judged, run, [measure, "Bpref", judged_k]).means
            condensed = evaluate(judged, run, [measure], judged_only=True).means.iloc[0]
            values = (part.iloc[0], condensed, part["Bpref"], part[judged_k])
        else:                      # nothing judged: every rule has nothing to go on
            values = (0.0, 0.0, 0.0, 0.0)
        rows[str(name)] = {"pooled": name in pooled, "complete": float(full),
                           **dict(zip(list(RULES)[1:], map(float, values)))}
    return pd.DataFrame.from_dict(rows, orient="index")
