"""The page's settings: its fields in the URL (ui/page_state.py) and the settings row.

Only the settings travel in a link, never the files (they stay in the browser session).
K follows the data, and the gain the input kind, until the learner (or a link) sets them:
``upload_k_auto`` and ``upload_gain_auto`` say whether they still do.
"""
from __future__ import annotations

import functools

import streamlit as st

from ui import page_state as ps
from ui.upload.measures import GAINS, MEASURE_KEYS, measure_label, parse_measures
from ui.upload.model import (AGGREGATES, DEFAULT_GAIN, DEFAULTS, INPUT_KINDS, K_MAX, Dataset,
                             Settings, default_k)


@functools.cache
def page_state() -> ps.PageState:
    """The page's settings (not the files: they stay in the browser session)."""
    measures = ps.Codec(parse_measures, ",".join,
                        "a comma-separated list of " + ", ".join(MEASURE_KEYS))
    return ps.PageState("upload_", [
        ps.Field("input", DEFAULTS["input"], ps.one_of(tuple(INPUT_KINDS))),
        ps.Field("measures", DEFAULTS["measures"], measures),
        ps.Field("by", DEFAULTS["by"], ps.one_of(MEASURE_KEYS)),
        ps.Field("k", DEFAULTS["k"], ps.whole_number(1, K_MAX)),
        ps.Field("gain", DEFAULTS["gain"], ps.one_of(tuple(GAINS))),
        ps.Field("agg", DEFAULTS["agg"], ps.one_of(AGGREGATES)),
        ps.Field("missing_zero", False, ps.switch(), "complete"),
        ps.Field("view", "rows", ps.one_of(("rows", "cards"))),
    ])


def init_state() -> None:
    """Seed the settings once per session from the URL.

    A link that names no gain gets its input kind's (as the input picker does); one that
    names K or the gain keeps them until the learner changes them.
    """
    state, ss = page_state(), st.session_state
    if state.key("k") in ss:
        state.start()
        return
    params = st.query_params.to_dict()
    ss["upload_k_auto"] = "k" not in params
    ss["upload_gain_auto"] = "gain" not in params
    if "gain" not in params:
        linked = state.from_link(params)       # read by the fields' codecs: bad ones dropped
        params["gain"] = DEFAULT_GAIN[linked.get("input", DEFAULTS["input"])]
    state.start(params)


def on_input_change() -> None:
    """The input picker's callback: the gain follows the input kind while it is automatic."""
    if st.session_state.get("upload_gain_auto", True):
        page_state().set("gain", DEFAULT_GAIN[page_state()["input"]])


def settings_link(query: str) -> None:
    st.markdown(f":material/link: [Link to these settings](?{query}) — reopens this page "
                "with the same measures, K, gain and input kind (not the files: they stay in "
                "your browser session). The address bar holds it too.")


def _on_k_change() -> None:
    st.session_state["upload_k_auto"] = False


def _on_gain_change() -> None:
    st.session_state["upload_gain_auto"] = False


def settings_row(dataset: Dataset) -> Settings:
    state = st.session_state
    fields = page_state()
    if state.pop("upload_k_pending", False) and state.get("upload_k_auto", True):
        fields.set("k", default_k(dataset))
    c_measures, c_by, c_k, c_gain = st.columns([3, 2, 1, 2])
    with c_measures:
        chosen = st.multiselect("Measures", MEASURE_KEYS, **fields.bind("measures"),
                                format_func=lambda m: measure_label(m, "K"),
                                help="AP and RR use the whole ranking, like trec_eval; the "
                                     "others stop at K.")
    measures = tuple(m for m in chosen if m in MEASURE_KEYS) or (DEFAULTS["by"],)
    if not chosen:
        st.caption(f"No measure chosen: showing {measure_label(measures[0], 'K')}.")
    if fields["by"] not in measures:
        fields.set("by", measures[0])
    with c_by:
        by = st.selectbox("Rank queries and compare by", measures, **fields.bind("by"),
                          format_func=lambda m: measure_label(m, "K"))
    with c_k:
        k = st.number_input("K", min_value=1, max_value=K_MAX, step=1, **fields.bind("k"),
                            on_change=_on_k_change,
                            help="Cut-off: how many top results count. Starts at the longest "
                                 "ranking, up to 10.")
    with c_gain:
        gain = st.radio("Gain of a grade", list(GAINS), format_func=GAINS.get, horizontal=True,
                        on_change=_on_gain_change, **fields.bind("gain"),
                        help="2^grade − 1 is the DCG notebook's (and Burges et al.'s) gain; "
                             "'grade' is trec_eval's. Only DCG and NDCG use it.")
    return Settings(measures, by, int(k), gain)

