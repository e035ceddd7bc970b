"""The Practice page's layout: the check kept in view while the learner works (pinned on a
laptop, a strip at the foot of a phone's screen), the progress link's copy control in view on a
touch screen, and the presenter view's larger type."""
from __future__ import annotations

import streamlit as st

from ui.shared.layout import keep_in_view
from ui.lessons.practice.lesson import PREFIX


#: Where the laptop's pinned task is off (a phone; a landscape phone, too short for it), the
#: verdict is a strip stuck to the bottom of the screen while the boards scroll under it, so
#: the check of a board is in view after every move on it. Sticky, not fixed: at the end of the
#: boards it rests in its place under them and covers nothing; and the scroll container stops a
#: card brought into view (keyboard focus) above it. The laptop's task box opens up (``display:
#: contents``) so that the verdict is the work area's own child, ordered after the boards, and
#: what follows it (the notes, then the way on a laptop has beside the check) after the strip,
#: out of the boards' way.
_STRIP_CSS = """<style>
@media (max-width: 639.98px), (max-height: 599.98px) {{
  .st-key-{task}, div:has(> .st-key-{task}), .st-key-{row}, div:has(> .st-key-{row}) {{
    display: contents; }}
  div:has(> .st-key-{check}) {{ order: 1; position: sticky; bottom: 0; z-index: 5;
                                /* out of the laptop's row: its width basis is no height */
                                flex: 0 0 auto; }}
  div:has(> .st-key-{after}) {{ order: 2; }}
  div:has(> .st-key-{way_on}) {{ order: 3; }}
  .st-key-{way_on} {{ align-items: flex-start; }}
  .st-key-{check} {{ background: {ground}; padding: 0.5rem 0 0.75rem; max-height: 35vh;
                     overflow-y: auto; box-shadow: 0 -0.5rem 0.5rem -0.5rem rgba(0, 0, 0, 0.25); }}
  .st-key-{check} [data-testid="stAlert"] > div {{ padding: 0.4rem 0.75rem; }}
  .st-key-{check} p {{ font-size: 0.875rem; }}
  [data-testid="stMain"] {{ scroll-padding-bottom: 9rem; }}
}}</style>"""


#: A laptop's pinned task over several boards (a 1366x768 screen): the task box was 150-180 px
#: tall, and with two boards scrolled into view it covered the first board's cards. Smaller
#: type and padding in the pinned box, each board's label close over its board: the pinned
#: goal and two boards' cards fit under the header bar together (three on a 768 px screen
#: when scrolled to the last board). Half gaps between the page's title, picker and progress
#: line: after a solve (the way on beside the check, its verdict a line longer) two boards'
#: cards are still over a 768 px screen's fold before the learner scrolls.
_COMPACT_CSS = """<style>
@media (min-width: 640px) and (min-height: 600px) {{
  [data-testid="stMainBlockContainer"] > [data-testid="stVerticalBlock"] {{ gap: 0.5rem; }}
  .st-key-{task} {{ padding: 0.5rem 0.75rem; gap: 0.375rem; }}
  .st-key-{task} p {{ font-size: 0.875rem; line-height: 1.45; }}
  .st-key-{check} [data-testid="stAlert"] > div {{ padding: 0.375rem 0.75rem; }}
  .st-key-{work} {{ gap: 0.75rem; }}
  [class*="st-key-{one}"] [data-testid="stMarkdownContainer"] {{ margin-bottom: 0; }}
  [class*="st-key-{one}"] p {{ font-size: 0.875rem; line-height: 1.3; margin: 0; }}
}}</style>"""


def keep_check_in_view(several: bool = False) -> None:
    """The check in view while the learner works on any board: on a laptop the task and its
    check stay at the top (a challenge with three boards is taller than the screen), compact
    over ``several`` boards (:data:`_COMPACT_CSS`); on a phone the check is a strip at the
    bottom of the screen (:data:`_STRIP_CSS`)."""
    keep_in_view(f"{PREFIX}task")
    if several:
        st.html(_COMPACT_CSS.format(task=f"{PREFIX}task", check=f"{PREFIX}check",
                                    work=f"{PREFIX}work", one=f"{PREFIX}one_board_"))
    # the app's background, as keep_in_view has it (no CSS variable holds it)
    ground = "#171614" if getattr(st.context.theme, "type", "light") == "dark" else "#ffffff"
    st.html(_STRIP_CSS.format(task=f"{PREFIX}task", row=f"{PREFIX}verdict_row",
                              check=f"{PREFIX}check", after=f"{PREFIX}after_check",
                              way_on=f"{PREFIX}way_on", ground=ground))


#: Streamlit shows a code block's copy button on hover only: a phone has no hover, and the
#: progress panel says "copy it". The button stays in view, and large enough for a thumb.
COPY_CSS = f"""<style>
.st-key-{PREFIX}link_body [data-testid="stCode"]
  > div:has([data-testid="stElementToolbarButton"]) {{
  opacity: 1; visibility: visible; pointer-events: auto; }}
.st-key-{PREFIX}link_body [data-testid="stCode"]
  [data-testid="stElementToolbarButton"] button {{ min-width: 2.75rem; min-height: 2.75rem; }}
.st-key-{PREFIX}link_body [data-testid="stCode"] pre {{ padding-right: 3.5rem; }}
/* a phone is no projector: its presenter switch would only push the board down */
@media (max-width: 639.98px) {{ .st-key-{PREFIX}present {{ display: none; }} }}
</style>"""


def copy_in_view() -> None:
    """The progress link's copy button always shown, the presenter switch hidden on a phone
    (:data:`COPY_CSS`)."""
    st.html(COPY_CSS)
