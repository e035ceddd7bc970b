"""``python -m irlib QRELS RUN1 RUN2 …``: many runs as a systems table, as ranx's ``compare``.

Means per measure, the chosen paired test (randomization or t-test), p-values corrected by
Holm–Bonferroni over each measure's comparisons, the marks of :mod:`irlib.stats.claims`
against a baseline, every pair on request (``--all-pairs``); as text, CSV or JSON. Every number
comes from :func:`irlib.stats.compare_many.compare_many` and every evaluative word from
:mod:`irlib.stats.claims`, as on the app's page, so the two agree.

What the numbers rest on is said before them: each run's judged queries it leaves out (and
what ``-c`` does with them), the queries the comparisons use, and a † on a difference whose two
means were taken over different queries.
"""
from __future__ import annotations

import csv
import json
import os
import sys
from collections import Counter

import pandas as pd

from irlib.batch.engine import evaluate
from irlib.stats import claims
from irlib.stats.compare_many import CORRECTIONS, TESTS, ManyComparison, compare_many
from irlib.stats.p_values import format_p

#: Measures of the systems table when no ``-m`` is given.
DEFAULT_MEASURES = ("nDCG@10", "AP", "P@10")


def run_names(paths, runs) -> list[str]:
    """Each run's name: its tag (trec_eval's runid), else its file name; a name used twice
    gets its file name, then a number, as on the app's page.

    >>> import pandas as pd
    >>> a = pd.DataFrame(); a.attrs["run_id"] = "bm25"
    >>> run_names(["x/a.txt", "b.txt", "c.txt"], [a, a, pd.DataFrame()])
    ['bm25 (a.txt)', 'bm25 (b.txt)', 'c.txt']
    """
    names = [r.attrs.get("run_id") or os.path.basename(str(p)) for p, r in zip(paths, runs)]
    twice = Counter(names)
    names = [f"{n} ({os.path.basename(str(p))})" if twice[n] > 1 else n
             for n, p in zip(names, paths)]
    seen: Counter = Counter()
    for i, name in enumerate(names):
        seen[name] += 1
        if seen[name] > 1:
            names[i] = f"{name} ({seen[name]})"
    return names


def systems_table(qrels, runs: dict, measures, *, baseline: str | None = None,
                  test: str = "randomization", all_pairs: bool = False, alpha: float = 0.05,
                  complete: bool = False, missing: dict | None = None,
                  **options) -> ManyComparison:
    """The systems table of ``runs`` (name -> run frame) on ``measures``, scored as
    ``trec_eval`` (``complete``: ``-c``; ``options``: ``depth``, ``judged_only``).

    ``missing``, a dict if given, receives each run's judged queries it leaves out."""
    per_query = {}
    for name, run in runs.items():
        scored = evaluate(qrels, run, list(measures), complete=complete, **options)
        per_query[name] = scored.per_query
        if missing is not None:
            missing[name] = scored.missing_queries
    columns = list(next(iter(per_query.values())).columns)
    return compare_many(per_query, baseline or next(iter(runs)), measures=columns, test=test,
                        all_pairs=all_pairs, alpha=alpha)


def missing_notes(missing: dict, n_judged: int, complete: bool) -> list[str]:
    """One line per run that leaves out judged queries: how many, which, and what ``-c`` does.

    >>> for line in missing_notes({"bm25": (), "rerank": ("q3", "q7")}, 60, False):
    ...     print(line)     # doctest: +NORMALIZE_WHITESPACE
    # rerank leaves out 2 of the 60 judged queries (q3, q7): not averaged, so its means and
    comparisons rest on the 58 it answers; -c scores them 0, as trec_eval -c
    """
    lines = []
    for name, queries in missing.items():
        if not queries:
            continue
        shown = ", ".join(queries[:10]) + (f", … ({len(queries) - 10} more)"
                                           if len(queries) > 10 else "")
        how = ("scored 0 (-c), as trec_eval -c" if complete else
               f"not averaged, so its means and comparisons rest on the "
               f"{n_judged - len(queries)} it answers; -c scores them 0, as trec_eval -c")
        lines.append(f"# {name} leaves out {len(queries)} of the {n_judged} judged queries "
                     f"({shown}): {how}")
    return lines


