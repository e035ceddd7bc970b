"""What the class reads of a room: the join panel, the tally with its explanation and the
question on the stage, shared by the teacher's page (``pages/room.py``) and the projector
screen (``pages/screen.py``), and the teacher's instructions for putting that screen on the
projector.

The projector screen shows only what the class may see: never the teacher's preview, never the
right answer before the reveal, never a name (the store gives counts only). Its link holds
:func:`ui.rooms.room.screen_token` of the teacher's key, not the key: it runs nothing.
"""
from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from ui.shared.charts import plotly_config
from ui.rooms import shown, view
from ui.rooms.qr import qr_png
from ui.rooms.room import Posed, Room, screen_token
from ui.rooms.room_error import RoomError
from ui.rooms.store import RoomStore

#: What the bars count, under the tally: the class reads it from the back of the hall.
TALLY_NOTE = ("Each bar counts the phones that chose that answer. "
              "Counts only: names are never shown, not even to the teacher.")

#: The projector screen in the type a 200-seat hall reads: nothing the class must read under
#: ~20 px at 1920x1080 (tests/browser/test_room_screen.py measures it). Scoped to the screen
#: page's own containers; the teacher's page keeps its sizes (the lecturer reads it close by).
SCREEN_CSS = """<style>
.room-tally-tag { font-size: 1.05rem; font-weight: 700; text-transform: uppercase;
  letter-spacing: .05em; margin: .2rem 0 0; }
.room-tally-tag.previous { color: var(--room-primary); }
.room-tally-of { font-size: 1.05rem; margin: 0; overflow: hidden; text-overflow: ellipsis;
  white-space: nowrap; }
.room-tally-note { font-size: 1.05rem; line-height: 1.3; margin: 0; }
.st-key-screen_stage h3 { font-size: clamp(1.6rem, 2.6vw, 3rem); line-height: 1.2; }
.st-key-screen_stage [data-testid="stMarkdownContainer"] p,
.st-key-screen_stage [data-testid="stCaptionContainer"] p { font-size: 1.3rem; }
.st-key-screen_stage .room-strip .lbl { font-size: 1.4rem; }
/* a laptop's 768 px on the projector: one smaller QR code, the same before and during a
   question (it shrank once a question was up), keeps the tally's note in view */
@media (max-height: 800px) { .st-key-screen_side .room-qr { width: min(125px, 100%); } }
@media (min-width: 1200px) {
  .st-key-screen_stage .room-cards { gap: .5rem; }
  .st-key-screen_stage .room-cards[style] { grid-template-columns: none !important;
    grid-auto-flow: column; grid-auto-columns: minmax(0, 8.5rem); }
  .st-key-screen_stage .room-card { font-size: 1.35rem; }
  /* a lecturer's own results are titles, not pictures: the card's type, not the phones' .75rem */
  .st-key-screen_stage .room-card .doc.text { font-size: 1.25rem; }
  .st-key-screen_stage .room-cut { font-size: 1.3rem; }
  .st-key-screen_side :is(.room-tally-tag, .room-tally-of, .room-tally-note) {
    font-size: 1.35rem; }
  .st-key-screen_side .room-qr figcaption { font-size: 1.35rem; }
  .st-key-screen_stage [data-testid="stMarkdownContainer"] p,
  .st-key-screen_stage [data-testid="stCaptionContainer"] p { font-size: 1.6rem; }
  .st-key-screen_stage .room-strip .lbl { font-size: 1.6rem; }
  .st-key-screen_side h4 { font-size: 2rem; }
}
</style>"""


def join_panel(room: Room, link: str, *, note: bool = True) -> None:
    """The join link, the room's code and its QR code (the same size with a question up: a
    latecomer scans it then); ``note``: say beside it when phones cannot open the link (the
    lecturer's page only)."""
    st.markdown(f'<div class="room-link">Join on your phone: '
                f'<span class="room-url">{view.link_html(link)}</span></div>'
                f'<div class="room-code" aria-label="Room code">{room.code}</div>',
                unsafe_allow_html=True)
    st.markdown(view.qr_img(qr_png(link), link, note=note),
                unsafe_allow_html=True)


