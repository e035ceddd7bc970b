"""Synthetic qrels and run in ir_measures' DataFrame layout, shared by the benchmarks."""
from __future__ import annotations

import numpy as np
import pandas as pd


def make_data(n_queries: int = 7000, docs_per_query: int = 1000, rel_per_query: int = 6,
              seed: int = 0, tie_fraction: float = 0.0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A run of ``n_queries`` x ``docs_per_query`` and qrels with ~``rel_per_query`` graded docs.

    Scores are float32 values (pytrec_eval reads scores as float32), distinct except that
    a ``tie_fraction`` of the rows copy the score of the row before them (same query), so
    trec_eval's doc-id tie order matters; doc ids are strings drawn from a shared
    collection so that queries share documents.
    """
    rng = np.random.default_rng(seed)
    n = n_queries * docs_per_query
    qids = np.array([f"q{i}" for i in range(n_queries)], dtype=object)
    # distinct doc ids within a query: a random window of a shuffled collection
    collection = np.array([f"doc{j}" for j in range(50_000)], dtype=object)
    starts = rng.integers(0, len(collection) - docs_per_query, n_queries)
    doc_idx = (starts[:, None] + np.arange(docs_per_query)[None, :]).ravel()
    perm = rng.permutation(len(collection))
    docs = collection[perm[doc_idx]]
    scores = rng.permutation(n).astype(np.float32) / np.float32(n) * np.float32(100.0)
    if tie_fraction:
        copies = rng.choice(n, int(n * tie_fraction), replace=False)
        copies = copies[copies % docs_per_query != 0]          # the row before: same query
        scores[copies] = scores[copies - 1]
    run = pd.DataFrame({"query_id": np.repeat(qids, docs_per_query), "doc_id": docs,
                        "score": scores.astype(np.float64)})
    # qrels: ~rel_per_query judged relevant (grades 1-3) among the retrieved, a few non-relevant
    # judged, and one unretrieved relevant doc per query so recall < 1 is possible.
    n_judged = rel_per_query + 4
    pick = rng.integers(0, docs_per_query, (n_queries, n_judged))
    pick = np.sort(pick, axis=1)
    rows = []
    for qi in range(n_queries):
        chosen = np.unique(pick[qi])
        base = qi * docs_per_query
        for j, p in enumerate(chosen):
            grade = int(rng.integers(1, 4)) if j < rel_per_query else 0
            rows.append((qids[qi], docs[base + p], grade))
        rows.append((qids[qi], f"unretrieved{qi}", 2))
    qrels = pd.DataFrame(rows, columns=["query_id", "doc_id", "relevance"])
    return qrels, run
