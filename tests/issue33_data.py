"""The issue-33 reproduction, generated: 60 topics, three runs (bm25 the baseline, rerank,
weak) where weak falls behind bm25 on NDCG@10 by a paired t-test p near 0.04 that Holm's
correction over the two comparisons with the baseline lifts above 0.05: the table marks
nothing for weak, so no sentence may call its difference real.

Everything comes from :func:`files` (seeded), as TREC text the page and the command line read.
"""
from __future__ import annotations

import numpy as np

SEED = 13
N_TOPICS, N_DOCS = 60, 20


def _rankings(seed: int = SEED) -> tuple[str, dict[str, str]]:
    rng = np.random.default_rng(seed)
    qrels, runs = [], {"bm25": [], "rerank": [], "weak": []}
    for t in range(N_TOPICS):
        qid = str(301 + t)
        grades = rng.choice([0, 0, 0, 1, 1, 2, 3], size=N_DOCS)
        if not grades.any():
            grades[0] = 1
        qrels += [f"{qid} 0 d{d:02d} {g}" for d, g in enumerate(grades)]
        base = grades + rng.normal(0.0, 1.6, N_DOCS)
        scores = {"bm25": base,
                  "rerank": grades + rng.normal(0.0, 1.5, N_DOCS),
                  "weak": base + rng.normal(0.0, 0.9, N_DOCS)}
        for name, s in scores.items():
            order = np.argsort(-s, kind="stable")
            runs[name] += [f"{qid} Q0 d{d:02d} {r} {s[d]:.4f} {name}"
                           for r, d in enumerate(order, start=1)]
    return ("\n".join(qrels) + "\n",
            {name: "\n".join(lines) + "\n" for name, lines in runs.items()})


def files(seed: int = SEED) -> dict[str, bytes]:
    """``qrels.txt`` and ``run_bm25.txt``, ``run_rerank.txt``, ``run_weak.txt`` as bytes."""
    qrels, runs = _rankings(seed)
    out = {"qrels.txt": qrels.encode()}
    out.update({f"run_{name}.txt": text.encode() for name, text in runs.items()})
    return out
