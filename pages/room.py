"""Class room, teacher's side: open a room, show its code and QR code on the projector, choose
a question and preview it, pose it, watch the tally come in (counts only), reveal the right
answer, close the room.

The room, the teacher's key and what the teacher is choosing live in this page's address
(``?room=…&key=…&ask=…&draw=…``): a refresh or a bookmark keeps the room and shows the same
preview; without the key nobody can run it (``ui/rooms/store.py``). A preview is drawn from a
seed (``draw``), so the address holds the question, and "Ask the class" poses exactly it."""

from ui.shared.course import through_app_navigation

through_app_navigation()   # first, before the slow imports (ui/shared/course.py)

import secrets

import streamlit as st

from ui.lessons.playground import example_data as own_data
from ui.lessons.playground.session import EXAMPLE as PLAYGROUND_EXAMPLE
from ui.rooms import questions as qs
from ui.rooms import screen, shown, view
from ui.rooms.limits import MAX_MEMBERS
from ui.rooms.store import MAX_CHOICE, MAX_CHOICES, MAX_PROMPT, RoomError, check_payload
from ui.shared import page_state as ps
from ui.shared.layout import board_page
from ui.shared.scroll import scroll_to_box

P = "room_"
ANY = "any"                # an option the teacher leaves to chance
#: The answers box holds at most this (room for blank lines and spaces around six answers).
MAX_ANSWERS_TEXT = 4 * MAX_CHOICES * MAX_CHOICE


def new_seed() -> int:
    return secrets.randbelow(1_000_000)


S = ps.PageState(P, [
    ps.Field("code", "", view.link_code_codec(), "room"),
    ps.Field("key", "", view.token_codec("the teacher's key"), "key"),
    # choosing the next question while one is up (with none up, the page always chooses)
    ps.Field("next", False, ps.switch()),
    ps.Field("ask", qs.SURPRISE, ps.one_of((qs.SURPRISE, *qs.KINDS))),
    ps.Field("source", ANY, ps.one_of((ANY, *qs.SOURCES)), "src"),
    ps.Field("metric", ANY, ps.one_of((ANY, *qs.METRICS))),
    ps.Field("k", 0, ps.whole_number(0, max(*qs.DOCUMENTS.values(), own_data.MAX_ITEMS))),
    # on the lecturer's own example from the playground (ui/lessons/playground/example_editor.py), if there is one
    ps.Field("own", False, ps.switch()),
    ps.Field("challenge", ANY, ps.one_of((ANY, *qs.one_board_challenges())), "ch"),
    ps.Field("rec_metric", ANY, ps.one_of((ANY, *qs.REC_METRICS["users"])), "rmetric"),
    ps.Field("negatives", 0, ps.one_of((0, *qs.NEGATIVES)), "n"),           # 0: any
    ps.Field("draw", new_seed, ps.whole_number(0, 999_999)),
    # the teacher's own question, as typed
    ps.Field("prompt", "", view.text_codec(MAX_PROMPT), "q"),
    ps.Field("choices", "", view.text_codec(MAX_ANSWERS_TEXT), "a"),
    ps.Field("correct", 0, ps.whole_number(0, 4 * MAX_CHOICES), "right"),  # 0: none, a poll
])
# A teacher link must give its key once: one that gives it twice is refused (whichever
# of the two a reader or a filter looked at, it was not necessarily the one used).
repeated = P + "key" not in st.session_state and view.repeated_in_link("room", "key")
S.start()
if repeated:
    S.reset("code", "key")
    st.session_state[P + "message"] = (
        f"This teacher link gives {' and '.join(f'`{n}=`' for n in repeated)} more than "
        "once, so it is refused. Use the link shown when the room was opened.")
view.style()
screen.style()
db = view.store()


def act(do) -> None:
    """Run a teacher action; a refusal is kept to show on this run."""
    try:
        do()
    except RoomError as error:
        st.session_state[P + "message"] = str(error)


def open_room() -> None:
    code, secret = db.open_room(view.client_address())
    S.set("code", code)
    S.set("key", secret)


def leave() -> None:
    S.reset("code", "key", "next")


def written() -> bool:
    kind = qs.KINDS.get(S["ask"])
    return bool(kind and kind.written)


def choice() -> tuple:
    """What the preview is made from: the kind, its options, the seed, the typed question and
    the example (the same choice always previews the same question)."""
    return (tuple(S[name] for name in ("ask", "source", "metric", "k", "own", "challenge",
                                       "rec_metric", "negatives", "draw", "prompt", "choices",
                                       "correct")), own_example())


