"""Lesson 9: where judgments come from. Raters who disagree, documents nobody judged (pooling),
and how many queries a comparison needs. Every number comes from irlib (raters, pooling,
power); ui/judgments.py holds the data and the tables."""
import html

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from irlib._common import InputError
from irlib.stats.power import power_at, queries_needed, spread
from ui import judgments as jd
from ui.course import lesson_links, through_app_navigation
from ui.layout import board_page
from ui.texts import md_escape

through_app_navigation()   # first: a deep link on a fresh server (ui/course.py)

S = jd.page_state()
jd.init()
P = jd.PREFIX

board_page(compact_metrics=True)
st.title("Where judgments come from", anchor=False)
st.caption("Every lesson so far took the grades as given. They come from people, who "
           "disagree; from pools, which leave most documents unjudged; and from a test set, "
           "whose size decides what a comparison can show.")
st.segmented_control("Part", list(jd.PARTS), **S.bind("part"), required=True,
                     format_func=jd.PARTS.get, label_visibility="collapsed")


def raters_part() -> None:
    st.markdown(
        "The notebook's **disagreement** query: three raters graded four results 0–3 and kept "
        "the **median**. **You take rater 2's seat**: change your grades and watch the "
        "median, the mean and a majority vote part ways, and NDCG (the notebook's gain "
        "2^grade − 1) move with them.")
    yours = list(S["yours"])
    left, right = st.columns([2, 5], gap="medium")
    with left:
        for n, doc in enumerate(jd.DOCS):
            key = f"{P}you_{n}"
            st.session_state[key] = yours[n]
            st.segmented_control(f"Your grade for {doc} (rank {n + 1})",
                                 list(range(jd.TOP_GRADE + 1)), key=key, required=True,
                                 on_change=_regrade, args=(n,))
    with right:
        # seven columns on a phone: smaller type and padding, so "majority" is not cut off
        st.html(f"""<style>@media (max-width: 640px) {{
.st-key-{P}rater_table [data-testid=stTable] :is(th, td) {{
  padding: 0.3rem 0.25rem; font-size: 0.78rem; }} }}</style>""")
        with st.container(key=P + "rater_table"):
            st.table(jd.rater_table(yours))
        st.markdown(jd.agreement_sentence(yours))
    st.caption("Each rater's NDCG uses that rater's own ideal ranking. Median: the middle "
               "grade; mean: kept as a fraction; majority: the grade two of three gave, else "
               "the median. κ treats grades as categories: 2 against 3 is as much a "
               "disagreement as 0 against 3.")


def _regrade(n: int) -> None:
    yours = list(S["yours"])
    yours[n] = int(st.session_state[f"{P}you_{n}"])
    S.set("yours", yours)


def pool_part() -> None:
    st.markdown(
        "One query, ten documents. Systems **A** and **B** took part, so their top results "
        "were **pooled** and judged; everything else is **unjudged**. System **C** came later "
        "and finds relevant documents nobody judged. Compare its score under each rule with "
        "what complete judgments would give.")
    c1, c2, c3 = st.columns([3, 2, 2], vertical_alignment="bottom")
    c1.text_input("System C's ranking (document ids)", **S.bind("new"),
                  help="Ids d1 to d10 in rank order, separated by spaces, e.g. d7 d8 d1")
    c2.slider("Pool depth k", 1, jd.MAX_DEPTH, **S.bind("depth"),
              help="The top k of each pooled system are judged.")
    c3.segmented_control("Measure", list(jd.POOL_MEASURES), **S.bind("pool_measure"),
                         required=True)
    st.toggle("C takes part in the pool", **S.bind("in_pool"))
    try:
        new_docs = jd.read_new_system(S["new"])
        st.session_state[P + "last_good"] = new_docs
    except InputError as err:
        new_docs = st.session_state.get(P + "last_good") or jd.read_new_system(jd.NEW_DEFAULT)
        st.error(f"{md_escape(str(err))}. C keeps its last list: {' '.join(new_docs)}.",
                 icon=":material/error:")
    depth, measure = int(S["depth"]), S["pool_measure"]
    in_pool = bool(S["in_pool"])
    judged = jd.pool_members(new_docs, depth, in_pool)
    lists = {**jd.POOLED, jd.NEW: new_docs}
    st.markdown("  \n".join(
        f"**{name}**: " + " ".join(
            f"**{d}**" if d in judged else f"_{d}?_" for d in docs)
        for name, docs in lists.items()))
    relevant = [d for d, g in jd.TRUTH.items() if g]
    st.caption(f"Bold: judged (in the pool of depth {depth}); *d?*: unjudged. Relevant in "
               f"truth: {', '.join(relevant)}.")
    scores = jd.pool_scores(new_docs, depth, measure, in_pool)
    shown = {"system": [f"{n} ({'pooled' if p else 'not pooled'})"
                        for n, p in zip(scores.index, scores["pooled"])]}
    for rule in jd.RULES:
        shown[jd.rule_label(rule, measure)] = [f"{v:.2f}" for v in scores[rule]]
    st.table(_frame(shown))
    c = scores.loc[jd.NEW]
    st.markdown(
        f"Judged completely, C scores **{c['complete']:.2f}**; against this pool, with "
        f"unjudged counted as not relevant, **{c['unjudged_not_relevant']:.2f}**; only "
        f"{c['judged_at_k']:.0%} of its top {jd.JUDGED_K} was judged. "
        + ("The judged-only list and bpref leave the unjudged out instead of counting them "
           "as misses." if not in_pool else "In the pool, its own top results are judged."))


