"""Recommender evaluation at scale, from files: irlib.recsys against ranx and rs_metrics.

The data (``--users`` users, default 1,000,000): a top-20 list per user (20 million rows,
``user_id,item_id,score``, rank order, as a recommender exports it; 0.5 % of the users have
none), 5 held-out interactions per user on average (5 million rows, ``user_id,item_id,rating``
1-5), 10 training interactions per user (10 million) and 1-3 of 20 genres per item, over
50,000 popularity-skewed items. Files are Parquet (``--format csv``: CSV, genres CSV either way).

Timed, from the files to the numbers (relevant = rating >= 4, K = ``--k``):

* **irlib**: ``read_recommendations`` + ``read_interactions`` (held-out, training) +
  ``read_item_categories`` + ``evaluate_recommendations``: HitRate, Recall, Precision, NDCG,
  MAP, MRR per user and overall, and coverage, exposure Gini, popularity, novelty and
  intra-list diversity;
* **irlib accuracy**: the recommendations and held-out files read, the six accuracy measures;
* **ranx** (the fastest recommender evaluation library that installs here): ``pd.read_parquet``
  (or ``read_csv``) of both files, ``Qrels.from_df`` / ``Run.from_df`` (they need object
  columns, converted in its time), ``ranx.evaluate`` of hit_rate, recall, precision, ndcg,
  map and mrr at K with ``make_comparable=True`` (users without a list count 0, as irlib);
* **rs_metrics** (beyond accuracy): ``coverage``, ``popularity`` and ``surprisal`` from the
  recommendations and training files. No library that installs here computes exposure Gini
  or category intra-list diversity, so irlib's total includes them and the comparison's
  does not. Microsoft Recommenders (``python_evaluation``) and RecTools would downgrade
  pandas below 3 and are not installed.

Each timed run is a fresh process (fork; each warms its library up on tiny data first, so
numba's compilation is not timed), runs are interleaved, and medians of ``--repeat`` are
printed with each process's peak memory (RSS high-water mark, ``ru_maxrss``), the ratios
irlib / (ranx + rs_metrics) and irlib accuracy / ranx (target <= 0.5), and a check that the
numbers agree. Develop with ``--users 20000``; at the full size ranx's run peaks near
10 GB of memory and the libraries take minutes (``--library-repeat 1``).

Run: ``python benchmarks/bench_recsys.py [--users N] [--k 10] [--repeat 3] [--format csv]``.
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import resource
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.csv as pa_csv  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

LIST_LENGTH = 20
HELD_PER_USER = 5
TRAIN_PER_USER = 10
N_GENRES = 20
RELEVANT_FROM = 4


# --------------------------------------------------------------------------- the data

def _distinct_ranks(rng, counts: np.ndarray, n_items: int, density: float,
                    first: np.ndarray) -> np.ndarray:
    """Per user ``counts[u]`` distinct popularity ranks from ``first[u]`` on: a running sum
    of geometric gaps (a share ``density`` of the ranks passed is taken), so no list
    repeats an item."""
    owner = np.repeat(np.arange(len(counts)), counts)
    gaps = rng.geometric(density, size=len(owner)).astype(np.int64)
    ends = np.cumsum(gaps)
    starts = np.repeat(np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
    before = np.concatenate([[0], ends])[starts]
    ranks = ends - before - 1 + first[owner]
    over = ranks >= n_items
    if over.any():                       # a very long tail: fold back, stays distinct
        ranks[over] = n_items - 1 - (np.arange(over.sum()) % (n_items // 2))
        ranks = _dedupe(ranks, owner)
    return ranks


def _dedupe(ranks: np.ndarray, owner: np.ndarray) -> np.ndarray:
    key = owner.astype(np.int64) * (ranks.max() + 1) + ranks
    _, first = np.unique(key, return_index=True)
    keep = np.zeros(len(ranks), bool)
    keep[first] = True
    ranks[~keep] = -1
    return ranks


def _shuffled_within(rng, counts: np.ndarray) -> np.ndarray:
    """A permutation of rows that shuffles each user's rows among themselves."""
    owner = np.repeat(np.arange(len(counts)), counts)
    return np.lexsort((rng.random(len(owner)), owner))


