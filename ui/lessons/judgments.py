"""Lesson "Where judgments come from": its state, its example data and its tables.

Three parts (``pages/judgments.py``): raters who disagree (the notebook's "disagreement" query,
the learner in rater 2's seat), documents nobody judged (a pool of two systems and a third
that was not in it), and how many queries a comparison needs (the sample runs). Every number
comes from :mod:`irlib.stats.raters`, :mod:`irlib.batch.pooling` and :mod:`irlib.stats.power`; this module only
holds the data, reads the learner's input and lays numbers out as text.
"""
from __future__ import annotations

import functools
import re
from pathlib import Path

import numpy as np
import pandas as pd

import irlib
from irlib import io as irio
from irlib._common import InputError
from irlib.batch.pooling import (RULES, bias_sentence, condensed_sentence, leave_one_out, pool,
                                 pooled_qrels, r_sentence, relevant_counts, run_from_lists,
                                 scores_under_pooling)
from irlib.stats.power import simulated_study
from irlib.stats.rater_rankings import EQUIVALENT_TAU, orderings, ranking_agreement, system_scores
from irlib.stats.raters import (COMBINE_RULES, agreement, cohen_kappa, kappa_interval,
                                ordinal_agreement, scores_by_rater)
from ui.shared import page_state as ps

PREFIX = "jd_"
PARTS = {"raters": "1 · Raters disagree", "pool": "2 · Nobody judged it",
         "queries": "3 · How many queries"}
SAMPLES = Path(__file__).resolve().parents[2] / "assets" / "samples"

# --------------------------------------------------------------------------- part 1: raters
#: The notebook's "disagreement" query (seed 004): four documents in rank order, three raters.
DOCS = ("doc1", "doc2", "doc3", "doc4")
NOTEBOOK = {"rater 1": (2, 3, 0, 1), "rater 2": (2, 3, 0, 1), "rater 3": (3, 2, 2, 0)}
TOP_GRADE = 3
GAIN = "exponential"          # the notebook's 2^rel - 1


def grades_codec() -> ps.Codec:
    """The learner's four grades as four digits 0-3 (``2301``)."""
    def parse(text: str) -> list[int]:
        if not re.fullmatch(f"[0-{TOP_GRADE}]{{{len(DOCS)}}}", text):
            raise ValueError(text)
        return [int(c) for c in text]
    return ps.Codec(parse, lambda v: "".join(str(int(g)) for g in v),
                    f"{len(DOCS)} grades from 0 to {TOP_GRADE}, e.g. 2301")


def ratings(yours) -> np.ndarray:
    """Rows: documents; columns: rater 1, you (in rater 2's seat), rater 3."""
    return np.column_stack([NOTEBOOK["rater 1"], list(yours), NOTEBOOK["rater 3"]])


def rater_names() -> list[str]:
    return ["rater 1", "you", "rater 3"]


def rater_table(yours) -> pd.DataFrame:
    """One column per rater and per way of combining them: each document's grade, then
    DCG@4 and NDCG@4 of the ranking under those grades (irlib.stats.raters.scores_by_rater)."""
    k = len(DOCS)
    scores = scores_by_rater(ratings(yours), k, gain=GAIN)
    scores.index = [*rater_names(), *COMBINE_RULES]
    table = {}
    for name, row in scores.iterrows():
        table[name] = [_grade_text(g) for g in row["grades"]] + [
            f"{row[f'DCG@{k}']:.4f}", f"{row[f'NDCG@{k}']:.4f}"]
    return pd.DataFrame(table, index=pd.Index([*DOCS, f"DCG@{k}", f"NDCG@{k}"], name="grade"))


def _grade_text(g: float) -> str:
    return str(int(g)) if float(g).is_integer() else f"{g:.2f}"


