"""The tables and chart data the "Your own judgments" page shows, without Streamlit.

Per query (:func:`per_query_table`, worst first) with its means as trec_eval makes them
(:func:`means_of`), one query's ranking, the precision-recall points, the systems table
(:func:`systems_frame` from :func:`irlib.stats.compare_many.compare_many`) and the two-system
comparison. The report and the CSV downloads are built from these frames.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

import irlib
from irlib.batch.engine import summarize
from irlib.stats.compare import Comparison, per_query_ranking
from irlib.stats import claims
from irlib.stats.claims import finding_words
from irlib.stats.compare_many import CORRECTIONS, TESTS, ManyComparison
from irlib.measures.interpolated import ELEVEN_LEVELS, precision_recall_points
from irlib.measures.registry import parse_measure
from ui.upload.measures import mean_label
from ui.upload.model import Dataset, Settings


def _id_sort_key(ids: pd.Index) -> np.ndarray:
    """Numeric order when every id is a number ("2" before "10"), else text order."""
    numbers = pd.to_numeric(pd.Series(ids), errors="coerce")
    if numbers.notna().all():
        return np.argsort(numbers.to_numpy(), kind="stable")
    return np.argsort(np.asarray(ids, dtype=str), kind="stable")


def rows_shown(evaluation: irlib.Evaluation, include_missing: bool) -> pd.DataFrame:
    """The per-query values the page counts: all (trec_eval -c) or the answered queries."""
    per_query = evaluation.per_query
    if not include_missing and evaluation.missing_queries:
        per_query = per_query.drop(index=list(evaluation.missing_queries))
    return per_query


def means_of(evaluation: irlib.Evaluation, settings: Settings,
             include_missing: bool) -> pd.Series:
    """Each measure's line over the queries shown, as trec_eval makes it (GMAP: geometric),
    keyed by the measure's key (``"AP"``)."""
    shown = rows_shown(evaluation, include_missing)[list(settings.names)]
    parsed = [parse_measure(n) for n in settings.names]
    values = summarize(shown, parsed, complete=include_missing)
    return pd.Series(values.to_numpy(), index=list(settings.measures))


def per_query_table(dataset: Dataset, evaluation: irlib.Evaluation, settings: Settings, *,
                    system: str, include_missing: bool = True) -> pd.DataFrame:
    """One row per query: id, text, every measure, results and relevant counts; worst first.

    Sorted by ``settings.by`` ascending (the weakest query first), ties by query id.
    ``include_missing=False`` drops queries the run does not answer (trec_eval without -c).
    """
    per_query = rows_shown(evaluation, include_missing)
    ids = per_query.index
    table = pd.DataFrame({"query_id": ids.to_numpy(dtype=str)})
    if dataset.query_text is not None:
        table["query"] = dataset.query_text.reindex(ids).fillna("").to_numpy()
    # The measure that orders the rows comes first, next to the query.
    ordered = sorted(zip(settings.measures, settings.names), key=lambda m: m[0] != settings.by)
    for key, name in ordered:
        table[settings.label(key)] = per_query[name].to_numpy()
    run = dataset.runs[system]
    table["results"] = run["query_id"].value_counts().reindex(ids, fill_value=0).to_numpy()
    relevant = dataset.qrels.loc[dataset.qrels["relevance"].to_numpy() >= settings.rel,
                                 "query_id"]
    table["relevant"] = relevant.value_counts().reindex(ids, fill_value=0).to_numpy()
    if dataset.ratings is not None and "disagreement" in dataset.ratings.columns:
        spread = dataset.ratings.groupby("query_id")["disagreement"].max()
        table["rater spread"] = spread.reindex(ids).to_numpy()
    table = table.iloc[_id_sort_key(ids)]
    by = settings.label(settings.by)
    return table.sort_values(by, kind="stable").reset_index(drop=True)


# --------------------------------------------------------------------------- one query

def ranking_frame(dataset: Dataset, system: str, query_id: str) -> pd.DataFrame:
    """The query's ranking with grades, plus the raters' columns for a ratings sheet."""
    ranking = per_query_ranking(dataset.qrels, dataset.runs[system], query_id)
    if dataset.ratings is not None and len(ranking):
        sheet = dataset.ratings.loc[dataset.ratings["query_id"] == query_id]
        raters = sheet.set_index("doc_id")[dataset.rater_columns + ["disagreement"]]
        ranking = ranking.join(raters, on="doc_id")
    return ranking


def judged_grades(dataset: Dataset, query_id: str) -> np.ndarray:
    return dataset.qrels.loc[dataset.qrels["query_id"] == query_id, "relevance"].to_numpy()