def _frame(columns: dict) -> pd.DataFrame:
    return pd.DataFrame(columns).set_index("system")


def queries_part() -> None:
    upload = jd.uploaded_per_query()
    st.markdown(
        "Two systems compared query by query: the sample TREC runs (24 queries, the files of "
        "Lesson 10) or your own upload there. **How many queries** would a paired test need "
        "to see this difference, and how often would the upload page's verdict come out the "
        "same on fewer, or more, queries like these?")
    if S["data"] == "upload" and upload is None:
        st.info("No upload with two or more systems in this session yet: load your files in "
                "Lesson 10 (Your own judgments) and come back. The sample runs are shown.",
                icon=":material/upload_file:")
    if S["data"] == "upload" and upload is not None:
        label, table = upload
    else:
        label = S["query_measure"]
        table = jd.sample_per_query(label)
    systems = list(table.columns)
    for name, fallback in (("base", systems[0]), ("other", systems[1])):
        if S[name] not in systems:
            S.set(name, fallback)
    c0, c1, c2, c3, c4 = st.columns([3, 2, 2, 2, 2], vertical_alignment="bottom")
    c0.segmented_control("Data", list(jd.DATA), format_func=jd.DATA.get, **S.bind("data"),
                         help="Your upload: the systems Lesson 10 scored in this session.",
                         required=True)
    c1.selectbox("Baseline", systems, **S.bind("base"))
    c2.selectbox("New system", systems, **S.bind("other"))
    if S["data"] == "upload" and upload is not None:
        c3.text_input("Measure", label, disabled=True, help="The measure the upload page "
                      "compares by; change it there.")
    else:
        c3.selectbox("Measure", list(jd.QUERY_MEASURES), **S.bind("query_measure"))
    c4.slider("Power (%)", 50, 99, **S.bind("power"),
              help="The chance of finding the difference when it is real.")
    base, other = S["base"], S["other"]
    if base == other:
        st.info("Pick two different systems to compare.", icon=":material/info:")
        return
    diff = (table[other] - table[base]).dropna()
    if len(diff) < 2:
        st.info("These two systems share fewer than two scored queries.", icon=":material/info:")
        return
    mean, sd, n = spread(diff)
    if mean == 0 or sd == 0:
        st.info("The two systems differ by the same amount on every query (or not at all): "
                "there is no spread for a test to weigh.", icon=":material/info:")
        return
    need = queries_needed(abs(mean), sd, power=S["power"] / 100)
    now = power_at(n, abs(mean), sd)
    st.markdown(
        f"Over **{n}** queries the per-query differences of {md_escape(label)} have mean "
        f"**{mean:+.4f}** and standard deviation **{sd:.4f}** (effect size "
        f"{need.effect_size:.2f}). A paired t-test at α = 0.05 needs **{need.queries:,} "
        f"queries** to find a difference this size with power {need.power:.0%}; with "
        f"the {n} at hand its power is **{now:.0%}**.")
    sizes = tuple(jd.curve_sizes(n, need.queries))
    curve = jd.verdict_curve(table, base, other, sizes)
    fig = go.Figure()
    shown = html.escape(other)             # a system's name may be the learner's text
    for key, name, colour in (("better", f"{shown} significantly better", "#009E73"),
                              ("worse", f"{shown} significantly worse", "#D55E00"),
                              ("no_difference", "could be chance", "#999999")):
        fig.add_trace(go.Scatter(x=curve.index, y=curve[key], name=name, mode="lines+markers",
                                 line={"color": colour}))
    for x, text in ((n, f"{n} at hand"), (need.queries, f"{need.queries} needed")):
        if x <= max(sizes):
            fig.add_vline(x=x, line={"dash": "dot", "color": "#555555"},
                          annotation_text=text, annotation_position="top")
    fig.update_layout(height=270, margin={"l": 10, "r": 10, "t": 40, "b": 10},
                      xaxis_title="queries", yaxis_title="share of draws",
                      yaxis={"range": [0, 1.02], "tickformat": ".0%"},
                      legend={"orientation": "h", "y": -0.3})
    st.plotly_chart(fig, key=P + "curve", config={"displayModeBar": False})
    found = "better" if mean > 0 else "worse"
    seen = f"with {n} queries in **{curve.loc[n, found]:.0%}** of the draws"
    if need.queries in curve.index:
        seen += f", with {need.queries} in **{curve.loc[need.queries, found]:.0%}**"
    st.markdown(f"Drawn from these queries, *{md_escape(other)} significantly {found}* comes "
                f"out {seen}: "
                "the power analysis, seen in the data.")
    st.caption(f"Each point: {jd.CURVE_DRAWS} random sets of that many queries drawn from "
               f"these {n} (with replacement), each judged by the randomization test at α = "
               "0.05, as the upload page judges a comparison.")


{"raters": raters_part, "pool": pool_part, "queries": queries_part}[S["part"]]()

lesson_links("pages/judgments.py")
S.keep_address()
