"""Regenerate the sample files in this folder (deterministic; run from anywhere).

    python assets/samples/make_samples.py

See README.md for what each file is and which values are taken from the seed notebook
and which are invented.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent

# queryid, query, [(document, (rating_1, rating_2, rating_3)), ...] in position order.
# Rows 0-9 (disagreement, adhesive, boots doc9/doc10) are copied from the notebook's
# raw_df; the other ratings are chosen so that the median reproduces the relevance values
# and DCG@4 the notebook prints (see README.md).
NOTEBOOK = [
    (1, "disagreement", [("doc1", (2, 2, 3)), ("doc2", (3, 3, 2)),
                         ("doc3", (0, 0, 2)), ("doc4", (1, 1, 0))]),
    (2, "adhesive", [("doc5", (0, 0, 0)), ("doc6", (0, 0, 0)),
                     ("doc7", (0, 0, 0)), ("doc8", (0, 0, 0))]),
    (3, "boots", [("doc9", (0, 0, 0)), ("doc10", (0, 0, 0)),
                  ("doc11", (0, 0, 1)), ("doc12", (1, 1, 2))]),
    (4, "camera", [("doc13", (0, 0, 0)), ("doc14", (0, 1, 0)),
                   ("doc15", (1, 0, 0)), ("doc16", (3, 3, 3))]),
    (5, "door", [("doc17", (3, 3, 2)), ("doc18", (0, 0, 0)),
                 ("doc19", (0, 1, 0)), ("doc20", (0, 0, 0))]),
    (6, "extension cord", [("doc21", (3, 3, 3)), ("doc22", (1, 1, 0)),
                           ("doc23", (1, 2, 1)), ("doc24", (1, 1, 1))]),
    (7, "frying pan", [("doc25", (3, 3, 3)), ("doc26", (3, 3, 3)),
                       ("doc27", (3, 3, 3)), ("doc28", (3, 3, 2))]),
    (8, "control", [("doc30", (2, 2, 3)), ("doc31", (3, 3, 2)),
                    ("doc32", (0, 0, 2)), ("doc33", (1, 1, 0))]),
    (9, "test", [("doc31", (3, 3, 2)), ("doc30", (2, 2, 3)),
                 ("doc33", (1, 1, 0)), ("doc32", (0, 0, 2))]),
    (10, "nDCG A", [("doc34", (1, 1, 1)), ("doc35", (2, 2, 1)),
                    ("doc36", (0, 0, 0)), ("doc37", (0, 1, 0))]),
    (11, "nDCG B", [("doc38", (3, 3, 3)), ("doc39", (2, 2, 2)),
                    ("doc40", (3, 2, 3)), ("doc41", (0, 0, 0))]),
]

# Synthetic queries (ids 101-114) so that control vs test has enough queries for a
# paired significance test.  Texts are only for the README; TREC files carry ids.
SYNTHETIC = ["usb c cable", "garden hose", "coffee grinder", "desk lamp", "rain jacket",
             "paint roller", "dog bed", "bike lock", "kettle", "mattress topper",
             "phone case", "hammer drill", "yoga mat", "ceiling fan"]


def median_int(r):
    return int(np.median(r))            # the notebook: .median(axis=1).astype(int)


def main() -> None:
    rng = np.random.default_rng(20240521)

    # ratings_notebook.csv -------------------------------------------------------------
    rows = ["queryid,query,document,position,rating_1,rating_2,rating_3"]
    qrels = []
    judged: dict[str, dict[str, int]] = {}
    for qid, text, docs in NOTEBOOK:
        for pos, (doc, r) in enumerate(docs, start=1):
            rows.append(f"{qid},{text},{doc},{pos},{r[0]},{r[1]},{r[2]}")
            judged.setdefault(str(qid), {})[doc] = median_int(r)
    (HERE / "ratings_notebook.csv").write_text("\n".join(rows) + "\n")

    # synthetic judgements and rankings ----------------------------------------------
    control: dict[str, list[str]] = {}
    test: dict[str, list[str]] = {}
    for qid, _text, docs in NOTEBOOK:
        if qid == 9:      # the notebook's "test" row = the test system's ranking of query 8
            continue
        order = [d for d, _ in docs]
        control[str(qid)] = order
        test[str(qid)] = order
    test["8"] = [d for d, _ in NOTEBOOK[8][2]]   # doc31, doc30, doc33, doc32

    next_doc = 1001
    for i, _text in enumerate(SYNTHETIC):
        qid = str(101 + i)
        n_pool = 14
        docs = [f"doc{next_doc + j}" for j in range(n_pool)]
        next_doc += n_pool
        grades = rng.choice([0, 0, 0, 1, 1, 2, 3], size=n_pool)
        judged_docs = rng.permutation(n_pool)[:12]          # 2 of 14 stay unjudged
        judged[qid] = {docs[j]: int(grades[j]) for j in sorted(judged_docs)}
        quality = np.array([judged[qid].get(d, 0) for d in docs], dtype=float)
        # Both systems see the true grades through noise; test sees them more clearly.
        c_key = quality + rng.normal(0, 1.6, n_pool)
        t_key = quality + rng.normal(0, 0.9, n_pool)
        control[qid] = [docs[j] for j in np.argsort(-c_key, kind="stable")[:10]]
        test[qid] = [docs[j] for j in np.argsort(-t_key, kind="stable")[:10]]

    for qid in judged:
        for doc, rel in judged[qid].items():
            qrels.append(f"{qid} 0 {doc} {rel}")
    (HERE / "qrels.txt").write_text("\n".join(qrels) + "\n")

    for fname, tag, ranking, base in (("run_control.txt", "control", control, 20.0),
                                      ("run_test.txt", "test", test, 15.0)):
        lines = []
        for qid, docs in ranking.items():
            score = base + rng.uniform(0, 5)
            for rank, doc in enumerate(docs, start=1):
                lines.append(f"{qid} Q0 {doc} {rank} {score:.4f} {tag}")
                score -= rng.uniform(0.2, 2.0)
        (HERE / fname).write_text("\n".join(lines) + "\n")

    # results.csv: the notebook's positions as a results table ------------------------
    res = ["query_id,doc_id,position"]
    for qid, _text, docs in NOTEBOOK:
        for pos, (doc, _r) in enumerate(docs, start=1):
            res.append(f"{qid},{doc},{pos}")
    (HERE / "results.csv").write_text("\n".join(res) + "\n")

    # two more variants for comparing many systems (their own seed: the files above stay
    # as they were): rm3 re-ranks test's lists a little better, dense ranks its own pool
    extra = np.random.default_rng(20251125)
    for fname, tag, noise, base in (("run_rm3.txt", "rm3", 0.8, 14.0),
                                    ("run_dense.txt", "dense", 1.3, 0.9)):
        lines = []
        for qid, docs in test.items():
            pool = list(dict.fromkeys(docs + sorted(judged.get(qid, {}))))[:len(docs)]
            key = np.array([judged[qid].get(d, 0) for d in pool], dtype=float)
            key += extra.normal(0, noise, len(pool))
            score = base + extra.uniform(0, 1)
            for rank, j in enumerate(np.argsort(-key, kind="stable"), start=1):
                lines.append(f"{qid} Q0 {pool[j]} {rank} {score:.4f} {tag}")
                score -= extra.uniform(0.01, 0.1) * max(base / 10, 0.1)
        (HERE / fname).write_text("\n".join(lines) + "\n")


def write_shop_samples() -> None:
    """The "Recommendations + held-out interactions" samples: a shop (shop.py) as CSV and
    TSV with the engineers' own column names, for the page to map."""
    from shop import make_shop
    shop = make_shop()
    shop.train.to_csv(HERE / "shop_train.csv", index=False)
    shop.heldout.to_csv(HERE / "shop_test.csv", index=False)
    shop.mf.to_csv(HERE / "shop_recs_mf.csv", index=False)
    shop.popular.to_csv(HERE / "shop_recs_popular.tsv", index=False, sep="\t")
    shop.genres.to_csv(HERE / "shop_movies.csv", index=False)


if __name__ == "__main__":
    main()
    write_shop_samples()
