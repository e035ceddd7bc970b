"""One ranking board's state, shared by every board page: its fields, keys, save and reset.

A board is two fields of a page's :class:`~ui.shared.page_state.PageState`: the order (item ids, rank
1 first) and the judgments (grade per item id). :func:`board_fields` declares them from a
catalog query (defaults, URL codecs: ``order1``/``labels1`` …); :class:`BoardState` gives the
board's ``on_change`` callback, its ranked grades and a reset.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ui.shared import page_state as ps
from ui.shared.catalog import load_catalog


def order_key(prefix: str, query_id: str | None = None) -> str:
    """The session key of a board's order: ``mm_order_dark-cats``, ``nd_order``."""
    return f"{prefix}order" + (f"_{query_id}" if query_id else "")


def grades_key(prefix: str, query_id: str | None = None) -> str:
    """The session key of a board's judgments."""
    return f"{prefix}grades" + (f"_{query_id}" if query_id else "")


def board_fields(query_id: str, suffix: str | None, number: str = "") -> list[ps.Field]:
    """The order and judgments of one board, defaulting to the catalog's query.

    ``suffix`` tells a page's boards apart in the session (``order_dark-cats``); ``number``
    in the URL (``order3``, ``labels3``). Binary queries travel as ``labels``, graded as
    ``grades``.
    """
    catalog = load_catalog()
    ids, query = list(catalog.items), catalog.queries[query_id]
    tail = f"_{suffix}" if suffix else ""
    top = max(1, *query.grades.values())
    return [ps.Field("order" + tail, tuple(query.order), ps.ordering(ids), f"order{number}"),
            ps.Field("grades" + tail, dict(query.grades), ps.judgments(ids, 1 if top == 1 else 4),
                     f"labels{number}" if top == 1 else f"grades{number}")]


@dataclass(frozen=True)
class BoardState:
    """The board kept in ``state``'s fields ``order<tail>`` and ``grades<tail>``."""
    state: ps.PageState
    suffix: str | None = None

    @property
    def names(self) -> tuple[str, str]:
        tail = f"_{self.suffix}" if self.suffix else ""
        return "order" + tail, "grades" + tail

    @property
    def save(self) -> Callable[[dict], None]:
        """The board's ``on_change``: the new order and judgments into the two fields."""
        return self.state.board_saver(*self.names)

    def ranked(self) -> tuple[list[str], dict[str, int], list[int]]:
        """(order, judgments by item, grades in rank order)."""
        return self.state.ranked(*self.names)

    def reset(self) -> None:
        """Back to the board's defaults (the sources' order and judgments)."""
        self.state.reset(*self.names)
