"""The page's settings: its fields in the URL (ui/shared/page_state.py) and the settings row.

Only the settings travel in a link, never the files (they stay in the browser session).
K follows the data, and the gain the input kind, until the learner (or a link) sets them:
``upload_k_auto`` and ``upload_gain_auto`` say whether they still do.
"""
from __future__ import annotations

import dataclasses
import functools

import streamlit as st

from irlib import recsys
from ui.shared import page_state as ps
from ui.shared.texts import md_escape
from ui.upload.measures import (GAINS, MEASURE_KEYS, RECSYS_DEFAULTS, RECSYS_KEYS,
                                USES_THRESHOLD, WHOLE_RANKING, in_words, mean_label,
                                measure_label, parse_measures)
from ui.upload.model import (AGGREGATES, DEFAULT_GAIN, DEFAULTS, INPUT_KINDS, K_MAX,
                             MAX_SYSTEMS, REL_MAX, Dataset, Settings, default_k)

TESTS = {"randomization": "randomization test", "t-test": "paired t-test"}


def _text() -> ps.Codec:
    """A query id as it appears in the data (checked against the data, not here); empty
    until one is chosen, as the page's own address then says (``query=``)."""
    def parse(text: str) -> str:
        if len(text) > 200:
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
        # empty until picked: the one the systems table marks (ui/upload/compare.py)
        ps.Field("versus", None, _picked_position(), "vs"),
        ps.Field("test", "randomization", ps.one_of(tuple(TESTS))),
        ps.Field("pairs", False, ps.switch()),
        ps.Field("query", "", _text()),
        # recommenders: their own measures, and what counts as relevant (0: every held-out
        # item; t: those rated t or more)
        ps.Field("rec_measures", RECSYS_DEFAULTS, ps.Codec(
            _recsys_measures, ",".join, "a comma-separated list of " + ", ".join(RECSYS_KEYS)),
            "rm"),
        ps.Field("relevant_from", 0, ps.whole_number(0, 10), "from"),
        # the data is the app's own samples: a link opens them (they are not private)
        ps.Field("samples", False, ps.switch()),
        ps.Field("drop_seen", False, ps.switch(), "unseen"),   # drop items seen in training
    ])


def _picked_position() -> ps.Codec:
    """A system's position (1-based) the learner picked, or ``""`` (None): none picked yet.

    >>> c = _picked_position()
    >>> c.parse("3"), c.parse(""), c.encode(None), c.encode(3)
    (3, None, '', '3')
    """
    number = ps.whole_number(1, MAX_SYSTEMS)
    return ps.Codec(lambda text: None if text == "" else number.parse(text),
                    lambda value: "" if value is None else number.encode(value),
                    "empty or " + number.expected)


def _recsys_measures(text: str) -> list[str]:
    chosen = parse_measures(text)
    if any(m not in RECSYS_KEYS for m in chosen):
        raise ValueError(text)
    return chosen


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
    ss["upload_link_samples"] = params.get("samples") == "1"     # load them once, first run
    if "gain" not in params:
        linked = state.from_link(params)       # read by the fields' codecs: bad ones dropped
        params["gain"] = DEFAULT_GAIN[linked.get("input", DEFAULTS["input"])]
    state.start(params)


# which systems are chosen: the baseline, the one shown per query, the one compared with it
SYSTEM_FIELDS = ("baseline", "system", "versus")


def on_input_change() -> None:
    """The input picker's callback: the gain follows the input kind while it is automatic,
    and each kind keeps its own chosen systems (``upload_systems_of``: kind -> fields), as
    each keeps its own files."""
    fields, ss = page_state(), st.session_state
    kind = fields["input"]
    if ss.get("upload_gain_auto", True):
        fields.set("gain", DEFAULT_GAIN[kind])
    kept = ss.setdefault("upload_systems_of", {})
    left = ss.get("upload_input_shown")
    if left is not None and left != kind:
        kept[left] = {name: fields.get(name) for name in SYSTEM_FIELDS}
    fields.reset(*SYSTEM_FIELDS)
    for name, value in kept.get(kind, {}).items():
        fields.set(name, value)


def follow_removed_system(removed: int) -> None:
    """The chosen systems after the ``removed``-th (1-based) is taken out: the ones after it
    move up with their systems, a choice of the removed one goes back to its default."""
    fields = page_state()
    for name in SYSTEM_FIELDS:
        chosen = fields.get(name)
        if chosen == removed:
            fields.reset(name)
        elif isinstance(chosen, int) and chosen > removed:
            fields.set(name, chosen - 1)


