"""Glossary: the course's terms in plain words, on one page every other page reaches (the
sidebar). ``?term=ndcg`` opens it on one term; the filter keeps its text in ``?q=``."""

from ui.shared.course import through_app_navigation

through_app_navigation()   # first, before the slow imports (ui/shared/course.py)

import streamlit as st

from ui.lessons import glossary as gl
from ui.shared.scroll import scroll_to_anchor
from ui.shared.texts import md_escape


S = gl.page_state()
gl.start()
every = gl.terms()
gl.style()

with st.container(key="gl_body"):      # lines a reader can follow, also on a wide screen
    st.title("Glossary", anchor=False)
    st.caption("The course's words in one or two plain sentences each. A measure's "
               "definition is the one the app computes it by.")
    search, jump = st.columns([3, 2], vertical_alignment="bottom")
    search.text_input("Filter the terms", **S.bind("q"), max_chars=gl.SEARCH_MAX,
                      placeholder="e.g. NDCG, p-value, qrels")
    jump.selectbox("Go to a term", ["", *gl.by_slug()], **S.bind("term"),
                   format_func=lambda slug: gl.by_slug()[slug].name if slug else "—",
                   on_change=gl.choose_term,
                   help="The address bar then holds a link to this term, to share.")

    shown = gl.matching(S["q"])
    if S["q"].strip():
        if shown:
            st.caption(f"{len(shown)} of {len(every)} terms hold “{md_escape(S['q'])}”.")
        else:
            st.info(f"No term holds “{md_escape(S['q'])}”. Try a shorter word, or clear the "
                    "filter.", icon=":material/search_off:")

    for group in gl.GROUPS:
        in_group = [t for t in shown if t.group == group]
        if in_group:
            st.subheader(group, anchor=False)
            for term in in_group:
                gl.draw_term(term)

if S["term"]:
    gl.highlight(S["term"])
    scroll_to_anchor(gl.anchor(S["term"]), st.session_state.get(gl.SCROLL_TOKEN, 0),
                     key="gl_scroll")
S.keep_address()
