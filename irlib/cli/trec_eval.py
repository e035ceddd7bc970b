"""Command line, a drop-in for trec_eval: ``python -m irlib [-q] [-c] [-m map] QRELS RUN``.

With two or more runs (``python -m irlib QRELS RUN1 RUN2 …``) it prints the systems table as
ranx's ``compare`` does instead: means, the chosen paired test, corrected p-values and marks
against a baseline, every pair on request (:mod:`irlib.cli.many`).

With no ``-m`` it prints trec_eval's default ("official") lines, with its names, order and
layout (``name<TAB>query<TAB>value``, 4 decimals, counts without), so that scripts that read
trec_eval's output read this one; ``diff`` against trec_eval 9's output is empty. Measures
may also be named in ir_measures' syntax (``-m nDCG@10 -m AP``). See ``--help``.

Where trec_eval 10.0 differs from 9 this follows 10 for ``-c -q`` (a line for every qrels
query the run misses), comments and reading the run from ``-``; for interpolated precision it
follows 9 unless ``--iprec-rule v10``; and a qrels query missing from the run is left out
without ``-c`` (trec_eval 10.0 stops with "result qid ... not found in qrels" there).
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import os
import sys
from dataclasses import dataclass, replace

from irlib.measures.interpolated import RULES
from irlib.measures.registry import MEASURES, PARAMS, RUN_MEASURES, parse_measure
from irlib.measures.trec_names import RUNID, TrecMeasure, is_trec_eval_syntax, trec_eval_measures

def _clause(text: str) -> str:
    """A sentence as a clause of a list: without its closing full stop ("relevant.;")."""
    return text.rstrip().rstrip(".")


EPILOG = (
    "measures (ir_measures names): "
    + "; ".join(f"{n} = {_clause(MEASURES[n].description)}" for n in RUN_MEASURES)
    + ". trec_eval names: " + ", ".join(sorted(
        {i.trec_eval for i in MEASURES.values() if i.trec_eval}
        | {i.trec_eval_cut for i in MEASURES.values() if i.trec_eval_cut}))
    + "; with parameters after a dot (P.5,10, iprec_at_recall.0.25, set_F.0.5), and the "
      "nicknames official (the default), all_trec and set. parameters: "
    + "; ".join(f"{n} ({_clause(p.description)}, default {p.default!r})"
                for n, p in PARAMS.items()) + ".")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="irlib-trec-eval", epilog=EPILOG,      # the installed command
        description="Evaluate a TREC run against TREC qrels with trec_eval's conventions and "
                    "output.")
    parser.add_argument("qrels", help="TREC qrels file (qid iter docno rel), may be .gz")
    parser.add_argument("run", nargs="+",
                        help="TREC run file (qid Q0 docno rank score tag), may be .gz; "
                             "'-' reads it from standard input. Two or more runs: the systems "
                             "table (means, paired tests corrected by Holm–Bonferroni, marks "
                             "against the baseline; default measures nDCG@10, AP, P@10)")
    parser.add_argument("-m", "--measure", action="append", dest="measures", metavar="MEASURE",
                        help="a measure, repeatable: trec_eval's (map, P.5,10, ndcg_cut.10, "
                             "official, all_trec) or ir_measures' (AP, P@10, nDCG@10, "
                             "nDCG(dcg='exp-log2')@10). Default: official")
    parser.add_argument("-q", "--query_eval_wanted", action="store_true", dest="per_query",
                        help="also print each query's values")
    parser.add_argument("-c", "--complete_rel_info_wanted", action="store_true", dest="complete",
                        help="average over every qrels query, those missing from the run "
                             "scoring 0 (as trec_eval -c); default: the queries the run answers")
    parser.add_argument("-n", "--nosummary", action="store_false", dest="summary",
                        help="no summary ('all') lines")
    parser.add_argument("-l", "--level_for_rel", type=int, default=None, dest="rel",
                        metavar="N", help="the lowest grade that counts as relevant (default 1)")
    parser.add_argument("-M", "--Max_retrieved_per_topic", type=int, default=None,
                        dest="depth", metavar="N", help="only each query's first N results")
    parser.add_argument("-J", "--Judged_docs_only", action="store_true", dest="judged_only",
                        help="drop unjudged results before ranking (trec_eval -J)")
    parser.add_argument("--iprec-rule", choices=RULES, default=None,
                        help="how iprec_at_recall and 11pt_avg turn a recall level into a count "
                             "of relevant documents: v9 (trec_eval 9, pytrec_eval; default) "
                             "or v10 (trec_eval 10.0's rounding)")
    parser.add_argument("--format", choices=("trec", "json", "csv"), default="trec",
                        help="trec_eval's text (default; with several runs an aligned table), "
                             "JSON or CSV for scripts")
    many = parser.add_argument_group("several runs")
    many.add_argument("--baseline", default=None, metavar="RUN",
                      help="the run the others are compared with: its name (run tag) or "
                           "position (default: the first)")
    many.add_argument("--test", choices=("randomization", "t-test"), default="randomization",
                      help="paired test: randomization (Fisher's, the default, as on the "
                           "app's page) or t-test (Student's paired t-test)")
    many.add_argument("--all-pairs", action="store_true",
                      help="also compare every two runs (a larger family to correct for)")
    many.add_argument("--alpha", type=float, default=0.05,
                      help="significance level after correction (default 0.05)")
    return parser


def measure_lines(tokens: list[str], rel: int | None, rule: str | None
                  ) -> tuple[list[TrecMeasure], list[str]]:
    """The lines to print: trec_eval's order when every -m is in its syntax, else as given."""
    if all(is_trec_eval_syntax(t) for t in tokens):
        return trec_eval_measures(tokens, rel=rel, rule=rule)
    lines, skipped = [], []
    for token in tokens:
        if is_trec_eval_syntax(token):
            more, left = trec_eval_measures([token], rel=rel, rule=rule)
            lines += more
            skipped += left
        else:
            m = parse_measure(token, rel=rel)
            if rule is not None and "rule" in MEASURES[m.name].params and "rule=" not in token:
                m = replace(m, rule=rule)
            lines.append(TrecMeasure(str(m), m))
    return list({line.name: line for line in lines}.values()), skipped


