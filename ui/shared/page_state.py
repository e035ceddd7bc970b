"""Page state that survives navigation and lives in the address bar: one mechanism, every page.

Each page declares its state once, as :class:`Field` s (a session-state key, a default and a
URL codec), in a :class:`PageState`. Three rules make "moving around loses nothing" hold:

1. **Seeded once.** On the session's first run of a page, every field missing from
   ``st.session_state`` is read from the URL (a shared link) or gets its default. A bad
   parameter keeps its default, and the page shows one notice naming every bad one.
2. **Kept for the session.** Streamlit deletes a widget's key at the end of any run that did
   not draw the widget — every run of another page. So a widget bound to a field is drawn
   with ``**state.bind(name)``: the field's key plus ``persist_state="session"``, Streamlit's
   own way of keeping a widget's value across page switches. Fields no widget owns (board
   orders and judgments) are plain session-state keys, which Streamlit never deletes.
3. **Written back.** Every run puts the whole state into the address bar
   (:meth:`PageState.keep_address`, ``history.replaceState``), so the address is always a
   link to what the page shows and Back/Forward step through pages, not through drags.

The URL is read only while seeding: Streamlit's copy of it goes stale once the browser
rewrites the address bar, and a later run must not take an old link's values.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlencode

import streamlit as st


# --------------------------------------------------------------------------- codecs

@dataclass(frozen=True)
class Codec:
    """How a value travels in a URL. ``parse`` raises ValueError for a text it cannot read."""
    parse: Callable[[str], Any]
    encode: Callable[[Any], str]
    expected: str = "valid"


def whole_number(low: int, high: int) -> Codec:
    """An int from ``low`` to ``high``, written in decimal digits.

    >>> c = whole_number(1, 8)
    >>> c.parse("3"), c.encode(3)
    (3, '3')
    """
    def parse(text: str) -> int:
        if not re.fullmatch(r"[0-9]{1,6}", text) or not low <= int(text) <= high:
            raise ValueError(text)
        return int(text)
    return Codec(parse, str, f"a whole number from {low} to {high}")


def one_of(options: Sequence, *, labels: Mapping | None = None) -> Codec:
    """One of ``options`` (written as ``str(option)``; read back as the option itself).

    >>> one_of((1, 2, 3)).parse("2")
    2
    """
    by_text = {str(o): o for o in options}

    def parse(text: str):
        if text not in by_text:
            raise ValueError(text)
        return by_text[text]
    return Codec(parse, str, "one of " + ", ".join(by_text))


def switch(on: str = "1", off: str = "0") -> Codec:
    """A bool as ``1`` / ``0`` (or two words).

    >>> switch().parse("0"), switch().encode(True), switch("present", "learn").parse("present")
    (False, '1', True)
    """
    def parse(text: str) -> bool:
        if text not in (on, off):
            raise ValueError(text)
        return text == on
    return Codec(parse, lambda v: on if v else off, f"{on} or {off}")


def ordering(ids: Sequence[str], symbols: str | None = None) -> Codec:
    """An order of ``ids`` (rank 1 first), one symbol per item (``"1"``–``"8"`` by default).

    >>> c = ordering(["a", "b", "c"])
    >>> c.parse("312"), c.encode(["c", "a", "b"])
    (['c', 'a', 'b'], '312')
    """
    ids = list(ids)
    symbols = symbols or "123456789"[:len(ids)]
    by_symbol = dict(zip(symbols, ids))
    symbol_of = dict(zip(ids, symbols))

    def parse(text: str) -> list[str]:
        if len(text) != len(ids) or sorted(text) != sorted(symbols):
            raise ValueError(text)
        return [by_symbol[s] for s in text]
    return Codec(parse, lambda order: "".join(symbol_of[i] for i in order),
                 f"an ordering of {symbols}")


def judgments(ids: Sequence[str], top: int) -> Codec:
    """A grade 0..``top`` per item, one digit each, in ``ids`` order.

    >>> c = judgments(["a", "b"], 1)
    >>> c.parse("10"), c.encode({"a": 0, "b": 1})
    ({'a': 1, 'b': 0}, '01')
    """
    ids = list(ids)
    allowed = "0123456789"[:top + 1]

    def parse(text: str) -> dict[str, int]:
        if len(text) != len(ids) or any(c not in allowed for c in text):
            raise ValueError(text)
        return {i: int(c) for i, c in zip(ids, text)}
    return Codec(parse, lambda grades: "".join(str(int(grades.get(i, 0))) for i in ids),
                 f"{len(ids)} digits from 0 to {top}")


# --------------------------------------------------------------------------- fields and state

@dataclass(frozen=True)
class Field:
    """One piece of a page's state: ``st.session_state[prefix + name]``, URL ``param``."""
    name: str
    default: Any                     # a value, or a zero-argument callable for a fresh one
    codec: Codec
    param: str | None = None         # URL parameter; the name when None

    @property
    def url_name(self) -> str:
        return self.param or self.name

    def fresh_default(self) -> Any:
        return self.default() if callable(self.default) else _copy(self.default)


_UNSET = object()    # a field not in the session yet (PageState.query)


def _copy(value):
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, (list, tuple)) and not isinstance(value, str):
        return list(value)
    return value