def agreement_sentence(yours) -> str:
    a = agreement(ratings(yours))
    pairs = a.pairs
    return (f"**{a.method} = {_k(a.kappa)}** ({a.reading}); all three "
            f"raters gave the same grade to {a.exact_share:.0%} of the documents. Cohen's κ "
            f"of two raters: you and rater 1 **{_k(pairs[(1, 2)])}**, you and rater 3 "
            f"**{_k(pairs[(2, 3)])}**, rater 1 and rater 3 **{_k(pairs[(1, 3)])}**.")


def _k(value: float) -> str:
    return "undefined" if not np.isfinite(value) else f"{value:.2f}"


def uncertainty_sentence(yours) -> str:
    """How far κ could move with other documents like these (a bootstrap over documents)."""
    i = kappa_interval(ratings(yours))
    if not np.isfinite(i.low):
        return ("With every grade the same in every resample, κ has no interval: "
                f"{i.documents} documents cannot say how much raters agree.")
    return (f"**{i.documents} documents say little**: drawn again with replacement "
            f"({i.draws:,} times), κ's middle {i.level:.0%} spans **{_k(i.low)} to "
            f"{_k(i.high)}**" + (f" ({i.undefined:,} draws had a single grade, κ undefined)"
                                 if i.undefined else "")
            + ". A κ worth quoting needs dozens of documents or more.")


def ordinal_sentence(yours) -> str:
    """Agreement that knows grades are ordered: Krippendorff's α and weighted κ."""
    o = ordinal_agreement(ratings(yours))
    w = {pair: v["quadratic"] for pair, v in o.weighted_pairs.items()}
    return (f"Grades are **ordered**: 2 against 3 is a smaller disagreement than 0 against 3. "
            f"Krippendorff's α as categories **{_k(o.alpha_nominal)}**, ordinal "
            f"**{_k(o.alpha_ordinal)}**, interval **{_k(o.alpha_interval)}**; quadratic-"
            f"weighted κ: you and rater 1 **{_k(w[(1, 2)])}**, you and rater 3 "
            f"**{_k(w[(2, 3)])}**, rater 1 and rater 3 **{_k(w[(1, 3)])}**.")


#: Prevalence: two pairs of raters over 20 documents, both agreeing on 18 (90 %).
PREVALENCE = {
    "balanced (half relevant)": ([1] * 9 + [0] * 9 + [1, 0], [1] * 9 + [0] * 9 + [0, 1]),
    "skewed (most not relevant)": ([1] + [0] * 17 + [1, 0], [1] + [0] * 17 + [0, 1]),
}


def prevalence_table() -> pd.DataFrame:
    """Same raw agreement, different κ: the share each rater calls relevant moves chance."""
    rows = {}
    for name, (a, b) in PREVALENCE.items():
        a, b = np.array(a), np.array(b)
        rows[name] = {"documents": len(a), "raw agreement": f"{np.mean(a == b):.0%}",
                      "called relevant": f"{a.mean():.0%} / {b.mean():.0%}",
                      "Cohen's κ": _k(cohen_kappa(a, b))}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("two raters")


def prevalence_sentence() -> str:
    t = prevalence_table()
    (_, b), (_, sk) = t.iterrows()
    kappa = "Cohen's κ"
    return (f"**Prevalence**: both pairs agree on {b['raw agreement']} of {b['documents']} "
            f"documents, yet κ is {b[kappa]} when half are relevant and "
            f"{sk[kappa]} when few are: with most documents not relevant (as in IR), "
            "chance alone agrees often, and κ counts only agreement beyond it.")


#: The notebook's graded queries with three raters (its "control" and "test" reorder the
#: "disagreement" query's documents, so they are left out).
SYSTEM_QUERIES_SKIP = ("control", "test")


@functools.cache
def _notebook_queries() -> dict[str, np.ndarray]:
    sheet = irio.read_ratings(SAMPLES / "ratings_notebook.csv")
    sheet = sheet[~sheet["query"].isin(SYSTEM_QUERIES_SKIP)]
    return {q: g.sort_values("position")[["rating_1", "rating_2", "rating_3"]].to_numpy()
            for q, g in sheet.groupby("query", sort=False)}


