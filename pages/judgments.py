"""Lesson 9: where judgments come from. Raters who disagree, documents nobody judged (pooling),
and how many queries a comparison needs. Every number comes from irlib (raters, pooling,
power); ui/lessons/judgments.py holds the data and the tables."""

from ui.shared.course import through_app_navigation

through_app_navigation()   # first, before the slow imports (ui/shared/course.py)

import html

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from irlib._common import InputError
from irlib.stats.power import observed_power, plan, spread
from ui.lessons import judgments as jd
from ui.shared.course import SOURCES, lesson_links
from ui.shared.layout import board_page
from ui.shared.texts import md_escape


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
        f"The **disagreement** query of {SOURCES['notebook']}: three raters graded four "
        "results 0–3 and kept "
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
    st.markdown(jd.uncertainty_sentence(yours))
    st.markdown(jd.ordinal_sentence(yours))
    st.subheader("Do raters reorder the systems?", anchor=False)
    st.markdown(jd.ranking_sentence(yours))
    _ranking_chart(jd.system_table(yours))
    st.markdown(jd.voorhees_sentence(yours))
    st.subheader("Same agreement, lower κ", anchor=False)
    st.table(jd.prevalence_table())
    st.markdown(jd.prevalence_sentence())


def _ranking_chart(scores: pd.DataFrame) -> None:
    """Each system's mean NDCG@4 under rater 1 (x) against you and rater 3 (y): on the
    diagonal when a rater agrees; the order along each axis is the ranking."""
    first, *others = scores.columns
    fig = go.Figure()
    for name, colour, symbol in zip(others, ("#0072B2", "#D55E00"), ("circle", "x")):
        fig.add_trace(go.Scatter(
            x=scores[first], y=scores[name], mode="markers", name=html.escape(name),
            marker={"color": colour, "symbol": symbol, "size": 8},
            text=list(scores.index),
            hovertemplate="system %{text}<br>" + f"{first}: " + "%{x:.3f}<br>"
                          + f"{html.escape(name)}: " + "%{y:.3f}<extra></extra>"))
    low = float(scores.min().min()) - 0.01
    high = float(scores.max().max()) + 0.01
    fig.add_shape(type="line", x0=low, y0=low, x1=high, y1=high,
                  line={"dash": "dot", "color": "#999999"})
    fig.update_layout(height=300, margin={"l": 10, "r": 10, "t": 10, "b": 10},
                      xaxis_title=f"mean NDCG@4, {first}", yaxis_title="mean NDCG@4, other",
                      xaxis={"range": [low, high]}, yaxis={"range": [low, high]},
                      legend={"orientation": "h", "y": -0.25})
    st.plotly_chart(fig, key=P + "systems", config={"displayModeBar": False})


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
    st.markdown(f"Judged@{jd.JUDGED_K} of C: {jd.judged_sentence(new_docs, c['judged_at_k'])}.")
    st.markdown("\n".join(f"- {line}"          # irlib's sentences: no learner text in them
                          for line in jd.pool_sentences(new_docs, depth, measure, in_pool)))
    st.caption("bpref (Buckley & Voorhees 2004) skips unjudged results by definition; "
               "trec_eval's version, shown here, divides by min(R, N), not by R as the "
               "paper's formula.")
    st.subheader("Would this pool be fair to a newcomer?", anchor=False)
    st.markdown(
        "Zobel's (1998) **leave-one-out** check: take each pooled system's own contribution "
        "(the documents no other system put in the pool) out of the judgments and score it "
        f"again. A system that falls would be underrated by this pool had it not taken "
        f"part. Measure: {measure}, unjudged = not relevant.")
    st.table(jd.leave_one_out_table(new_docs, depth, measure, in_pool))


def _frame(columns: dict) -> pd.DataFrame:
    return pd.DataFrame(columns).set_index("system")