@dataclass
class PageState:
    """A page's fields under one key prefix (``"nd_"`` → ``st.session_state["nd_k"]``)."""
    prefix: str
    fields: Sequence[Field]
    _by_name: dict[str, Field] = field(init=False, repr=False)

    def __post_init__(self):
        self._by_name = {f.name: f for f in self.fields}
        params = [f.url_name for f in self.fields]
        if len(set(params)) != len(params):
            raise ValueError(f"two fields share a URL parameter: {params}")

    def key(self, name: str) -> str:
        self._by_name[name]          # KeyError for a typo
        return self.prefix + name

    def start(self, params: Mapping[str, str] | None = None) -> None:
        """Seed the fields missing from the session (from ``params``, default the URL) and
        show the link notice while the page still shows what the link asked for."""
        ss = st.session_state
        missing = [f for f in self.fields if self.prefix + f.name not in ss]
        if missing:
            if params is None:
                params = st.query_params.to_dict()
            if len(missing) == len(self.fields) and not any(
                    f.url_name in params for f in self.fields):
                # a bare address (a sidebar link after a reload): the tab may know better
                from ui.shared.address import restore_from_tab
                restore_from_tab(self.prefix + "kept_address", self.restore)
            bad = []
            for f in missing:
                value = f.fresh_default()
                if f.url_name in params:
                    try:
                        value = f.codec.parse(str(params[f.url_name]))
                    except ValueError:
                        bad.append(f)
                ss[self.prefix + f.name] = value
            if bad:
                ss[self.prefix + "_notice"] = (link_notice(bad), self.query())
        notice = ss.get(self.prefix + "_notice")
        if notice:
            text, seeded = notice
            if self.query() == seeded:       # until the learner changes something
                st.info(text, icon=":material/link:")
            else:
                del ss[self.prefix + "_notice"]

    def from_link(self, params: Mapping[str, str]) -> dict[str, Any]:
        """The values ``params`` gives, read by the fields' codecs; a bad one is left out."""
        found = {}
        for f in self.fields:
            if f.url_name in params:
                try:
                    found[f.name] = f.codec.parse(str(params[f.url_name]))
                except ValueError:
                    pass
        return found

    def restore(self, query: str) -> None:
        """Take the fields a kept address gives (``"k=5&mode=graded"``); a bad one keeps its
        value. The page's own rules still apply to what it shows (e.g. K within the board)."""
        params = {name: values[0] for name, values in parse_qs(query).items()}
        for name, value in self.from_link(params).items():
            self.set(name, value)

    def __getitem__(self, name: str) -> Any:
        return st.session_state[self.key(name)]

    def get(self, name: str) -> Any:
        """The value, or the default when the page has not been seeded (e.g. in a callback)."""
        return st.session_state.get(self.key(name), self._by_name[name].fresh_default())

    def set(self, name: str, value: Any) -> None:
        """Change a field (in a callback, or in the script before its widget is drawn)."""
        st.session_state[self.key(name)] = value

    def reset(self, *names: str) -> None:
        """Back to the defaults: the named fields, or every field."""
        for name in names or self._by_name:
            self.set(name, self._by_name[name].fresh_default())

    def bind(self, name: str) -> dict:
        """Keyword arguments that bind a Streamlit widget to a field for the whole session."""
        return {"key": self.key(name), "persist_state": "session"}

    def board_saver(self, order: str, grades: str) -> Callable[[dict], None]:
        """The ``on_change`` of a ranking board (``ui.shared.board``) kept in two fields."""
        def _save(change: dict) -> None:
            self.set(order, list(change["order"]))
            self.set(grades, {i: int(g) for i, g in change["grades"].items()})
        return _save

    def ranked(self, order: str, grades: str) -> tuple[list[str], dict[str, int], list[int]]:
        """A board's (order, judgments by item, grades in rank order)."""
        shown, judged = list(self[order]), dict(self[grades])
        return shown, judged, [int(judged.get(i, 0)) for i in shown]

    def tabs(self, name: str, labels: Sequence[str]):
        """``st.tabs`` that opens on the field's tab and keeps the learner's choice in it."""
        widget = self.key(name) + "_tabs"
        return st.tabs(list(labels), key=widget, default=self[name],
                       on_change=lambda: self.set(name, st.session_state[widget]))

    def values(self) -> dict[str, Any]:
        """Every field's value (its default where the page has not been seeded): one read of
        the session's state per field, each of which costs a lock and a lookup. A run that
        needs several fields and the address reads them here once."""
        ss = st.session_state
        found = {f.name: ss.get(self.prefix + f.name, _UNSET) for f in self.fields}
        return {name: self._by_name[name].fresh_default() if v is _UNSET else v
                for name, v in found.items()}

    def query(self, values: Mapping[str, Any] | None = None) -> dict[str, str]:
        """The whole state as URL parameters (from :meth:`values`, read now if not given)."""
        values = self.values() if values is None else values
        return {f.url_name: f.codec.encode(values[f.name]) for f in self.fields}

    def address(self, values: Mapping[str, Any] | None = None) -> str:
        """The query string of a link that reopens this page as it is now."""
        return urlencode(self.query(values))

    def keep_address(self) -> None:
        """Keep the browser's address bar at :meth:`address` (see ``ui/shared/address.py``)."""
        from ui.shared.address import keep_address
        keep_address(self.address())


def link_notice(bad: Sequence[Field]) -> str:
    """One notice for every parameter of a link that could not be read.

    The values themselves are not echoed: notices are Markdown, and a link could inject one.
    """
    names = ", ".join(f"`{f.url_name}`" for f in bad)
    if len(bad) == 1:
        return (f"This link's {names} could not be read (expected {bad[0].codec.expected}); "
                "its default is shown instead.")
    return (f"This link's {names} could not be read; their defaults are shown instead. "
            "Everything else comes from the link.")
