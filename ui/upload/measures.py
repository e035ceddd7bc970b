"""The measures the upload page offers: their irlib names, column titles, help and formulas.

Every place the "Your own judgments" page names a measure reads this module (no Streamlit
here): which measures there are, which take K or a gain, how a column is titled, what its
mean is called, its one-line help and its worked formula for one query.
"""
from __future__ import annotations

import dataclasses

import numpy as np

import irlib
from irlib.dcg import GAIN_FORMULAS
from irlib.measures import MEASURES, RUN_MEASURES
from ui.texts import METRIC_TEXT

#: Every measure irlib.evaluate takes (irlib's registry), graded ones first.
MEASURE_KEYS = tuple(sorted((m for m in RUN_MEASURES if MEASURES[m].teach),
                           key=lambda m: ("graded", "rank", "set").index(MEASURES[m].family)))
DEFAULT_MEASURES = ("nDCG", "DCG", "AP")       # shown first; the first orders the queries
# The page cuts graded measures and those that need a K at K; AP and RR (and R-precision) look
# at the whole ranking, as MAP and MRR usually do.
_USES_K = {m for m in MEASURE_KEYS if MEASURES[m].cutoff == "required" or MEASURES[m].graded}
_USES_GAIN = {m for m in MEASURE_KEYS if "dcg" in MEASURES[m].params}
GAINS = {gain: GAIN_FORMULAS[gain] for gain in ("exponential", "linear")}
GAIN_TAGS = {"exponential": "gain 2^g−1", "linear": "gain g"}


def measure_name(key: str, k: int, gain: str) -> str:
    """The ir_measures name irlib.evaluate takes, e.g. ``nDCG(dcg='exp-log2')@4``.

    >>> measure_name("nDCG", 4, "exponential"), measure_name("AP", 4, "linear")
    ("nDCG(dcg='exp-log2')@4", 'AP')
    """
    name = key
    if key in _USES_GAIN and gain == "exponential":
        name += "(dcg='exp-log2')"
    return name + (f"@{k}" if key in _USES_K else "")


def measure_label(key: str, k: int | str, gain: str | None = None) -> str:
    """The column title: ``NDCG@4 (gain 2^g−1)``, ``DCG@4 (gain g)``, ``AP``, ``P@4``, ``R@4``.

    DCG and NDCG name their gain, so a number is never read under the other convention
    (trec_eval's is the grade itself).

    >>> measure_label("nDCG", 10, "linear"), measure_label("P", 5, "linear")
    ('NDCG@10 (gain g)', 'P@5')
    """
    # graded measures by their label (NDCG), the others by their short name (P@5, RR)
    label = (MEASURES[key].label if MEASURES[key].graded else key) + \
        (f"@{k}" if key in _USES_K else "")
    if key in _USES_GAIN and gain in GAIN_TAGS:
        label += f" ({GAIN_TAGS[gain]})"
    return label


def mean_label(key: str, k: int, gain: str | None = None) -> str:
    """What the mean over queries is called: MAP, MRR, mean NDCG@4 (gain g), ..."""
    return {"AP": "MAP", "RR": "MRR"}.get(key, f"mean {measure_label(key, k, gain)}")


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
                    gain: str) -> irlib.Explanation:
    """irlib.explain of measure ``key`` for one ranking, as the page's table scores it."""
    grades = np.maximum(grades.astype(float), 0.0)     # negative grades gain nothing
    judged = np.maximum(judged.astype(float), 0.0)
    if key not in _USES_K:
        k = max(len(grades), 1)                          # AP and RR use the whole ranking
    gain = "exponential" if gain == "exponential" else "linear"
    return _shorten(irlib.explain(key, grades, k, judged=judged, gain=gain))


def _shorten(expl: irlib.Explanation, limit: int = 1200) -> irlib.Explanation:
    """Long rankings make formulas with hundreds of terms: keep the first and the result."""
    if len(expl.latex) <= limit:
        return expl
    parts = expl.latex.split(" = ")
    kept = [p if len(p) <= limit // 3 else r"\dots" for p in parts]
    return dataclasses.replace(expl, latex=" = ".join(kept))
