"""The page's settings: its fields in the URL (ui/page_state.py) and the settings row.

Only the settings travel in a link, never the files (they stay in the browser session).
K follows the data, and the gain the input kind, until the learner (or a link) sets them:
``upload_k_auto`` and ``upload_gain_auto`` say whether they still do.
"""
from __future__ import annotations

import functools

import streamlit as st

from ui import page_state as ps
from ui.upload.measures import GAINS, MEASURE_KEYS, USES_THRESHOLD, measure_label, parse_measures
from ui.upload.model import (AGGREGATES, DEFAULT_GAIN, DEFAULTS, INPUT_KINDS, K_MAX,
                             MAX_SYSTEMS, REL_MAX, Dataset, Settings, default_k)

TESTS = {"randomization": "randomization test", "t-test": "paired t-test"}


def _text() -> ps.Codec:
    """A query id as it appears in the data (checked against the data, not here)."""
    def parse(text: str) -> str:
        if not 0 < len(text) <= 200:
            raise ValueError(text)
        return text
    return ps.Codec(parse, str, "a query id")


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
        ps.Field("rel", DEFAULTS["rel"], ps.whole_number(1, REL_MAX)),
        ps.Field("agg", DEFAULTS["agg"], ps.one_of(AGGREGATES)),
        ps.Field("missing_zero", False, ps.switch(), "complete"),
        ps.Field("view", "rows", ps.one_of(("rows", "cards"))),
        # many systems: which is the baseline, which is shown per query / compared with it
        ps.Field("baseline", 1, ps.whole_number(1, MAX_SYSTEMS)),
        ps.Field("system", 1, ps.whole_number(1, MAX_SYSTEMS)),
        ps.Field("versus", 2, ps.whole_number(1, MAX_SYSTEMS), "vs"),
        ps.Field("test", "randomization", ps.one_of(tuple(TESTS))),
        ps.Field("pairs", False, ps.switch()),
        ps.Field("query", "", _text()),
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
    # a link with settings but (as always) no files: say where the data is
    ss["upload_from_link"] = any(f.url_name in params for f in state.fields)
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
                "with the same measures, K, gain, threshold and input kind. The files are not "
                "in it: they stay in your browser session (send the report for the results).")


def _on_k_change() -> None:
    st.session_state["upload_k_auto"] = False


def _on_gain_change() -> None:
    st.session_state["upload_gain_auto"] = False


def settings_row(dataset: Dataset) -> Settings:
    state = st.session_state
    fields = page_state()
    if state.pop("upload_k_pending", False) and state.get("upload_k_auto", True):
        fields.set("k", default_k(dataset))
    if fields["rel"] > dataset.max_grade:       # a threshold above every grade finds nothing
        fields.set("rel", dataset.max_grade)
    rel_column = dataset.graded
    widths = [3, 2, 1, 2] + ([2] if rel_column else [])
    columns = st.columns(widths)
    with columns[0]:
        chosen = st.multiselect("Measures", MEASURE_KEYS, **fields.bind("measures"),
                                format_func=lambda m: measure_label(m, "K"),
                                help="AP, RR, bpref, GMAP and the 11-point average use the "
                                     "whole ranking, like trec_eval; the others stop at K.")
    measures = tuple(m for m in chosen if m in MEASURE_KEYS) or (DEFAULTS["by"],)
    if not chosen:
        st.caption(f"No measure chosen: showing {measure_label(measures[0], 'K')}.")
    if fields["by"] not in measures:
        fields.set("by", measures[0])
    with columns[1]:
        by = st.selectbox("Rank queries and compare by", measures, **fields.bind("by"),
                          format_func=lambda m: measure_label(m, "K"))
    with columns[2]:
        k = st.number_input("K", min_value=1, max_value=K_MAX, step=1, **fields.bind("k"),
                            on_change=_on_k_change,
                            help="Cut-off: how many top results count. Starts at the longest "
                                 "ranking, up to 10.")
    with columns[3]:
        gain = st.radio("Gain of a grade", list(GAINS), format_func=GAINS.get, horizontal=True,
                        on_change=_on_gain_change, **fields.bind("gain"),
                        help="How much a grade is worth in DCG and NDCG: 2^grade − 1 is the "
                             "DCG notebook's (and Burges et al.'s) gain, 'grade' is "
                             "trec_eval's. The other measures only ask whether a result is "
                             "relevant.")
    rel = 1
    if rel_column:
        with columns[4]:
            rel = st.number_input(
                "Relevant from grade", min_value=1, max_value=dataset.max_grade, step=1,
                **fields.bind("rel"),
                help="The lowest grade that counts as relevant for P, R, F1, Success, RR, AP, "
                     "R-precision, bpref and GMAP (trec_eval's -l). NDCG and DCG use the "
                     "grades themselves. TREC's 0–3 grades often count from 2; ratings "
                     "from 1 to 5 from 4.")
        if any(m in USES_THRESHOLD for m in measures) and rel > 1:
            st.caption(f"A grade counts as relevant from {rel} (grades {rel}–"
                       f"{dataset.max_grade}); lower grades count as not relevant.")
    return Settings(measures, by, int(k), gain, int(rel), rel_column)
