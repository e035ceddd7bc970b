r"""Raters who disagree: one grade from several, and how much they agree.

A test collection's grades come from people, and people disagree. The "Search Metrics"
notebook has three raters grade every shown document and keeps the median. This module
combines the raters' grades (:func:`combine_ratings`), says in one number how much they agree
beyond chance (:func:`agreement`: Cohen's κ for two raters, Fleiss' κ for three or more, both
from statsmodels), and scores a ranking under each rater's grades alone and under each way of
combining them (:func:`scores_by_rater`).

Cohen's and Fleiss' κ share one formula: the agreement observed, less the agreement expected
by chance from how often each grade is used, over the most that could be gained above chance:

.. math:: \kappa = \frac{p_o - p_e}{1 - p_e}

1 is complete agreement, 0 no more than chance, below 0 worse than chance. Landis & Koch's
(1977) words for the ranges are the usual reading (:func:`kappa_words`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from irlib._common import InputError, check_k
from irlib.measures.dcg import dcg_at_k, ndcg_at_k

#: How several raters' grades become one: the notebook's median, the mean, or a majority vote.
COMBINE_RULES = ("median", "mean", "majority")
#: Landis & Koch (1977): the upper end of each range of κ and its word.
KAPPA_WORDS = ((0.0, "less than chance"), (0.2, "slight"), (0.4, "fair"), (0.6, "moderate"),
               (0.8, "substantial"), (1.0, "almost perfect"))


def check_ratings(ratings, name: str = "ratings") -> np.ndarray:
    """Ratings as a 2-D float array, one row per document and one column per rater: whole
    numbers >= 0, at least one document and two raters. Errors name the row and the rater."""
    try:
        arr = np.asarray(ratings, dtype=float)
    except (TypeError, ValueError):
        raise InputError(f"{name} must be numbers, one row per document and one column per "
                         "rater", source=name) from None
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 2:
        raise InputError(f"{name} must have at least one document and two raters, got shape "
                         f"{arr.shape}", source=name)
    bad = ~np.isfinite(arr) | (arr < 0) | (arr != np.round(arr))
    if bad.any():
        row, col = (int(i) for i in np.argwhere(bad)[0])
        raise InputError(f"{arr[row, col]:g} is not a grade: grades are whole numbers >= 0",
                         source=name, line=row + 1, column=f"rater {col + 1}")
    return arr


def combine_ratings(ratings, how: str = "median") -> np.ndarray:
    """One grade per document from several raters' grades (rows: documents; columns: raters).

    ``median`` is the notebook's rule (with an even number of raters, the lower of the two
    middle grades, so the grade stays whole, as the notebook's ``.astype(int)``); ``mean`` keeps
    the fraction (NDCG takes it as it is); ``majority`` is the grade more than half the raters
    gave, or the median when no grade has a majority.

    Examples
    --------
    The notebook's "disagreement" query: three raters, four documents.

    >>> ratings = [[2, 2, 3], [3, 3, 2], [0, 0, 2], [1, 1, 0]]
    >>> combine_ratings(ratings, "median").tolist()
    [2.0, 3.0, 0.0, 1.0]
    >>> combine_ratings(ratings, "mean").round(3).tolist()
    [2.333, 2.667, 0.667, 0.667]
    >>> combine_ratings([[0, 1, 2]], "majority").tolist()     # no majority: the median
    [1.0]
    """
    arr = check_ratings(ratings)
    if how not in COMBINE_RULES:
        raise ValueError(f"how must be one of {COMBINE_RULES}, got {how!r}")
    ordered = np.sort(arr, axis=1)
    median = ordered[:, (arr.shape[1] - 1) // 2]
    if how == "median":
        return median
    if how == "mean":
        return arr.mean(axis=1)
    out = median.copy()
    for i, row in enumerate(arr):
        values, counts = np.unique(row, return_counts=True)
        if counts.max() * 2 > len(row):
            out[i] = values[np.argmax(counts)]
    return out


def kappa_words(kappa: float) -> str:
    """Landis & Koch's word for a κ: ``"moderate"`` for 0.41-0.60.

    >>> kappa_words(0.5), kappa_words(-0.1), kappa_words(1.0)
    ('moderate', 'less than chance', 'almost perfect')
    """
    if not np.isfinite(kappa):
        return "undefined"
    for top, word in KAPPA_WORDS:
        if kappa <= top:
            return word
    return KAPPA_WORDS[-1][1]


@dataclass(frozen=True)
class Agreement:
    """How much the raters agree: κ (Cohen's for two, Fleiss' for more), the share of
    documents where all raters gave the same grade, and κ of every pair of raters."""
    kappa: float
    method: str                         # "Cohen's κ" or "Fleiss' κ"
    exact_share: float                  # documents on which every rater agrees
    pairs: dict                         # (i, j) (1-based raters) -> Cohen's κ

    @property
    def words(self) -> str:
        return kappa_words(self.kappa)


def cohen_kappa(a, b) -> float:
    """Cohen's κ of two raters' grades of the same documents (statsmodels' ``cohens_kappa``).

    NaN when chance alone already agrees completely (both raters give one grade throughout).

    >>> round(cohen_kappa([2, 3, 0, 1], [2, 3, 0, 1]), 3), round(cohen_kappa([1, 0], [0, 1]), 3)
    (1.0, -1.0)
    """
    from statsmodels.stats.inter_rater import cohens_kappa
    arr = check_ratings(np.column_stack([np.asarray(a, float), np.asarray(b, float)]))
    grades = np.unique(arr)
    table = pd.crosstab(pd.Categorical(arr[:, 0], grades), pd.Categorical(arr[:, 1], grades),
                        dropna=False).to_numpy(dtype=float)
    if len(grades) == 1:
        return float("nan")
    with np.errstate(invalid="ignore", divide="ignore"):
        return float(cohens_kappa(table, return_results=False))


def agreement(ratings) -> Agreement:
    """Agreement of the raters (rows: documents; columns: raters) in one number.

    Two raters: Cohen's κ; three or more: Fleiss' κ (statsmodels' ``fleiss_kappa``), which
    asks how often two raters picked at random agree on a document. Both treat grades as
    categories: 2 against 3 is as much a disagreement as 0 against 3.

    Examples
    --------
    >>> a = agreement([[2, 2, 3], [3, 3, 2], [0, 0, 2], [1, 1, 0]])   # the notebook's query
    >>> a.method, round(a.kappa, 4), a.exact_share, a.words
    ("Fleiss' κ", 0.0943, 0.0, 'slight')
    >>> round(a.pairs[(1, 2)], 3), round(a.pairs[(1, 3)], 3)   # 1 and 2 agree; 3 does not
    (1.0, -0.333)
    """
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa
    arr = check_ratings(ratings)
    n = arr.shape[1]
    pairs = {(i + 1, j + 1): cohen_kappa(arr[:, i], arr[:, j])
             for i in range(n) for j in range(i + 1, n)}
    exact = float(np.mean(arr.min(axis=1) == arr.max(axis=1)))
    if n == 2:
        return Agreement(pairs[(1, 2)], "Cohen's κ", exact, pairs)
    counts, _ = aggregate_raters(arr.astype(int))
    with np.errstate(invalid="ignore", divide="ignore"):
        kappa = float(fleiss_kappa(counts, method="fleiss"))
    return Agreement(kappa, "Fleiss' κ", exact, pairs)


def scores_by_rater(ratings, k: int | None = None, *, gain: str = "exponential") -> pd.DataFrame:
    """DCG@K and NDCG@K of a ranking under each rater's grades alone and each combination.

    ``ratings`` rows are the shown documents in rank order. The ideal ranking for NDCG comes
    from the same grades (each rater's own ideal), as in the notebook, where the shown
    documents are all that was judged.

    Examples
    --------
    >>> s = scores_by_rater([[2, 2, 3], [3, 3, 2], [0, 0, 2], [1, 1, 0]], 4)
    >>> s.round(6).loc[["rater 1", "rater 3", "median"], "DCG@4"].tolist()  # notebook: 7.847185
    [7.847185, 10.392789, 7.847185]
    >>> s.round(4).loc[["rater 3", "median", "mean"], "NDCG@4"].tolist()
    [1.0, 0.8354, 0.9428]
    """
    arr = check_ratings(ratings)
    k = arr.shape[0] if k is None else check_k(k)
    columns = {f"rater {i + 1}": arr[:, i] for i in range(arr.shape[1])}
    columns.update({how: combine_ratings(arr, how) for how in COMBINE_RULES})
    rows = {name: {"grades": grades.tolist(),
                   f"DCG@{k}": dcg_at_k(grades, k, gain=gain),
                   f"NDCG@{k}": ndcg_at_k(grades, k, gain=gain)}
            for name, grades in columns.items()}
    return pd.DataFrame.from_dict(rows, orient="index")
