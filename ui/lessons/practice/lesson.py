"""The Practice lesson: pick a challenge, change its boards, and irlib checks them at once.

State (``ui/shared/page_state.py``), all of it in the page's link, the only place progress is kept:

- ``at`` (``challenge=``): the open challenge and its boards, ``id~order.grades~…``;
- ``solved`` (``solved=``): each challenge the learner solved, with the boards that solved it
  (``id~order.grades_id~…``), so a solved challenge reopens on its solved board after a reload
  or in a new tab;
- ``seen`` (``seen=``): the challenges whose worked answer the learner looked at.

A worked answer is not a solve. Looking at it marks the challenge "answer seen"; a board put
there by "Put this answer on the board" is solved but counts for nothing. The challenge counts
once the check passes on a board the answer did not make: after "Start again", or after the
learner's board has left the goal and come back to it (:func:`_own_board`). Boards of other
challenges the learner started are kept for the session only.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import streamlit as st

from course.challenges import Board, Challenge, Result, challenges
from course.challenges._recommenders import film_boards
from ui.lessons import choosing
from ui.lessons.practice.links import _is_cats, _is_films, at_codec, id_set, solved_codec
from ui.shared import films
from ui.shared import page_state as ps
from ui.shared.board import ranking_board
from ui.shared.catalog import board_items, load_catalog
from ui.shared.course import LESSONS, page_link
from ui.shared.texts import md_escape as md

PREFIX = "pr_"
SOLVED_MARK, SEEN_MARK = "✓ ", "◐ "


@functools.cache
def sources() -> dict[str, Board]:
    """The lessons' starting boards by the names the challenges use (course.challenges); Lesson
    8's users' film lists come from irlib (``films-<name>``)."""
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
    return {**boards, **film_boards()}


@functools.cache
def all_challenges() -> dict[str, Challenge]:
    return challenges(sources())


def _first() -> tuple[str, tuple[Board, ...]]:
    first = next(iter(all_challenges().values()))
    return first.id, first.start


@functools.cache
def page_state() -> ps.PageState:
    table = all_challenges()
    return ps.PageState(PREFIX, [ps.Field("at", _first, at_codec(table), "challenge"),
                                 ps.Field("solved", {}, solved_codec(table)),
                                 ps.Field("seen", [], id_set(table)),
                                 # the presenter view in a link, as the playground's
                                 ps.Field("present", False, ps.switch(on="present",
                                                                      off="learn"), "view")])


def init() -> None:
    page_state().start()


def current() -> tuple[Challenge, tuple[Board, ...]]:
    cid, boards = page_state()["at"]
    return all_challenges()[cid], tuple(boards)


def _memory() -> dict:
    """Boards of challenges opened earlier in this session (not in the link)."""
    return st.session_state.setdefault(PREFIX + "memory", {})


def _left_the_goal() -> set:
    """Seen challenges whose board has not met the goal at some check since their worked answer
    was last put on it (session only)."""
    return st.session_state.setdefault(PREFIX + "left_the_goal", set())


def _own_board(cid: str) -> bool:
    """Whether a board of ``cid`` that meets the goal is the learner's own, so it counts. Once
    the answer was seen, only a board that has left the goal in this session since: a board
    from a link or a reload cannot say where it came from, so it does not count."""
    return cid not in page_state()["seen"] or cid in _left_the_goal()


def _in_course_order(ids) -> list[str]:
    ids = set(ids)
    return [cid for cid in all_challenges() if cid in ids]


def _keep(cid: str, boards) -> None:
    _memory()[cid] = tuple(boards)
    page_state().set("at", (cid, tuple(boards)))


def open_challenge(cid: str) -> None:
    """Switch to ``cid``, with the boards it had in this session, else the boards that solved
    it (from the link), else its start."""
    _keep(*page_state()["at"])
    boards = _memory().get(cid) or page_state().get("solved").get(cid)
    _keep(cid, boards or all_challenges()[cid].start)


def _label(cid: str) -> str:
    """``3. NDCG · One move to a good top three``: the lesson's short name, then the title."""
    c = all_challenges()[cid]
    lesson = LESSONS[c.lesson - 1]
    number, _, name = lesson.title.partition(" ")
    return f"{number} {lesson.short or name.rpartition(': ')[2]} · {c.title}"


