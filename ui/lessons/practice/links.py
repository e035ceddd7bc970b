"""What the Practice page's link holds (``ui/lessons/practice/lesson.py``): the open challenge with its
boards, the solved challenges with the boards that solved them, the challenges whose answer
was seen. Each is a :class:`ui.shared.page_state.Codec`; a board is written as the lessons write it.
"""
from __future__ import annotations

from course.challenges import Board, Challenge
from ui.lessons import choosing
from ui.shared import films
from ui.shared import page_state as ps
from ui.shared.catalog import load_catalog

_BOARD_SEP, _PART_SEP, _LIST_SEP, _SOLVED_SEP = "~", ".", ".", "_"


def _is_cats(board: Board) -> bool:
    return set(board.order) == set(load_catalog().items)


def _is_films(board: Board) -> bool:
    return films.is_film(board.order[0])


def _board_codecs(board: Board) -> tuple[ps.Codec, ps.Codec]:
    """The order and the judgments of a board of this kind, as the lessons write them; a
    user's films by their ids in sorted order (the same whatever the board's order)."""
    if _is_cats(board):
        ids = list(load_catalog().items)
        return ps.ordering(ids), ps.judgments(ids, board.top)
    if _is_films(board):
        ids = sorted(board.order)
        return ps.ordering(ids), ps.judgments(ids, 1)
    return ps.ordering(choosing.DOCS, "".join(choosing.DOCS)), ps.judgments(choosing.DOCS, 1)


def at_codec(table: dict[str, Challenge]) -> ps.Codec:
    """The open challenge and its boards: ``id~order.grades~order.grades``.

    >>> from ui.lessons.practice.lesson import all_challenges
    >>> c = at_codec(all_challenges())
    >>> value = c.parse("f1-three-quarters~23456781.01011010")
    >>> value[0], value[1][0].order[0], c.encode(value)
    ('f1-three-quarters', 'white-cat-box', 'f1-three-quarters~23456781.01011010')
    """
    def parse(text: str):
        cid, *parts = text.split(_BOARD_SEP)
        if cid not in table or len(parts) != len(table[cid].start):
            raise ValueError(text)
        boards = []
        for start, part in zip(table[cid].start, parts):
            order_text, _, grades_text = part.partition(_PART_SEP)
            order, grades = _board_codecs(start)
            boards.append(start.with_state(order.parse(order_text), grades.parse(grades_text)))
        return cid, tuple(boards)

    def encode(value) -> str:
        cid, boards = value
        texts = []
        for board in boards:
            order, grades = _board_codecs(board)
            texts.append(order.encode(board.order) + _PART_SEP + grades.encode(board.grades))
        return _BOARD_SEP.join([cid, *texts])
    return ps.Codec(parse, encode, "a challenge and its boards")


def solved_codec(table: dict[str, Challenge]) -> ps.Codec:
    """The solved challenges, each with the boards that solved it, in the course's order:
    ``at_codec`` entries joined by ``_``. A link written before the boards were kept (ids
    joined by ``.``) still reads; its challenges are solved with boards unknown (None).

    >>> from ui.lessons.practice.lesson import all_challenges
    >>> c = solved_codec(all_challenges())
    >>> value = c.parse("f1-three-quarters~23456781.01011010_top-three")
    >>> list(value), value["top-three"], c.encode(value)
    (['top-three', 'f1-three-quarters'], None, 'top-three_f1-three-quarters~23456781.01011010')
    >>> list(c.parse("top-three.mrr-one"))
    ['top-three', 'mrr-one']
    """
    entry = at_codec(table)

    def parse(text: str) -> dict:
        found = {}
        for part in filter(None, text.split(_SOLVED_SEP if _BOARD_SEP in text else _LIST_SEP)):
            if _BOARD_SEP in part:
                cid, boards = entry.parse(part)
            elif part in table:
                cid, boards = part, None
            else:
                raise ValueError(text)
            found[cid] = boards
        return {cid: found[cid] for cid in table if cid in found}

    def encode(value: dict) -> str:
        return _SOLVED_SEP.join(cid if value[cid] is None else entry.encode((cid, value[cid]))
                                for cid in table if cid in value)
    return ps.Codec(parse, encode, "challenge names, each with its boards")


def id_set(ids) -> ps.Codec:
    """A set of challenge ids, written ``a.b`` in the course's order (empty: none).

    >>> c = id_set(["x", "y", "z"])
    >>> c.parse("z.x"), c.encode(("z", "x")), c.parse("")
    (['x', 'z'], 'x.z', [])
    """
    ids = list(ids)

    def parse(text: str) -> list:
        chosen = set(filter(None, text.split(_LIST_SEP)))
        if chosen - set(ids):
            raise ValueError(text)
        return [i for i in ids if i in chosen]
    return ps.Codec(parse, lambda value: _LIST_SEP.join(i for i in ids if i in set(value)),
                    "challenge names separated by dots")