def make_files(folder: Path, n_users: int, n_items: int, fmt: str, seed: int = 7) -> dict:
    """Write the four files (see the module); returns their paths."""
    rng = np.random.default_rng(seed)
    users = pa.array([f"u{u:07d}" for u in range(n_users)])
    items = pa.array([f"i{i:06d}" for i in range(n_items)])
    by_popularity = rng.permutation(n_items)                 # rank -> item code
    # each user's taste: a neighbourhood of the popularity ranking, mostly near the head
    taste = np.minimum(rng.geometric(1 / 1500, n_users) - 1, n_items - 400)

    # recommendations: 20 per user (0.5 % of users get none), in rank order
    listed = np.flatnonzero(rng.random(n_users) >= 0.005)
    counts = np.zeros(n_users, np.int64)
    counts[listed] = LIST_LENGTH
    ranks = _distinct_ranks(rng, counts, n_items, 0.3, taste)
    ranks = ranks[_shuffled_within(rng, counts)]
    owner = np.repeat(np.arange(n_users), counts)
    score = np.tile(np.round(np.linspace(1.0, 0.05, LIST_LENGTH), 6), len(listed))
    recs = pa.table({"user_id": users.take(owner), "item_id": items.take(by_popularity[ranks]),
                     "score": score})

    def interactions(per_user: int, density: float, with_rating: bool) -> pa.Table:
        counts = rng.multinomial(per_user * n_users, np.full(n_users, 1 / n_users))
        ranks = _distinct_ranks(rng, counts, n_items, density, np.maximum(taste - 20, 0))
        owner = np.repeat(np.arange(n_users), counts)
        keep = ranks >= 0
        columns = {"user_id": users.take(owner[keep]),
                   "item_id": items.take(by_popularity[ranks[keep]])}
        if with_rating:
            columns["rating"] = rng.choice(np.arange(1, 6), size=int(keep.sum()),
                                           p=[0.05, 0.1, 0.2, 0.35, 0.3])
        return pa.table(columns)

    held = interactions(HELD_PER_USER, 0.05, True)
    train = interactions(TRAIN_PER_USER, 0.02, True)
    genre_count = rng.integers(1, 4, n_items)
    genre_names = np.array([f"g{g:02d}" for g in range(N_GENRES)], dtype=object)
    genres = ["|".join(genre_names[rng.choice(N_GENRES, c, replace=False)])
              for c in genre_count]
    paths = {}
    ext = "parquet" if fmt == "parquet" else "csv"
    for name, table in (("recs", recs), ("heldout", held), ("train", train)):
        paths[name] = folder / f"{name}.{ext}"
        if fmt == "parquet":
            pq.write_table(table, paths[name])
        else:
            pa_csv.write_csv(table, paths[name],
                             pa_csv.WriteOptions(quoting_style="none"))
    paths["genres"] = folder / "genres.csv"
    pd.DataFrame({"item_id": np.asarray(items.to_pylist(), dtype=object),
                  "genres": genres}).to_csv(paths["genres"], index=False)
    return paths


# --------------------------------------------------------------------------- what is timed

def irlib_full(paths: dict, k: int) -> dict:
    from irlib import recsys
    recs = recsys.read_recommendations(paths["recs"])
    held = recsys.read_interactions(paths["heldout"])
    train = recsys.read_interactions(paths["train"])
    genres = recsys.read_item_categories(paths["genres"])
    result = recsys.evaluate_recommendations(recs, held, k=k, relevant_from=RELEVANT_FROM,
                                             train=train, item_categories=genres)
    return {name: float(v) for name, v in result.overall.items()}


def irlib_accuracy(paths: dict, k: int) -> dict:
    from irlib import recsys
    recs = recsys.read_recommendations(paths["recs"])
    held = recsys.read_interactions(paths["heldout"])
    result = recsys.evaluate_recommendations(recs, held, k=k, relevant_from=RELEVANT_FROM,
                                             measures=list(recsys.ACCURACY))
    return {name: float(v) for name, v in result.accuracy.items()}


def _frame(path: Path) -> pd.DataFrame:
    return pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)


RANX_METRICS = ("hit_rate", "recall", "precision", "ndcg", "map", "mrr")
RANX_NAMES = dict(zip(RANX_METRICS, ("HitRate", "Recall", "Precision", "NDCG", "MAP", "MRR")))


def ranx_accuracy(paths: dict, k: int) -> dict:
    import ranx
    recs, held = _frame(paths["recs"]), _frame(paths["heldout"])
    held = held.loc[held["rating"] >= RELEVANT_FROM, ["user_id", "item_id"]]
    held = held.astype(object).assign(relevance=1)
    recs = recs.astype({"user_id": object, "item_id": object, "score": float})
    qrels = ranx.Qrels.from_df(held, "user_id", "item_id", "relevance")
    run = ranx.Run.from_df(recs, "user_id", "item_id", "score")
    means = ranx.evaluate(qrels, run, [f"{m}@{k}" for m in RANX_METRICS],
                          make_comparable=True)
    return {f"{RANX_NAMES[m.split('@')[0]]}@{k}": float(v) for m, v in means.items()}


