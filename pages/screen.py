"""Class room, the projector's screen: what the class may see of a room, following the
teacher's page by itself. The join code and QR code, the question, the tally (counts only) and
the right answer after the reveal; never the teacher's preview or the answer before the reveal.

Its address (``?room=…&view=…``) comes from the teacher's page ("Projector screen"); ``view`` is
:func:`ui.rooms.room.screen_token` of the teacher's key, which opens this screen and runs
nothing. The sidebar is hidden: this page is for the projector only."""

from ui.shared.course import through_app_navigation

through_app_navigation()   # first, before the slow imports (ui/shared/course.py)

import streamlit as st

from ui.shared import page_state as ps
from ui.shared.layout import HIDE_SIDEBAR_CSS, PRESENT_CSS
from ui.rooms import screen, view
from ui.rooms.store import RoomError


P = "screen_"
S = ps.PageState(P, [
    ps.Field("code", "", view.link_code_codec(), "room"),
    ps.Field("view", "", view.token_codec("the projector link's key"), "view"),
])
S.start()
view.style()
screen.style()
db = view.store()
st.html(PRESENT_CSS + HIDE_SIDEBAR_CSS)


if not (S["code"] and S["view"]):
    st.title("Projector screen")
    st.markdown("Open this screen with the link on the teacher's page (*Run a class room → "
                "Projector screen*): it shows the class the room's code, its question and "
                "tally, and follows the teacher's page by itself.")
    S.keep_address()
    st.stop()

try:
    room = db.screen(S["code"], S["view"], view.client_address())
except RoomError as error:
    st.title("Projector screen")
    if error.reason == "forbidden":     # the same words for a live, ended or unknown room
        # Most often the lecturer has just closed the room, with the class watching: the ended
        # room first, and no red alarm on the projector.
        st.info(f"This projector link opens no room: its room has ended (closed, or expired "
                f"after {error.details.get('hours', 4)} hours), or its key is wrong. To show a "
                "room, use the link under *Projector screen* on the teacher's page.",
                icon=":material/block:")
    else:
        view.say(error)
    S.keep_address()
    st.stop()

current = room.current
seen = screen.seen_of(current)
left, right = st.columns([2, 3], gap="large")
with left, st.container(key=P + "side"):
    screen.join_panel(room, view.join_link(room.code), note=False)

    @st.fragment(run_every=view.TEACHER_POLL_S)
    def live_tally() -> None:
        """Counts only, redrawn every poll; a new question or a reveal redraws the page."""
        *_, members = screen.follow(db, room.code, seen)
        # the question is beside it; a shorter chart keeps what it counts in view at 768 px
        screen.tally(db, room.code, current, members, beside=True, height=200,
                     key=P + "tally")

    live_tally()
with right, st.container(key=P + "stage"):
    screen.stage(current)
S.keep_address()
