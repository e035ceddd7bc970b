"""Command line for recommenders: ``python -m irlib.recsys HELDOUT RECS [RECS ...]``.

Scores each recommendations file (a system's top-K lists) against the held-out interactions,
with the columns guessed from the headers (``uid,iid,stars`` works) or named with
``--columns``: HitRate, Recall, Precision, NDCG, MAP and MRR at K, and coverage, exposure
Gini, popularity, novelty and diversity where ``--train`` and ``--categories`` allow. Prints
a measure-by-system table (tab-separated, CSV or JSON); what happened to which users, the
files' notes and, for two or more systems, whether the accuracy winner collapsed onto
popular items go to stderr as ``#`` lines, so stdout stays a table. See ``--help``.
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import os
import sys

import pandas as pd

from irlib.recsys.beyond import BEYOND
from irlib.recsys.compare import compare_recommenders
from irlib.recsys.evaluate import ACCURACY, evaluate_recommendations
from irlib.recsys.readers import read_interactions, read_item_categories, read_recommendations

EPILOG = ("measures: " + "; ".join(f"{n}@K = {i.description}" for n, i in ACCURACY.items())
          + "; " + "; ".join(f"{i.title} = {i.description}" for i in BEYOND.values()))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m irlib.recsys", epilog=EPILOG,
        description="Score recommenders' top-K lists against held-out interactions.")
    parser.add_argument("heldout", help="held-out (test) interactions: user, item[, rating]"
                        "[, time]; CSV, TSV or Parquet, any column names")
    parser.add_argument("recs", nargs="+", help="one file per system: user, item and score "
                        "(higher first) or rank (1 = first); the first is the baseline")
    parser.add_argument("-k", type=int, default=10, help="the cut-off K (default 10)")
    parser.add_argument("--relevant-from", type=float, default=None, metavar="RATING",
                        help="the lowest rating that counts as relevant (default: every "
                             "held-out item)")
    parser.add_argument("--train", help="training interactions: popularity, novelty and the "
                                        "catalogue for coverage")
    parser.add_argument("--categories", help="item categories (item, category or "
                                             "'Action|Comedy'): diversity")
    parser.add_argument("--columns", action="append", default=[], metavar="FILE:ROLE=COLUMN",
                        help="name a column when the header does not say it, e.g. "
                             "heldout:user=customer or recs:rank=position (roles: user, item, "
                             "rating, timestamp, score, rank, category)")
    parser.add_argument("-q", "--per-user", action="store_true",
                        help="each user's values: rows 'system, measure, user, value', worst "
                             "users first, then the means as user 'all'")
    parser.add_argument("--format", choices=("text", "csv", "json"), default="text")
    return parser


def _columns(specs: list[str]) -> dict[str, dict[str, str]]:
    """``["heldout:user=uid", ...]`` -> ``{"heldout": {"user": "uid"}}``."""
    out: dict[str, dict[str, str]] = {}
    for spec in specs:
        which, sep, pair = spec.partition(":")
        role, eq, column = pair.partition("=")
        if not (sep and eq and which in ("heldout", "recs", "train", "categories")
                and role and column):
            raise ValueError(f"--columns {spec!r}: expected FILE:ROLE=COLUMN with FILE one of "
                             "heldout, recs, train, categories (e.g. heldout:user=customer)")
        out.setdefault(which, {})[role] = column
    return out


def _names(paths: list[str]) -> list[str]:
    """Systems named after their files, made unique."""
    names: list[str] = []
    for path in paths:
        base = os.path.basename(path).split(".")[0] or path
        name, n = base, 2
        while name in names:
            name, n = f"{base} ({n})", n + 1
        names.append(name)
    return names


def _number(value: float) -> float | None:
    return None if value is None or math.isnan(value) else float(value)


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.k < 1:
            raise ValueError("-k must be at least 1")
        columns = _columns(args.columns)
        heldout = read_interactions(args.heldout, columns=columns.get("heldout"))
        train = read_interactions(args.train, columns=columns.get("train")) \
            if args.train else None
        categories = read_item_categories(args.categories, columns=columns.get("categories")) \
            if args.categories else None
        names = _names(args.recs)
        evaluations = {}
        for name, path in zip(names, args.recs):
            lists = read_recommendations(path, columns=columns.get("recs"))
            evaluations[name] = evaluate_recommendations(
                lists, heldout, k=args.k, relevant_from=args.relevant_from, train=train,
                item_categories=categories)
    except (ValueError, OSError) as err:       # InputError is a ValueError
        print(f"error: {err}", file=sys.stderr)
        return 2
    table = pd.DataFrame({name: e.overall for name, e in evaluations.items()})
    _write(table, evaluations, args)
    first = next(iter(evaluations.values()))
    for line in [first.relevance, *first.users.sentences(), *first.notes]:
        print(f"# {line}", file=sys.stderr)
    if len(evaluations) > 1:
        (base, a), *others = evaluations.items()
        for name, b in others:
            sentence = compare_recommenders(a, b, (base, name)).sentence
            if sentence:
                print(f"# {sentence}", file=sys.stderr)
    return 0


def _write(table: pd.DataFrame, evaluations: dict, args) -> None:
    """Without ``-q`` a measure-by-system table; with it one row per system, measure and
    user ("all" for the mean), as trec_eval's ``-q`` lists queries."""
    per_user = {name: e.per_user[[c for c in table.index if c in e.per_user.columns]]
                for name, e in evaluations.items()} if args.per_user else {}
    if args.format == "json":
        json.dump({"k": args.k,
                   "all": {s: {m: _number(v) for m, v in table[s].items()} for s in table},
                   "per_user": {s: {str(u): {m: _number(v) for m, v in row.items()}
                                    for u, row in frame.iterrows()}
                                for s, frame in per_user.items()} or None},
                  sys.stdout, indent=1)
        sys.stdout.write("\n")
        return
    if per_user:
        rows = [["system", "measure", "user", "value"]]
        for s, frame in per_user.items():
            rows += [[s, m, str(u), _text(v)] for u, row in frame.iterrows()
                     for m, v in row.items()]
            rows += [[s, m, "all", _text(v)] for m, v in table[s].items()]
    else:
        rows = [["measure", *table.columns]]
        rows += [[m, *(_text(v) for v in table.loc[m])] for m in table.index]
    if args.format == "csv":         # quoted where a name from a file holds a comma
        csv.writer(sys.stdout, lineterminator="\n").writerows(rows)
    else:
        sys.stdout.write("".join("\t".join(row) + "\n" for row in rows))


def _text(value: float) -> str:
    return "" if value is None or math.isnan(value) else f"{value:.4f}"


def run() -> int:
    """The ``irlib-recsys`` command: :func:`main`, quiet when the reader goes away."""
    from irlib.__main__ import run as quiet_run
    return quiet_run(command=main)


if __name__ == "__main__":
    sys.exit(run())
