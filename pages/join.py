"""Class room, student's side (phone first): enter the code (or arrive by the QR link
``?code=…``), see the current question, answer once, see the right answer after the reveal.

The page polls the room every few seconds with one small read and redraws only when the
teacher poses a question, reveals one or closes the room."""

from ui.shared.course import through_app_navigation

through_app_navigation()   # first, before the slow imports (ui/shared/course.py)

import streamlit as st

from ui.shared import page_state as ps
from ui.rooms import shown, view, voter
from ui.rooms.store import RoomError


P = "join_"
# Only the room's code is in the address. An old link's `me=` (the student's id was once kept
# there) is no field, so it is neither adopted nor kept: keep_address() rewrites it away.
S = ps.PageState(P, [ps.Field("code", "", view.code_codec())])
S.start()
db = view.store()
ss = st.session_state
if P + "joined" not in ss:
    # A newcomer whose address (or the server) has used its joins is refused before anything
    # else runs: one small read, no style, no browser id, no form (a flood of new sessions
    # cost a page run each). A student already in a room never gets here.
    refusal = db.refusal(view.client_address())
    if refusal is not None:
        st.title("Join a class")
        st.error(str(RoomError("rate", wait=refusal.wait, why=refusal.why)),
                 icon=":material/block:")
        st.stop()
view.style()
JOINED = P + "joined"
ME = P + "me"                # the student's id, from the browser (ui/rooms/voter.py)
WAITING = P + "waiting"      # a code to join as soon as that id is here

me = voter.browser_voter(P + "voter", ME)


def join(code: str) -> None:
    try:
        room = db.join(code, ss[ME], view.client_address())
    except RoomError as error:
        ss[P + "message"] = error
        return
    S.set("code", room.code)
    ss[JOINED] = room.code


def leave() -> None:
    ss.pop(JOINED, None)
    S.set("code", "")


def answer(question: int, choice: str) -> None:
    try:
        db.answer(ss[JOINED], ss[ME], question, choice, view.client_address())
    except RoomError as error:
        ss[P + "message"] = error


# Arriving by the QR link joins at once (one try per session, so a bad link cannot loop),
# as does the form; both as soon as the browser has sent the student's id.
if S["code"] and JOINED not in ss and not ss.get(P + "tried"):
    ss[P + "tried"] = True
    ss[WAITING] = S["code"]
if me and WAITING in ss:
    join(ss.pop(WAITING))

message = ss.pop(P + "message", None)
if JOINED not in ss and WAITING in ss:
    st.title("Join a class")
    st.info(f"Joining room **{shown.markdown(ss[WAITING])}**…", icon=":material/hourglass_top:")
    S.keep_address()
    st.stop()
if JOINED not in ss:
    st.title("Join a class")
    st.markdown("Type the code your teacher shows (6 letters and digits).")
    if message:
        view.say(message)
    with st.form(P + "form", border=False):
        typed = st.text_input("Room code", value=S["code"], max_chars=12, key=P + "typed",
                              placeholder="e.g. K7Q2MX", autocomplete="off")
        if st.form_submit_button("Join", width="stretch"):
            ss[WAITING] = typed
            st.rerun()
    S.keep_address()
    st.stop()

try:
    room = db.room(ss[JOINED])
except RoomError as error:
    view.refuse("Join a class", error, "Join another room", leave, S)

membership = db.membership(room.code, ss[ME])
if membership == "turned_away":
    view.refuse("Join a class", RoomError("turned_away", code=room.code), "Join another room",
                leave, S)
if membership != "in":
    # the class size reached, the room locked, or this address's students: the teacher lets
    # students in (the phone says which rule keeps it waiting)
    st.title("Join a class")
    st.info(f"{view.why_waiting(room, db.per_address_in_room)} You are waiting for your "
            "teacher to let you in. This page goes on by itself.",
            icon=":material/hourglass_top:")

    @st.fragment(run_every=view.STUDENT_POLL_S)
    def wait_for_the_teacher() -> None:
        try:
            if db.membership(room.code, ss[ME]) in ("in", "turned_away"):
                st.rerun()
            db.status(room.code)
        except RoomError:
            st.rerun()

    wait_for_the_teacher()
    st.button("Leave the room", key=P + "leave_queue", on_click=leave, type="tertiary")
    S.keep_address()
    st.stop()

current = room.current
st.caption(f"Room **{room.code}** · {room.members} joined · answers are anonymous")
if message:
    view.say(message)
if current is None:
    st.subheader("You are in!")
    st.info("Waiting for your teacher's first question…", icon=":material/hourglass_top:")
else:
    with st.container(key=P + "question"):
        view.question_text(current.payload)
    view.rankings(current.payload)
    mine = db.my_answer(current.id, ss[ME])
    # the student's answer as a sentence reads it: "Your answer: it stays the same."
    yours = mine and f"**{shown.markdown(view.said(current.payload, mine))}**"
    right = current.payload.get("correct")
    if current.revealed:
        if right is None:
            st.info("A poll: there is no right answer.", icon=":material/ballot:")
        else:
            words = shown.markdown(view.choice_label(current.payload, right))
            st.success(f"Right answer: **{words}**", icon=":material/check_circle:")
            if mine is not None:
                if mine == right:
                    st.markdown("You got it right.")
                else:
                    # a wrong answer says so and names the right one, both as sentences
                    st.warning(f"**Not right.** Your answer: {yours}. Correct: "
                               f"**{shown.markdown(view.said(current.payload, right))}**.",
                               icon=":material/close:")
            if current.payload.get("explanation"):
                st.markdown(shown.markdown(current.payload["explanation"]))
    elif mine is not None:
        st.success(f"Your answer: {yours}. Waiting for the reveal…",
                   icon=":material/how_to_vote:")
    else:
        # four or more short answers ("Board A" … "Neither") two a row: all in one phone screen
        pairs = len(current.choices) >= 4 and max(len(t) for _, t in current.choices) <= 12
        with st.container(key=P + "answers"), st.container(key=P + "pairs" if pairs else None):
            for key, text in current.choices:
                st.button(shown.markdown(text), key=f"{P}choice_{current.id}_{key}",
                          width="stretch",
                          on_click=answer, args=(current.id, key))
seen = (current.id if current else None, current.revealed if current else False)


@st.fragment(run_every=view.STUDENT_POLL_S)
def poll() -> None:
    """One small read; the page redraws only when the room changed (or ended)."""
    try:
        question, revealed, _ = db.status(room.code)
    except RoomError:
        st.rerun()
    if (question, revealed and question is not None) != seen:
        st.rerun()


poll()
st.button("Leave the room", key=P + "leave", on_click=leave, type="tertiary")
S.keep_address()
