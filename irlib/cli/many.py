"""``python -m irlib QRELS RUN1 RUN2 …``: many runs as a systems table, as ranx's ``compare``.

Means per measure, the chosen paired test (randomization or t-test), p-values corrected by
Holm–Bonferroni over each measure's comparisons, ▲/▼ against a baseline and ★ for the best,
every pair on request (``--all-pairs``); as text, CSV or JSON. Every number and sentence
comes from :func:`irlib.stats.compare_many.compare_many` and its
:class:`~irlib.stats.compare_many.Finding` s, as on the app's page, so the two agree.
"""
from __future__ import annotations

import csv
import json
import os
import sys
from collections import Counter

import numpy as np
import pandas as pd

from irlib.batch.engine import evaluate
from irlib.stats.compare_many import CORRECTIONS, TESTS, ManyComparison, compare_many, headline

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
                  complete: bool = False, **options) -> ManyComparison:
    """The systems table of ``runs`` (name -> run frame) on ``measures``, scored as
    ``trec_eval`` (``complete``: ``-c``; ``options``: ``depth``, ``judged_only``)."""
    per_query = {name: evaluate(qrels, run, list(measures), complete=complete,
                                **options).per_query for name, run in runs.items()}
    columns = list(next(iter(per_query.values())).columns)
    return compare_many(per_query, baseline or next(iter(runs)), measures=columns, test=test,
                        all_pairs=all_pairs, alpha=alpha)


def _cell(result: ManyComparison, measure: str, system: str) -> str:
    mean = result.means.at[system, measure]
    text = "–" if np.isnan(mean) else f"{mean:.4f}"
    found = result.finding(measure, system) if system != result.baseline else None
    if found is not None and found.direction:
        text += " ▲" if found.direction > 0 else " ▼"
    if system in result.best[measure] and not np.isnan(mean):
        text += " ★"
    return text


def _p(p) -> str:
    return "" if p is None or pd.isna(p) else f"{p:.4g}"


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
                    "finding": ("better" if f.direction > 0 else "worse"
                                if f.direction < 0 else "tie" if f.tie else
                                "no clear difference")})
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
                         "best": system in result.best[measure],
                         **{k: (found or {}).get(k, "") for k in blank}})
        rows += [{"measure": r["measure"], "system": r["system"], "mean": r["mean"],
                  "best": r["system"] in result.best[measure],
                  **{k: r[k] for k in blank}} for r in records
                 if r["measure"] == measure and r["against"] != result.baseline]
    return rows


def text_report(result: ManyComparison, n_queries: int) -> str:
    """The systems table, the comparisons and the findings in words, as aligned text."""
    measures = list(result.means.columns)
    systems = list(result.means.index)
    rows = [["system", *measures]] + [[s, *(_cell(result, m, s) for m in measures)]
                                      for s in systems]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [f"# {len(systems)} runs on {n_queries} queries; baseline {result.baseline}; "
             f"{result.method()}", ""]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    lines += ["", f"▲ / ▼: better / worse than {result.baseline} after correction "
                  f"({CORRECTIONS[result.correction]} over {result.family_size} comparisons "
                  "per measure; means within 0.0005 are a tie, never marked). ★: the highest "
                  "mean.", ""]
    head = ["measure", "system", "against", "difference", "p (uncorrected)",
            f"p ({CORRECTIONS[result.correction]})", "finding"]
    table = [head] + [[r["measure"], r["system"], r["against"],
                       "" if r["difference"] is None else f"{r['difference']:+.4f}",
                       _p(r["p_uncorrected"]), _p(r["p_corrected"]), r["finding"]]
                      for r in comparison_records(result)]
    widths = [max(len(r[i]) for r in table) for i in range(len(head))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in table]
    lines += ["", headline(result)]
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
    result = systems_table(qrels, runs, measures, baseline=baseline, test=args.test,
                           all_pairs=args.all_pairs, alpha=args.alpha, complete=args.complete,
                           depth=args.depth, judged_only=args.judged_only)
    n_queries = int(qrels["query_id"].nunique())
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
                   "best": {m: list(v) for m, v in result.best.items()},
                   "comparisons": comparison_records(result), "summary": headline(result)},
                  sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(text_report(result, n_queries))
    return 0
