"""Lesson 1, the playground: drag the eight results, judge them, watch every metric move.

One screen on a laptop or a projector: a compact heading with the buttons, one row of
controls, the board, then tiles beside both curve charts; the formula below.
"""

from ui.shared.course import through_app_navigation

through_app_navigation()   # first, before the slow imports (ui/shared/course.py)

import streamlit as st

from irlib.measures.dcg import GAIN_FORMULAS
from ui.lessons.playground import example_editor as own_example
from ui.lessons.playground import predict
from ui.lessons.playground import session as pg
from ui.lessons.playground.preview import PRECISION_RECALL, formula_preview, neighbour_preview
from ui.shared.board import board_part as ranking_board_part
from ui.shared.catalog import board_items, load_catalog
from ui.shared.component_code import mount_part, mount_parts
from ui.shared.course import SOURCES, lesson_links
from ui.shared.formula import show_pros_cons
from ui.shared.formula_view import formula_part
from ui.shared.layout import board_page
from ui.shared.live_chart import charts_part
from ui.shared.texts import METRIC_TEXT, md_escape

P = pg.PREFIX
st.session_state[P + "full_run"] = True     # the live part sends pictures and code this time
pg.init()                   # first: a link's own example decides the board's fields
own_example.follow_history()     # Back or Forward onto the cats or an own example
S = pg.page_state()
state = pg.current()
example = pg.own_example()               # the lecturer's own example, or None: the cats
board_page(state.present, steady=not S["predict"],   # predicting: no preview
           tight=example is not None)               # its query may take two lines
# The presenter view: a lecturer's own example (3 to 12 results) keeps its type at 20 px or
# more on a laptop's screen too, its cards and tiles more compact ("present": board.css).
large = "present" if example is not None else "large"
# predicting adds a panel above the tiles: smaller cards keep the tiles in view (beside the
# sidebar; the presenter view's cards stay large, to be read from the back of a room)
size = large if state.present else "small" if S["predict"] else "normal"
if size == "normal" and example is not None and len(example.items) > 8:
    size = "compact"        # two rows of cards as tall as the cats' one row (board.css)
if example is None:
    query = load_catalog().queries[pg.BINARY_QUERY if state.mode == "binary"
                                   else pg.GRADED_QUERY].text
    head_title, items, things = f"Rank the cats: “{query}”", board_items(), "pictures"
else:
    head_title, items, things = (f"Rank the results: “{md_escape(example.query)}”",
                                 own_example.board_items(example), "cards")
if st.session_state.get(P + "own_notice"):
    st.info(st.session_state.pop(P + "own_notice"), icon=":material/link:")

head = st.columns([5, 6], vertical_alignment="center")
head[0].title(head_title, anchor=False)
with head[1].container(horizontal=True, horizontal_alignment="right", gap="small",
                       vertical_alignment="center"):
    st.button("↺ Sources", key=P + "reset", on_click=pg.reset,
              help=f"Back to the order and judgments of {SOURCES['article']}." if example is None else
                   "Back to your example's order and grades.")
    st.button("★ Ideal", key=P + "ideal", on_click=pg.sort_by_grade, args=(True,),
              help=f"Best-judged {things} first.")
    st.button("▼ Worst", key=P + "worst", on_click=pg.sort_by_grade, args=(False,),
              help=f"Best-judged {things} last.")
    st.button("⤮ Shuffle", key=P + "shuffle", on_click=pg.shuffle)
    # drawn only while open: its table and uploaders cost every run of the page otherwise
    own = st.popover("✎ Own example", key=own_example.POPOVER, on_change="rerun",
                     help="Your query, results and grades on this board: typed, or from a CSV "
                          "or JSON file.")
    if own.open:
        with own:
            own_example.panel()
if not (state.present or S["predict"]):      # predicting: its panel says what to do
    st.caption(f"**Drag** the {things}, **click a badge** to judge one: every number follows, "
               "even while a card is held. Keyboard: **Alt+↑/↓** moves a focused card, "
               + ("**Space** toggles relevant." if state.mode == "binary"
                  else "**0–4** sets its grade."))

controls = st.columns([2.4, 2.2, 1.2, 2.9, 1.5] if state.mode == "graded"
                      else [2.3, 2.3, 4.1, 1.5], vertical_alignment="bottom")
# The two modes, stacked in the row's last column: the heading keeps one line on a laptop.
with controls[-1]:
    st.toggle("Predict first", **S.bind("predict"),
              help="Each change waits: say whether a metric goes up, down or stays the same, "
                   "then see. The address bar keeps it (predict=on) and your score; to hand "
                   "the exercise out, copy “Link without my score” beside the score.")
    st.toggle("Presenter", **S.bind("present"),
              help="For a projector: no sidebar, no intro, bigger cards and numbers. "
                   "The link keeps it (view=present).")
controls[0].segmented_control(
    "Judgments", ["binary", "graded"], **S.bind("mode"), required=True,
    format_func={"binary": "Relevant / not", "graded": "Grades 0–4"}.get,
    help="Binary: the article's 'cat in a box' labels. Graded: the video's grades for "
         "'white cat in a box'." if example is None else
         "Binary: relevant or not (at first: grade 1 or more). Graded: your grades 0–4.")
if state.mode == "binary":
    # Disabled, with the reason in place of the label (a disabled widget's own label is
    # drawn too faint to read: WCAG contrast).
    controls[1].caption("NDCG gain: same for 0/1 labels")