def system_table(yours) -> pd.DataFrame:
    """Every ordering of the four shown results (a "system"), mean NDCG@4 over the notebook's
    rated queries under each rater alone; you replace rater 2 on the disagreement query."""
    return _systems(tuple(int(g) for g in yours))[0].copy()


@functools.lru_cache(maxsize=64)
def _systems(yours: tuple[int, ...]):
    queries = dict(_notebook_queries())
    queries["disagreement"] = ratings(yours)
    scores = system_scores(queries, orderings(len(DOCS)), len(DOCS), gain=GAIN,
                           raters=rater_names())
    return scores, ranking_agreement(scores)


def ranking_sentence(yours) -> str:
    scores, taus = _systems(tuple(int(g) for g in yours))
    spread = (scores.max(axis=1) - scores.min(axis=1)).max()
    parts = [f"{a} and {b}: τ = **{c.tau:.2f}**, {c.reading}, {c.swapped} of {c.pairs} pairs "
             f"swapped" for (a, b), c in taus.items()]
    return (f"Take each of the {len(scores)} ways "
            f"of reordering the four shown results as a system, and score it by mean NDCG@4 "
            f"over the notebook's {len(_notebook_queries())} rated queries under each rater "
            f"alone. A system's score moves by up to {spread:.3f} with the rater; its place "
            f"among the others, by Kendall's τ between the rankings: " + "; ".join(parts)
            + ".")


def voorhees_sentence(yours) -> str:
    taus = [c.tau for c in _systems(tuple(int(g) for g in yours))[1].values()]
    here = ("Here every τ is at least 0.9 too." if min(taus) >= EQUIVALENT_TAU else
            f"Here the lowest τ is {min(taus):.2f}: with {len(_notebook_queries())} queries of "
            f"{len(DOCS)} results, one rater's grades can move the order more than over 48 topics.")
    return ("Voorhees (2000) had TREC-4's topics judged by three assessors and ranked the "
            "systems by MAP under each: the scores moved, the order of the systems hardly "
            "did (τ about 0.9 and above, read as equivalent rankings). " + here)


# --------------------------------------------------------------------------- part 2: pool
#: One query, ten documents, every one judged (the truth a complete judgment would give).
TRUTH = {"d1": 1, "d2": 0, "d3": 1, "d4": 0, "d5": 0, "d6": 1, "d7": 1, "d8": 1, "d9": 0,
         "d10": 1}
POOLED = {"A": ("d1", "d2", "d3", "d4", "d5"), "B": ("d3", "d1", "d5", "d2", "d6")}
NEW_DEFAULT = "d7 d8 d1 d9 d10"
NEW = "C"
MAX_DEPTH = 5
POOL_MEASURES = ("P@5", "AP", "nDCG@5")
JUDGED_K = 5


def read_new_system(text: str) -> list[str]:
    """System C's ranked list from the learner's text (ids separated by spaces or commas).

    >>> read_new_system("d7, d8 d1")
    ['d7', 'd8', 'd1']
    """
    docs = [d for d in re.split(r"[\s,]+", str(text).strip()) if d]
    if not docs:
        raise InputError("list at least one document, e.g. d7 d8 d1", source="system C")
    for rank, doc in enumerate(docs, 1):
        if doc not in TRUTH:
            raise InputError(f"{doc!r} is not one of the documents d1 to d10",
                             source="system C", column=f"rank {rank}")
    if len(docs) > len(TRUTH):
        raise InputError(f"{len(docs)} documents listed; there are only {len(TRUTH)}",
                         source="system C")
    run_from_lists({NEW: docs})               # repeated ids: an InputError naming the ranks
    return docs


def qrels() -> pd.DataFrame:
    return pd.DataFrame({"query_id": "q", "doc_id": list(TRUTH), "relevance": list(TRUTH.values())})


