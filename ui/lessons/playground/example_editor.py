"""The playground's "Your own example": a lecturer's query and results in place of the cats.

One popover beside the board's buttons holds it all: a table typed in the browser and sent
whole (grade 0-4, title, optional picture: :mod:`ui.lessons.playground.example_table`), a CSV or JSON file to load (templates to download), pictures to upload,
the example saved as one JSON file, and "Back to the cats". The rules and file formats live in
:mod:`ui.lessons.playground.example_data` (no Streamlit), picture checks in :mod:`ui.lessons.playground.example_pictures`; this module moves the
example onto the board (:mod:`ui.lessons.playground.session` keeps it in the session and the link) and keeps
the board unchanged when an input is refused, with the reason shown.

Nothing is stored on the server beyond the session: uploads are read, checked and dropped.
"""
from __future__ import annotations

import uuid
from urllib.parse import urlencode

import pandas as pd
import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from course.challenges import Board
from ui.lessons.playground import example_data as own_data
from ui.lessons.playground import example_goal as own_goal
from ui.lessons.playground import session as pg
from ui.lessons.playground.example_pictures import MAX_BYTES, check_picture
from ui.lessons.playground.example_table import own_table
from ui.shared.address import push_address
from ui.shared.downloads import csv_bytes
from ui.shared.scroll import scroll_to_box
from ui.shared.texts import md_escape

P = pg.PREFIX
KEPT = pg.CATS_KEPT
ERROR = P + "own_error"           # the last refused input's message, shown in the popover
ERROR_TOKEN = P + "own_error_token"   # raised by each refusal: its message scrolls into view
POPOVER = P + "own_open"          # the popover's open state (pages/playground.py draws it)
DRAFT = P + "own_draft"           # (query, rows, version): what the table starts from
POOL = P + "own_pictures"         # picture name -> checked, re-encoded data URI
TABLE = P + "own_table"           # the table (ui/lessons/playground/example_table.py)
_BOARD = ("order", "labels", "grades")
HISTORY_STEP = P + "own_step"     # (address left, token): a switch for the Back button
MAX_PICTURE_MB = MAX_BYTES // 2**20


# --------------------------------------------------------------------------- moving examples

def use(example: own_data.OwnExample, *, step: bool = True) -> None:
    """Put ``example`` on the board, in its own order with its own grades (the cats' board is
    kept for "Back to the cats"). From the cats, a ``step`` of the browser's Back button."""
    ss = st.session_state
    shown = pg.own_example()
    if shown is None:
        if step:
            _history_step()
        s = pg.page_state()
        ss[KEPT] = {name: s[name] for name in (*_BOARD, "mode")}
    ss[pg.EXAMPLE] = example
    # Its grades' kind decides the mode (0-4: graded, 0/1: binary) when it comes in place of the
    # cats or of an example of the other kind; an edit of the example keeps the one chosen.
    mode = pg.defaults_of(example).mode
    _fit_board(None if shown is not None and pg.defaults_of(shown).mode == mode
               else {"mode": mode})
    ss[ERROR] = None
    # The popover closes on the board it changed, so the lecturer sees the example at once;
    # reopened, it holds the table as shown, the link's note and the goal. (A callback: this
    # runs before the popover is drawn.)
    ss[POPOVER] = False


def back_to_cats(*, step: bool = True) -> None:
    """The cats again, as they were left (never seen in this session: as the sources have
    them, in binary mode); a ``step`` of the browser's Back button."""
    ss = st.session_state
    if step and pg.own_example() is not None:
        _history_step()
    kept = ss.pop(KEPT, None) or {"mode": pg.defaults_of(None).mode}
    ss[pg.EXAMPLE] = None
    _fit_board(kept)
    ss[POPOVER] = False         # closed on the board it changed, as use() does


def _fit_board(kept: dict | None = None) -> None:
    s = pg.page_state()
    s.reset(*_BOARD)
    for name, value in (kept or {}).items():
        s.set(name, value)
    s.set("k", min(int(s["k"]), len(pg.item_ids())))


# --------------------------------------------------------------------------- Back and Forward
# The cats and an own example are two boards, not two states of one: switching between them
# is a step of the browser's Back button (a drag or an edit of the example is not; it only
# rewrites the address, ui/shared/address.py).

def _history_step() -> None:
    """In a callback, before the switch: the address left, kept for :func:`push_step`."""
    st.session_state[HISTORY_STEP] = (pg.address(), uuid.uuid4().hex)


def push_step() -> None:
    """After a switch between the cats and an own example: the address before it stays an entry
    of the browser's history, the new one is the next (call once per full run)."""
    step = st.session_state.pop(HISTORY_STEP, None)
    if step is not None and step[0] != pg.address():     # an example too long for a link: none
        push_address(step[0], pg.address(), step[1], key=P + "own_history")