controls[1].segmented_control(
    "NDCG gain", ["linear", "exponential"], **S.bind("gain"), required=True,
    format_func=GAIN_FORMULAS.get,
    disabled=state.mode == "binary",
    label_visibility="collapsed" if state.mode == "binary" else "visible",
    help="Linear: gain = grade (trec_eval). Exponential: 2^grade − 1 (the DCG notebook).")
if state.mode == "graded":
    controls[2].number_input("Relevant if ≥", 1, 4, **S.bind("rel"),
                             help="Binary metrics (P, R, F1, RR, AP) need a yes/no: a grade "
                                  "at least this counts as relevant.")
controls[-2].slider("K — results returned (the cut on the board)", 1,
                    len(state.order), **S.bind("k"))


# A drag or a badge click reruns only this part: the page above does not change with the
# board, and every element re-sent costs the server and each browser time (see
# benchmarks/bench_classroom.py). The formula follows the board, so the fragment draws it too,
# in the same element, under its heading and the Metric switch (ui/shared/formula_view.py);
# the metric's pros and cons, which do not change with the board, stay out of the rerun.
@st.fragment
def live_part() -> None:
    if pg.take_whole_run():
        st.rerun(scope="app")     # the K slider above, or the metric's pros and cons below
    values = pg.page_state().values()         # one read of each field for the whole run
    state = pg.current(values)
    judgments = state.current_grades()
    grades = [judgments[i] for i in state.order]
    rel = state.rel if state.mode == "graded" else 1
    k = state.k

    tiles, (scores, dcg) = pg.tile_measures(), pg.chart_measures()
    pr_chart = state.chart == "pr"       # the second chart: precision–recall, or DCG against K
    height = 270 if state.present else 240
    view = pg.board_view(grades, k=k, rel=rel, gain=state.gain, metric=state.metric,
                         chart=state.chart, height=height)
    confusion = view.confusion
    charts = [scores, PRECISION_RECALL if pr_chart else dcg]
    # Every state one drag or one judgment away, for the browser to show before this reruns;
    # not while predicting ("Predict first", ui/lessons/playground/predict.py): it would give the answer away.
    predicting = S["predict"]
    near = None if predicting else neighbour_preview(
        state.order, judgments, (0, 1) if state.mode == "binary" else range(5), k=k, rel=rel,
        gain=state.gain, tiles=tiles, charts=charts, note=pg.confusion_note)
    order, shown = predict.shown(S, judgments)        # a staged change, else the board
    # A drag or a badge click reruns only this fragment: the board keeps its pictures, and
    # both components keep their code (ui/shared/component_code.py) from the page's full run.
    full_run = st.session_state.pop(P + "full_run", False)
    # Board and charts in one element (component_code.mount_parts): each element costs a
    # rerun about a millisecond of the server's time (docs/benchmarks.md). Two elements
    # only when a goal or Predict first's panel stands between them.
    joint = not predicting and not own_example.has_goal()
    board_key = P + "live" if joint else P + "board"
    board, _ = ranking_board_part(
        items, order, shown, mode=state.mode, key=board_key, k=k,
        outcomes=None if (order, shown) != (list(state.order), judgments)
        else list(confusion.outcomes), on_change=pg.on_board_change,
        size=size, preview=near and near.board_json(P + "board"), send_images=full_run)
    # One part draws the caption, the tiles and both charts: they change in the same
    # frame, and every Streamlit element fewer is less for the browser to redo on each drag.
    curves = charts_part(
        view.charts_data, key=P + "live" if joint else P + "curves", on_click=pg.set_k_from_chart,
        address=pg.address(values),
        choice=("Second chart", pg.url_state.CHARTS, state.chart), on_choose=pg.set_chart,
        note=view.note, tiles=view.tiles_data,
        footer="Click a point to set K.", size=large if state.present else "normal",
        preview=near and near.for_charts(P + "board"))
    # The formula under its heading and the Metric switch, each neighbour's formula looked up
    # at a click like the tiles (ui/shared/formula_view.py).
    formula = formula_part(
        view.formula_data, heading="The math, with today's numbers",
        choice=("Metric", {m: METRIC_TEXT[m].label for m in pg.url_state.METRICS}, state.metric),
        on_choose=pg.set_metric, key=P + "live" if joint else P + "curves",
        preview=None if predicting else formula_preview(
            state.order, judgments, (0, 1) if state.mode == "binary" else range(5), k=k,
            rel=rel, gain=state.gain, metric=state.metric, board=P + "board"))
    if joint:
        mount_parts("irlab_board_and_charts", [board, curves, formula], key=P + "live",
                    send_code=full_run)
    else:
        mount_part(board, key=board_key, send_code=full_run)
        own_example.show_goal(list(state.order), judgments)      # a lecturer's goal, if set
        if predicting:
            predict.panel(S)
        mount_parts("irlab_charts_and_formula", [curves, formula], key=P + "curves",
                    send_code=full_run)


live_part()
show_pros_cons(state.metric)
if state.metric == "nDCG" and state.mode == "graded" and example is None:
    st.caption("The article later prints NDCG@2 = 0.41: that number comes from its code's "
               "grades [0, 7, 2, 4, 6, 1, 4, 3], not the 0–4 grades of its text (0.39).")
# An own example may be too long for a link, or carry pictures a link cannot: then the
# address does not hold the whole board, and the sentence says what it holds.
st.caption(":material/link: " + (
    "To share this exact board (order, judgments, mode, K, metric and view), copy the "
    "address bar: it always holds the whole state." if example is None
    else own_example.link_note(example)))
own_example.push_step()          # a switch between the cats and an own example: a Back step
lesson_links("pages/playground.py")
