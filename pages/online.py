"""Lesson 7: metrics as users. A browsing model turned into clicks, and what an A/B test and
an interleaving need to see an offline difference online. Numbers and sentences: irlib.online."""

from ui.shared.course import through_app_navigation

through_app_navigation()   # first, before the slow imports (ui/shared/course.py)

import streamlit as st

from irlib import online
from ui.lessons import online as ol
from ui.shared.charts import plotly_config
from ui.shared.course import lesson_links
from ui.shared.layout import board_page


P = ol.PREFIX
S = ol.page_state()
ol.init()

present = bool(S["present"])
board_page(present)
head = st.columns([5, 2], vertical_alignment="center")
head[0].title("Metrics as users: clicks, A/B tests and interleaving", anchor=False)
head[1].toggle("Presenter", **S.bind("present"),
               help="Larger text, no sidebar: for a projector. The link keeps it "
                    "(view=present).")
st.markdown(
    "Every metric describes a **user** who reads down a ranking and stops somewhere. Let that "
    "user loose on two rankings and they **click**, and clicks are what teams measure online: "
    "in an **A/B test** (half the users see each ranking) or by **interleaving** (every user "
    "sees one list mixed from both). How many users does it take to see an offline "
    "difference online?")

key = st.selectbox("The two rankings", tuple(ol.PAIRS), format_func=ol.PAIRS.get,
                   **S.bind("pair"))
pair = ol.pair(key)
values = S.values()
setting = ol.setting(values)
result = ol.comparison(pair, setting, int(S["users"]))
claims = online.online_claims(result, pair.name_a, pair.name_b, f"NDCG@{len(pair.order_a)}")
st.caption(f"{pair.source[0].upper()}{pair.source[1:]}. " + claims["offline"])

# --------------------------------------------------------------------------- the user behind
st.subheader("The user behind each metric", anchor="users")
controls, chart = st.columns([2, 3], gap="medium")
n = len(pair.order_a)
with controls:
    st.radio("Draw", tuple(ol.CURVES), format_func=ol.CURVES.get, **S.bind("curve"),
             horizontal=True,
             help="C/W/L (Moffat et al.): C(i) the chance the user reads on from rank i, "
                  "W(i) the share of their attention rank i gets, L(i) the chance they stop "
                  "at rank i.")
    left, middle, right = st.columns(3)
    left.slider("K", 1, n, **S.bind("k"), help="P@K, NDCG@K and ERR@K read K results.")
    middle.select_slider("RBP's patience p", ol.RBP_P, **S.bind("p"))
    right.select_slider("INST's target T", ol.INST_T, **S.bind("T"))
k = min(int(S["k"]), n)
measures = ol.user_measures(pair, k, float(S["p"]), float(S["T"]))
models = ol.user_models(pair, measures)
with chart:
    st.plotly_chart(ol.users_figure(models, measures, S["curve"], height=280),
                    key=P + "user_curves",
                    config=plotly_config(displayModeBar=False))
st.table(ol.user_rows(pair, models, measures, k), hide_index=True)
st.caption(f"On {pair.name_a}. Score: the measure itself (irlib); Σ W·g: the expected gain "
           "per result of the user the curve draws, equal to the score for P, RR, RBP and "
           "INST. NDCG divides DCG by the ideal DCG instead; ERR's user stops on the grades "
           "seen (dotted), so ERR is not a C/W/L measure and its score is Σ L(i)/i "
           "(Azzopardi et al. 2021). Binary measures count grade ≥ "
           f"{1 if pair.top_grade == 1 else 3} as relevant.")

# --------------------------------------------------------------------------- model to clicks
st.subheader("From the model to clicks", anchor="clicks")
controls, chart = st.columns([2, 3], gap="medium")
with controls:
    st.radio("Click model", online.MODELS, format_func=online.MODEL_NAMES.get,
             **S.bind("model"), horizontal=True,
             help="Cascade: reads from the top, clicks the first result that attracts them "
                  "and stops (or gives up, with the chance 1 − patience, after each result "
                  "that does not). Position-based: reads rank i with chance 1/i^η and clicks "
                  "whatever attracts them.")
    left, right = st.columns(2)
    left.select_slider("Noise: clicks that ignore the grade", ol.NOISE,
                       **S.bind("noise"), format_func=lambda v: f"{v:.0%}",
                       help="0: users trust the snippet, a useless result is never clicked. "
                            "50 %: they click at random, whatever the grade.")
    if S["model"] == "cascade":
        right.select_slider("Patience: reads on past a dull result", ol.PATIENCE,
                            **S.bind("patience"), format_func=lambda v: f"{v:.0%}")
    else:
        right.select_slider("Position bias η: rank i read with chance 1/i^η", ol.BIAS,
                            **S.bind("bias"))
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    left.select_slider("Users (per ranking here; per experiment below)", ol.USERS,
                       **S.bind("users"), format_func=lambda n: f"{n:,}")
    right.number_input("Seed", 0, 9999, step=1, **S.bind("seed"),
                       help="Same seed, same simulated users: the numbers repeat.")