def queries_part() -> None:
    upload = jd.uploaded_per_query()
    st.markdown(
        "**Plan before you test.** Say the smallest difference that would matter to you, "
        "take the spread of per-query differences from a pilot (two systems already run on "
        "similar queries: the sample TREC runs, 24 queries, or your upload in Lesson 10), and "
        "get the number of queries a paired test needs to find that difference.")
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
    c0, c1, c2, c3 = st.columns([3, 2, 2, 2], vertical_alignment="bottom")
    c0.segmented_control("Pilot data", list(jd.DATA), format_func=jd.DATA.get,
                         **S.bind("data"), required=True,
                         help="Your upload: the systems Lesson 10 scored in this session.")
    c1.selectbox("Pilot baseline", systems, **S.bind("base"))
    c2.selectbox("Pilot new system", systems, **S.bind("other"))
    if S["data"] == "upload" and upload is not None:
        c3.text_input("Measure", label, disabled=True, help="The measure the upload page "
                      "compares by; change it there.")
    else:
        c3.selectbox("Measure", list(jd.QUERY_MEASURES), **S.bind("query_measure"))
    c4, c5 = st.columns(2, vertical_alignment="bottom")
    c4.number_input(f"Smallest difference that matters ({label})", min_value=0.001,
                    max_value=1.0, step=0.005, format="%.3f", **S.bind("delta"),
                    help="Decided before the study: the gain you would not want to miss.")
    c5.slider("Power (%)", 50, 99, **S.bind("power"),
              help="The chance of finding the difference when it is really there.")
    base, other = S["base"], S["other"]
    if base == other:
        st.info("Pick two different systems for the pilot.", icon=":material/info:")
        return
    diff = (table[other] - table[base]).dropna()
    if len(diff) < 3:
        st.info("These two systems share fewer than three scored queries: too few for a "
                "pilot.", icon=":material/info:")
        return
    mean, sd, n = spread(diff)
    if sd == 0:
        st.info("The two systems differ by the same amount on every query (or not at all): "
                "there is no spread to plan with.", icon=":material/info:")
        return
    delta, power = float(S["delta"]), S["power"] / 100
    p = plan(delta, sd, n, power=power)
    st.markdown(
        f"The pilot's {n} queries put the standard deviation of the per-query differences "
        f"of {md_escape(label)} at **{sd:.4f}** ({p.level:.0%} interval {p.sd_low:.4f} to "
        f"{p.sd_high:.4f}). Effect size d = difference ÷ that SD = {delta:g} ÷ {sd:.4f} = "
        f"**{p.effect_size:.2f}**. A two-sided paired t-test at α = 0.05 needs **"
        f"{p.needed.queries:,} queries** for power {power:.0%}: **{p.fewest.queries:,} to "
        f"{p.most.queries:,}** over the SD's interval.")
    sizes = tuple(jd.curve_sizes(n, p.needed.queries, p.most.queries))
    curve = jd.study_curve(diff, delta, sizes)
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=curve.index, y=curve["better"], mode="lines+markers",
                             name="finds the difference", line={"color": "#009E73"}))
    fig.add_hline(y=power, line={"dash": "dot", "color": "#999999"})
    for x, text in ((p.needed.queries, f"{p.needed.queries} needed"),):
        if x <= max(sizes):
            fig.add_vline(x=x, line={"dash": "dot", "color": "#555555"},
                          annotation_text=text, annotation_position="top")
    fig.add_vrect(x0=p.fewest.queries, x1=min(p.most.queries, max(sizes)),
                  fillcolor="#999999", opacity=0.12, line_width=0)
    fig.update_layout(height=260, margin={"l": 10, "r": 10, "t": 30, "b": 10},
                      xaxis_title="queries in the study", yaxis_title="studies that find it",
                      yaxis={"range": [0, 1.02], "tickformat": ".0%"}, showlegend=False)
    st.plotly_chart(fig, key=P + "curve", config={"displayModeBar": False})
    found = curve.loc[p.needed.queries, "better"] if p.needed.queries in curve.index else None
    st.markdown(
        f"Simulated studies: the pilot's differences moved to a true mean of {delta:g} (their "
        f"spread kept), drawn with replacement, each judged by the randomization test at "
        f"α = 0.05 as the upload page judges."
        + (f" With {p.needed.queries} queries, **{found:.0%}** of {jd.CURVE_DRAWS} studies "
           f"find it (planned: {power:.0%})." if found is not None else ""))
    st.caption("Shaded: the queries needed over the SD's interval. Dotted line: the power "
               "asked for. Two-sided: a difference in either direction counts.")
    o = observed_power(diff)
    low, high = o.queries_range
    st.markdown(
        f"**Not this:** the pilot's own difference, {mean:+.4f} (effect size "
        f"{o.effect_size:.2f}, p = {o.p_value:.3f}), gives an *observed power* of "
        f"{o.power:.0%} at its {n} queries. That number only restates p (Hoenig & Heisey "
        f"2001). Its effect size could be anywhere from {o.effect_low:.2f} to "
        f"{o.effect_high:.2f} ({o.level:.0%} interval), so the queries it would need range "
        f"from {low:,} to " + ("∞" if high == float("inf") else f"{high:,}") + ".")


{"raters": raters_part, "pool": pool_part, "queries": queries_part}[S["part"]]()

lesson_links("pages/judgments.py")
S.keep_address()