def rs_metrics_beyond(paths: dict, k: int) -> dict:
    import rs_metrics
    recs, train, held = _frame(paths["recs"]), _frame(paths["train"]), _frame(paths["heldout"])
    # irlib's users: held-out users with a relevant item; its catalogue: every item known
    catalogue = pd.unique(pd.concat([recs["item_id"], held["item_id"], train["item_id"]]))
    evaluated = held.loc[held["rating"] >= RELEVANT_FROM, "user_id"].unique()
    recs = recs.loc[recs["user_id"].isin(evaluated)]
    return {f"Coverage@{k}": float(rs_metrics.coverage(catalogue, recs, k)),
            f"Popularity@{k}": float(rs_metrics.popularity(train, recs, k)),
            f"Novelty@{k}": float(rs_metrics.surprisal(train, recs, k))}


TASKS = {"irlib": irlib_full, "irlib accuracy": irlib_accuracy, "ranx": ranx_accuracy,
         "rs_metrics": rs_metrics_beyond}


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _child(task: str, paths: dict, small: dict, k: int, out) -> None:
    warnings.simplefilter("ignore")
    TASKS[task](small, k)                     # imports, numba's compilation: not timed
    start, cpu = time.perf_counter(), _cpu()
    means = TASKS[task](paths, k)
    seconds, cpu = time.perf_counter() - start, _cpu() - cpu
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out.send((seconds, cpu, peak_mb, means))
    out.close()


def run_in_child(task: str, paths: dict, small: dict, k: int):
    ctx = mp.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(task, paths, small, k, send))
    proc.start()
    send.close()
    result = receive.recv()
    proc.join()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=1_000_000)
    parser.add_argument("--items", type=int, default=50_000)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--library-repeat", type=int, help="runs of ranx and rs_metrics "
                        "(default: --repeat; they take minutes each at the full size)")
    parser.add_argument("--format", choices=("parquet", "csv"), default="parquet")
    parser.add_argument("--folder", type=Path, help="keep the files here (default: a "
                        "temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.folder or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        paths = make_files(folder, args.users, args.items, args.format)
        small_folder = folder / "warm-up"
        small_folder.mkdir(exist_ok=True)
        small = make_files(small_folder, 300, 2000, args.format, seed=1)
        sizes = ", ".join(f"{p.name} {p.stat().st_size / 2**20:.0f} MB" for p in paths.values())
        print(f"{args.users:,} users x top-{LIST_LENGTH}, K = {args.k}, {args.format}: "
              f"{sizes} (made in {time.perf_counter() - start:.0f} s)")
        times = {task: [] for task in TASKS}
        cpus = {task: [] for task in TASKS}
        peaks = {task: [] for task in TASKS}
        means = {}
        library_repeat = args.library_repeat or args.repeat
        for repeat in range(max(args.repeat, library_repeat)):
            for task in TASKS:
                if repeat >= (args.repeat if task.startswith("irlib") else library_repeat):
                    continue
                seconds, cpu, peak, result = run_in_child(task, paths, small, args.k)
                times[task].append(seconds)
                cpus[task].append(cpu)
                peaks[task].append(peak)
                means[task] = result
                print(f"  run {repeat + 1}: {task:15s} {seconds:7.1f} s (CPU {cpu:7.1f} s), "
                      f"peak {peak:7,.0f} MB", flush=True)
    print(f"\nmedians of {args.repeat} (libraries: {library_repeat}): wall clock, CPU (both "
          "cores' seconds: fairer on a busy machine) and the largest peak RSS")
    for task in TASKS:
        print(f"  {task:15s} {statistics.median(times[task]):7.1f} s  CPU "
              f"{statistics.median(cpus[task]):7.1f} s  peak RSS {max(peaks[task]):7,.0f} MB")
    for label, values in (("wall clock", times), ("CPU", cpus)):
        median = {task: statistics.median(v) for task, v in values.items()}
        comparison = median["ranx"] + median["rs_metrics"]
        print(f"{label}: irlib (11 measures) / (ranx + rs_metrics: 9 measures) = "
              f"{median['irlib'] / comparison:.2f}; irlib accuracy / ranx = "
              f"{median['irlib accuracy'] / median['ranx']:.2f}  (target <= 0.5)")
    worst = 0.0
    for task in ("ranx", "rs_metrics"):
        for name, theirs in means[task].items():
            ours = means["irlib"][name]
            worst = max(worst, abs(ours - theirs))
            print(f"  {name:15s} irlib {ours:.6f}  {task} {theirs:.6f}")
    print(f"largest difference: {worst:.2e}")


if __name__ == "__main__":
    main()