def _excerpt(text: str, most: int = 70) -> str:
    return text if len(text) <= most else text[:most - 1].rstrip() + "…"


def tally(db: RoomStore, code: str, current: Posed | None, members: int, *,
          previous: bool = False, beside: bool = False, key: str, height: int = 240) -> None:
    """The tally as the class reads it: which question it counts (``previous``: the one still
    open while the teacher previews the next; its first words unless the question is
    ``beside`` it, as on the projector screen), how many answered, the bars (counts only) and
    what they count."""
    if current is None:
        st.markdown(f"#### {members} joined")
        return
    counts = db.tally(code, current.id)
    if previous:
        tag = "Previous question · " + ("revealed" if current.revealed else "still open")
    elif current.revealed:
        tag = "Answers to this question · revealed"
    else:
        tag = "Answers to this question so far"
    prompt = shown.html_text(_excerpt(shown.typed(current.payload.get("prompt", ""))))
    of = "" if beside else f'<p class="room-tally-of">“{prompt}”</p>'
    st.markdown(f'<p class="room-tally-tag{" previous" if previous else ""}">{tag}</p>{of}',
                unsafe_allow_html=True)
    st.markdown(f"#### {sum(counts.values())} answered · {members} joined")
    st.plotly_chart(view.tally_figure(current.payload, counts, current.revealed, height=height),
                    key=key, config=plotly_config(displayModeBar=False, staticPlot=True))
    st.markdown(f'<p class="room-tally-note">{TALLY_NOTE}</p>', unsafe_allow_html=True)


def stage(current: Posed | None) -> None:
    """The question the room is answering, and its right answer once revealed."""
    if current is None:
        st.markdown("### Waiting for the first question…")
        return
    view.question_text(current.payload)
    view.rankings(current.payload)
    if current.revealed:
        right = current.payload.get("correct")
        if right:
            words = shown.markdown(view.choice_label(current.payload, right))
            st.success(f"Right answer: **{words}**. "
                       f"{shown.markdown(current.payload.get('explanation', ''))}",
                       icon=":material/check_circle:")
        else:
            st.info("A poll: no right answer.", icon=":material/ballot:")


def screen_link(code: str, secret: str) -> str:
    """The projector screen's address, beside the join link's (``…/screen?room=…&view=…``)."""
    base = view.join_link(code).rsplit("/join?", 1)[0]
    return f"{base}/screen?" + urlencode({"room": code, "view": screen_token(secret)})


def setup_help(link: str) -> None:
    """How to give the class the projector screen and keep this page to the lecturer."""
    st.markdown(
        "**The projector screen** shows the class only what it may see: the code, the "
        "question, the tally and — after *Reveal the answer* — the right answer. Never your "
        "preview or *Right answer*. It follows this page by itself within a second or two.")
    st.code(link, language=None, wrap_lines=True)
    st.link_button("Open the projector screen", link, icon=":material/open_in_new:")
    st.markdown(
        "**Two screens (best).** Set the projector to *extend* the desktop, not mirror it "
        "(Windows: ⊞ Win + P → *Extend*; macOS: *System Settings → Displays → Use as: "
        "Extended display*). Open the projector screen, drag its window onto the projector "
        "and press F11. Keep this page on your laptop.\n\n"
        "**Mirrored (one picture on both).** Show the projector screen on the laptop and run "
        "the class from this page on your phone or tablet: send yourself this page's address "
        "(it holds your key; never show it).")


Seen = tuple[int | None, bool]        # the question up (its id) and whether it is revealed


def follow(db: RoomStore, code: str, seen: Seen) -> tuple[int | None, bool, int]:
    """One small read: (question, revealed, members). The whole page reruns when the question
    or its reveal changed since ``seen`` (:func:`seen_of`), or the room ended."""
    try:
        question, revealed, members = db.status(code)
    except RoomError:
        st.rerun()
    if (question, revealed and question is not None) != seen:
        st.rerun()
    return question, revealed, members


def seen_of(current: Posed | None) -> Seen:
    """What a page drew: the question up and whether it was revealed."""
    return (current.id if current else None, current.revealed if current else False)


def style() -> None:
    """The tally's labels everywhere; the hall's type on the projector screen."""
    st.html(SCREEN_CSS)