def _value_text(line: TrecMeasure, value: float) -> str:
    if MEASURES[line.measure.name].integer and math.isfinite(value):
        return str(int(round(value)))
    return f"{value:6.4f}"


@dataclass(frozen=True)
class Shown:
    """What is printed: the ``-q`` queries in order, each column's values over them (aligned)
    and the ``all`` line. From :func:`irlib.evaluate`'s result (:meth:`of_evaluation`) or from
    :func:`irlib.batch.arrow.evaluate_files`'s (:meth:`of_scores`), the same text."""
    query_ids: list
    columns: dict
    means: dict

    @classmethod
    def of_evaluation(cls, result) -> "Shown":
        rows = result.per_query if result.complete else \
            result.per_query.drop(index=list(result.missing_queries))
        return cls(list(rows.index), {c: rows[c].to_numpy(dtype=float) for c in rows.columns},
                   dict(result.means))

    @classmethod
    def of_scores(cls, scores) -> "Shown":
        missing = set(scores.missing_queries) if not scores.complete else set()
        keep = [i for i, q in enumerate(scores.query_ids) if q not in missing]
        return cls([scores.query_ids[i] for i in keep],
                   {c: v[keep] for c, v in scores.values.items()}, dict(scores.means))


def trec_text(lines: list[TrecMeasure], shown: Shown, run_id: str, *,
              per_query: bool, summary: bool) -> str:
    """trec_eval's output: ``-q`` lines query by query (qrels order), then the 'all' lines."""
    out = []
    columns = {id(line): str(line.measure) for line in lines if line.measure is not None}
    if per_query:
        printed = [line for line in lines
                   if line.measure is not None and MEASURES[line.measure.name].per_query_line]
        values = [shown.columns[columns[id(line)]] for line in printed]
        for i, qid in enumerate(shown.query_ids):
            out.extend(f"{line.name:<22}\t{qid}\t{_value_text(line, v[i])}"
                       for line, v in zip(printed, values))
    if summary:
        for line in lines:
            if line.measure is None:
                out.append(f"{RUNID:<22}\tall\t{run_id}")
            else:
                out.append(f"{line.name:<22}\tall\t"
                           f"{_value_text(line, shown.means[columns[id(line)]])}")
    return "".join(text + "\n" for text in out)


