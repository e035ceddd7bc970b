"""Lesson 11, practice: challenges on the lessons' boards, checked by irlib at every move.

Pick a challenge (grouped by lesson), change its board, and the check under the task says at
once, with the board's numbers, whether it is solved (on a phone, in a strip at the foot of the
screen). A hint about the board as it is and a worked answer wait behind "Show". Solved
challenges are ticked, those whose answer was seen marked; all of it lives in the page's link.
"""

from ui.shared.course import through_app_navigation

through_app_navigation()   # first, before the slow imports (ui/shared/course.py)

import streamlit as st

from ui.lessons.practice import lesson as pr
from ui.lessons.practice import layout as practice_layout
from ui.shared.course import lesson_links
from ui.shared.layout import board_page


S = pr.page_state()
pr.init()
present = S["present"]
board_page(present, compact_metrics=True)
head, switch = st.columns([5, 1], vertical_alignment="bottom")
head.title("Practice: challenges", anchor=False)
switch.toggle("Presenter", **S.bind("present"),
              help="For a projector: no sidebar, no intro, a larger board and type. "
                   "The link keeps it (view=present).")
if not present:
    st.caption("Each challenge gives a board from a lesson and a goal. **Drag** the cards and "
               "**click a badge** to judge them: the check follows every change, with the "
               "numbers irlib computes.")
result = pr.check()                 # before the picker, so a new tick shows at once
pr.picker()
challenge, shown = pr.current()

# compact over several boards, not on a projector (its type stays large)
practice_layout.keep_check_in_view(several=len(shown) > 1 and not present)
practice_layout.copy_in_view()
with st.container(key=pr.PREFIX + "work"):
    with st.container(border=True, key=pr.PREFIX + "task"):
        st.markdown(f"**{pr.md(challenge.title)}.** {pr.md(challenge.task)}")
        pr.verdict(result)
    pr.boards(present)
# one row under the boards; the hint and the answer open over the page, where they are seen
with st.container(horizontal=True, gap="small"):
    st.button("↺ Start this challenge again", key=pr.PREFIX + "restart", on_click=pr.restart)
    pr.help_panels(challenge)

lesson_links("pages/practice.py")
S.keep_address()