def follow_history() -> None:
    """Back or Forward onto an address of this page that holds another board than the one
    shown (Streamlit reruns the page with that address's query, marked as history
    navigation): the board takes it, the cats or the own example in the address, as that
    address left them. Call after ``pg.init()``.

    Only then: on any other run Streamlit's query is the page's arrival's, or the address
    bar's as this page last rewrote it (ui/shared/page_state.py), not a request.
    """
    ctx = get_script_run_ctx()
    if ctx is None or not getattr(ctx, "is_history_navigation", False):
        return
    params = st.query_params.to_dict()
    if "order" not in params:            # a bare address: the board as this session left it
        return
    shown, text = pg.own_example(), params.get("ex")
    if text is None:
        if shown is None:
            return
        back_to_cats(step=False)
    else:
        try:
            example = own_data.from_link(text)
        except own_data.ExampleError:
            return
        if shown is not None and example.key == shown.key:
            return
        use(example, step=False)
        _set_draft(example)
    s = pg.page_state()
    s.start(params)
    s.restore(urlencode(params))


def refuse(message: str) -> None:
    """Keep the board, say why (shown in the popover until the next good input, scrolled
    into view: the popover is taller than a laptop's screen once the table is long)."""
    st.session_state[ERROR] = message
    st.session_state[ERROR_TOKEN] = st.session_state.get(ERROR_TOKEN, 0) + 1


def board_items(example: own_data.OwnExample) -> list[dict]:
    """The example's cards as the ranking board wants them (``ui.shared.board``): the title is text
    (the board sets it with ``textContent``), the picture a re-encoded data URI or ``""``."""
    return [{"id": i, "title": item.title, "image": item.picture, "alt": item.title}
            for i, item in zip(example.ids, example.items)]


# --------------------------------------------------------------------------- the table

def _draft() -> tuple[str, list[dict], int]:
    ss = st.session_state
    if DRAFT not in ss:
        example = pg.own_example() or own_data.TEMPLATE
        ss[DRAFT] = (example.query, own_data.table_rows(example), 0)
    return ss[DRAFT]


def _set_draft(example: own_data.OwnExample) -> None:
    _, _, version = _draft()
    st.session_state[DRAFT] = (example.query, own_data.table_rows(example), version + 1)


def _pool() -> dict[str, str]:
    return st.session_state.setdefault(POOL, {})


def _apply_table(query: str, rows: list[dict]) -> None:
    """The table's "Show on the board" (a callback, before the script): the example as sent,
    or the reason not; what the browser shows stays as typed either way."""
    try:
        example = own_data.build_example(query, rows, pictures=_pool())
    except own_data.ExampleError as exc:
        refuse(str(exc))
        return
    _, _, version = _draft()
    st.session_state[DRAFT] = (example.query, own_data.table_rows(example), version)
    use(example)


def _load_file() -> None:
    """The file uploader's callback: a CSV or JSON example onto the board, or the reason not."""
    upload = st.session_state.get(P + "own_file")
    if upload is None:
        return
    data, name = upload.getvalue(), upload.name
    try:
        if name.lower().endswith(".json"):
            example = own_data.read_json(data, check_picture)
            _pool().update({i.picture_name: i.picture for i in example.items if i.picture})
        else:
            query, rows = own_data.read_csv(data)
            example = own_data.build_example(query, rows, where="line", pictures=_pool())
    except own_data.ExampleError as exc:
        refuse(f"{name}:\n{exc}")
        return
    _set_draft(example)
    use(example)


def _add_pictures() -> None:
    """The pictures uploader's callback: each file checked by content and re-encoded."""
    problems = []
    for upload in st.session_state.get(P + "own_picture_files") or []:
        try:
            _pool()[upload.name] = check_picture(upload.getvalue())
        except ValueError as exc:
            problems.append(f"{upload.name}: {exc}")
    if problems:
        refuse("\n".join(problems))
    else:
        st.session_state.pop(ERROR, None)


def _error_text(message: str) -> str:
    lines = [md_escape(line) for line in message.splitlines()]
    return ("Not used; the board keeps what it showed.  \n" + "  \n".join(lines))


# --------------------------------------------------------------------------- the popover

#: A phone pins the tiles' numbers to the foot of the screen (ui/shared/live_chart/live_chart.css,
#: .lc-strip); the popover reaches down there, and the strip's cut numbers showed around its
#: last lines ("Back to the cats", a lecturer's walk). While it is open, the board it covers
#: needs no numbers: the strip goes, and the page's scrolling area reaches the foot again.
_PHONE_CSS = """<style>@media (max-width: 640px) {
  body:has([data-testid="stPopoverBody"]) .lc-root .lc-strip { display: none !important; }
  body:has([data-testid="stPopoverBody"]) [data-testid="stMain"] { bottom: 0 !important; }
}</style>"""


