r"""Documents nobody judged: pooling as TREC does it, and what it does to every system.

Nobody can judge every document of a large collection for every query. TREC judges a *pool*:
the union of the top ``depth`` results of every participating system; everything else stays
unjudged. A system that took part finds its top results judged; a new system that finds other
documents meets unjudged ones, and each way of scoring treats them differently:

* **unjudged = not relevant** (trec_eval's default): P, AP and NDCG count them as misses, so a
  system that finds unjudged relevant documents is underrated. The number of relevant
  documents R also comes from the pool: a shallow pool knows few of them, and the measures
  that divide by R (AP, recall, R-precision, NDCG's ideal) rise for *every* system, so a
  system can be overrated too. Both are *pool bias* (Zobel 1998; Buckley, Dimmick, Soboroff &
  Voorhees 2007).
* **judged only** (``trec_eval -J``, the "condensed list" of Sakai 2007): the unjudged results
  are removed and the judged ones move up. That is not neutral: moved up, the judged relevant
  documents count at better ranks, so condensed-list scores tend to be *higher* than with
  complete judgments (Sakai & Kando 2008). trec_eval's P@k still divides by k, so for P@k it
  only differs from "unjudged = not relevant" when judged results sit below rank k.
* **bpref** (Buckley & Voorhees 2004) ignores the unjudged results by its definition;
  trec_eval's version (used here) divides by min(R, N), not by R as the paper's formula.
* **Judged@K** (ir_measures) does not score the system: it says how much of its top K was
  judged (of the results it returned, if fewer than K), i.e. how far to trust the numbers.

:func:`pool` finds the pool, :func:`pooled_qrels` keeps the judgments a pool of that depth
would have made, :func:`scores_under_pooling` scores every system under each rule with
:func:`irlib.evaluate`, :func:`leave_one_out` is Zobel's check of a pool's reusability (drop
the documents only one system contributed, rescore it), and :func:`bias_sentence`,
:func:`r_sentence` and :func:`condensed_sentence` say what the numbers show.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from irlib._common import InputError, check_k
from irlib.batch.engine import evaluate

#: The ways of scoring a system against a pool, in the order the lesson shows them.
RULES = {"complete": "every document judged",
         "unjudged_not_relevant": "unjudged = not relevant",
         "judged_only": "judged only (-J)",
         "bpref": "bpref",
         "judged_at_k": "Judged@K"}


def run_from_lists(lists: Mapping[str, Sequence[str]], query_id: str = "q") -> dict:
    """Runs (``query_id, doc_id, score``) from ranked lists of document ids: the first gets
    the highest score. Repeated ids are an error naming the list and the rank.

    >>> run_from_lists({"A": ["d1", "d2"]})["A"].to_dict("list")
    {'query_id': ['q', 'q'], 'doc_id': ['d1', 'd2'], 'score': [2.0, 1.0]}
    """
    runs = {}
    for name, docs in lists.items():
        docs = [str(d) for d in docs]
        seen: dict[str, int] = {}
        for rank, doc in enumerate(docs, 1):
            if doc in seen:
                raise InputError(f"{doc!r} is listed twice (ranks {seen[doc]} and {rank})",
                                 source=f"system {name}", column=f"rank {rank}")
            seen[doc] = rank
        runs[name] = pd.DataFrame({"query_id": [query_id] * len(docs), "doc_id": docs,
                                   "score": np.arange(len(docs), 0, -1, dtype=float)})
    return runs


def _ranked(run: pd.DataFrame) -> pd.DataFrame:
    """A run in trec_eval's order: query, score descending, doc id descending."""
    run = run.assign(query_id=run["query_id"].astype(str), doc_id=run["doc_id"].astype(str))
    return run.sort_values(["query_id", "score", "doc_id"], ascending=[True, False, False],
                           kind="mergesort")