def input_kind_picker() -> str:
    kind = st.radio("What do you have?", list(INPUT_KINDS), format_func=INPUT_KINDS.get,
                    horizontal=True, on_change=on_input_change, **page_state().bind("input"))
    st.session_state["upload_input_shown"] = kind     # the kind left when the picker changes
    return kind


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
    if dataset.kind == "recsys":
        return _recommender_settings(dataset)
    rel_column = dataset.graded
    widths = [3, 2, 1, 2] + ([2] if rel_column else [])
    columns = st.columns(widths)
    with columns[0]:
        chosen = st.multiselect("Measures", MEASURE_KEYS, **fields.bind("measures"),
                                format_func=lambda m: measure_label(m, "K"),
                                help=f"{in_words(WHOLE_RANKING)} use the whole ranking, "
                                     "like trec_eval; the others stop at K.")
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
                help=f"The lowest grade that counts as relevant for "
                     f"{in_words(m for m in MEASURE_KEYS if m in USES_THRESHOLD)} (trec_eval's "
                     "-l). NDCG and DCG use the grades themselves. TREC's 0–3 grades often "
                     "count from 2; ratings from 1 to 5 from 4.")
        if any(m in USES_THRESHOLD for m in measures) and rel > 1:
            st.caption(f"A grade counts as relevant from {rel} (grades {rel}–"
                       f"{dataset.max_grade}); lower grades count as not relevant.")
    return Settings(measures, by, int(k), gain, int(rel), rel_column)


def _recommender_settings(dataset: Dataset) -> Settings:
    """Recommenders: their measures at K (HitRate@K = Success@K, MAP@K, MRR@K); relevance is
    binary (what counts as relevant is chosen with the files), so there is no gain."""
    fields = page_state()
    columns = st.columns([4, 2, 1])
    with columns[0]:
        chosen = st.multiselect("Measures", RECSYS_KEYS, **fields.bind("rec_measures"),
                                format_func=lambda m: mean_label(m, "K", recsys=True),
                                help="Each user's top K. HitRate@K is Success@K: 1 when a "
                                     "held-out item is in the list. MAP@K and MRR@K are the "
                                     "means of AP@K and RR@K over users; AP@K divides by all "
                                     "of the user's relevant items, as trec_eval's map_cut.")
    measures = tuple(m for m in chosen if m in RECSYS_KEYS) or (RECSYS_DEFAULTS[0],)
    if fields["by"] not in measures:
        fields.set("by", measures[0])
    with columns[1]:
        by = st.selectbox("Rank users and compare by", measures, **fields.bind("by"),
                          format_func=lambda m: mean_label(m, "K", recsys=True))
    with columns[2]:
        k = st.number_input("K", min_value=1, max_value=K_MAX, step=1, **fields.bind("k"),
                            on_change=_on_k_change, help="How many of each list count.")
    return Settings(measures, by, int(k), "linear", 1, False, recsys=True)


def relevance_rule(dataset_has_ratings: bool) -> int:
    """What counts as relevant among the held-out items: all, or those rated t or more."""
    fields = page_state()
    if not dataset_has_ratings:
        st.caption("Relevant: every held-out item (the held-out file has no rating).")
        return 0
    columns = st.columns([3, 2])
    with columns[0]:
        # no key: the field is the state (a new index is a new widget, drawn from the field)
        every = st.radio("A held-out item counts as relevant", ["every item", "rated from"],
                         index=0 if fields["relevant_from"] == 0 else 1, horizontal=True,
                         help="A 1-star rating is a dislike: with ratings, counting only "
                              "items rated 4 or more is usual.")
    if every == "every item":
        fields.set("relevant_from", 0)
        return 0
    if fields["relevant_from"] == 0:
        fields.set("relevant_from", 4)
    with columns[1]:
        return int(st.number_input("rated from", min_value=1, max_value=10, step=1,
                                   **fields.bind("relevant_from"),
                                   help="The lowest rating that counts as relevant."))


def self_judged_guard(dataset: Dataset, settings: Settings) -> Settings | None:
    """A table judged by its own relevance column sees only the items it lists: the measures
    that need every relevant item (recall, NDCG, AP ...) would be inflated. They are refused
    with irlib's message, never computed; None when nothing is left to show."""
    source = dataset.extras.get("self_judged")
    refused = [m for m in settings.measures
               if source and recsys.self_judged_problem([settings.name(m)])]
    if not refused:
        return settings
    labels = [settings.label(m) for m in refused]
    named = labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]
    st.error(f"{md_escape(source)} judges only the results it lists (its own relevance "
             f"column), so {md_escape(named)} would be inflated: relevant documents the system "
             "did not return are invisible to them. They are not shown; add judgments (a qrels "
             "file or a ratings sheet) for them. P, Success, RR and DCG need only the listed "
             "results.", icon=":material/block:")
    kept = tuple(m for m in settings.measures if m not in refused)
    if not kept:
        return None
    by = settings.by if settings.by in kept else kept[0]
    return dataclasses.replace(settings, measures=kept, by=by)
