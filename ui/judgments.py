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
from irlib.batch.pooling import RULES, pool, run_from_lists, scores_under_pooling
from irlib.stats.power import verdict_by_queries
from irlib.stats.raters import COMBINE_RULES, agreement, scores_by_rater
from ui import page_state as ps

PREFIX = "jd_"
PARTS = {"raters": "1 · Raters disagree", "pool": "2 · Nobody judged it",
         "queries": "3 · How many queries"}
SAMPLES = Path(__file__).resolve().parent.parent / "assets" / "samples"

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
    return (f"**{a.method} = {a.kappa:.2f}** ({a.words} agreement beyond chance); all three "
            f"raters gave the same grade to {a.exact_share:.0%} of the documents. Cohen's κ "
            f"of two raters: you and rater 1 **{_k(pairs[(1, 2)])}**, you and rater 3 "
            f"**{_k(pairs[(2, 3)])}**, rater 1 and rater 3 **{_k(pairs[(1, 3)])}**.")


def _k(value: float) -> str:
    return "undefined" if not np.isfinite(value) else f"{value:.2f}"


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


def curve_sizes(n: int, needed: int) -> list[int]:
    """Query counts for the verdict curve: from 4 to past both the queries at hand and the
    number the power analysis asks for (at most :data:`MAX_CURVE_QUERIES`)."""
    top = min(MAX_CURVE_QUERIES, max(2 * n, round(1.25 * needed)))
    return sorted({int(s) for s in np.linspace(4, top, 12).round()} | {n}
                  | ({needed} if needed <= top else set()))


def verdict_curve(table: pd.DataFrame, base: str, other: str,
                  sizes: tuple[int, ...]) -> pd.DataFrame:
    """The verdict on as many queries like these (irlib.stats.power, drawn with replacement):
    some 1,300 randomization tests, so each pair's curve is kept for the session."""
    import streamlit as st
    cache = st.session_state.setdefault(PREFIX + "curves", {})
    key = (tuple(table.index), tuple(table[base]), tuple(table[other]), sizes)
    if key not in cache:
        if len(cache) > 8:
            cache.clear()
        cache[key] = verdict_by_queries(table[base], table[other], list(sizes),
                                        draws=CURVE_DRAWS, replace=True)
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
    ])


def init() -> None:
    page_state().start()