def pool(runs: Mapping[str, pd.DataFrame], depth: int) -> pd.DataFrame:
    """The pool: every (query, document) in the top ``depth`` of at least one run.

    Returns ``query_id, doc_id, systems`` (the runs that put it there, comma-separated),
    sorted by query and document.

    >>> runs = run_from_lists({"A": ["d1", "d2", "d3"], "B": ["d3", "d4"]})
    >>> pool(runs, 2)[["doc_id", "systems"]].to_dict("list")
    {'doc_id': ['d1', 'd2', 'd3', 'd4'], 'systems': ['A', 'A', 'B', 'B']}
    """
    depth = check_k(depth, "depth")
    if not runs:
        raise ValueError("pool needs at least one run")
    tops = [_ranked(run).groupby("query_id", sort=False).head(depth)
            [["query_id", "doc_id"]].assign(system=str(name)) for name, run in runs.items()]
    both = pd.concat(tops, ignore_index=True)
    out = both.groupby(["query_id", "doc_id"], sort=True)["system"].agg(", ".join)
    return out.rename("systems").reset_index()


def pooled_qrels(qrels: pd.DataFrame, runs: Mapping[str, pd.DataFrame], depth: int) -> pd.DataFrame:
    """The judgments a pool of ``depth`` over ``runs`` would have made: the rows of ``qrels``
    (taken as the complete judgments) whose document is in the pool. This is how pool-depth
    experiments (Zobel 1998) shrink an official pool."""
    pooled = pool(runs, depth)
    keys = pd.MultiIndex.from_frame(pooled[["query_id", "doc_id"]])
    mine = pd.MultiIndex.from_arrays([qrels["query_id"].astype(str), qrels["doc_id"].astype(str)])
    return qrels[mine.isin(keys)].reset_index(drop=True)


def scores_under_pooling(qrels: pd.DataFrame, runs: Mapping[str, pd.DataFrame],
                         pooled: Sequence[str], depth: int, measure: str,
                         k: int) -> pd.DataFrame:
    """Every run's mean score under each rule of :data:`RULES`, judged by a pool of ``depth``
    over the runs named in ``pooled`` (the others did not take part).

    ``measure`` is an ir_measures name (``"P@5"``, ``"AP"``, ``"nDCG@5"``) for the first three
    rules; ``k`` is the cut-off of Judged@K. Returns one row per run (``pooled``: whether it
    took part) and one column per rule.

    Examples
    --------
    A new system C finds relevant documents that A and B never ranked high:

    >>> qrels = pd.DataFrame({"query_id": "q", "doc_id": ["d1", "d2", "d3", "d4", "d5", "d6"],
    ...                       "relevance": [1, 0, 1, 0, 1, 1]})
    >>> runs = run_from_lists({"A": ["d1", "d2", "d3"], "B": ["d2", "d1", "d4"],
    ...                        "C": ["d5", "d6", "d1"]})
    >>> t = scores_under_pooling(qrels, runs, ["A", "B"], 2, "P@3", 3)
    >>> bool(t.loc["C", "pooled"])
    False
    >>> t.loc["C"].drop("pooled").astype(float).round(3).to_dict()  # doctest: +NORMALIZE_WHITESPACE
    {'complete': 1.0, 'unjudged_not_relevant': 0.333, 'judged_only': 0.333, 'bpref': 1.0,
     'judged_at_k': 0.333}
    """
    depth, k = check_k(depth, "depth"), check_k(k)
    missing = [name for name in pooled if name not in runs]
    if missing:
        raise ValueError(f"pooled names runs that are not given: {missing}")
    if not pooled:
        raise ValueError("pooled must name at least one run: a pool needs systems")
    judged = pooled_qrels(qrels, {name: runs[name] for name in pooled}, depth)
    judged_k = f"Judged@{k}"
    rows = {}
    for name, run in runs.items():
        full = evaluate(qrels, run, [measure]).means.iloc[0]
        if len(judged):
            part = evaluate(judged, run, [measure, "Bpref", judged_k]).means
            condensed = evaluate(judged, run, [measure], judged_only=True).means.iloc[0]
            values = (part.iloc[0], condensed, part["Bpref"], part[judged_k])
        else:                      # nothing judged: every rule has nothing to go on
            values = (0.0, 0.0, 0.0, 0.0)
        rows[str(name)] = {"pooled": name in pooled, "complete": float(full),
                           **dict(zip(list(RULES)[1:], map(float, values)))}
    return pd.DataFrame.from_dict(rows, orient="index")