def pool_scores(new_docs, depth: int, measure: str, new_in_pool: bool) -> pd.DataFrame:
    runs = run_from_lists({**POOLED, NEW: new_docs})
    pooled = [*POOLED, NEW] if new_in_pool else list(POOLED)
    return scores_under_pooling(qrels(), runs, pooled, depth, measure, JUDGED_K)


def pool_members(new_docs, depth: int, new_in_pool: bool) -> list[str]:
    runs = run_from_lists({**POOLED, NEW: new_docs} if new_in_pool else dict(POOLED))
    return pool(runs, depth)["doc_id"].tolist()


def judged_sentence(new_docs, judged_share: float) -> str:
    """Judged@K of C, over the results it returned when it returned fewer than K."""
    shown = min(JUDGED_K, len(new_docs))
    where = (f"its top {JUDGED_K}" if shown == JUDGED_K
             else f"the {shown} results it returned (fewer than {JUDGED_K})")
    count = round(judged_share * shown)
    return f"{count} of {where} {'was' if count == 1 else 'were'} judged ({judged_share:.0%})"


def pool_sentences(new_docs, depth: int, measure: str, new_in_pool: bool) -> list[str]:
    """What the pool does to each system (pool bias both ways, R from the pool) and what
    -J does to C: each sentence from irlib.batch.pooling, from the numbers in the table."""
    scores = pool_scores(new_docs, depth, measure, new_in_pool)
    runs = run_from_lists({**POOLED, NEW: new_docs})
    pooled = [*POOLED, NEW] if new_in_pool else list(POOLED)
    r = relevant_counts(qrels(), pooled_qrels(qrels(), {n: runs[n] for n in pooled}, depth))
    r_pool, r_all = int(r["pool"].sum()), int(r["complete"].sum())
    out = [bias_sentence(name, measure, row["unjudged_not_relevant"], row["complete"])
           for name, row in scores.iterrows()]
    out.append(r_sentence(measure, r_pool, r_all))
    c = scores.loc[NEW]
    unjudged = len(set(new_docs) - set(pool_members(new_docs, depth, new_in_pool)))
    out.append(condensed_sentence(NEW, measure, c["judged_only"], c["complete"],
                                  c["unjudged_not_relevant"], unjudged=unjudged))
    return out


def leave_one_out_table(new_docs, depth: int, measure: str, new_in_pool: bool) -> pd.DataFrame:
    runs = run_from_lists({**POOLED, NEW: new_docs})
    pooled = [*POOLED, NEW] if new_in_pool else list(POOLED)
    t = leave_one_out(qrels(), runs, pooled, depth, measure)
    return pd.DataFrame({
        "only it contributed": [f"{o} ({rel} relevant)" for o, rel in
                                zip(t["own"], t["own_relevant"])],
        f"{measure} with them": [f"{v:.2f}" for v in t["with_own"]],
        "without them": [f"{v:.2f}" for v in t["without_own"]]},
        index=pd.Index(t.index, name="system"))


def rule_label(rule: str, measure: str) -> str:
    if rule == "judged_at_k":
        return f"Judged@{JUDGED_K}"
    return RULES[rule] if rule == "bpref" else f"{measure}: {RULES[rule]}"


# --------------------------------------------------------------------------- part 3: queries
RUNS = ("control", "test", "rm3", "dense")
QUERY_MEASURES = ("nDCG@10", "AP", "P@10")
CURVE_DRAWS = 100
MAX_CURVE_QUERIES = 200


#: Where part 3's per-query scores come from.
DATA = {"sample": "Sample runs", "upload": "Your upload"}
#: The upload page leaves its per-query scores here (this session only): (label, frame).
UPLOAD_KEY = PREFIX + "upload_scores"


def system_codec() -> ps.Codec:
    """A system's name: the sample's or an upload's (checked against the data when drawn)."""
    def parse(text: str) -> str:
        if not 0 < len(text) <= 100:
            raise ValueError(text)
        return text
    return ps.Codec(parse, str, "a system's name")


