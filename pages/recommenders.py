"""Lesson 8: recommenders. The same metrics as search (a user is a query, the films they
watched later are the relevant documents) on a built-in film data set, and four traps: the
split, sampled metrics, popularity, and averaging over users."""

from ui.shared.course import through_app_navigation

through_app_navigation()   # first, before the slow imports (ui/shared/course.py)

import streamlit as st

from course.reclab.data import DAYS, N_ITEMS, N_USERS
from ui.lessons import recommenders as rc
from ui.shared.course import lesson_links
from ui.shared.layout import board_page
from ui.lessons.recommenders import popularity, sampled, split, users


S = rc.page_state()
rc.init()

board_page(compact_metrics=True)    # each trap's controls and result on one laptop screen
st.title("Recommenders: the same metrics, new traps", anchor=False)
st.caption(
    f"A film service the app makes up: **{N_USERS} people, {N_ITEMS} films, {DAYS} days** of "
    "views. A user is a query and the films they watched later are its relevant results, so "
    "HitRate, Recall, NDCG and MRR work as in the earlier lessons. Three recommenders: **Most "
    "popular** (all views), **Trending** (views of the last 7 days) and **Matrix "
    "factorisation** (personalised). Four traps make the same numbers mislead.")

head = st.columns([5, 2], vertical_alignment="center")
head[0].segmented_control("Trap", list(rc.TRAPS), **S.bind("trap"), required=True,
                          wrap=True, format_func=rc.TRAPS.get, label_visibility="collapsed")
head[1].slider("K: films in each list", 1, rc.MAX_K, **S.bind("k"),
               help="Each model recommends K films a user has not watched yet.")
k = int(S["k"])
{"split": split.show, "sampled": sampled.show, "popularity": popularity.show,
 "users": users.show}[S["trap"]](S, k)

lesson_links("pages/recommenders.py")
S.keep_address()
