"""Command line: ``python -m irlib QRELS RUN -m nDCG@10 -m AP [-q] [-c]``, like trec_eval."""
from __future__ import annotations

import argparse
import os
import sys

from irlib.batch import evaluate
from irlib.io import read_qrels, read_run
from irlib.measures import MEASURES, PARAMS, RUN_MEASURES

EPILOG = "measures: " + "; ".join(f"{n} = {MEASURES[n].description}" for n in RUN_MEASURES) + \
    ". parameters: " + "; ".join(f"{n} ({p.description}, default {p.default!r})"
                                 for n, p in PARAMS.items())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m irlib", epilog=EPILOG,
        description="Evaluate a TREC run against TREC qrels with trec_eval's conventions.")
    parser.add_argument("qrels", help="TREC qrels file (qid iter docno rel), may be .gz")
    parser.add_argument("run", help="TREC run file (qid Q0 docno rank score tag), may be .gz")
    parser.add_argument("-m", "--measure", action="append", dest="measures",
                        help="measure in ir_measures syntax, e.g. nDCG@10, AP, P@5, "
                             "nDCG(dcg='exp-log2')@10 (repeatable; default: AP, nDCG@10, P@10, RR)")
    parser.add_argument("-q", "--per-query", action="store_true", help="also print each query")
    parser.add_argument("-c", "--complete", action="store_true",
                        help="average over every qrels query, scoring those missing from the "
                             "run 0 (trec_eval -c); default: only the queries the run answers")
    args = parser.parse_args(argv)
    try:
        result = evaluate(read_qrels(args.qrels), read_run(args.run),
                          args.measures or ["AP", "nDCG@10", "P@10", "RR"],
                          complete=args.complete)
    except (ValueError, OSError) as err:       # InputError is a ValueError
        print(f"error: {err}", file=sys.stderr)
        return 2
    if result.n_averaged == 0:
        print("error: the run answers none of the qrels queries (are the query ids the "
              "same?); with -c every query scores 0", file=sys.stderr)
        return 2
    if args.per_query:
        # like trec_eval -q (with or without -c): a row for each query the run answers
        answered = result.per_query.drop(index=list(result.missing_queries))
        for qid, row in answered.iterrows():
            for name, value in row.items():
                print(f"{name:<24}\t{qid}\t{value:.4f}")
    for name, value in result.means.items():
        print(f"{name:<24}\tall\t{value:.4f}")
    if result.missing_queries:
        how = "scored 0 (-c)" if args.complete else "not averaged (-c counts them as 0)"
        print(f"# {len(result.missing_queries)} qrels queries missing from the run: {how}",
              file=sys.stderr)
    return 0


def run(argv=None) -> int:
    """:func:`main`, quiet when the reader goes away (``python -m irlib ... -q | head``)."""
    try:
        code = main(argv)
        sys.stdout.flush()
    except BrokenPipeError:
        # Python would complain again while flushing stdout at exit: point it at devnull
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141                       # 128 + SIGPIPE, what a shell reports for `cat`
    return code


if __name__ == "__main__":
    sys.exit(run())