day_a = online.simulate_one_day(pair.order_a, pair.grades, pair.top_grade, int(S["users"]),
                                setting=setting, salt=0)
day_b = online.simulate_one_day(pair.order_b, pair.grades, pair.top_grade, int(S["users"]),
                                setting=setting, salt=1)
with chart:
    # the result beside the controls, side by side on a phone too
    with st.container(horizontal=True, key=P + "tiles"):
        # the query's own rates; where the change touches only some searches, a line under
        # the tiles says so (the product team's sentence gives the overall change)
        st.metric(f"Click-through, {pair.name_a}", ol.rate_text(result.ctr_a))
        st.metric(f"Click-through, {pair.name_b}", ol.rate_text(result.ctr_b),
                  delta=ol.change_text(result.ctr_a, result.ctr_b))
    if (scope := ol.tile_scope(result)) is not None:
        st.caption(scope)
    st.plotly_chart(ol.clicks_figure(pair, result, day_a, day_b, height=290), key=P + "clicks",
                    config=plotly_config(displayModeBar=False))
    st.caption("Bars: each rank's chance of a click under the model (closed form). Diamonds: "
               "the share of the simulated users who clicked there. A click's chance is the "
               "result's attractiveness (from its grade) times the chance the user reads "
               "that far.")
bias = online.position_bias_claim(pair.order_a, pair.grades, result.clicks_a, pair.titles)
with st.expander("Position bias: one result, two ranks, two click rates", expanded=present):
    if bias:
        st.markdown(f"Under {pair.name_a}: " + bias)
    st.table(ol.per_result_rows(pair, result), hide_index=True)
    st.caption("The same result, judged once, draws different clicks at different ranks: "
               "clicks measure where a result was shown as much as how good it is.")

# --------------------------------------------------------------------------- A/B vs interleaving
st.subheader("A/B test or interleaving?", anchor="experiments")
numbers, curve = st.columns([2, 3], gap="medium")
with numbers:
    left, right = st.columns(2)
    left.radio("Interleaving", online.METHODS, format_func=online.METHOD_NAMES.get,
               **S.bind("method"),
               help="Team draft: a coin decides which ranking picks first in each round; a "
                    "click counts for the ranking that placed the result. Balanced: the "
                    "rankings take turns down their own lists.")
    right.select_slider("Searches changed", ol.TOUCHED, **S.bind("touched"),
                        format_func=lambda v: f"{v:.0%}",
                        help="The share of searches the change touches: a new ranker rarely changes "
                             "every search. On the others both "
                             "groups see the same list, which dilutes the difference an "
                             "experiment can see.")
    st.table(ol.experiments_rows(result))
with curve:
    rates = (result.traffic_ctr_a, result.traffic_ctr_b, result.votes.a, result.votes.b)
    st.plotly_chart(ol.power_figure(ol.curves(rates, setting.seed),
                                    {"ab": result.ab_needed,
                                     "interleaving": result.interleaving_needed}, height=300),
                    key=P + "power", config=plotly_config(displayModeBar=False))
    st.caption(f"Each point: {ol.CURVE_EXPERIMENTS} simulated experiments of that many users "
               f"(the sentences below: {result.ab_at_users.experiments:,} at each size they "
               "name); the share that "
               "found the difference (p < 0.05, the right way round). Dotted: the users the "
               "formula asks for.")
with st.container(border=True, key=P + "stakeholder"):
    st.markdown("**For the product team** — " + claims["stakeholder"])
said = st.columns(3)
said[0].markdown(claims["ab"])
said[1].markdown(claims["interleaving"])
said[2].markdown(claims["budget"])

with st.expander("How the simulation works"):
    st.markdown(
        "- **Attractiveness** from the grade g on a scale to G, with noise ε: "
        "a = ε + (1 − 2ε)(2^g − 1)/(2^G − 1) — NDCG's exponential gain, scaled to 0–1.\n"
        "- **Cascade**: P(click at i) = a_i · p^(i−1) · ∏_{j<i}(1 − a_j) with patience p "
        "(Craswell et al. 2008). **Position-based**: P(click at i) = a_i / i^η "
        "(Chuklin, Markov & de Rijke 2015).\n"
        "- **A/B test**: a user clicks through when they click anything; half the users per "
        "ranking; a two-proportion z-test.\n"
        "- **Interleaving**: every list the method can show and every click pattern are "
        "enumerated, so each user's chance to vote for either ranking is exact; a sign test "
        "over the votes (Radlinski, Kurup & Joachims 2008; Chapelle et al. 2012).\n"
        "- **Users for 80 %**: the normal-approximation sample size of each test, then run "
        "as seeded experiments at that size to check it.")

lesson_links("pages/online.py")
S.keep_address()