def panel() -> None:
    """The popover's content (call inside ``st.popover``)."""
    st.html(_PHONE_CSS)
    example = pg.own_example()
    query, rows, version = _draft()
    st.markdown("**Your own example**: a query and 3 to 12 results in your system's order, "
                "each a title (a card) with a grade 0–4 and, if you like, a picture.")
    # The table holds every edit in the browser and sends them all with its button
    # (ui/lessons/playground/example_table.py; issue 44: st.data_editor lost quick edits).
    own_table(query, rows, version=version, pictures=sorted(_pool()), key=TABLE,
              max_rows=own_data.MAX_ITEMS, max_query=own_data.MAX_QUERY,
              on_apply=_apply_table)
    if example is not None:
        st.button("Back to the cats", key=P + "own_cats", on_click=back_to_cats)
    message = st.session_state.get(ERROR)
    if message:
        with st.container(key=P + "own_error_box"):
            st.error(_error_text(message), icon=":material/block:")
        scroll_to_box(P + "own_error_box", st.session_state.get(ERROR_TOKEN, 0),
                      key=P + "own_error_scroll")
    st.file_uploader("Pictures for the table's Picture column",
                     type=["png", "jpg", "jpeg", "webp", "gif"], accept_multiple_files=True,
                     max_upload_size=MAX_PICTURE_MB,
                     key=P + "own_picture_files", on_change=_add_pictures)
    st.file_uploader("Or load a whole example: CSV or JSON", type=["csv", "json"],
                     max_upload_size=own_data.MAX_FILE_BYTES // 2**20,
                     key=P + "own_file", on_change=_load_file,
                     help="CSV: a header `title,grade` (optionally `picture`, `query`), then "
                          "one result per line, rank 1 first. JSON: as the template, pictures "
                          "inside. The format: docs/own_example.md.")
    with st.container(horizontal=True, gap="small"):
        st.download_button("Template (CSV)", _template_csv(), "own-example-template.csv",
                           "text/csv", key=P + "own_tpl_csv", icon=":material/download:")
        st.download_button("Template (JSON)", own_data.to_json(own_data.TEMPLATE),
                           "own-example-template.json", "application/json",
                           key=P + "own_tpl_json", icon=":material/download:")
        if example is not None:
            st.download_button("Save this example (JSON, pictures inside)",
                               own_data.to_json(example), "own-example.json",
                               "application/json", key=P + "own_save",
                               icon=":material/save:")
    if example is not None:
        st.caption(link_note(example))
        s = pg.page_state()
        start, _ = goal_boards()
        own_goal.editor(len(example.items), s["goal"], start, rel=_rel(), gain=s["gain"],
                        on_set=lambda goal: s.set("goal", goal))


def _rel() -> int:
    s = pg.page_state()
    return int(s["rel"]) if s["mode"] == "graded" else 1


def goal_boards(order=None, judgments=None):
    """(start, board) as irlib's challenges take them: the example's own order and judgments
    in the board's mode, and the board as shown (``order``/``judgments``, default the state)."""
    state, start = pg.current(), pg.defaults()
    top = 1 if state.mode == "binary" else 4
    first = start.labels if state.mode == "binary" else start.grades
    return (Board(start.order, first, top),
            Board(tuple(order or state.order), dict(judgments or state.current_grades()), top))


def has_goal() -> bool:
    """Whether the lecturer set a goal (:func:`show_goal` draws it)."""
    return pg.own_example() is not None and pg.page_state()["goal"] is not None


def show_goal(order, judgments) -> None:
    """The goal's line above the numbers, if the lecturer set one (call in the live part)."""
    s = pg.page_state()
    goal = s["goal"] if pg.own_example() is not None else None
    if goal is not None:
        start, board = goal_boards(order, judgments)
        own_goal.show(goal, start, board, rel=_rel(), gain=s["gain"])


def _template_csv() -> bytes:
    table = pd.DataFrame(own_data.table_rows(own_data.TEMPLATE))
    table.insert(0, "query", [own_data.TEMPLATE.query] + [""] * (len(table) - 1))
    return csv_bytes(table)


def link_note(example: own_data.OwnExample) -> str:
    """What the page's link carries of ``example`` (a sentence for under the buttons)."""
    size = len(own_data.link_text(example))
    if size > own_data.LINK_LIMIT:
        return (f"Too long for a link ({size:,} characters; the limit is "
                f"{own_data.LINK_LIMIT:,}): the address bar keeps the cats. Save the file to "
                "share this example.")
    text = (f"The address bar carries this example ({size:,} of at most "
            f"{own_data.LINK_LIMIT:,} characters): copy it to share the board.")
    if example.has_pictures:
        text += " Pictures do not travel in a link: save the file to share them."
    return text
