"""Lesson 8: where judgments come from. Raters who disagree, documents nobody judged (pooling),
and how many queries a comparison needs. Every number comes from irlib (raters, pooling,
power); ui/judgments.py holds the data and the tables."""
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from irlib._common import InputError
from irlib.power import power_at, queries_needed, spread
from ui import judgments as jd
from ui.course import lesson_links, through_app_navigation
from ui.layout import board_page

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
        "The notebook's **disagreement** query: three raters graded four results 0–3 and the "
        "notebook kept the **median**. Here **you take rater 2's seat** (you start with rater "
        "2's grades). Change your grades: the median, the mean and a majority vote react "
        "differently, and NDCG (exponential gain, as the notebook) moves with them.")
    yours = list(S["yours"])
    left, right = st.columns([1, 1], gap="medium")
    with left:
        st.markdown("**Your grades** (0 = not relevant … 3 = perfect)")
        for n, doc in enumerate(jd.DOCS):
            key = f"{P}you_{n}"
            st.session_state.setdefault(key, yours[n])
            st.session_state[key] = yours[n]
            st.segmented_control(f"{doc} (rank {n + 1})", list(range(jd.TOP_GRADE + 1)),
                                 key=key, required=True, on_change=_regrade, args=(n,))
    with right:
        st.table(jd.grade_table(yours).set_index("document"))
        st.markdown(jd.agreement_sentence(yours))
    st.table(jd.score_table(yours).set_index("judgments"))
    st.caption("Each rater's NDCG uses that rater's own ideal ranking. Median: the middle of "
               "the three grades; mean: kept as a fraction; majority: the grade two of three "
               "gave, else the median. κ treats grades as categories: 2 against 3 counts as "
               "much as 0 against 3.")


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
    except InputError as err:
        st.error(f"{err} — the default list is used until it reads.", icon=":material/error:")
        new_docs = jd.read_new_system(jd.NEW_DEFAULT)
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
    st.markdown(
        "Two of the sample TREC runs (24 queries, the files of Lesson 9) compared query by "
        "query. **How many queries** would a paired test need to see this difference, and "
        "how often would the upload page's verdict hold on fewer queries?")
    c1, c2, c3, c4 = st.columns(4, vertical_alignment="bottom")
    c1.selectbox("Baseline", list(jd.RUNS), **S.bind("base"))
    c2.selectbox("New system", list(jd.RUNS), **S.bind("other"))
    c3.selectbox("Measure", list(jd.QUERY_MEASURES), **S.bind("query_measure"))
    c4.slider("Power (%)", 50, 99, **S.bind("power"),
              help="The chance of finding the difference when it is real.")
    base, other = S["base"], S["other"]
    if base == other:
        st.info("Pick two different runs to compare.", icon=":material/info:")
        return
    table = jd.sample_per_query(S["query_measure"])
    diff = (table[other] - table[base]).dropna()
    mean, sd, n = spread(diff)
    label = S["query_measure"]
    if mean == 0 or sd == 0:
        st.info("The two runs score the same on every query: there is no difference to "
                "find.", icon=":material/info:")
        return
    need = queries_needed(abs(mean), sd, power=S["power"] / 100)
    now = power_at(n, abs(mean), sd)
    st.markdown(
        f"Mean difference **{mean:+.4f}**, standard deviation of the per-query differences "
        f"**{sd:.4f}** over **{n}** queries (effect size {need.effect_size:.2f}). "
        + need.sentence(label) + f" With the {n} queries at hand its power is "
        f"**{now:.0%}**.")
    curve = jd.verdict_curve(label, base, other)
    fig = go.Figure()
    for key, name, colour in (("better", f"{other} significantly better", "#009E73"),
                              ("worse", f"{other} significantly worse", "#D55E00"),
                              ("no_difference", "could be chance", "#999999")):
        fig.add_trace(go.Scatter(x=curve.index, y=curve[key], name=name, mode="lines+markers",
                                 line={"color": colour}))
    fig.update_layout(height=320, margin={"l": 10, "r": 10, "t": 30, "b": 10},
                      xaxis_title="queries drawn", yaxis_title=f"share of {jd.CURVE_DRAWS} draws",
                      yaxis={"range": [0, 1], "tickformat": ".0%"},
                      legend={"orientation": "h", "y": 1.15})
    st.plotly_chart(fig, key=P + "curve", config={"displayModeBar": False})
    st.caption(f"Each point: {jd.CURVE_DRAWS} random subsets of that many queries, each judged by the "
               "randomization test at α = 0.05, as the upload page judges the whole set.")


{"raters": raters_part, "pool": pool_part, "queries": queries_part}[S["part"]]()

lesson_links("pages/judgments.py")
S.keep_address()
