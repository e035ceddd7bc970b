"""The other way in: a results table that carries its own relevance column.

Such a table judges only the items it lists, so every measure that needs the relevant items
the system did *not* return (recall, NDCG, AP ...) comes out inflated from it.
:func:`self_judged_problem` says which and why; the page and the command line refuse them.
"""
from __future__ import annotations

from collections.abc import Iterable

from ..measures import parse_measure
from .relevance import ACCURACY

__all__ = ["SELF_JUDGED_MEASURES", "self_judged_problem"]


#: irlib measures whose value depends on relevant items the system did *not* return (the
#: denominator of recall, AP and R-precision; NDCG's ideal). A table's own relevance column
#: only judges the rows it lists, so these come out inflated from it (checked in the tests
#: against irlib.evaluate itself).
SELF_JUDGED_MEASURES = frozenset({"R", "F1", "AP", "nDCG", "Rprec", "GMAP", "Bpref", "GMBpref",
                                  "IPrec", "IPrecAvg", "SetR", "SetF", "NumRel"})


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