def _marked(cid: str, progress: Progress) -> str:
    """The picker's label: ✓ solved, ◐ answer seen (not solved), first, where a phone shows it."""
    # a challenge solved after its answer was seen keeps both marks: "✓ ◐ "
    mark = ((SOLVED_MARK if cid in progress.solved else "")
            + (SEEN_MARK if cid in progress.seen else ""))
    return mark + _label(cid)


def _on_pick() -> None:
    """Open the picked challenge. Only a change from the one the picker showed: when its label
    gains a mark, the browser reports the new label as a change of its own (and "Next
    challenge" may have moved on in the same run)."""
    label = st.session_state[PREFIX + "pick"].removeprefix(SOLVED_MARK).removeprefix(SEEN_MARK)
    picked = next((cid for cid in all_challenges() if _label(cid) == label), None)
    if picked and picked != st.session_state.get(PREFIX + "pick_shown"):
        open_challenge(picked)


def restart() -> None:
    challenge, _ = current()
    _keep(challenge.id, challenge.start)


def _mark_seen(cid: str) -> None:
    page_state().set("seen", _in_course_order({*page_state()["seen"], cid}))


def show_answer() -> None:
    """The learner asked for the worked answer: the challenge is "answer seen" from now on."""
    _mark_seen(current()[0].id)


def apply_answer() -> None:
    """The worked answer onto the board; its panel closes, so the board is in view."""
    challenge, _ = current()
    _mark_seen(challenge.id)
    _left_the_goal().discard(challenge.id)
    _keep(challenge.id, challenge.answer)
    st.session_state[PREFIX + "answer_panel"] = False


def _saver(n: int):
    def save(change: dict) -> None:
        challenge, boards = current()
        boards = list(boards)
        boards[n] = boards[n].with_state(change["order"], change["grades"])
        _keep(challenge.id, boards)
    return save


def check() -> Result:
    """Check the open boards. A board that solves the challenge and did not come from the
    worked answer joins ``solved`` (and the link) with the boards that solved it."""
    challenge, boards = current()
    result = challenge.check(boards)
    if not result.solved:
        _left_the_goal().add(challenge.id)
    elif _own_board(challenge.id):
        s = page_state()
        if s["solved"].get(challenge.id) != boards:
            solved = {**s["solved"], challenge.id: boards}
            s.set("solved", {cid: solved[cid] for cid in _in_course_order(solved)})
    return result


@dataclass(frozen=True)
class Progress:
    """The course's challenges as the learner left them: solved, answer seen (whether solved
    after or not: once seen, always seen, so a progress link shows a solve that followed the
    worked answer), left (neither)."""
    solved: list[str]
    seen: list[str]
    left: list[str]

    @classmethod
    def now(cls) -> Progress:
        s = page_state()
        solved = list(s.get("solved"))
        seen = list(s.get("seen"))
        return cls(solved, seen, [cid for cid in all_challenges()
                                  if cid not in solved and cid not in seen])

    def line(self) -> str:
        after = sum(cid in self.solved for cid in self.seen)
        return (f"✓ **{len(self.solved)} of {len(all_challenges())} solved** · "
                f"◐ {len(self.seen)} answer seen"
                + (f" ({after} of them solved after)" if after else "")
                + f" · {len(self.left)} left")


def _link() -> str:
    """The address of this page as it is now (the one the address bar holds)."""
    base = st.context.url or "/" + LESSONS[-1].url_path
    return f"{base}?{page_state().address()}"


