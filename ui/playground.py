"""The playground's session state: defaults from the sources, the URL, and the board's changes.

State flows one way: URL (first run) -> st.session_state -> irlib -> figures; every run
writes the state back to the address bar (:func:`address`), so it is always a shareable link.
"""
from __future__ import annotations

import random
from urllib.parse import urlencode

import streamlit as st

from ui import state as url_state
from ui.catalog import load_catalog

PREFIX = "pg_"
BINARY_QUERY, GRADED_QUERY = "cat-in-a-box", "white-cat-in-a-box"


def defaults() -> url_state.PlaygroundState:
    """The sources' order and judgments (article: relevant at 2, 4, 5, 7; video: grades 0-4)."""
    catalog = load_catalog()
    binary, graded = catalog.queries[BINARY_QUERY], catalog.queries[GRADED_QUERY]
    return url_state.PlaygroundState(order=tuple(binary.order), labels=dict(binary.grades),
                                     grades=dict(graded.grades))


def item_ids() -> list[str]:
    return list(load_catalog().items)


def _store(state: url_state.PlaygroundState) -> None:
    ss = st.session_state
    ss[PREFIX + "order"] = list(state.order)
    ss[PREFIX + "labels"] = dict(state.labels)
    ss[PREFIX + "grades"] = dict(state.grades)
    for name in ("mode", "k", "metric", "gain", "rel"):
        ss[PREFIX + name] = getattr(state, name)


def init() -> tuple[str, ...]:
    """On a session's first run, load the state from the URL; return any notices."""
    if st.session_state.get(PREFIX + "ready"):
        return ()
    state = url_state.decode(st.query_params.to_dict(), defaults())
    _store(state)
    st.session_state[PREFIX + "ready"] = True
    return state.notices


def current() -> url_state.PlaygroundState:
    ss = st.session_state
    return url_state.PlaygroundState(
        order=tuple(ss[PREFIX + "order"]), labels=dict(ss[PREFIX + "labels"]),
        grades=dict(ss[PREFIX + "grades"]), mode=ss[PREFIX + "mode"], k=int(ss[PREFIX + "k"]),
        metric=ss[PREFIX + "metric"], gain=ss[PREFIX + "gain"], rel=int(ss[PREFIX + "rel"]))


def address(state: url_state.PlaygroundState) -> str:
    """The query string of a link that opens ``state`` (the page keeps the address bar at it).

    Written by the browser (``ui.live_chart.live_charts(address=...)``), not through
    ``st.query_params``, whose update re-renders the whole app on every drag. Streamlit's own
    copy of the query string therefore goes stale: read the URL only on a session's first
    run (:func:`init`).
    """
    return urlencode(url_state.encode(state, item_ids()))


# Callbacks: run before the script reruns, like any widget callback.

def on_board_change(change: dict) -> None:
    ss = st.session_state
    ss[PREFIX + "order"] = list(change["order"])
    target = "labels" if ss[PREFIX + "mode"] == "binary" else "grades"
    ss[PREFIX + target] = {i: int(g) for i, g in change["grades"].items()}


def reset() -> None:
    """Back to the sources' order and judgments (mode, K and the chosen metric stay)."""
    ss = st.session_state
    keep = {name: ss[PREFIX + name] for name in ("mode", "k", "metric", "gain", "rel")}
    _store(defaults())
    for name, value in keep.items():
        ss[PREFIX + name] = value


def sort_by_grade(best_first: bool) -> None:
    """Ideal (best first) or worst order by the current judgments; ties keep picture order."""
    state = current()
    grades, ids = state.current_grades(), item_ids()
    sign = -1 if best_first else 1
    st.session_state[PREFIX + "order"] = sorted(ids, key=lambda i: (sign * grades[i], ids.index(i)))


def shuffle() -> None:
    order = item_ids()
    random.shuffle(order)
    st.session_state[PREFIX + "order"] = order


def set_k_from_chart(x: float) -> None:
    """A click on a chart point at K = x sets K (only a whole K on the board)."""
    if x == int(x) and 1 <= x <= len(item_ids()) and x != st.session_state[PREFIX + "k"]:
        st.session_state[PREFIX + "k"] = int(x)
        st.session_state[PREFIX + "k_from_chart"] = True


def take_k_from_chart() -> bool:
    """True once after a chart click changed K (the page then reruns whole, slider included)."""
    return bool(st.session_state.pop(PREFIX + "k_from_chart", False))
