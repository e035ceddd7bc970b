"""Command line for recommenders: ``python -m irlib.recsys HELDOUT RECS [RECS ...]``.

Scores each recommendations file (a system's top-K lists) against the held-out interactions,
with the columns guessed from the headers (``uid,iid,stars`` works) or named with
``--columns``: HitRate, Recall, Precision, NDCG, MAP and MRR at K, and coverage, exposure
Gini, popularity, novelty and diversity where ``--train`` and ``--categories`` allow. Prints
a measure-by-system table (tab-separated, CSV or JSON). To stderr, as ``#`` lines so that
stdout stays a table: the relevance rule, the catalogue, the readers' notes per file, what
happened to which users and each list's notes per system (by name), and, for two or more
systems, each system against the first under a paired test corrected over the comparisons
(``--test``; "wins" only where that test finds it), whether a winner collapsed onto popular
items, and whether another relevance rule would change the verdict. See ``--help``.
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import os
import sys

import pandas as pd

from irlib.stats.compare_many import TESTS
from irlib.recsys.beyond import BEYOND
from irlib.recsys.evaluate import ACCURACY, evaluate_recommendations
from irlib.recsys.readers import (read_catalogue, read_interactions, read_item_categories,
                                  read_recommendations)
from irlib.recsys.relevance import liked_from
from irlib.recsys.verdict import method, recommender_verdicts, rule_changes
from irlib.cli.trec_eval import _clause

EPILOG = ("measures: " + "; ".join(f"{n}@K = {_clause(i.description)}"
                                   for n, i in ACCURACY.items())
          + "; " + "; ".join(f"{i.title} = {_clause(i.description)}" for i in BEYOND.values())
          + ".")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="irlib-recsys", epilog=EPILOG,      # the installed command
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
    parser.add_argument("--catalogue", help="the items that could be recommended (an item "
                        "column): coverage's and Gini's denominator for every system "
                        "(default: the training and held-out items)")
    parser.add_argument("--drop-seen", action="store_true",
                        help="drop from each list the items its user had in --train before "
                             "taking the top K (recommender libraries' 'remove seen')")
    parser.add_argument("--by", default="NDCG", choices=tuple(ACCURACY),
                        help="the accuracy measure the verdicts compare (default NDCG)")
    parser.add_argument("--test", choices=tuple(TESTS), default="randomization",
                        help="the paired test over the users (default randomization), "
                             "Holm-Bonferroni corrected over the comparisons")
    parser.add_argument("--all-pairs", action="store_true",
                        help="compare every pair of systems, not only each with the first")
    parser.add_argument("--columns", action="append", default=[], metavar="FILE:ROLE=COLUMN",
                        help="name a column when the header does not say it, e.g. "
                             "heldout:user=customer or recs:rank=position (roles: user, item, "
                             "rating, timestamp, score, rank, category)")
    parser.add_argument("-q", "--per-user", action="store_true",
                        help="each user's values: rows 'system, measure, user, value', worst "
                             "users first, then the means as user 'all'")
    parser.add_argument("--format", choices=("text", "csv", "json"), default="text")
    return parser


_FILES = ("heldout", "recs", "train", "categories", "catalogue")


def _columns(specs: list[str]) -> dict[str, dict[str, str]]:
    """``["heldout:user=uid", ...]`` -> ``{"heldout": {"user": "uid"}}``."""
    out: dict[str, dict[str, str]] = {}
    for spec in specs:
        which, sep, pair = spec.partition(":")
        role, eq, column = pair.partition("=")
        if not (sep and eq and which in _FILES and role and column):
            raise ValueError(f"--columns {spec!r}: expected FILE:ROLE=COLUMN with FILE one of "
                             f"{', '.join(_FILES)} (e.g. heldout:user=customer)")
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


def _evaluate_all(lists: dict, heldout, args, relevant_from, **inputs) -> dict:
    return {name: evaluate_recommendations(
                recs, heldout, k=args.k, relevant_from=relevant_from, by=args.by,
                drop_seen=args.drop_seen, **inputs)
            for name, recs in lists.items()}


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.k < 1:
            raise ValueError("-k must be at least 1")
        if args.drop_seen and not args.train:
            raise ValueError("--drop-seen needs --train (who had which item before the split)")
        columns = _columns(args.columns)
        heldout = read_interactions(args.heldout, columns=columns.get("heldout"))
        files = {args.heldout: heldout}
        inputs = {}
        if args.train:
            inputs["train"] = files[args.train] = read_interactions(
                args.train, columns=columns.get("train"))
        if args.categories:
            inputs["item_categories"] = files[args.categories] = read_item_categories(
                args.categories, columns=columns.get("categories"))
        if args.catalogue:
            files[args.catalogue] = read_catalogue(args.catalogue,
                                                   columns=columns.get("catalogue"))
            inputs["catalogue"] = files[args.catalogue]["item_id"]
        names = _names(args.recs)
        lists = {}
        for name, path in zip(names, args.recs):
            lists[name] = files[path] = read_recommendations(path, columns=columns.get("recs"))
        evaluations = _evaluate_all(lists, heldout, args, args.relevant_from, **inputs)
    except (ValueError, OSError) as err:       # InputError is a ValueError
        print(f"error: {err}", file=sys.stderr)
        return 2
    table = pd.DataFrame({name: e.overall for name, e in evaluations.items()})
    _write(table, evaluations, args)
    for line in _notes(evaluations, files, heldout, lists, args, inputs):
        print(f"# {line}", file=sys.stderr)
    return 0


def _notes(evaluations: dict, files: dict, heldout, lists: dict, args, inputs) -> list[str]:
    """Every note, each system's by name: the rule, the catalogue, the files' notes, the
    users, the lists, and the verdicts."""
    first = next(iter(evaluations.values()))
    liked = liked_from(heldout["rating"]) if "rating" in heldout.columns else None
    rule = first.relevance
    if args.relevant_from is None and liked is not None:
        rule += f" (--relevant-from {liked:g}: only items rated {liked:g} or more)"
    out = [f"Relevant: {rule}.", first.catalogue_sentence]
    for path, frame in files.items():
        out += [f"{os.path.basename(path)}: {n}" for n in frame.attrs.get("notes", ())]
    sentences = first.users.sentences()
    out.append(sentences[0])                       # who is evaluated: the same for all
    for name, e in evaluations.items():
        out += [f"{name}: {line}" for line in e.users.sentences()[1:]]
        out += [f"{name}: {note}" for note in e.notes]
        if e.seen is not None and e.seen.sentence(name):
            out.append(e.seen.sentence(name))
    if len(evaluations) < 2:
        return out
    by = f"{args.by}@{args.k}"
    verdicts = recommender_verdicts(evaluations, by=by, test=args.test,
                                    all_pairs=args.all_pairs)
    out.append(f"Verdicts on {by}: {method(verdicts.result, by)}.")
    out += [c.sentence for c in verdicts.comparisons.values()]
    if liked is not None:                # the other rule: every item, or the usual threshold
        other = None if args.relevant_from is not None else liked
        words = "every held-out item relevant" if other is None else \
            f"only items rated {other:g} or more relevant"
        try:
            others = _evaluate_all(lists, heldout, args, other, **inputs)
        except ValueError:                # no item is relevant under the other rule
            return out
        out += rule_changes(verdicts, recommender_verdicts(
            others, by=by, test=args.test, all_pairs=args.all_pairs), words)
    return out


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
    from irlib.cli.trec_eval import run as quiet_run
    return quiet_run(command=main)


if __name__ == "__main__":
    sys.exit(run())