def preview() -> dict:
    """The question the teacher is about to ask: the teacher's own from the form, else drawn
    from the chosen kind, options and seed. "Ask the class" does not call this: it poses the
    question the page last showed (:data:`PREVIEWED`)."""
    if written():
        right = S["correct"]
        return qs.make_question(S["ask"], params={
            "prompt": S["prompt"], "choices": S["choices"],
            "correct": right - 1 if right else None})
    fixed = {"source": S["source"], "metric": S["metric"], "k": S["k"],
             "challenge": S["challenge"], "rec_metric": S["rec_metric"],
             "negatives": S["negatives"], "example": own_example()}
    return qs.draw(S["ask"], S["draw"], {name: value for name, value in fixed.items()
                                          if value not in (ANY, 0)})


def own_example():
    """The playground's own example of this session, if the teacher asked for it (else None:
    the cats)."""
    return st.session_state.get(PLAYGROUND_EXAMPLE) if S["own"] else None


#: The preview as the page last showed it, with the choice it was made from: "Ask the class"
#: poses this very question (no second draw, which a change arriving with the click, or a
#: rerun cut short, could make differ from what the lecturer read).
PREVIEWED = P + "previewed"
ASKED = P + "asked"                 # raised by each question asked: the page scrolls to it


def pose_preview() -> None:
    made_from, question = st.session_state.get(PREVIEWED, (None, None))
    if question is None or made_from != choice():
        # the choice changed with the click (a typed answer, an option): show that preview first
        st.session_state[P + "message"] = (
            "Nothing was asked: the question changed as you clicked *Ask the class*. Check "
            "the preview below, then ask again.")
        return
    db.pose(S["code"], S["key"], question)
    st.session_state[ASKED] = st.session_state.get(ASKED, 0) + 1   # brings the question into view
    st.session_state.pop(PREVIEWED, None)
    S.set("next", False)            # asking closes the chooser (and its right answer)
    S.set("draw", new_seed())       # the next preview is a new question


def redraw() -> None:
    """Another question of the same choice; a few seeds until it differs from the shown one."""
    shown = preview()
    for _ in range(20):
        S.set("draw", new_seed())
        if preview() != shown:
            return


message = st.session_state.pop(P + "message", None)
if not S["code"]:
    st.title("Run a class room")
    st.markdown(
        "Open a room, put its *Projector screen* on the projector (the link and how to set "
        "it up are at the foot of the page once the room is open; this page, with its "
        "preview and right answers, stays yours) and ask the class a question. Students "
        "join on their phones with the code or the QR code and answer once; the projector "
        "shows only how many chose each answer — no names. A room lasts "
        f"{db.lifetime_s / 3600:g} hours, then it and all its answers are deleted.")
    if message:
        st.error(message, icon=":material/block:")
    st.button("Open a room", icon=":material/meeting_room:", key=P + "open",
              on_click=act, args=(open_room,))
    S.keep_address()
    st.stop()

try:
    room = db.teacher(S["code"], S["key"], view.client_address())
except RoomError as error:
    view.refuse("Run a class room", error, "Open a new room", leave, S)

link = view.join_link(room.code)
current = room.current
choosing = current is None or S["next"]
board_page()
left, right = st.columns([2, 3], gap="large")
with left:
    screen.join_panel(room, link)


@st.fragment(run_every=view.TEACHER_POLL_S)
def live_tally() -> None:
    """Counts only; redrawn every poll. A new question or a reveal (from another tab)
    redraws the page."""
    try:
        question, revealed, members = db.status(room.code)
    except RoomError:
        st.rerun()
    if question != (current.id if current else None) or \
            (current is not None and revealed != current.revealed):
        st.rerun()
    door_queue()
    # while the teacher previews the next question, the bars still count the one up: say so
    screen.tally(db, room.code, current, members, previous=choosing, key=P + "tally")


def door_queue() -> None:
    """Students waiting at the door (over the class size, or the room locked): how many, a
    button to let them in, and one to turn them all away. A number much larger than the
    latecomers is a prankster."""
    waiting = db.room(room.code).waiting
    if waiting:
        with st.container(horizontal=True, gap="small", vertical_alignment="center"):
            st.markdown(f"**{waiting} waiting** to be let in")
            st.button("Let one in", key=P + "admit_one", on_click=act,
                      args=(lambda: db.admission(room.code, S["key"], admit=1),))
            if waiting > 1:
                st.button(f"Let all {waiting} in", key=P + "admit_all", on_click=act,
                          args=(lambda: db.admission(room.code, S["key"], admit=waiting),))
            st.button("Turn them away", key=P + "turn_away", type="tertiary", on_click=act,
                      args=(lambda: db.admission(room.code, S["key"], turn_away=True),),
                      help="The waiting are told that you turned them away; the queue is "
                           "free again for latecomers.")