def complete_effect(without: ManyComparison, with_c: ManyComparison) -> list[str]:
    """What ``-c`` changes: one line per comparison whose finding differs once every judged
    query is scored (missing ones as 0), else one line saying no finding changes."""
    lines = []
    for f in without.findings():
        g = with_c.finding(f.measure, f.system, f.against)
        if g is None or claims.finding_word(f) == claims.finding_word(g):
            continue
        delta = "–" if g.mean_delta is None else f"{g.mean_delta:+.4f}"
        lines.append(f"#   {f.system} against {f.against} on {f.measure}: "
                     f"{claims.finding_word(f)} → {claims.finding_word(g)} (difference {delta} "
                     f"on {g.n} queries)")
    if not lines:
        return ["# with -c no finding changes"]
    return ["# with -c (every judged query scored, missing ones as 0) findings change:"] + lines


def rests_on(result: ManyComparison) -> str:
    """The queries the comparisons use, for the header: one number when every comparison
    uses the same queries, else the range."""
    counts = sorted(set(int(n) for n in result.tests["n"])) if len(result.tests) else [0]
    if len(counts) == 1:
        return f"{counts[0]} {'query' if counts[0] == 1 else 'queries'}"
    return (f"{counts[0]}–{counts[-1]} queries (each comparison uses the queries both runs "
            "answer)")


def _p(p) -> str:
    return "" if p is None or pd.isna(p) else format_p(p)


def comparison_records(result: ManyComparison) -> list[dict]:
    """One record per comparison, from its :class:`Finding` (what the CSV and JSON carry)."""
    out = []
    for f in result.findings():
        out.append({"measure": f.measure, "system": f.system, "against": f.against,
                    "mean": f.mean_system, "mean_against": f.mean_against,
                    "difference": f.mean_delta, "queries": f.n, "test": f.test,
                    "p_uncorrected": f.p_value, "p_corrected": f.p_adjusted,
                    "correction": f.correction, "comparisons_corrected_together":
                        f.family_size, "tie": f.tie, "marked": f.marked,
                    "same_queries": bool(result.cell(f.measure, f.system, f.against)
                                         ["same_queries"]) if result.cell(
                                             f.measure, f.system, f.against) is not None
                    else bool(result.cell(f.measure, f.against, f.system)["same_queries"]),
                    "finding": claims.finding_word(f)})
    return out


def csv_rows(result: ManyComparison) -> list[dict]:
    """One row per measure and system (the baseline's without a test), then with every pair
    one per other pair: the mean, whether it is the best and the comparison's record."""
    records = comparison_records(result)
    blank = dict.fromkeys(k for k in records[0] if k not in ("measure", "system", "mean")) \
        if records else {}
    rows = []
    for measure in result.means.columns:
        for system in result.means.index:
            found = next((r for r in records if r["measure"] == measure and
                          r["system"] == system and r["against"] == result.baseline), None)
            rows.append({"measure": measure, "system": system,
                         "mean": float(result.means.at[system, measure]),
                         claims.BEST_COLUMN: system in result.best[measure],
                         **{k: (found or {}).get(k, "") for k in blank}})
        rows += [{"measure": r["measure"], "system": r["system"], "mean": r["mean"],
                  claims.BEST_COLUMN: r["system"] in result.best[measure],
                  **{k: r[k] for k in blank}} for r in records
                 if r["measure"] == measure and r["against"] != result.baseline]
    return rows