def precision_recall(dataset: Dataset, system: str, query_id: str, rel: int) -> pd.DataFrame:
    """One query's precision-recall points (rank, recall, precision, interpolated), from
    irlib; empty when the system returned nothing for it."""
    ranking = ranking_frame(dataset, system, query_id)
    if ranking.empty:
        return pd.DataFrame(columns=["rank", "recall", "precision", "interpolated"])
    grades = np.maximum(ranking["relevance"].to_numpy(dtype=float), 0.0)
    judged = np.maximum(judged_grades(dataset, query_id).astype(float), 0.0)
    return pd.DataFrame(precision_recall_points(grades, judged=judged, rel=rel))


def interpolated_measures(rel: int) -> list[str]:
    """irlib's names of interpolated precision at trec_eval's 11 recall levels."""
    return [f"IPrec(rel={rel})@{level:g}" if rel != 1 else f"IPrec@{level:g}"
            for level in ELEVEN_LEVELS]


def mean_interpolated(evaluation: irlib.Evaluation, rel: int,
                      include_missing: bool) -> pd.Series:
    """The mean interpolated precision at recall 0, 0.1, …, 1 (trec_eval's iprec_at_recall)."""
    shown = rows_shown(evaluation, include_missing)[interpolated_measures(rel)]
    return pd.Series(shown.mean().to_numpy(), index=list(ELEVEN_LEVELS))


# --------------------------------------------------------------------------- many systems

def systems_frame(result: ManyComparison, settings: Settings,
                  counts: Mapping[str, tuple[int, int, int]] | None = None) -> pd.DataFrame:
    """Systems x measures as text cells, each the claims layer's
    (:func:`irlib.stats.claims.table_cell`: the mean, its ▲/▼ and ★); then wins/ties/losses.
    """
    frame = pd.DataFrame({"system": list(result.means.index)})
    for key, name in zip(settings.measures, settings.names):
        cells = [claims.table_cell(result, name, system) for system in result.means.index]
        # recommenders call the means by their own names (MAP@10, MRR@10)
        frame[mean_label(key, settings.k, recsys=True) if settings.recsys else
              settings.label(key)] = cells
    if counts is not None:
        frame[f"better / tie / worse on {settings.label(settings.by)}"] = [
            "baseline" if s == result.baseline else "{} / {} / {}".format(*counts[s])
            for s in result.means.index]
    return frame


def summary_rows(result: ManyComparison, settings: Settings, *,
                 sample: bool = False) -> pd.DataFrame:
    """The summary CSV: one row per system and measure (and, with every pair, one per pair),
    the measure named in full, each p named (uncorrected, corrected by what over how many
    comparisons), the table's mark and the finding in words
    (:meth:`irlib.stats.compare_many.ManyComparison.finding`, as the page and the report say it)."""
    labels = dict(zip(settings.names, (settings.label(k) for k in settings.measures)))
    corrected = f"p corrected ({CORRECTIONS[result.correction]})"
    rows = []

    def row(name: str, system: str, against: str | None) -> dict:
        found = None if against is None else result.finding(name, system, against)
        test = None if found is None else result.cell(name, system, against)
        return {
            "measure": labels[name], "system": system, "against": against or "",
            "baseline": result.baseline, "mean": result.means.at[system, name],
            claims.BEST_COLUMN: system in result.best[name],
            "difference": None if found is None else found.mean_delta,
            "better": None if test is None else test["wins"],
            "ties": None if test is None else test["ties"],
            "worse": None if test is None else test["losses"],
            "test": TESTS[result.test],
            "p (uncorrected)": None if found is None else found.p_value,
            corrected: None if found is None else found.p_adjusted,
            "comparisons corrected together": None if found is None else found.family_size,
            "tie (means within 0.0005)": None if found is None else found.tie,
            "marked (▲/▼)": None if found is None else found.marked,
            "finding": "" if found is None else finding_words(found),
            "method": result.method("user" if settings.recsys else "query"),
            "data": "sample data" if sample else ""}

    for name in settings.names:
        for system in result.means.index:
            rows.append(row(name, system, None if system == result.baseline
                            else result.baseline))
        if result.all_pairs:
            pairs = result.tests[(result.tests["measure"] == name)
                                 & (result.tests["against"] != result.baseline)]
            rows += [row(name, r.system, r.against) for r in pairs.itertuples()]
    counts = ["better", "ties", "worse", "comparisons corrected together"]
    return pd.DataFrame(rows).astype(dict.fromkeys(counts, "Int64"))


def pairwise_frame(result: ManyComparison, name: str) -> pd.DataFrame:
    """Every pair's corrected p-value for one measure (``all_pairs``), systems x systems; a
    cell reads the row's system against the column's, with its ▲/▼
    (:func:`irlib.stats.claims.pair_cell`)."""
    systems = list(result.means.index)
    frame = pd.DataFrame("", index=systems, columns=systems)
    for _, row in result.tests[result.tests["measure"] == name].iterrows():
        system, against = row["system"], row["against"]
        frame.at[system, against] = claims.pair_cell(result.finding(name, system, against))
        frame.at[against, system] = claims.pair_cell(result.finding(name, against, system))
    return frame.rename_axis("system").reset_index()