def relevant_counts(qrels: pd.DataFrame, judged: pd.DataFrame) -> pd.DataFrame:
    """R per query: relevant documents (grade > 0) in the complete judgments and in a pool's.

    >>> full = pd.DataFrame({"query_id": "q", "doc_id": ["a", "b", "c"], "relevance": [1, 1, 0]})
    >>> relevant_counts(full, full.iloc[[0, 2]]).to_dict("index")
    {'q': {'complete': 2, 'pool': 1}}
    """
    def count(frame):
        rel = frame[frame["relevance"] > 0]
        return rel.groupby(rel["query_id"].astype(str)).size()
    out = pd.DataFrame({"complete": count(qrels), "pool": count(judged)}).fillna(0)
    return out.astype(int).rename_axis("query_id")


def leave_one_out(qrels: pd.DataFrame, runs: Mapping[str, pd.DataFrame],
                  pooled: Sequence[str], depth: int, measure: str) -> pd.DataFrame:
    """Zobel's (1998) leave-one-out check of a pool: for each pooled system, drop the pool's
    documents that only it contributed, and score it again (unjudged = not relevant).

    A system whose score falls a lot once its own contributions are gone would be
    underrated by this pool were it new: the pool is not reusable for systems like it
    (Buckley et al. 2007 drop a whole group's runs at once: pass its runs together as one).

    Returns one row per pooled system: ``own`` (documents only it contributed), ``own_relevant``,
    ``with_own`` and ``without_own`` (its score with and without them), ``change``.

    Examples
    --------
    >>> qrels = pd.DataFrame({"query_id": "q", "doc_id": ["d1", "d2", "d3", "d4"],
    ...                       "relevance": [1, 0, 1, 1]})
    >>> runs = run_from_lists({"A": ["d1", "d2"], "B": ["d3", "d4"]})
    >>> t = leave_one_out(qrels, runs, ["A", "B"], 2, "P@2")
    >>> t[["own", "own_relevant", "with_own", "without_own"]].to_dict("index")
    {'A': {'own': 2, 'own_relevant': 1, 'with_own': 0.5, 'without_own': 0.0}, 'B': {'own': 2, 'own_relevant': 2, 'with_own': 1.0, 'without_own': 0.0}}
    """
    depth = check_k(depth, "depth")
    if len(pooled) < 2:
        raise ValueError("leave_one_out needs a pool of at least two systems")
    members = pool({name: runs[name] for name in pooled}, depth)
    judged = pooled_qrels(qrels, {name: runs[name] for name in pooled}, depth)
    keys = pd.MultiIndex.from_arrays([judged["query_id"].astype(str),
                                      judged["doc_id"].astype(str)])
    rows = {}
    for name in pooled:
        only = members[members["systems"] == str(name)]
        drop = pd.MultiIndex.from_frame(only[["query_id", "doc_id"]])
        without = judged[~keys.isin(drop)]
        rel = judged[keys.isin(drop) & (judged["relevance"].to_numpy() > 0)]
        with_own = float(evaluate(judged, runs[name], [measure]).means.iloc[0])
        without_own = (float(evaluate(without, runs[name], [measure]).means.iloc[0])
                       if len(without) else 0.0)
        rows[str(name)] = {"own": len(only), "own_relevant": len(rel), "with_own": with_own,
                           "without_own": without_own, "change": without_own - with_own}
    return pd.DataFrame.from_dict(rows, orient="index")


def _compare(score: float, truth: float, digits: int) -> int:
    """-1, 0, 1: ``score`` below, equal to, above ``truth`` as shown to ``digits`` places."""
    a, b = round(float(score), digits), round(float(truth), digits)
    return (a > b) - (a < b)


