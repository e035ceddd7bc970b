"""The course: every page with its title and one-line promise. app.py and the home page read it."""
from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Lesson:
    path: str
    title: str
    icon: str
    promise: str
    url_path: str
    short: str = ""          # the lesson's name in a short label (Practice's picker)


HOME = Lesson("pages/home.py", "Offline evaluation: the map", ":material/explore:",
              "What offline evaluation is and where each metric sits.", "home")

LESSONS = [
    Lesson("pages/playground.py", "1. Rank the cats", ":material/inventory_2:",
           "Drag eight search results, judge them, and watch P, R, F1, RR, AP and NDCG move.",
           "playground"),
    Lesson("pages/mrr_map.py", "2. Many queries: MRR and MAP", ":material/stacks:",
           "Three queries, three boards: how one number summarises a whole test set.", "mrr_map"),
    Lesson("pages/ndcg.py", "3. Graded relevance: NDCG", ":material/equalizer:",
           "CG, DCG, IDCG and NDCG step by step, with linear and exponential gains.", "ndcg"),
    Lesson("pages/choosing.py", "4. Choosing a metric", ":material/rule:",
           "Three rankings, six metrics: which scores highest depends on the metric and on K.",
           "choosing"),
    Lesson("pages/libraries.py", "5. Why libraries disagree", ":material/balance:",
           "trec_eval, ranx, scikit-learn, torchmetrics, Kaggle's apk, Spark, Microsoft "
           "Recommenders and RecBole: one ranking, eight answers.",
           "libraries"),
    Lesson("pages/beyond.py", "6. Beyond accuracy", ":material/speed:",
           "Accuracy is one axis: find the systems on the cost/quality Pareto frontier.", "beyond"),
    Lesson("pages/online.py", "7. From metrics to clicks",
           ":material/ads_click:",
           "The user behind each metric, the clicks they make, and how many users an A/B test "
           "or an interleaving needs to see an offline difference.", "online", "Online"),
    Lesson("pages/recommenders.py", "8. Recommenders: new traps",
           ":material/movie:",
           "Users as queries, later views as judgments: the split, sampled metrics, "
           "popularity and averaging over users.", "recommenders", "Recommenders"),
    Lesson("pages/judgments.py", "9. Where judgments come from", ":material/groups:",
           "Raters who disagree, documents nobody judged, and how many queries a "
           "comparison needs.", "judgments", "Judgments"),
    Lesson("pages/upload.py", "10. Your own judgments", ":material/upload_file:",
           "Upload ratings or TREC files, find the weak queries, compare up to ten systems.",
           "upload"),
    Lesson("pages/practice.py", "11. Practice", ":material/task_alt:",
           "Challenges on the lessons' boards, checked at every move, with hints and answers.",
           "practice"),
]


#: The sources the course is built from (../shared/seeds/README.md), as a page names them.
SOURCES = {
    "video": 'the video "Evaluation Measures for Search and Recommender Systems"',
    "article": 'the article "Evaluation Measures in Information Retrieval"',
    "lecture": "the lecture on IR metrics (a university NLU course)",
    "notebook": 'the notebook "Search Metrics" (DCG from human ratings)',
}

GLOSSARY = Lesson("pages/glossary.py", "Glossary", ":material/menu_book:",
                  "Every term in one or two plain sentences.", "glossary")

CLASS = [
    Lesson("pages/room.py", "Run a class room", ":material/co_present:",
           "A question on the projector, answers from phones, the tally and the reveal.", "room"),
    Lesson("pages/join.py", "Join a class", ":material/login:",
           "A student's phone in the teacher's room.", "join"),
    Lesson("pages/screen.py", "Projector screen", ":material/cast:",
           "What the class may see of the teacher's room.", "screen"),
]


def sections() -> dict[str, list[Lesson]]:
    """The sidebar's sections in order: app.py's ``st.navigation`` and the docs' tables."""
    return {"Start": [HOME, GLOSSARY], "Lessons": list(LESSONS), "Class": list(CLASS)}


def lesson_links(path: str) -> None:
    """"Previous" and "Next" at the end of the lesson at ``path`` (``"pages/ndcg.py"``).

    ``st.page_link`` needs the app's navigation (``app.py``); a page run on its own (tests)
    names the neighbours instead.
    """
    import streamlit as st

    pages = [HOME, *LESSONS]
    i = next(n for n, page in enumerate(pages) if page.path == path)
    neighbours = [("Previous", pages[i - 1]) if i > 0 else None,
                  ("Next", pages[i + 1]) if i + 1 < len(pages) else None]
    st.divider()
    # A long title wraps: Streamlit cuts a page link's text to one line, without an ellipsis
    # (its <p> is a block inside the span that would draw one); on a phone that lost the end.
    st.html("<style>.st-key-lesson_links [data-testid='stPageLink-NavLink'] :is(span, div, p)"
            " { white-space: normal; overflow: visible; }</style>")
    with st.container(key="lesson_links"):
        columns = st.columns(2)
        for column, link in zip(columns, neighbours):
            if link is None:
                continue
            word, page = link
            with column:
                page_link(page, f"{word}: {page.title}")


def page_link(page: Lesson, label: str) -> None:
    """A link to ``page``; its name alone where the app's navigation is not running (tests)."""
    import streamlit as st
    from streamlit.errors import StreamlitAPIException

    try:
        st.page_link(page.path, label=label, icon=page.icon)
    except StreamlitAPIException:
        st.caption(label)


#: Whether this thread's script run is inside app.py's ``navigation.run()``.
_RUN = threading.local()


@contextmanager
def app_navigation_running():
    """app.py runs the chosen page inside this, so the page knows app.py's navigation is
    drawn (:func:`through_app_navigation`)."""
    _RUN.inside = True
    try:
        yield
    finally:
        _RUN.inside = False


def through_app_navigation() -> None:
    """Every page's first call: make sure the page runs inside app.py's ``st.navigation``.

    Streamlit runs the first session of a fresh server in its legacy "pages/ directory" mode
    when that folder exists, and then a shared link to /playground runs pages/playground.py
    directly: app.py never runs, so the sidebar would list the files instead of the course.
    This cannot live in app.py for that reason. It switches the flag off the way
    ``st.navigation`` itself does and reruns through app.py; afterwards it does nothing.

    The flag is the process's, read as each run starts: two first sessions starting at once
    both begin in legacy mode, and the second finds the flag already off. So a page reached
    without app.py (beside a pages/ folder: not a page's own test) reruns too; otherwise that
    session kept the file list and the narrow layout, since the playground's clicks rerun only
    its fragment (seen behind HAProxy: tests/browser/test_classroom.py).
    """
    import streamlit as st
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    if getattr(_RUN, "inside", False):
        return
    ctx = get_script_run_ctx()
    beside_pages = ctx is not None and (Path(ctx.main_script_path).parent / "pages").is_dir()
    if PagesManager.uses_pages_directory or beside_pages:
        PagesManager.uses_pages_directory = False
        st.rerun()