def text_report(result: ManyComparison, notes: list[str] | None = None) -> str:
    """The systems table, the comparisons and the findings in words, as aligned text;
    ``notes`` (:func:`missing_notes`) go right under the header."""
    measures = list(result.means.columns)
    systems = list(result.means.index)
    rows = [["system", *measures]] + [[s, *(claims.table_cell(result, m, s) for m in measures)]
                                      for s in systems]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [f"# {len(systems)} runs compared on {rests_on(result)}; baseline "
             f"{result.baseline}; {result.method()}", *(notes or []), ""]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    lines += ["", claims.legend(result), ""]
    head = ["measure", "system", "against", "queries", "difference", "p (uncorrected)",
            f"p ({CORRECTIONS[result.correction]})", "finding"]
    records = comparison_records(result)
    table = [head] + [[r["measure"], r["system"], r["against"], str(r["queries"]),
                       ("" if r["difference"] is None else f"{r['difference']:+.4f}")
                       + ("" if r["same_queries"] else " †"),
                       _p(r["p_uncorrected"]), _p(r["p_corrected"]), r["finding"]]
                      for r in records]
    widths = [max(len(r[i]) for r in table) for i in range(len(head))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in table]
    if not all(r["same_queries"] for r in records):
        lines += ["", "†: the two runs' means above were taken over different queries (each "
                      "over the queries it answers); the difference and its test use only the "
                      "queries both answer, so it can differ from the gap between the means. "
                      "-c scores every judged query for every run."]
    lines += ["", claims.headline(result)]
    return "\n".join(lines) + "\n"


def main_many(args, qrels, paths) -> int:
    """What ``python -m irlib`` does with two or more runs (``args`` as parsed there)."""
    from irlib.io import read_run
    from irlib.measures.registry import parse_measure
    from irlib.measures.trec_names import is_trec_eval_syntax, trec_eval_measures

    tokens = args.measures or list(DEFAULT_MEASURES)
    measures = []
    for token in tokens:
        if is_trec_eval_syntax(token):
            lines, _ = trec_eval_measures([token], rel=args.rel, rule=args.iprec_rule)
            measures += [str(line.measure) for line in lines if line.measure is not None]
        else:
            measures.append(str(parse_measure(token, rel=args.rel)))
    measures = list(dict.fromkeys(measures))
    frames = [read_run(p) for p in paths]
    names = run_names(paths, frames)
    runs = dict(zip(names, frames))
    baseline = args.baseline
    if baseline is not None and baseline not in runs:
        if baseline.isdigit() and 1 <= int(baseline) <= len(names):
            baseline = names[int(baseline) - 1]
        else:
            print(f"error: --baseline {baseline!r} is none of the runs ({', '.join(names)}); "
                  "give a run's name or its position (1 = the first)", file=sys.stderr)
            return 2
    missing: dict = {}
    result = systems_table(qrels, runs, measures, baseline=baseline, test=args.test,
                           all_pairs=args.all_pairs, alpha=args.alpha, complete=args.complete,
                           depth=args.depth, judged_only=args.judged_only, missing=missing)
    notes = missing_notes(missing, int(qrels["query_id"].nunique()), args.complete)
    if notes and not args.complete:
        notes += complete_effect(result, systems_table(
            qrels, runs, measures, baseline=baseline, test=args.test, all_pairs=args.all_pairs,
            alpha=args.alpha, complete=True, depth=args.depth, judged_only=args.judged_only))
    if args.format in ("csv", "json"):
        for line in notes:
            print(line, file=sys.stderr)
    if args.format == "csv":
        rows = csv_rows(result)
        writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    elif args.format == "json":
        json.dump({"baseline": result.baseline, "test": TESTS[result.test],
                   "correction": CORRECTIONS[result.correction], "alpha": result.alpha,
                   "comparisons_corrected_together": result.family_size,
                   "means": {s: {m: float(result.means.at[s, m]) for m in result.means.columns}
                             for s in result.means.index},
                   claims.BEST_COLUMN: {m: list(v) for m, v in result.best.items()},
                   "missing_queries": {k: list(v) for k, v in missing.items()},
                   "comparisons": comparison_records(result),
                   "summary": claims.headline(result)},
                  sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(text_report(result, notes))
    return 0