def bias_sentence(system: str, measure: str, pooled_score: float, complete: float, *,
                  digits: int = 2) -> str:
    """What the pool does to one system's score (unjudged = not relevant against complete
    judgments), compared as the numbers are shown (``digits`` places).

    >>> print(bias_sentence("C", "AP", 0.4167, 0.1429))
    C: AP 0.42 against this pool, 0.14 judged completely: overrated.
    >>> print(bias_sentence("C", "P@5", 0.2, 0.8))
    C: P@5 0.20 against this pool, 0.80 judged completely: underrated.
    """
    f = f"{{:.{digits}f}}"
    side = _compare(pooled_score, complete, digits)
    word = "overrated" if side > 0 else "underrated" if side < 0 else "the same"
    return (f"{system}: {measure} {f.format(pooled_score)} against this pool, "
            f"{f.format(complete)} judged completely: {word}.")


#: Measures whose value depends on R, the number of relevant documents the judgments know.
USES_R = ("AP", "R", "Rprec", "nDCG", "NDCG", "Bpref")


def r_sentence(measure: str, r_pool: int, r_complete: int) -> str:
    """Where R comes from: the pool. Said only when the pool knows fewer relevant documents.

    >>> print(r_sentence("AP", 2, 6))
    R comes from the pool: it knows 2 of the 6 relevant documents. AP divides by R: fewer known raises every system's score; unjudged relevant documents count as misses, which lowers it: both are pool bias.
    >>> r_sentence("P@5", 2, 6)[:60]
    'R comes from the pool: it knows 2 of the 6 relevant document'
    """
    text = f"R comes from the pool: it knows {r_pool} of the {r_complete} relevant documents."
    if r_pool == r_complete:
        return f"R comes from the pool, and this one knows all {r_complete} relevant documents."
    base = measure.split("@")[0]
    if base in USES_R:
        how = ("builds its ideal ranking from them" if base.lower() == "ndcg"
               else "divides by R")
        return (text + f" {measure} {how}: fewer known raises every system's score; "
                "unjudged relevant documents count as misses, which lowers it: both are "
                "pool bias.")
    return (text + f" {measure} does not use R; unjudged relevant documents count as misses, "
            "which lowers it (pool bias).")


def condensed_sentence(system: str, measure: str, condensed: float, complete: float,
                       not_relevant: float, *, unjudged: int = 1, digits: int = 2) -> str:
    """What trec_eval's ``-J`` (judged only) does to one system's score, compared as shown;
    ``unjudged``: how many of its results are unjudged (none: -J changes nothing).

    >>> print(condensed_sentence("C", "AP", 1.0, 0.1429, 0.4167))
    C: AP 1.00 under -J (judged only), 0.14 judged completely: the judged documents move up, so -J overrates it here (condensed lists tend to, Sakai & Kando 2008).
    >>> print(condensed_sentence("C", "P@5", 0.2, 0.8, 0.2))
    C: P@5 0.20 under -J (judged only), 0.80 judged completely: the judged documents move up, yet -J gives what counting the unjudged as not relevant gives (0.20): trec_eval's P@5 still divides by 5.
    """
    f = f"{{:.{digits}f}}"
    if not unjudged:
        return (f"{system}: every result is judged, so -J (judged only) changes nothing: "
                f"{measure} {f.format(condensed)}.")
    text = (f"{system}: {measure} {f.format(condensed)} under -J (judged only), "
            f"{f.format(complete)} judged completely: the judged documents move up")
    side = _compare(condensed, complete, digits)
    if measure.startswith("P@") and _compare(condensed, not_relevant, digits) == 0:
        return (text + f", yet -J gives what counting the unjudged as not relevant gives "
                f"({f.format(not_relevant)}): trec_eval's {measure} still divides by "
                f"{measure[2:]}.")
    if side > 0:
        return text + (", so -J overrates it here (condensed lists tend to, Sakai & Kando "
                       "2008).")
    if side < 0:
        return text + ", but not far enough: -J still underrates it here."
    return text + ": here -J gives the complete judgments' score."