def picker() -> None:
    """The challenges, grouped by lesson (in course order), marked; beside them the progress
    and where it is kept, with the link to copy.

    The options are the labels themselves (no ``format_func``): AppTest reads a selectbox's
    value back through its labels. The open challenge is set as the value on every run, so a
    change from elsewhere ("Next challenge", a restored address) shows in the picker too.
    """
    challenge, _ = current()
    ids = list(all_challenges())
    progress = Progress.now()
    key = PREFIX + "pick"
    st.session_state[key] = _marked(challenge.id, progress)
    st.session_state[PREFIX + "pick_shown"] = challenge.id
    pick, where = st.columns([3, 2], vertical_alignment="bottom")
    pick.selectbox(f"Challenge — {len(progress.solved)} of {len(ids)} solved",
                   [_marked(cid, progress) for cid in ids], key=key, on_change=_on_pick,
                   help="Grouped by lesson. ✓ solved with your own board; ◐ answer seen, "
                        "not solved yet.")
    with where.popover("Progress is kept only in this link: copy it", icon=":material/link:",
                       key=PREFIX + "link", width="stretch"):
        st.markdown("Your progress is saved nowhere else: bookmark this page or keep this link "
                    "(the :material/content_copy: button copies it) to come back to your "
                    "boards and your ✓ and ◐ marks. A reload, Back and Forward keep them too.")
        with st.container(key=PREFIX + "link_body"):     # its copy button shown (a phone)
            st.code(_link(), language=None, wrap_lines=True)
    st.caption(f"{progress.line()}. Only your own board counts as a solve: a look at a worked "
               "answer marks its challenge ◐ until then.")


def items_of(board: Board) -> list[dict]:
    """The board's cards: the cats, the lecture's documents or a user's films."""
    if _is_cats(board):
        return board_items()
    return films.film_items(sorted(board.order)) if _is_films(board) else choosing.board_items()


def boards(present: bool = False) -> None:
    """The challenge's boards, each saving its changes (the check reruns with them); in the
    presenter view (``present``) a single board is large, several normal."""
    challenge, shown = current()
    small = len(shown) > 1
    for n, board in enumerate(shown):
        # each board with its label, close over it (ui/lessons/practice/layout.py)
        with st.container(key=f"{PREFIX}one_board_{n}", gap="xxsmall"):
            if board.label:
                st.markdown(f"**{md(board.label)}**")
            ranking_board(items_of(board), list(board.order), dict(board.grades),
                          mode="binary" if board.top == 1 else "graded",
                          key=f"{PREFIX}board_{challenge.id}_{n}", k=challenge.k,
                          size=("normal" if small else "large") if present
                          else "small" if small else "normal", on_change=_saver(n))


def verdict(result: Result) -> None:
    """The check of the open boards and, once it meets the goal, the way on beside it (a laptop
    keeps the pinned task one button row shorter, so two boards' cards stay over the fold;
    :data:`_STRIP_CSS` pins the check on a phone and puts the way on under the boards); under
    them, what the board counts for."""
    challenge, _ = current()
    progress = Progress.now()
    with st.container(key=PREFIX + "verdict_row", horizontal=True, gap="small",
                      vertical_alignment="center"):
        with st.container(key=PREFIX + "check"):
            if result.solved:
                st.success(md(result.why), icon=":material/check_circle:")
            else:
                st.info(md(result.why), icon=":material/pending:")
        if result.solved:
            way_on(challenge, progress)
    with st.container(key=PREFIX + "after_check", gap="small"):
        if result.solved and not _own_board(challenge.id) and challenge.id not in progress.solved:
            st.caption("◐ This board is the worked answer: it does not count. Start again and "
                       "reach the goal with your own moves to count it.")
        elif challenge.id in progress.seen and challenge.id not in progress.solved:
            st.caption("◐ Answer seen: this challenge counts once your own board reaches the "
                       "goal.")
        elif challenge.id in progress.solved and not result.solved:
            st.caption("✓ You solved this one; the check is for your board as it is now.")
        if result.solved:
            course_done(challenge, progress)