def _records(lines, shown: Shown, run_id: str, per_query: bool):
    columns = [(line.name, str(line.measure)) for line in lines if line.measure is not None]
    if per_query:
        for i, qid in enumerate(shown.query_ids):
            for name, column in columns:
                yield name, qid, float(shown.columns[column][i])
    for name, column in columns:
        yield name, "all", float(shown.means[column])


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.rel is not None and args.rel < 1:
        print("error: -l must be at least 1 (the lowest grade that counts as relevant)",
              file=sys.stderr)
        return 2
    if len(args.run) > 1:
        return _many(args)
    args.run = args.run[0]
    try:
        lines, skipped = measure_lines(args.measures or ["official"], args.rel, args.iprec_rule)
        result = _evaluate_single(args, [line.measure for line in lines if line.measure])
    except (ValueError, OSError) as err:       # InputError is a ValueError
        print(f"error: {err}", file=sys.stderr)
        return 2
    if result.n_averaged == 0:
        print("error: the run answers none of the qrels queries (are the query ids the "
              "same?); with -c every query scores 0", file=sys.stderr)
        return 2
    run_id, shown = result.run_id or os.path.basename(args.run), result.shown
    if args.format == "trec":
        sys.stdout.write(trec_text(lines, shown, run_id, per_query=args.per_query,
                                   summary=args.summary))
    elif args.format == "csv":
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(["measure", "query", "value"])
        writer.writerows(_records(lines, shown, run_id, args.per_query))
    else:
        records = list(_records(lines, shown, run_id, args.per_query))
        json.dump({"runid": run_id, "all": {n: v for n, q, v in records if q == "all"},
                   "per_query": _nested(records) if args.per_query else None},
                  sys.stdout, indent=1)
        sys.stdout.write("\n")
    if skipped:
        print(f"# irlib does not compute trec_eval's {', '.join(skipped)} (left out)",
              file=sys.stderr)
    if result.missing_queries:
        how = "scored 0 (-c)" if args.complete else "not averaged (-c counts them as 0)"
        n = len(result.missing_queries)
        print(f"# {n} {'query' if n == 1 else 'queries'} of the qrels missing from the run: {how}",
              file=sys.stderr)
    return 0


@dataclass(frozen=True)
class _Single:
    shown: Shown
    run_id: str | None
    n_averaged: int
    missing_queries: tuple


def _evaluate_single(args, measures) -> _Single:
    """One run: read with pyarrow and scored without pandas (:mod:`irlib.batch.arrow`) when
    both files are plainly well-formed, else read and evaluated by :func:`irlib.io.read_run`
    and :func:`irlib.evaluate`, which say what is wrong; both print the same numbers."""
    import pyarrow as pa

    from irlib.batch.arrow import evaluate_files
    from irlib.batch.core import check_options

    # jemalloc's pool, giving freed pages back at once (decay 0): this process ends soon,
    # and the other pools keep what the parse freed. Peak memory on a 700,000-line run:
    # 117 MiB, against 125 with jemalloc's default decay, 131-152 with malloc's pool (the
    # pool here before) and more with mimalloc's; no more CPU time
    try:
        pa.set_memory_pool(pa.jemalloc_memory_pool())
        pa.jemalloc_set_decay_ms(0)
    except NotImplementedError:          # a pyarrow built without jemalloc
        pa.set_memory_pool(pa.system_memory_pool())

    measures = check_options(measures, complete=args.complete, depth=args.depth,
                             judged_only=args.judged_only)
    run_src = sys.stdin.buffer.read() if args.run == "-" else args.run
    run_name = "<stdin>" if args.run == "-" else None
    scores = evaluate_files(args.qrels, run_src, measures, complete=args.complete,
                            depth=args.depth, judged_only=args.judged_only, run_name=run_name)
    if scores is not None:
        return _Single(Shown.of_scores(scores), scores.run_id, scores.n_averaged,
                       scores.missing_queries)
    from irlib.batch.engine import evaluate
    from irlib.io import read_qrels, read_run

    qrels = read_qrels(args.qrels)
    run = read_run(run_src, name=run_name)
    result = evaluate(qrels, run, measures, complete=args.complete, depth=args.depth,
                      judged_only=args.judged_only)
    return _Single(Shown.of_evaluation(result), run.attrs.get("run_id"), result.n_averaged,
                   result.missing_queries)


def _many(args) -> int:
    """Several runs: the systems table (:mod:`irlib.cli.many`)."""
    from irlib.cli.many import main_many

    if not 0 < args.alpha < 1:
        print("error: --alpha must be between 0 and 1", file=sys.stderr)
        return 2
    if "-" in args.run:
        print("error: with several runs, read every run from a file ('-' is one run only)",
              file=sys.stderr)
        return 2
    from irlib.io import read_qrels

    try:
        return main_many(args, read_qrels(args.qrels), args.run)
    except (ValueError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


def _nested(records) -> dict:
    nested: dict = {}
    for name, qid, value in records:
        if qid != "all":
            nested.setdefault(qid, {})[name] = value
    return nested


def run(argv=None, command=None) -> int:
    """``command`` (default :func:`main`), quiet when the reader goes away
    (``python -m irlib ... -q | head``)."""
    try:
        code = (command or main)(argv)
        sys.stdout.flush()
    except BrokenPipeError:
        # Python would complain again while flushing stdout at exit: point it at devnull
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141                       # 128 + SIGPIPE, what a shell reports for `cat`
    return code


if __name__ == "__main__":
    sys.exit(run())
