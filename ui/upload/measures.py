"""The measures the upload page offers: their irlib names, column titles, help and formulas.

Every place the "Your own judgments" page names a measure reads this module (no Streamlit
here): which measures there are, which take K or a gain, how a column is titled, what its
mean is called, its one-line help and its worked formula for one query.
"""
from __future__ import annotations

import dataclasses

import numpy as np

import irlib
from irlib.measures.dcg import GAIN_FORMULAS
from irlib.measures.registry import MEASURES, RUN_MEASURES
from ui.shared.texts import METRIC_TEXT

#: The measures the page offers: the lessons' run measures and trec_eval's bpref, GMAP and
#: 11-point average (irlib's registry), graded ones first.
MEASURE_KEYS = tuple(sorted(
    (m for m in RUN_MEASURES
     if MEASURES[m].teach or m in ("Bpref", "infAP", "GMAP", "IPrecAvg")),
    key=lambda m: ("graded", "rank", "set").index(MEASURES[m].family)))
DEFAULT_MEASURES = ("nDCG", "DCG", "AP")       # shown first; the first orders the queries
# The page cuts graded measures and those that need a K at K; AP and RR (and R-precision,
# bpref, GMAP, the 11-point average) look at the whole ranking, as MAP and MRR usually do.
_USES_K = {m for m in MEASURE_KEYS if MEASURES[m].cutoff == "required" or MEASURES[m].graded}
_USES_GAIN = {m for m in MEASURE_KEYS if "dcg" in MEASURES[m].params}
#: Binary measures: a grade counts as relevant from the page's threshold (trec_eval's -l).
USES_THRESHOLD = frozenset(m for m in MEASURE_KEYS if "rel" in MEASURES[m].params)
GAINS = {gain: GAIN_FORMULAS[gain] for gain in ("exponential", "linear")}
GAIN_TAGS = {"exponential": "gain 2^g−1", "linear": "gain g"}
_SHORT = {"Bpref": "bpref", "GMAP": "GMAP", "IPrecAvg": "11-pt avg"}
#: How a sentence names a measure ("bpref, infAP and the 11-point average use ...").
_IN_WORDS = {"Bpref": "bpref", "IPrecAvg": "the 11-point average", "Rprec": "R-precision",
             "nDCG": "NDCG"}
#: What recommender engineers call the measures (a user's top K; every measure at K).
RECSYS_KEYS = ("nDCG", "Success", "R", "P", "AP", "RR")
RECSYS_DEFAULTS = ("nDCG", "Success", "R", "AP", "RR")
_RECSYS_LABELS = {"Success": "HitRate", "nDCG": "NDCG", "R": "Recall", "P": "Precision",
                  "AP": "AP", "RR": "RR"}
_RECSYS_MEANS = {"AP": "MAP", "RR": "MRR"}


def measure_name(key: str, k: int, gain: str, rel: int = 1, recsys: bool = False) -> str:
    """The ir_measures name irlib.evaluate takes, e.g. ``nDCG(dcg='exp-log2')@4``.

    For recommenders every measure is cut at K (a top-K list: MAP@K, MRR@K).

    >>> measure_name("nDCG", 4, "exponential"), measure_name("AP", 4, "linear", rel=2)
    ("nDCG(dcg='exp-log2')@4", 'AP(rel=2)')
    >>> measure_name("AP", 10, "linear", recsys=True)
    'AP@10'
    """
    params = []
    if key in _USES_GAIN and gain == "exponential":
        params.append("dcg='exp-log2'")
    if key in USES_THRESHOLD and rel != 1:
        params.append(f"rel={rel}")
    name = key + (f"({','.join(params)})" if params else "")
    return name + (f"@{k}" if key in _USES_K or recsys else "")


def measure_label(key: str, k: int | str, gain: str | None = None,
                  rel: int | None = None, recsys: bool = False) -> str:
    """The column title: ``NDCG@4 (gain 2^g−1)``, ``DCG@4 (gain g)``, ``AP``, ``P@4 (grade ≥ 2)``.

    DCG and NDCG name their gain, so a number is never read under the other convention
    (trec_eval's is the grade itself); binary measures name the relevance threshold when
    ``rel`` is given (the page gives it when the judgments are graded).

    >>> measure_label("nDCG", 10, "linear"), measure_label("P", 5, "linear", rel=2)
    ('NDCG@10 (gain g)', 'P@5 (grade ≥ 2)')
    """
    if recsys:                        # HitRate@10, Recall@10, AP@10: the recommender names
        return f"{_RECSYS_LABELS.get(key, key)}@{k}"
    # graded measures by their label (NDCG), the others by their short name (P@5, RR)
    label = (MEASURES[key].label if MEASURES[key].graded else _SHORT.get(key, key)) + \
        (f"@{k}" if key in _USES_K else "")
    if key in _USES_GAIN and gain in GAIN_TAGS:
        label += f" ({GAIN_TAGS[gain]})"
    if key in USES_THRESHOLD and rel is not None:
        label += f" (grade ≥ {rel})"
    return label