def _next_unsolved(cid: str, progress: Progress) -> str | None:
    """The next challenge in the course's order that is not solved, wrapping round."""
    ids = list(all_challenges())
    at = ids.index(cid)
    return next((c for c in ids[at + 1:] + ids[:at] if c not in progress.solved), None)


def _open_next() -> None:
    challenge, _ = current()
    following = _next_unsolved(challenge.id, Progress.now())
    if following:
        open_challenge(following)


def _last_of_lesson(challenge: Challenge) -> bool:
    ids = list(all_challenges())
    later = ids[ids.index(challenge.id) + 1:]
    return all(all_challenges()[cid].lesson != challenge.lesson for cid in later)


def way_on(challenge: Challenge, progress: Progress) -> None:
    """After a solve, beside the check: the next unsolved challenge and, after a lesson's last
    challenge, the next lesson, one over the other (the check keeps the row's width)."""
    following = _next_unsolved(challenge.id, progress)
    lesson_after = (LESSONS[challenge.lesson]           # LESSONS counts from 0
                    if _last_of_lesson(challenge) and challenge.lesson < len(LESSONS) else None)
    if not (following or lesson_after):
        return
    with st.container(key=PREFIX + "way_on", width="content", gap="xsmall",
                      horizontal_alignment="right"):
        if following:
            st.button(f"Next challenge: {all_challenges()[following].title}",
                      key=PREFIX + "next", on_click=_open_next, type="primary",
                      icon=":material/arrow_forward:")
        if lesson_after:
            page_link(lesson_after, f"Next lesson: {lesson_after.title}")


def course_done(challenge: Challenge, progress: Progress) -> None:
    """After the course's last challenge is solved (or when none is left): what the learner
    has done."""
    last = challenge.id == list(all_challenges())[-1]
    if last or not _next_unsolved(challenge.id, progress):
        st.markdown(("That was the last challenge. " if last else "No challenge is left. ")
                    + f"You have: {progress.line()}.")


def help_panels(challenge: Challenge) -> None:
    """Hint and worked answer, each shown only on request. Popovers, not expanders: under
    the boards an expander opened below a laptop's fold, out of sight. Keyed: an unkeyed popover
    whose content changes (the answer after "Show me the answer") is a new element, and closes.
    The answer's is closed by "Put this answer on the board", so the board is in view. The hint
    is about the board as it is now; the worked answer starts from the start, and looking at it
    marks the challenge "answer seen" (the popover says so before it shows anything)."""
    _, boards = current()
    with st.popover("Show a hint", icon=":material/lightbulb:", key=PREFIX + "hint_panel"):
        st.markdown(md(challenge.hint_for(boards)))
    with st.popover("Show the answer", icon=":material/key:", key=PREFIX + "answer_panel",
                    on_change="rerun"):
        if challenge.id not in page_state()["seen"]:
            st.markdown("Looking at the worked answer marks this challenge ◐ *answer seen*: "
                        "it then counts as solved only once you reach the goal with your own "
                        "board.")
            st.button("Show me the answer", key=PREFIX + "answer", on_click=show_answer,
                      icon=":material/visibility:")
            return
        lines = ["**From the starting board:** " + md(challenge.answer_text)]
        for board in challenge.answer:
            title = {i["id"]: i["title"] for i in items_of(board)}
            lines.append(md(board.label + ": " + ", ".join(f"{title[i]} ({board.grades[i]})"
                                                           for i in board.order)))
        lines.append(md(challenge.check(challenge.answer).why))
        st.markdown("\n\n".join(lines))
        st.button("Put this answer on the board", key=PREFIX + "answer", on_click=apply_answer,
                  icon=":material/done_all:", help="It is not counted as solved: start again "
                                                   "and reach the goal yourself to count it.")