def offer_upload(evaluations, measure: str, label: str, include_missing: bool) -> None:
    """The upload page's hand-over: every system's per-query ``measure`` (irlib.evaluate, as
    the page scored them; a query a system did not answer left out unless the page counts it
    as 0), kept in this session for part 3. Fewer than two systems: nothing."""
    import streamlit as st
    if len(evaluations) < 2:
        st.session_state.pop(UPLOAD_KEY, None)
        return
    columns = {}
    for name, ev in evaluations.items():
        values = ev.per_query[measure].copy()
        if not include_missing:
            values[values.index.isin(list(ev.missing_queries))] = np.nan
        columns[str(name)] = values
    st.session_state[UPLOAD_KEY] = (label, pd.DataFrame(columns))


def uploaded_per_query() -> tuple[str, pd.DataFrame] | None:
    import streamlit as st
    return st.session_state.get(UPLOAD_KEY)


@functools.cache
def sample_per_query(measure: str) -> pd.DataFrame:
    """Each sample run's per-query scores (columns: runs), from the TREC sample files."""
    judged = irio.read_qrels(SAMPLES / "qrels.txt")
    return pd.DataFrame({name: irlib.evaluate(judged, irio.read_run(SAMPLES / f"run_{name}.txt"),
                                              [measure]).per_query.iloc[:, 0]
                         for name in RUNS})


def curve_sizes(n: int, needed: int, most: int) -> list[int]:
    """Query counts for the simulated studies: from 4 to past the number needed and the top
    of its interval (at most :data:`MAX_CURVE_QUERIES`), with the pilot's size and the
    numbers the plan names."""
    top = min(MAX_CURVE_QUERIES, max(2 * n, round(1.15 * most), round(1.25 * needed)))
    marks = {v for v in (n, needed, most) if v <= top}
    return sorted({int(s) for s in np.linspace(4, top, 10).round()} | marks)


def delta_codec() -> ps.Codec:
    """The smallest difference that matters: a number above 0 and at most 1."""
    def parse(text: str) -> float:
        if not re.fullmatch(r"[0-9]*\.?[0-9]{1,4}", text) or not 0 < float(text) <= 1:
            raise ValueError(text)
        return float(text)
    return ps.Codec(parse, lambda v: f"{float(v):g}", "a difference above 0 and at most 1")


def study_curve(differences: pd.Series, delta: float, sizes: tuple[int, ...]) -> pd.DataFrame:
    """Simulated studies of each size with a true difference ``delta`` and the pilot's spread
    (irlib.stats.power.simulated_study): some 1,000 randomization tests, so each curve is
    kept for the session."""
    import streamlit as st
    cache = st.session_state.setdefault(PREFIX + "curves", {})
    key = (tuple(differences.index), tuple(differences), float(delta), sizes)
    if key not in cache:
        if len(cache) > 8:
            cache.clear()
        cache[key] = simulated_study(differences, delta, list(sizes), draws=CURVE_DRAWS)
    return cache[key]


@functools.cache
def page_state() -> ps.PageState:
    return ps.PageState(PREFIX, [
        ps.Field("part", "raters", ps.one_of(tuple(PARTS))),
        ps.Field("yours", list(NOTEBOOK["rater 2"]), grades_codec(), "you"),
        ps.Field("new", NEW_DEFAULT, ps.Codec(str, str, "document ids"), "c"),
        ps.Field("depth", 2, ps.whole_number(1, MAX_DEPTH)),
        ps.Field("pool_measure", "P@5", ps.one_of(POOL_MEASURES), "pm"),
        ps.Field("in_pool", False, ps.switch(), "cpool"),
        ps.Field("data", "sample", ps.one_of(tuple(DATA))),
        ps.Field("base", "control", system_codec()),
        ps.Field("other", "test", system_codec()),
        ps.Field("query_measure", "nDCG@10", ps.one_of(QUERY_MEASURES), "qm"),
        ps.Field("power", 80, ps.whole_number(50, 99)),
        ps.Field("delta", 0.05, delta_codec()),
    ])


def init() -> None:
    page_state().start()
