"""The Practice lesson: pick a challenge, change its boards, and irlib checks them at once.

State (``ui/page_state.py``): ``challenge`` holds the open challenge and its boards, ``solved``
the ids already solved; both are in the share link
(``?challenge=ndcg-one-move~51234678.04134132&solved=top-three.f1-three-quarters``). Boards
of other challenges the learner started are kept for the session only.
"""
from __future__ import annotations

import functools

import streamlit as st

from irlib.challenges import Board, Challenge, Result, challenges
from ui import choosing
from ui import page_state as ps
from ui.board import ranking_board
from ui.catalog import board_items, load_catalog
from ui.course import LESSONS
from ui.layout import keep_in_view
from ui.texts import md_escape as md

PREFIX = "pr_"
_BOARD_SEP, _PART_SEP, _LIST_SEP = "~", ".", "."


@functools.cache
def sources() -> dict[str, Board]:
    """The lessons' starting boards by the names the challenges use (irlib.challenges)."""
    catalog = load_catalog()

    def query(qid: str, label: str) -> Board:
        q = catalog.queries[qid]
        return Board(q.order, q.grades, 4 if q.scale == "graded" else 1, label)

    boards = {"cats": query("cat-in-a-box", "Cat in a box"),
              "white-cats": query("white-cat-in-a-box", "White cat in a box (grades 0–4)")}
    for n, qid in enumerate(("cat-in-a-box", "white-animal", "dark-cats"), 1):
        boards[f"query{n}"] = query(qid, f"Query {n}: “{catalog.queries[qid].text}”")
    for n in choosing.RANKINGS:
        boards[f"ranking{n}"] = Board(choosing.LECTURE_ORDERS[n], choosing.LECTURE_GRADES, 1,
                                      f"Ranking {n}")
    return boards


@functools.cache
def all_challenges() -> dict[str, Challenge]:
    return challenges(sources())


def _is_cats(board: Board) -> bool:
    return set(board.order) == set(load_catalog().items)


def _board_codecs(board: Board) -> tuple[ps.Codec, ps.Codec]:
    """The order and the judgments of a board of this kind, as the lessons write them."""
    if _is_cats(board):
        ids = list(load_catalog().items)
        return ps.ordering(ids), ps.judgments(ids, board.top)
    return ps.ordering(choosing.DOCS, "".join(choosing.DOCS)), ps.judgments(choosing.DOCS, 1)


def at_codec(table: dict[str, Challenge]) -> ps.Codec:
    """The open challenge and its boards: ``id~order.grades~order.grades``.

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


def _first() -> tuple[str, tuple[Board, ...]]:
    first = next(iter(all_challenges().values()))
    return first.id, first.start


@functools.cache
def page_state() -> ps.PageState:
    table = all_challenges()
    return ps.PageState(PREFIX, [ps.Field("at", _first, at_codec(table), "challenge"),
                                 ps.Field("solved", [], id_set(table))])


def init() -> None:
    page_state().start()


def current() -> tuple[Challenge, tuple[Board, ...]]:
    cid, boards = page_state()["at"]
    return all_challenges()[cid], tuple(boards)


def _memory() -> dict:
    """Boards of challenges opened earlier in this session (not in the link)."""
    return st.session_state.setdefault(PREFIX + "memory", {})


def _keep(cid: str, boards) -> None:
    _memory()[cid] = tuple(boards)
    page_state().set("at", (cid, tuple(boards)))


def open_challenge(cid: str) -> None:
    """Switch to ``cid``, with the boards it had in this session or its start."""
    _keep(*page_state()["at"])
    _keep(cid, _memory().get(cid, all_challenges()[cid].start))


def _on_pick() -> None:
    label = st.session_state[PREFIX + "pick"].removeprefix(_TICK)
    open_challenge(next(cid for cid in all_challenges() if _label(cid) == label))


def restart() -> None:
    challenge, _ = current()
    _keep(challenge.id, challenge.start)


def apply_answer() -> None:
    challenge, _ = current()
    _keep(challenge.id, challenge.answer)


def _saver(n: int):
    def save(change: dict) -> None:
        challenge, boards = current()
        boards = list(boards)
        boards[n] = boards[n].with_state(change["order"], change["grades"])
        _keep(challenge.id, boards)
    return save


def check() -> Result:
    """Check the open boards; a solved challenge joins ``solved`` (and the link)."""
    challenge, boards = current()
    result = challenge.check(boards)
    s = page_state()
    if result.solved and challenge.id not in s["solved"]:
        done = {*s["solved"], challenge.id}
        s.set("solved", [cid for cid in all_challenges() if cid in done])    # course order
    return result


_TICK = "✓ "


def _label(cid: str) -> str:
    """``3. NDCG · One move to a good top three``: the lesson's short name, then the title."""
    c = all_challenges()[cid]
    number, _, name = LESSONS[c.lesson - 1].title.partition(" ")
    return f"{number} {name.rpartition(': ')[2]} · {c.title}"


def picker() -> None:
    """The challenges, grouped by lesson (in course order), solved ones ticked.

    The options are the labels themselves (no ``format_func``): AppTest reads a selectbox's
    value back through its labels. The tick comes first, where a phone still shows it.
    """
    challenge, _ = current()
    ids = list(all_challenges())
    solved = page_state()["solved"]
    labels = [(_TICK if cid in solved else "") + _label(cid) for cid in ids]
    st.selectbox(f"Challenge — {len(solved)} of {len(ids)} solved", labels,
                 index=ids.index(challenge.id), key=PREFIX + "pick", on_change=_on_pick,
                 help="Grouped by lesson; ✓ marks the ones you solved.")


def _items(board: Board) -> list[dict]:
    return board_items() if _is_cats(board) else choosing.board_items()


def boards() -> None:
    """The challenge's boards, each saving its changes (the check reruns with them)."""
    challenge, shown = current()
    small = len(shown) > 1
    for n, board in enumerate(shown):
        if board.label:
            st.markdown(f"**{md(board.label)}**")
        ranking_board(_items(board), list(board.order), dict(board.grades),
                      mode="binary" if board.top == 1 else "graded",
                      key=f"{PREFIX}board_{challenge.id}_{n}", k=challenge.k,
                      size="small" if small else "normal", on_change=_saver(n))


def keep_task_in_view() -> None:
    """On a laptop, the task and its check stay at the top while the boards scroll under them
    (a challenge with three boards is taller than the screen)."""
    keep_in_view(f"{PREFIX}task")


def verdict(result: Result) -> None:
    if result.solved:
        st.success(md(result.why), icon=":material/check_circle:")
    else:
        st.info(md(result.why), icon=":material/pending:")


def help_panels(challenge: Challenge) -> None:
    """Hint and worked answer, each shown only on request. Popovers, not expanders: under
    the boards an expander opened below a laptop's fold, out of sight."""
    _, shown = current()
    with st.popover("Show a hint", icon=":material/lightbulb:"):
        st.markdown(md(challenge.hint_for(shown)))     # about the board as it is now
    with st.popover("Show the answer", icon=":material/key:"):
        st.markdown(md(challenge.answer_text))
        for board in challenge.answer:
            names = _items(board)
            title = {i["id"]: i["title"] for i in names}
            st.caption(md(board.label + ": "
                           + ", ".join(f"{title[i]} ({board.grades[i]})" for i in board.order)))
        st.markdown(md(challenge.check(challenge.answer).why))
        st.button("Put this answer on the board", key=PREFIX + "apply", on_click=apply_answer,
                  icon=":material/done_all:")

