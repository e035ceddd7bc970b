"""Home: offline vs online evaluation, order-aware vs order-unaware, and the map of the course."""

from ui.shared.course import through_app_navigation

through_app_navigation()   # first, before the slow imports (ui/shared/course.py)

import streamlit as st

from pathlib import Path

from ui.shared.course import LESSONS, SOURCES


ROOT = Path(__file__).resolve().parents[1]
P = "home_"

# Streamlit keeps a page link on one line and cuts it with "…": a lesson's promise would be
# cut on a phone. Here the links wrap instead.
st.html(f"""<style>
.st-key-{P}course [data-testid="stPageLink-NavLink"] * {{ white-space: normal; }}
</style>""")

st.title("How do we know a search engine is good?")
st.markdown(
    "Before a new ranking reaches users, teams score it **offline**: they take queries whose "
    "results people have already judged, run the system, and compare its ranking with the "
    "judgments. **Online** metrics — click-through rate, conversions, A/B tests — come later, "
    "from real users. This lab is about the offline part: the numbers, how each is made, and "
    "when to trust which; Lesson 7 simulates users' clicks to ask what an offline gain "
    "would take online."
)
st.markdown(
    "**Recommender systems** are scored the same way: a user is the query, and the items they "
    "went on to watch or buy are its relevant results. Lesson 8 runs the same metrics on a "
    "small film service, with the traps that are recommenders' own."
)

# The course beside its map on a laptop, so both are in view without scrolling; the course
# first on a phone (the columns stack).
course, where = st.columns(2, gap="large")
with course.container(key=P + "course"):
    st.subheader("The course")
    for lesson in (x for x in LESSONS if (ROOT / x.path).exists()):
        st.page_link(lesson.path, label=f"**{lesson.title}** — {lesson.promise}",
                     icon=lesson.icon)

with where:
    st.subheader("Where the metrics sit")
    # Top to bottom, at its own size: readable in a phone's width and not blown up on a
    # projector (stretched left to right, a phone shrank its words to 6 px).
    st.graphviz_chart("""
digraph {
  bgcolor="transparent"; nodesep=0.25; ranksep=0.3;
  node [shape=box, style="rounded,filled", fillcolor="#eef3f8", color="#5b7083",
        fontname="sans-serif", fontsize=11, margin="0.1,0.04"];
  edge [color="#5b7083"];
  eval [label="Evaluation measures"];
  online [label="Online\\nclicks, CTR, A/B tests"];
  offline [label="Offline\\njudged queries\\nor held-out interactions"];
  unaware [label="Order-unaware\\nPrecision@K · Recall@K\\nF1@K · Success@K"];
  aware [label="Order-aware\\nMRR · MAP@K\\nNDCG@K"];
  eval -> online; eval -> offline; offline -> unaware; offline -> aware;
}
""", width="content")
    st.caption(f"After a figure in {SOURCES['article']}: offline metrics split by whether "
               "the order of the results inside the top K changes the score.")