# --------------------------------------------------------------------------- two systems

def differences_csv_frame(frame: pd.DataFrame, label: str, names: tuple[str, str],
                          tag: str | None = None) -> pd.DataFrame:
    """The per-query differences as downloaded: every number's column names the measure
    (``difference in AP@10``, ``A: run (AP@10)``), and ``data`` says "sample data" (``tag``)."""
    out = frame.rename(columns={"difference": f"difference in {label}",
                                **{c: f"{c} ({label})" for c in score_columns(names)}})
    return out.assign(data=tag) if tag else out


def score_columns(names: tuple[str, str]) -> tuple[str, str]:
    """The comparison table's columns of the two systems' scores.

    Prefixed so a system named like a fixed column ("query_id", "difference") cannot clash.

    >>> score_columns(("control", "test"))
    ('A: control', 'B: test')
    """
    a, b = names
    return f"A: {a}", f"B: {b}"


def comparison_formats(names: tuple[str, str]) -> dict[str, str]:
    """The comparison table's numbers as the page and the report write them (format specs):
    scores with four decimals, the difference signed.

    >>> comparison_formats(("control", "test"))
    {'A: control': '.4f', 'B: test': '.4f', 'difference': '+.4f'}
    """
    return {**dict.fromkeys(score_columns(names), ".4f"), "difference": "+.4f"}


def comparison_frame(comparison: Comparison, names: tuple[str, str],
                     query_text: pd.Series | None = None) -> pd.DataFrame:
    """Per query: both scores, the difference and who won; sorted by the difference."""
    b = names[1]
    frame = pd.DataFrame({"query_id": comparison.deltas.index.to_numpy(dtype=str)})
    if query_text is not None:
        frame["query"] = query_text.reindex(comparison.deltas.index).fillna("").to_numpy()
    column_a, column_b = score_columns(names)
    frame[column_a] = comparison.a.to_numpy()
    frame[column_b] = comparison.b.to_numpy()
    frame["difference"] = comparison.deltas.to_numpy()
    frame["outcome"] = np.select([frame["difference"] > 0, frame["difference"] < 0],
                                 [f"{b} better", f"{b} worse"], "tie")
    return frame.sort_values("difference", kind="stable").reset_index(drop=True)


def coverage_problem(evaluations: Mapping[str, irlib.Evaluation], names: Sequence[str],
                     quote=str) -> str | None:
    """Why systems must not be compared (one answers none or too few of the judged
    queries), or None.

    A verdict on the few queries a system answered would speak for queries nobody chose.
    """
    for name in names:
        ev = evaluations[name]
        judged = len(ev.per_query.index.union(list(ev.missing_queries)))
        answered = judged - len(ev.missing_queries)
        if answered == 0 or answered * 2 < judged:
            how = "none" if answered == 0 else f"only {answered:,}"
            return (f"No verdict: {quote(name)} answers {how} of the {judged:,} judged queries, so "
                    "a comparison would rest on queries nobody chose. Check that its query ids "
                    "are the judgments' (e.g. '301' and not 'q301'), and that the file is the "
                    "whole run.")
    return None


# --------------------------------------------------------------------------- recommenders

#: The page's measure keys in irlib.recsys' accuracy names.
RECSYS_NAMES = {"Success": "HitRate", "R": "Recall", "P": "Precision", "nDCG": "NDCG",
                "AP": "MAP", "RR": "MRR"}


#: What the beyond-accuracy table says, under it on the page and in the report.
BEYOND_EXPLAINED = (
    "What the top-{k} lists hold, whatever the users did. Coverage: the share of the "
    "catalogue shown to someone; exposure Gini: 0 when every item is shown as often, near 1 "
    "when a few take every slot; popularity: the share of training users who had the "
    "average recommended item; novelty: its surprise in bits; diversity: how different two "
    "items in a list are, by category.")


def recommender_evaluations(dataset: Dataset, k: int) -> dict:
    """irlib.recsys.evaluate_recommendations of every system (its beyond-accuracy measures
    need the lists, the training interactions and the categories the dataset keeps)."""
    from irlib.recsys import evaluate_recommendations

    extras = dataset.extras
    heldout = extras["heldout"]
    return {name: evaluate_recommendations(
                lists, heldout, k=k, relevant_from=extras["relevant_from"] or None,
                train=extras["train"], item_categories=extras["categories"])
            for name, lists in extras["lists"].items()}


def beyond_frame(evaluations: dict) -> pd.DataFrame:
    """Systems x beyond-accuracy measures (coverage, exposure Gini, popularity, novelty,
    intra-list diversity: those the files allow)."""
    from irlib.recsys import BEYOND

    rows = {name: {BEYOND[m].title: v.value for m, v in ev.beyond.items()}
            for name, ev in evaluations.items()}
    return pd.DataFrame(rows).T.rename_axis("system").reset_index()
