"""Streamlit's caches in front of the model's slow steps: parsing, scoring, tables, tests.

Each is keyed on what identifies its inputs (a file's SHA-256, the dataset's key), not on
the frames themselves (the underscore arguments), so a rerun hashes nothing big.
"""
from __future__ import annotations

import pandas as pd
import streamlit as st

from irlib import InputError, recsys
from irlib.stats.compare import Comparison, compare_systems
from irlib.stats.compare_many import ManyComparison, compare_many, comparison_seed
from ui.upload.model import Dataset, Settings, read_upload, score
from ui.upload.tables import per_query_table, recommender_evaluations

#: Parsed uploads and their scores are kept for a while so reruns are instant, then dropped:
#: a 700,000-line run takes ~230 MB, and a class's uploads must not pile up in the server.
CACHE_TTL = "20m"


@st.cache_data(max_entries=16, ttl=CACHE_TTL, show_spinner=False)
def cached_read(reader: str, name: str, digest: str, _data: bytes,
                aggregate: str = "median", columns: tuple = ()) -> pd.DataFrame:
    """read_upload, keyed on the file's SHA-256 (not on the bytes: hashing is done once)
    and on the columns chosen for a recommender file."""
    return read_upload(reader, name, _data, aggregate, columns)


@st.cache_data(max_entries=32, ttl=CACHE_TTL, show_spinner=False)
def cached_ids_problem(key: tuple, _recommendations: pd.DataFrame,
                       _heldout: pd.DataFrame) -> str | None:
    """Why a recommendations file and the held-out interactions share no user or no item
    (irlib.recsys.check_ids_meet), or None; keyed on both files' digests and columns."""
    try:
        recsys.check_ids_meet(_recommendations, _heldout)
    except InputError as err:
        return str(err)
    return None


@st.cache_data(max_entries=8, ttl=CACHE_TTL, show_spinner=False)
def cached_score(key: tuple, names: tuple[str, ...], _dataset: Dataset):
    return score(_dataset, names)


@st.cache_data(max_entries=16, ttl=CACHE_TTL, show_spinner=False)
def cached_table(key: tuple, settings: Settings, system: str, include_missing: bool,
                 _dataset: Dataset, _evaluation) -> pd.DataFrame:
    return per_query_table(_dataset, _evaluation, settings, system=system,
                           include_missing=include_missing)


@st.cache_data(max_entries=16, ttl=CACHE_TTL, show_spinner=False)
def cached_compare(key: tuple, _a: pd.Series, _b: pd.Series) -> Comparison:
    """compare_systems, keyed on (dataset key, measure, systems, include_missing): the
    randomization test seeded as the systems table seeds the same pair (``comparison_seed``),
    so the cards' p is the sentence's and the table's, not another random draw."""
    _, measure, (name_a, name_b), _ = key
    return compare_systems(_a, _b, seed=comparison_seed(0, measure, name_b, name_a))


@st.cache_data(max_entries=8, ttl=CACHE_TTL, show_spinner=False)
def cached_recommenders(key: tuple, k: int, _dataset: Dataset) -> dict:
    """irlib.recsys' evaluation of every system (beyond accuracy), keyed on the dataset."""
    return recommender_evaluations(_dataset, k)


@st.cache_data(max_entries=8, ttl=CACHE_TTL, show_spinner=False)
def cached_compare_many(key: tuple, _per_query: dict, baseline: str, names: tuple[str, ...],
                        test: str, pairs: bool) -> ManyComparison:
    """compare_many, keyed on (dataset key, settings, include_missing, baseline, test)."""
    return compare_many(_per_query, baseline, measures=list(names), test=test, all_pairs=pairs)
