r"""Raters who disagree: one grade from several, and how much they agree.

A test collection's grades come from people, and people disagree. The "Search Metrics"
notebook has three raters grade every shown document and keeps the median. This module
combines the raters' grades (:func:`combine_ratings`), says in one number how much they agree
beyond chance (:func:`agreement`: Cohen's κ for two raters, Fleiss' κ for three or more, both
from statsmodels), how uncertain that number is when few documents were graded
(:func:`kappa_interval`), how much they agree when grades are ordered (:func:`ordinal_agreement`:
weighted κ and Krippendorff's α), and scores a ranking under each rater's grades alone and
under each way of combining them (:func:`scores_by_rater`).

Cohen's and Fleiss' κ share one formula: the agreement observed, less the agreement expected
by chance from how often each grade is used, over the most that could be gained above chance:

.. math:: \kappa = \frac{p_o - p_e}{1 - p_e}

1 is complete agreement, 0 exactly what chance would give, below 0 less than chance. Landis &
Koch's (1977) words for the ranges are the usual reading (:func:`kappa_words`). Because
:math:`p_e` comes from how often each grade is used, κ depends on *prevalence*: when almost
every document gets the same grade (most documents are not relevant, as in IR), chance
agreement is high and the same raw agreement gives a much lower κ (Feinstein & Cicchetti
1990; Byrt, Bishop & Carlin 1993).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from irlib._common import InputError, check_k
from irlib.measures.dcg import dcg_at_k, ndcg_at_k

#: How several raters' grades become one: the notebook's median, the mean, or a majority vote.
COMBINE_RULES = ("median", "mean", "majority")
#: Landis & Koch (1977, p. 165): the upper end of each range of κ and its word. Below 0 is
#: "poor"; 0.00-0.20 (0 included: no more than chance) "slight".
KAPPA_WORDS = ((0.2, "slight"), (0.4, "fair"), (0.6, "moderate"), (0.8, "substantial"),
               (1.0, "almost perfect"))
#: |κ| below this is 0: rounding leaves -8e-17 where the exact value is 0 (grades 2 2 2 1).
ZERO = 1e-12


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

    ``median`` is the notebook's rule for its three raters. With an even number of raters
    irlib takes the lower of the two middle grades, so the grade stays whole. This is *not*
    what the notebook's pandas code would give: ``DataFrame.median`` averages the two middle
    grades and ``.astype(int)`` truncates that, so for 0, 1, 3, 3 pandas gives int(2.0) = 2
    and irlib 1 (for 0, 1, 2, 3: int(1.5) = 1, the same). ``mean`` keeps
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
    >>> combine_ratings([[0, 1, 3, 3]], "median").tolist()   # pandas' median(...).astype(int): 2
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


def clean_kappa(kappa: float) -> float:
    """κ with rounding noise removed: |κ| < 1e-12 is 0 (so it never prints as -0.00).

    >>> clean_kappa(-8e-17), clean_kappa(0.25)
    (0.0, 0.25)
    """
    kappa = float(kappa)
    return 0.0 if abs(kappa) < ZERO else kappa


def kappa_words(kappa: float) -> str:
    """Landis & Koch's word for a κ: ``"moderate"`` for 0.41-0.60, ``"poor"`` below 0.

    κ = 0 (exactly chance) is at the bottom of their "slight" range.

    >>> kappa_words(0.5), kappa_words(-0.1), kappa_words(0.0), kappa_words(-8e-17)
    ('moderate', 'poor', 'slight', 'slight')
    >>> kappa_words(1.0)
    'almost perfect'
    """
    if not np.isfinite(kappa):
        return "undefined"
    kappa = clean_kappa(kappa)
    if kappa < 0:
        return "poor"
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

    @property
    def reading(self) -> str:
        """What κ says, in words that hold at 0 and below (:func:`kappa_reading`)."""
        return kappa_reading(self.kappa)


def kappa_reading(kappa: float) -> str:
    """κ read aloud: Landis & Koch's word, and where κ stands against chance.

    >>> print(kappa_reading(0.35))
    fair agreement beyond chance on Landis & Koch's scale
    >>> print(kappa_reading(-8e-17))
    exactly the agreement chance would give: "slight" on Landis & Koch's scale
    >>> print(kappa_reading(-0.41))
    less agreement than chance: "poor" on Landis & Koch's scale
    """
    if not np.isfinite(kappa):
        return "undefined: every grade is the same, so chance already agrees completely"
    kappa = clean_kappa(kappa)
    if kappa == 0:
        return "exactly the agreement chance would give: \"slight\" on Landis & Koch's scale"
    if kappa < 0:
        return "less agreement than chance: \"poor\" on Landis & Koch's scale"
    return f"{kappa_words(kappa)} agreement beyond chance on Landis & Koch's scale"


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
        return clean_kappa(cohens_kappa(table, return_results=False))


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

    Grades 2, 2, 2, 1 for the second rater: Fleiss' κ is exactly 0 (not -8e-17).

    >>> agreement([[2, 2, 3], [3, 2, 2], [0, 2, 2], [1, 1, 0]]).kappa
    0.0
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
        kappa = clean_kappa(fleiss_kappa(counts, method="fleiss"))
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


@dataclass(frozen=True)
class KappaInterval:
    """A bootstrap interval for κ: documents drawn with replacement, κ of each draw."""
    kappa: float
    low: float
    high: float
    level: float
    documents: int
    draws: int
    undefined: int                      # draws where every grade was the same (κ undefined)


def _kappas_of_draws(arr: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """κ (Cohen's for two raters, Fleiss' for more) of every row of ``rows`` (draws x
    documents, indices into ``arr``), all at once; NaN where chance already agrees fully."""
    grades = np.unique(arr)
    codes = np.searchsorted(grades, arr)                       # documents x raters
    n_raters = arr.shape[1]
    picked = codes[rows]                                       # draws x documents x raters
    onehot = picked[..., None] == np.arange(len(grades))       # ... x grades
    with np.errstate(invalid="ignore", divide="ignore"):
        if n_raters == 2:
            p_o = (picked[..., 0] == picked[..., 1]).mean(axis=1)
            p_e = (onehot[:, :, 0].mean(axis=1) * onehot[:, :, 1].mean(axis=1)).sum(axis=1)
        else:
            counts = onehot.sum(axis=2)                        # draws x documents x grades
            p_i = ((counts ** 2).sum(axis=2) - n_raters) / (n_raters * (n_raters - 1))
            p_o = p_i.mean(axis=1)
            p_e = ((counts.sum(axis=1) / (rows.shape[1] * n_raters)) ** 2).sum(axis=1)
        kappa = (p_o - p_e) / (1 - p_e)
    kappa[~np.isfinite(kappa)] = np.nan
    kappa[np.abs(kappa) < ZERO] = 0.0
    return kappa


def kappa_interval(ratings, *, level: float = 0.95, draws: int = 2000,
                   seed: int = 0) -> KappaInterval:
    """How far κ could move with other documents like these: a percentile bootstrap over
    documents (Efron & Tibshirani 1993), ``draws`` resamples of the documents with
    replacement, κ computed as :func:`agreement` does. Draws in which every grade is the
    same leave κ undefined; they are counted and left out.

    With a handful of documents the interval is very wide: a κ from 4 documents says little.

    Examples
    --------
    >>> i = kappa_interval([[2, 2, 3], [3, 3, 2], [0, 0, 2], [1, 1, 0]])  # the notebook's query
    >>> round(i.kappa, 4), round(i.low, 2), round(i.high, 2), i.documents
    (0.0943, -0.37, 0.09, 4)
    """
    arr = check_ratings(ratings)
    if not 0 < level < 1:
        raise ValueError(f"level must be between 0 and 1, got {level!r}")
    rows = np.random.default_rng(seed).integers(0, arr.shape[0], size=(draws, arr.shape[0]))
    kappas = _kappas_of_draws(arr, rows)
    ok = kappas[np.isfinite(kappas)]
    tail = (1 - level) / 2 * 100
    low, high = (np.percentile(ok, [tail, 100 - tail]) if len(ok) else (np.nan, np.nan))
    return KappaInterval(agreement(arr).kappa, clean_kappa(low), clean_kappa(high), level,
                         arr.shape[0], draws, int(draws - len(ok)))


@dataclass(frozen=True)
class OrdinalAgreement:
    """Agreement when the grades are ordered: Krippendorff's α (nominal, ordinal, interval)
    over all raters, and each pair's Cohen's κ with linear and quadratic weights."""
    alpha_nominal: float
    alpha_ordinal: float
    alpha_interval: float
    weighted_pairs: dict                # (i, j) -> {"linear": κ_w, "quadratic": κ_w}


def weighted_kappa(a, b, weights: str = "quadratic") -> float:
    """Cohen's weighted κ (Cohen 1968) of two raters' ordered grades (statsmodels'
    ``cohens_kappa`` with ``wt``): a disagreement of 1 grade counts less than one of 3.
    ``weights`` is ``"linear"`` (|i - j|) or ``"quadratic"`` ((i - j)²). The table spans
    every grade from the lowest to the highest given, so distances are grade differences.

    >>> round(weighted_kappa([2, 3, 0, 1], [3, 2, 2, 0]), 3)     # unweighted: -0.333
    0.3
    >>> round(weighted_kappa([2, 3, 0, 1], [3, 2, 1, 0], "linear"), 3)
    0.2
    """
    from statsmodels.stats.inter_rater import cohens_kappa
    if weights not in ("linear", "quadratic"):
        raise ValueError(f"weights must be 'linear' or 'quadratic', got {weights!r}")
    arr = check_ratings(np.column_stack([np.asarray(a, float), np.asarray(b, float)]))
    grades = np.arange(arr.min(), arr.max() + 1)
    if len(grades) == 1:
        return float("nan")
    table = pd.crosstab(pd.Categorical(arr[:, 0], grades), pd.Categorical(arr[:, 1], grades),
                        dropna=False).to_numpy(dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return clean_kappa(cohens_kappa(table, wt=weights, return_results=False))


def ordinal_agreement(ratings) -> OrdinalAgreement:
    """Agreement that knows 2 against 3 is a smaller disagreement than 0 against 3.

    Krippendorff's α (Krippendorff 2004; the ``krippendorff`` package) is
    :math:`1 - D_o / D_e`, observed over expected disagreement, with a distance between
    grades: *nominal* (any two different grades are 1 apart: close to Fleiss' κ),
    *ordinal* (by how many ratings lie between them) or *interval* (squared difference).
    Weighted κ does the same for two raters.

    Examples
    --------
    The notebook's query: rater 3 is one grade off on three documents, two off on one. As
    categories the raters agree little (α 0.17); counting by how far apart the grades are,
    much more (0.58).

    >>> o = ordinal_agreement([[2, 2, 3], [3, 3, 2], [0, 0, 2], [1, 1, 0]])
    >>> round(o.alpha_nominal, 3), round(o.alpha_ordinal, 3), round(o.alpha_interval, 3)
    (0.17, 0.581, 0.57)
    >>> {k: round(v, 3) for k, v in o.weighted_pairs[(1, 3)].items()}
    {'linear': 0.0, 'quadratic': 0.3}
    """
    import krippendorff
    arr = check_ratings(ratings)
    data = arr.T                                           # krippendorff: raters x units
    domain = np.arange(arr.min(), arr.max() + 1)
    alphas = {}
    for level in ("nominal", "ordinal", "interval"):
        if len(np.unique(arr)) == 1:
            alphas[level] = float("nan")
            continue
        with np.errstate(invalid="ignore", divide="ignore"):
            alphas[level] = clean_kappa(krippendorff.alpha(
                reliability_data=data, level_of_measurement=level, value_domain=domain))
    n = arr.shape[1]
    pairs = {(i + 1, j + 1): {w: weighted_kappa(arr[:, i], arr[:, j], w)
                              for w in ("linear", "quadratic")}
             for i in range(n) for j in range(i + 1, n)}
    return OrdinalAgreement(alphas["nominal"], alphas["ordinal"], alphas["interval"], pairs)
