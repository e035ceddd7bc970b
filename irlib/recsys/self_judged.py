"""The other way in: a results table that carries its own relevance column.

Such a table judges only the items it lists, so every measure that needs the relevant items
the system did *not* return (recall, NDCG, AP ...) comes out inflated from it.
:func:`self_judged_problem` says which and why; the page and the command line refuse them.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

import pandas as pd

from ..measures.registry import parse_measure
from .relevance import ACCURACY

__all__ = ["SELF_JUDGED_MEASURES", "pooled_labels", "self_judged_problem"]


#: irlib measures whose value depends on relevant items the system did *not* return (the
#: denominator of recall, AP and R-precision; NDCG's ideal). A table's own relevance column
#: only judges the rows it lists, so these come out inflated from it (checked in the tests
#: against irlib.evaluate itself).
SELF_JUDGED_MEASURES = frozenset({"R", "F1", "AP", "nDCG", "Rprec", "GMAP", "Bpref", "GMBpref",
                                  "infAP", "IPrec", "IPrecAvg", "SetR", "SetF", "NumRel"})


def _irlib_name(text) -> str:
    key = str(text).split("@")[0].split("(")[0].strip()
    lookup = {n.lower(): info.irlib for n, info in ACCURACY.items()}
    if key.lower() in lookup:
        return lookup[key.lower()]
    return parse_measure(text).name


def self_judged_problem(measures: Iterable, *, source: str = "the table") -> str | None:
    """Why ``measures`` cannot be computed from a table's own relevance column, or None.

    A results table (or recommendations file) that carries a relevance column judges only
    the items it lists. Recall, NDCG, MAP (and every measure with a denominator or an ideal
    from *all* relevant items) then never see the relevant items the system missed: in the
    issue's data Recall@10 came out 0.710 (it was HitRate@10) against a true 0.240.
    HitRate, Precision and MRR need only the listed items and are fine.

    Parameters
    ----------
    measures : iterable of str
        irlib names (``"R@10"``, ``"nDCG@10"``, ``"AP"``) or recommender names
        (``"Recall@10"``, ``"MAP"``).
    source : str
        The file's name, for the message.

    Returns
    -------
    str or None
        The message to show (naming the measures refused and the way out), or None.

    Examples
    --------
    >>> self_judged_problem(["P@10", "Success@10", "RR"]) is None
    True
    >>> print(self_judged_problem(["P@10", "Recall@10", "nDCG@10"], source="recs.csv"))
    ... # doctest: +NORMALIZE_WHITESPACE
    recs.csv judges only the items it lists (its own relevance column), so Recall@10 and
    nDCG@10 would be inflated: relevant items the system did not recommend are invisible to
    them. Add the held-out interactions (or judgments) for these; Precision, HitRate
    (Success) and MRR (RR) need only the listed items.
    """
    if isinstance(measures, str):
        measures = [measures]
    bad = [str(m) for m in measures if _irlib_name(m) in SELF_JUDGED_MEASURES]
    if not bad:
        return None
    names = bad[0] if len(bad) == 1 else ", ".join(bad[:-1]) + " and " + bad[-1]
    return (f"{source} judges only the items it lists (its own relevance column), so {names} "
            f"would be inflated: relevant items the system did not recommend are invisible "
            f"to them. Add the held-out interactions (or judgments) for these; Precision, "
            f"HitRate (Success) and MRR (RR) need only the listed items.")


def pooled_labels(tables: Mapping[str, pd.DataFrame],
                  notes: list[str] | None = None) -> tuple[pd.DataFrame | None, str | None]:
    """Several results tables' own relevance labels as one set of judgments.

    Each table judges the rows it lists; pooled, every table is scored by its own labels
    (a second table's are never replaced by the first's). Two tables that label the same
    (query, document) differently cannot both be right: refused with the pair. A table
    without a relevance column is judged by the others' labels (a note in ``notes``).

    Returns
    -------
    (DataFrame, None) or (None, str)
        ``query_id, doc_id, relevance``, or the reason for refusing.

    >>> a = pd.DataFrame({"query_id": ["u1"], "doc_id": ["hit"], "relevance": [1]})
    >>> b = pd.DataFrame({"query_id": ["u1", "u2"], "doc_id": ["hit", "x"], "relevance": [1, 1]})
    >>> pooled_labels({"a.csv": a, "b.csv": b})[0]["doc_id"].tolist()
    ['hit', 'x']
    >>> print(pooled_labels({"a.csv": a, "c.csv": a.assign(relevance=0)})[1])
    ... # doctest: +NORMALIZE_WHITESPACE
    a.csv and c.csv label query 'u1', document 'hit' differently (1 and 0): without a
    judgments file each table's own labels are used, so they must agree. Add judgments (a
    qrels file or a ratings sheet), or fix the labels.
    """
    labelled = [n for n, t in tables.items() if "relevance" in t.columns]
    if notes is not None and labelled:
        notes += [f"{n} has no relevance column: judged by the labels of {labelled[0]}; its "
                  "other results count as not relevant." for n, t in tables.items()
                  if "relevance" not in t.columns]
    pooled = pd.concat([tables[n][["query_id", "doc_id", "relevance"]].assign(_table=i)
                        for i, n in enumerate(labelled)], ignore_index=True)
    grades = pooled.groupby(["query_id", "doc_id"], sort=False)["relevance"]
    differ = (grades.transform("nunique") > 1).to_numpy()
    if differ.any():
        row = pooled[differ].iloc[0]
        same = differ & (pooled["query_id"] == row["query_id"]).to_numpy() \
            & (pooled["doc_id"] == row["doc_id"]).to_numpy()
        (a, ga), (b, gb) = list(pooled[same].drop_duplicates("relevance")
                                [["_table", "relevance"]].itertuples(index=False))[:2]
        return None, (f"{labelled[a]} and {labelled[b]} label query {row['query_id']!r}, "
                      f"document {row['doc_id']!r} differently ({ga:g} and {gb:g}): without "
                      "a judgments file each table's own labels are used, so they must agree. "
                      "Add judgments (a qrels file or a ratings sheet), or fix the labels.")
    return (pooled.drop_duplicates(["query_id", "doc_id"]).drop(columns="_table")
            .reset_index(drop=True)), None
