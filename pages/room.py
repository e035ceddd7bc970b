"""Class room, teacher's side: open a room, show its code and QR code on the projector, pose
questions, watch the tally come in (counts only), reveal the right answer, close the room.

The room and the teacher's key live in this page's address (``?room=…&key=…``): a refresh or a
bookmark keeps the room; without the key nobody can run it (``ui/rooms/store.py``)."""
import functools

import streamlit as st

from ui import page_state as ps
from ui.course import through_app_navigation
from ui.layout import board_page
from ui.rooms import questions as qs
from ui.rooms import view
from ui.rooms.qr import qr_png
from ui.rooms.store import MAX_CHOICES, MAX_PROMPT, RoomError

through_app_navigation()   # first: a deep link on a fresh server (ui/course.py)

P = "room_"
S = ps.PageState(P, [ps.Field("code", "", view.code_codec(), "room"),
                     ps.Field("key", "", view.token_codec("the teacher's key"), "key")])
S.start()
view.style()
db = view.store()


def act(do) -> None:
    """Run a teacher action; a refusal is kept to show on this run."""
    try:
        do()
    except RoomError as error:
        st.session_state[P + "message"] = str(error)


def open_room() -> None:
    code, secret = db.open_room(view.session_id())
    S.set("code", code)
    S.set("key", secret)


def leave() -> None:
    S.reset()


def pose(kind: str, params: dict | None = None) -> None:
    db.pose(S["code"], S["key"], qs.make_question(kind, params=params))


message = st.session_state.pop(P + "message", None)
if not S["code"]:
    st.title("Run a class room")
    st.markdown(
        "Open a room, put this page on the projector and ask the class a question. Students "
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
    room = db.teacher(S["code"], S["key"])
except RoomError as error:
    view.refuse("Run a class room", error, "Open a new room", leave, S)

link = view.join_link(room.code)
board_page()
left, right = st.columns([2, 3], gap="large")
with left:
    st.markdown(f'<div class="room-link">Join on your phone: '
                f'<span class="room-url">{view.link_html(link)}</span></div>'
                f'<div class="room-code" aria-label="Room code">{room.code}</div>',
                unsafe_allow_html=True)
    # once a question is up, a smaller QR (latecomers) leaves room for the tally below it;
    # a link only this computer can open says so beside the QR code
    st.markdown(view.qr_img(qr_png(link), link, small=room.current is not None),
                unsafe_allow_html=True)


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
    if current is None:
        st.markdown(f"#### {members} joined")
        return
    counts = db.tally(room.code, current.id)
    st.markdown(f"#### {sum(counts.values())} answered · {members} joined",
                help="Counts only: the room never shows who answered what.")
    st.plotly_chart(view.tally_figure(current.payload, counts, current.revealed,
                                      height=240),
                    key=P + "tally", config={"displayModeBar": False, "staticPlot": True})


def ask_section(stacked: bool) -> None:
    """The questions the teacher can ask, beside the code: one per row while none is up,
    else side by side under the question (wrapping), so asking the next one and seeing it
    (code, question, tally) share a 1366x768 projector's screen."""
    if stacked:
        st.subheader("Ask a question")
    else:
        st.markdown("**Ask the next question**")
    drawn = [kind for kind in qs.KINDS.values() if not kind.written]
    with st.container(horizontal=not stacked, gap="small"):
        for kind in drawn:
            st.button(kind.label, help=kind.help, key=P + "ask_" + kind.key,
                      width="stretch" if stacked else "content", icon=":material/quiz:",
                      on_click=act, args=(lambda k=kind.key: pose(k),))
    for kind in (k for k in qs.KINDS.values() if k.written):
        with st.expander(kind.label, icon=":material/edit_note:"):
            st.caption(kind.help)
            with st.form(P + "write_" + kind.key, clear_on_submit=False, border=False):
                prompt = st.text_area("Question", max_chars=MAX_PROMPT, key=P + "prompt")
                lines = st.text_area(f"Answers, one a line (2 to {MAX_CHOICES})",
                                     key=P + "choices")
                which = st.selectbox("Right answer", range(MAX_CHOICES + 1), key=P + "correct",
                                     format_func=lambda n: f"line {n}" if n else "none (a poll)")
                if st.form_submit_button("Ask the class"):
                    act(functools.partial(pose, kind.key, {
                        "prompt": prompt, "choices": lines,
                        "correct": which - 1 if which else None}))
                    st.rerun()


current = room.current
if current is not None:            # the vote in view beside the question, under the code
    with left:
        live_tally()
with right, st.container(key=P + "stage"):
    if message:
        st.error(message, icon=":material/block:")
    if current is None:
        st.subheader("No question yet")
        live_tally()                # "0 joined", counting up as students arrive
    else:
        view.question_text(current.payload)
        view.rankings(current.payload)
        right_answer = current.payload.get("correct")
        if not current.revealed:
            st.button("Reveal the answer", icon=":material/visibility:",
                      key=P + "reveal", on_click=act,
                      args=(lambda: db.reveal(room.code, S["key"], current.id),))
        elif right_answer:
            words = view.md_escape(view.choice_label(current.payload, right_answer))
            st.success(f"Right answer: **{words}**. "
                       f"{view.md_escape(current.payload.get('explanation', ''))}",
                       icon=":material/check_circle:")
        else:
            st.info("A poll: no right answer.", icon=":material/ballot:")


with right:                         # beside the code: every button in view on a projector
    ask_section(stacked=current is None)

with st.popover("Close the room", icon=":material/door_front:"):
    st.markdown("Closing deletes the room, its questions and every answer now. "
                "Students see that the room has closed.")
    st.button("Close it now", key=P + "close",
              on_click=act, args=(lambda: (db.close(room.code, S["key"]), leave()),))
expires = view.time_left(room.expires_at)
st.caption(f"Room {room.code} · closes by itself {expires}. Your address bar holds the "
           "teacher's key: present in full screen (F11) so the class cannot read it.")
S.keep_address()