def door() -> None:
    """The class size and the lock. Beyond the size, or while locked, a join waits for the
    teacher (``door_queue``): the tally never counts more students than the teacher let in."""
    def size_changed() -> None:
        act(lambda: db.admission(room.code, S["key"],
                                 class_size=st.session_state[P + "size"] or None))

    def lock_changed() -> None:
        act(lambda: db.admission(room.code, S["key"], locked=st.session_state[P + "lock"]))
    # no count here: the tally beside it says how many joined, live (this label, drawn with
    # the page, read "Door: 0 in" beside "1 joined")
    label = ("Door" + (f": at most {room.class_size}" if room.class_size else "")
             + (" · locked" if room.locked else ""))
    with st.popover(label, icon=":material/group:"):
        st.number_input("Class size (0: no limit)", 0, MAX_MEMBERS, room.class_size or 0,
                        key=P + "size", on_change=size_changed,
                        help="Students beyond it wait until you let them in.")
        st.toggle("Lock the room: newcomers wait for me", room.locked, key=P + "lock",
                  on_change=lock_changed)


def choose_options(kind: qs.Kind) -> None:
    """The options of a drawn kind the teacher may fix, side by side; "any" draws them. Each
    names itself in its box ("Metric: any"): one row, no labels above, on a laptop's screen."""
    def named(name: str, show):
        return lambda value: f"{name}: {show(value)}"
    row = {"label_visibility": "collapsed"}
    example = st.session_state.get(PLAYGROUND_EXAMPLE)
    own = "example" in kind.options and example is not None
    with st.container(horizontal=True, gap="small", key=P + "options"):
        if own:
            st.toggle(f"On your example “{shown.markdown(example.query)}”", **S.bind("own"),
                      help="The example you put on the playground's board, in place of the "
                           "cats.")
        if "source" in kind.options and not (own and S["own"]):
            st.selectbox("Rankings", (ANY, *qs.SOURCES), **S.bind("source"), width=250,
                         format_func=named("Rankings", lambda s: qs.SOURCES.get(s, "any")),
                         **row)
        if "metric" in kind.options:
            st.selectbox("Metric", (ANY, *qs.METRICS), **S.bind("metric"), width=170,
                         format_func=named("Metric", lambda m: qs.METRICS.get(m, "any")), **row)
        if "rec_metric" in kind.options:
            keys = qs.REC_METRICS[kind.key]
            if S["rec_metric"] not in (ANY, *keys):
                S.set("rec_metric", ANY)      # Recall@K, then a sampled question
            shown_k = qs.SAMPLED_K if "negatives" in kind.options else "K"
            st.selectbox("Metric", (ANY, *keys), **S.bind("rec_metric"), width=190,
                         format_func=named("Metric", lambda m: qs.rec_metric_label(m, shown_k)
                                           if m in keys else "any"), **row)
        if "k" in kind.options:
            ks = range(1, len(example.items) + 1) if own and S["own"] else qs.k_choices(
                S["source"] if "source" in kind.options and S["source"] != ANY else None)
            if S["k"] not in ks:
                S.set("k", 0)        # e.g. K = 8, then the lecture's six documents
            st.selectbox("K", (0, *ks), **S.bind("k"), width=100,
                         format_func=named("K", lambda k: str(k) if k else "any"), **row)
        if "negatives" in kind.options:
            st.selectbox("Sampled films", (0, *qs.NEGATIVES), **S.bind("negatives"),
                         width=150, format_func=named("N", lambda n: str(n) if n else "any"),
                         **row)
        if "challenge" in kind.options:
            challenges = qs.one_board_challenges()
            st.selectbox("Challenge", (ANY, *challenges), **S.bind("challenge"),
                         format_func=named("Challenge", lambda c: (
                             f"lesson {challenges[c].lesson}, {challenges[c].title}")
                             if c in challenges else "any"), **row)


def write_question() -> list[str]:
    """The teacher's own question: its text and answers (the answers typed, for the picker)."""
    st.text_area("Question", max_chars=MAX_PROMPT, height=68, **S.bind("prompt"))
    # at most what the address keeps (view.text_codec): a reload keeps every character
    st.text_area(f"Answers, one a line (2 to {MAX_CHOICES})", height=110,
                 max_chars=MAX_ANSWERS_TEXT, **S.bind("choices"))
    answers = qs.written_answers(S["choices"])
    if S["correct"] > len(answers):
        S.set("correct", 0)          # its line was deleted: nothing marked, not a wrong mark
    return answers