def mean_label(key: str, k: int, gain: str | None = None, rel: int | None = None,
               recsys: bool = False) -> str:
    """What the mean over queries is called: MAP, MRR, mean NDCG@4 (gain g), ...; for
    recommenders MAP@10, MRR@10, HitRate@10 (the mean over users is what they call it)."""
    if recsys:
        return f"{_RECSYS_MEANS.get(key, _RECSYS_LABELS.get(key, key))}@{k}"
    named = {"AP": "MAP", "RR": "MRR", "GMAP": "GMAP"}
    if key in named:
        return named[key] + (f" (grade ≥ {rel})" if rel is not None else "")
    return f"mean {measure_label(key, k, gain, rel)}"


def in_words(keys) -> str:
    """Measures named in a sentence, from the registry's list: the settings' help and the
    report say which use the whole ranking or the threshold from it, so a measure added to
    the page is named there too.

    >>> in_words(["RR", "Bpref", "IPrecAvg"])
    'RR, bpref and the 11-point average'
    """
    names = [_IN_WORDS.get(key, key) for key in keys]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


#: Measures the page scores over the whole ranking (like trec_eval), and those cut at K.
WHOLE_RANKING = tuple(m for m in MEASURE_KEYS if m not in _USES_K)
CUT_AT_K = tuple(m for m in MEASURE_KEYS if m in _USES_K)


def measure_help(key: str) -> str | None:
    """The one-line help of a measure's column, e.g. P's "Share of the top K results ..."."""
    return METRIC_TEXT[key].short if key in METRIC_TEXT else None


def parse_measures(text: str) -> list[str]:
    """Measure keys from a comma-separated list in any case; ValueError for an unknown one.

    >>> parse_measures("ap, ndcg,AP")
    ['AP', 'nDCG']
    """
    canonical = {m.lower(): m for m in MEASURE_KEYS}
    wanted = [m.strip().lower() for m in text.split(",") if m.strip()]
    if not wanted or any(m not in canonical for m in wanted):
        raise ValueError(text)
    return list(dict.fromkeys(canonical[m] for m in wanted))


def explain_measure(key: str, grades: np.ndarray, judged: np.ndarray, k: int,
                    gain: str, rel: int = 1, is_judged: np.ndarray | None = None
                    ) -> irlib.Explanation:
    """irlib.explain of measure ``key`` for one ranking, as the page's table scores it.

    ``is_judged`` marks the ranking's judged results: bpref ignores the others (they are
    neither relevant nor non-relevant), so its formula is shown on the judged ones.
    """
    if key == "infAP" and is_judged is not None:
        # a negative grade: in the pool, not judged; a result outside the qrels: not pooled
        pooled = is_judged & (grades < 0)
        unjudged = ~is_judged | pooled
        return _shorten(irlib.explain(
            key, np.where(unjudged, 0.0, grades.astype(float)), max(len(grades), 1),
            judged=np.maximum(judged.astype(float), 0.0), rel=rel, unjudged=unjudged,
            pooled=pooled))
    if key in ("Bpref",) and is_judged is not None:
        grades = grades[is_judged & (grades >= 0)]
    grades = np.maximum(grades.astype(float), 0.0)     # negative grades gain nothing
    judged = np.maximum(judged.astype(float), 0.0)
    if key not in _USES_K:
        k = max(len(grades), 1)                          # AP and RR use the whole ranking
    gain = "exponential" if gain == "exponential" else "linear"
    return _shorten(irlib.explain(key, grades, k, judged=judged, gain=gain, rel=rel))


def _shorten(expl: irlib.Explanation, limit: int = 1200) -> irlib.Explanation:
    """Long rankings make formulas with hundreds of terms: keep the first and the result."""
    if len(expl.latex) <= limit:
        return expl
    parts = expl.latex.split(" = ")
    kept = [p if len(p) <= limit // 3 else r"\dots" for p in parts]
    return dataclasses.replace(expl, latex=" = ".join(kept))