def right_answer(question: dict, answers: list[str] | None) -> None:
    """The right answer behind a control closed by default (the page is on the projector).
    For the teacher's own question this is where it is marked: the answers typed, as they are
    now, so a choice that is not an answer cannot be made."""
    marked = question.get("correct") is not None
    with st.popover("Right answer" + ("" if marked else ": none, a poll"),
                    icon=":material/lock:"):
        if answers is not None:
            st.selectbox("The right answer", range(len(answers) + 1), **S.bind("correct"),
                         format_func=lambda n: shown.typed(answers[n - 1]) if n
                         else "none (a poll)")
        elif marked:
            st.markdown(f"**{shown.markdown(view.choice_label(question, question['correct']))}**"
                        f". {shown.markdown(question.get('explanation', ''))}")


def choose() -> None:
    """Choose, preview, then pose: the kind (and its options), the question exactly as the
    projector and the phones will show it, another draw, and only then "Ask the class"."""
    # wrap: seven kinds are wider than the teacher's column on a 1366 x 768 projector
    st.segmented_control("The kind of question", (qs.SURPRISE, *qs.KINDS), **S.bind("ask"),
                         required=True, label_visibility="collapsed", wrap=True,
                         format_func=lambda k: qs.KINDS[k].short if k in qs.KINDS
                         else "Surprise me")
    kind = qs.KINDS.get(S["ask"])
    answers = None
    if kind is not None and kind.written:
        answers = write_question()
    elif kind is not None and kind.options:
        choose_options(kind)
    question = preview()
    st.session_state[PREVIEWED] = (choice(), question)     # what "Ask the class" poses
    with st.container(border=True, gap="small", key=P + "preview"):
        st.markdown('<div class="room-tag">Preview · not asked yet</div>',
                    unsafe_allow_html=True)
        if question.get("prompt"):
            view.question_text(question)
        view.rankings(question)
        if question.get("choices"):
            view.answers_strip(question)
        try:
            check_payload(question)
        except RoomError as problem:
            st.caption(f":material/edit_note: Not ready yet: "
                       f"{shown.markdown(problem.details['problem'])}.")
    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        # no type="primary": white on the dark theme's primary is 2.9:1 (axe, test_rooms.py)
        st.button("Ask the class", icon=":material/send:", key=P + "pose",
                  on_click=act, args=(pose_preview,))
        if not written():
            st.button("Draw another", icon=":material/casino:", key=P + "redraw",
                      on_click=redraw)
        right_answer(question, answers)
        if current is not None:
            st.button("Back to the question", type="tertiary", key=P + "back",
                      on_click=S.set, args=("next", False))


def posed() -> None:
    """The question the room is answering: reveal it, or go on to the next one."""
    screen.stage(current)
    with st.container(horizontal=True, gap="small"):
        if not current.revealed:
            st.button("Reveal the answer", icon=":material/visibility:", key=P + "reveal",
                      on_click=act,
                      args=(lambda: db.reveal(room.code, S["key"], current.id),))
        st.button("Next question", icon=":material/quiz:", key=P + "next_question",
                  on_click=S.set, args=("next", True))


with left:                          # the vote (or who joined) under the code
    live_tally()
with right:
    if message:
        st.error(message, icon=":material/block:")
    if choosing:
        choose()
    else:
        with st.container(key=P + "stage"):
            posed()
        # asked from the preview's foot: the question's top, not the button's place, in view
        scroll_to_box(P + "stage", st.session_state.get(ASKED, 0), key=P + "asked_scroll",
                      align="start")

with st.container(horizontal=True, gap="small"):
    door()
    with st.popover("Projector screen", icon=":material/cast:"):
        screen.setup_help(screen.screen_link(room.code, S["key"]))
    close_box = st.popover("Close the room", icon=":material/door_front:")
with close_box:
    st.markdown("Closing deletes the room, its questions and every answer now. "
                "Students see that the room has closed.")
    st.button("Close it now", key=P + "close",
              on_click=act, args=(lambda: (db.close(room.code, S["key"]), leave()),))
expires = view.time_left(room.expires_at)
st.caption(f"Room {room.code} · closes by itself {expires}. Your address bar holds the "
           "teacher's key: present in full screen (F11) so the class cannot read it.")
S.keep_address()
