"""The playground page, driven as a person would through AppTest: state in, numbers out."""
from urllib.parse import parse_qsl

import pytest

import irlib
from tests.apptest import component_data, run_page
from ui.shared.charts import PR_TRACES
from ui.lessons.playground.session import defaults, page_state


def run(query=None, **session):
    at = run_page("playground", query=query)
    if session:     # after the first run: that run loads the state from the URL
        for key, value in session.items():
            at.session_state["pg_" + key] = value
        at.run()
    assert not at.exception, at.exception
    return at


def test_default_state_shows_the_articles_numbers():
    at = run()
    assert not at.metric                      # the tiles are drawn by the live-chart component
    assert live_data(at)["note"].startswith("At K = 2: 1 true positive")
    shown = tiles(at)
    assert shown["Recall@2"] == "0.25" and shown["Precision@2"] == "0.5"
    assert shown["RR@2"] == "0.5"
    assert r"\frac{1}{1 + 3} = 0.25" in formula(at)["latex"]


def test_ap_at_8_is_054_with_the_articles_terms():
    at = run(k=8, metric="AP")
    assert tiles(at)["AP@8"] == "0.54"
    assert r"0.5 \cdot 1 + 0.5 \cdot 1 + 0.6 \cdot 1 + 0.57 \cdot 1}{4} = 0.54" in formula(at)["latex"]
    (table,) = formula(at)["tables"]                 # the article's terms, 3 decimals
    assert table["columns"] == ["rank", "rel_k", "Precision@k", "Precision@k · rel_k"]
    assert table["rows"][2] == ["3", "0", "0.333", "0.000"]


def test_graded_mode_gives_ndcg_at_2_039_and_the_dcg_table():
    at = run(mode="graded", metric="nDCG")
    shown = tiles(at)
    assert shown["NDCG@2"] == "0.39" and shown["DCG@2"] == "2.52" and shown["IDCG@2"] == "6.52"
    assert formula(at)["latex"].strip("$\n ").endswith(r"\frac{2.52}{6.52} = 0.39")
    ranking, ideal = formula(at)["tables"]
    assert [r[1] for r in ranking["rows"]] == ["0", "4"] and [r[1] for r in ideal["rows"]] == ["4", "4"]
    assert ranking["caption"] == "This ranking"
    assert ranking["rows"][1][2:] == ["4.000", "1.585", "2.524", "2.524"]      # 3 decimals


def test_exponential_gain_switch_changes_ndcg_at_8():
    assert tiles(run(mode="graded", k=8))["NDCG@8"] == "0.73"
    assert tiles(run(mode="graded", k=8, gain="exponential"))["NDCG@8"] == "0.68"


def test_dragging_rank_2_to_the_top_makes_rr_one():
    order = list(defaults().order)
    order.insert(0, order.pop(1))
    at = run(order=order, k=1)
    assert tiles(at)["RR@1"] == "1" and tiles(at)["Recall@1"] == "0.25"


def formula(at):
    """What the formula view gets (ui/shared/formula_view.py): its LaTeX and tables."""
    (data,) = component_data(at, "irlab_formula")
    return data["formula"]


def live_data(at):
    """What the live-chart component gets, as the browser gets it (ui/shared/live_chart.py)."""
    (data,) = component_data(at, "irlab_live_chart")
    return data


def tiles(at):
    """The metric tiles as the browser gets them (drawn by the live-chart component)."""
    return {t["label"]: t["value"] for t in live_data(at)["tiles"]}


def curves(at):
    """The live charts' data: {label: {trace name: y values}}, and the marked K."""
    data = live_data(at)
    charts = {c["label"]: {t["name"]: t["y"] for t in c["figure"]["data"]} for c in data["charts"]}
    marked = {x for c in data["charts"] for t in c["figure"]["data"]
              for x, size in zip(t["x"], t["marker"]["size"]) if size > 7}
    return charts, marked


def test_both_charts_carry_todays_curves_and_follow_a_drag():
    at = run()
    charts, marked = curves(at)
    rates, dcg = charts.values()
    assert len(charts) == 2 and marked == {2}
    assert rates["Recall@K"][:2] == [0.0, 0.25] and rates["RR@K"][1] == 0.5
    assert dcg["IDCG@K"][-1] == pytest.approx(1 + 1 / 1.58496 + 0.5 + 1 / 2.32193, abs=1e-4)

    order = list(defaults().order)
    order.insert(0, order.pop(1))       # the white cat to the top
    at = run(order=order, k=1)
    (rates, dcg), marked = curves(at)[0].values(), curves(at)[1]
    assert marked == {1} and rates["RR@K"][0] == 1.0 and rates["Recall@K"][0] == 0.25
    assert dcg["DCG@K"][0] == 1.0


def test_the_address_bar_is_a_link_to_what_the_page_shows():
    order = list(defaults().order)
    order.insert(0, order.pop(1))       # the white cat to the top
    at = run(order=order, k=1, metric="RR", labels={**defaults().labels, "dog": 1})
    query = live_data(at)["address"]
    assert "order=21345678" in query and "k=1" in query and "labels=11011010" in query
    reopened = run(query=dict(parse_qsl(query)))        # a colleague opens the link
    assert tiles(reopened) == tiles(at) and not reopened.info
    assert live_data(reopened)["address"] == query


def test_without_static_serving_only_the_charts_are_missing():
    """plotly.js comes from the static folder; the numbers must not depend on it."""
    from streamlit import config
    before = config.get_option("server.enableStaticServing")
    config.set_option("server.enableStaticServing", False)
    try:
        at = run()
    finally:
        config.set_option("server.enableStaticServing", before)
    assert any("enableStaticServing" in w.value for w in at.warning)
    assert live_data(at)["charts"] == [] and tiles(at)["Recall@2"] == "0.25"
    assert "order=12345678" in live_data(at)["address"]


def test_ideal_and_worst_buttons_reorder_by_judgment():
    at = run(k=4)
    at.button(key="pg_ideal").click().run()
    assert tiles(at)["Precision@4"] == "1" and tiles(at)["AP@4"] == "1"
    at.button(key="pg_worst").click().run()
    assert tiles(at)["Precision@4"] == "0"
    at.button(key="pg_reset").click().run()
    assert tiles(at)["Precision@4"] == "0.5"


def test_shared_url_opens_that_state():
    at = run(query={"order": "21345678", "k": "1", "metric": "RR", "mode": "binary"})
    assert tiles(at)["RR@1"] == "1"
    assert at.session_state["pg_order"][0] == "white-cat-box"
    assert not at.info        # a good link gives no notice


@pytest.mark.parametrize("params, field", [
    ({"order": "11111111"}, "order"), ({"k": "99"}, "k"), ({"mode": "<script>"}, "mode"),
    ({"labels": "01x"}, "labels"), ({"grades": "99999999"}, "grades"), ({"metric": "MAP"}, "metric"),
    ({"k": "²"}, "k"), ({"rel": "١"}, "rel"),                       # non-ASCII digits
    ({"mode": "[Click](https://evil.example)"}, "mode"),            # Markdown link injection
    ({"chart": "<b>roc</b>"}, "chart"),
])
def test_broken_url_falls_back_with_a_notice(params, field):
    at = run(query=params)
    assert any(f"`{field}`" in info.value for info in at.info)
    assert not any("evil" in info.value or "Click" in info.value for info in at.info)
    assert tiles(at)["Recall@2"] == "0.25"          # defaults still shown


def test_url_round_trip():
    at = run()
    params = dict(parse_qsl(live_data(at)["address"]))
    assert params["order"] == "12345678" and params["labels"] == "01011010"
    assert params["grades"] == "04134132"
    for field in page_state().fields:          # every field reads back what it wrote
        text = field.codec.encode(field.fresh_default())
        assert field.codec.parse(text) == field.fresh_default()


def test_a_link_with_several_bad_fields_gets_one_notice_naming_them():
    at = run(query={"k": "99", "mode": "x", "order": "1", "metric": "R"})
    (notice,) = at.info
    assert all(f"`{name}`" in notice.value for name in ("k", "mode", "order"))
    assert "`metric`" not in notice.value and tiles(at)["Recall@2"] == "0.25"


def test_the_second_chart_shows_precision_recall_and_the_link_keeps_it():
    """chart=pr: the second chart is the eight results' precision–recall graph from irlib, in
    graded mode counted from the page's "relevant if ≥" (here 3), K's point the large one and
    a click on it K; the link reopens it, and DCG comes back."""
    at = run(query={"chart": "pr", "mode": "graded", "rel": "3", "k": "3"})
    data = live_data(at)
    assert data["choice"]["value"] == "pr" and not at.info
    assert [o["value"] for o in data["choice"]["options"]] == ["dcg", "pr"]
    figure = data["charts"][1]["figure"]
    start = defaults()
    pr = irlib.precision_recall_batch([[start.grades[i] for i in start.order]], rel=3)
    assert [[t["x"], t["y"]] for t in figure["data"]] == \
        [[pr[name][0].tolist() for name in pair] for pair in PR_TRACES]
    envelope, points = figure["data"]
    assert "highest precision at this recall or beyond" in envelope["name"]
    sizes = points["marker"]["size"]
    assert sizes[2] == max(sizes) > sizes[0]
    assert figure["click"] == "customdata" and points["customdata"][2] == 3
    assert figure["layout"]["xaxis"]["title"]["text"] == "recall"
    query = data["address"]
    assert "chart=pr" in query and "rel=3" in query
    reopened = run(query=dict(parse_qsl(query)))          # a colleague opens the link
    assert live_data(reopened)["charts"][1]["figure"]["data"] == figure["data"]
    at.session_state["pg_chart"] = "dcg"     # the field the switch sets (a browser test clicks it)
    at.run()
    names = [t["name"] for t in live_data(at)["charts"][1]["figure"]["data"]]
    assert names == ["DCG@K", "IDCG@K"] and "chart=dcg" in live_data(at)["address"]



def bidi_names(at) -> list[str]:
    """The Components v2 elements the run drew, in page order (a stub's name as its full's)."""
    def walk(node):
        for child in getattr(node, "children", {}).values():
            if getattr(child, "type", None) == "bidi_component":
                yield child.proto.component_name.removesuffix("_rerun")
            yield from walk(child)
    return list(walk(at._tree))


def test_board_and_charts_are_one_element_unless_the_predict_panel_stands_between():
    """Issue 48: each Components v2 element costs a rerun about a millisecond of the server's
    time, so the board and the live charts are drawn as one (component_code.mount_parts), its
    data holding each part's, the formula view's too (no st.latex, no st.dataframe); Predict
    first's panel stands between the board and the rest, so then two."""
    at = run(metric="nDCG", mode="graded")
    assert bidi_names(at).count("irlab_board_and_charts") == 1
    assert not at.latex and not at.dataframe and formula(at)["tables"]
    assert "irlab_ranking_board" not in bidi_names(at) and "irlab_live_chart" not in bidi_names(at)
    (board,) = component_data(at, "irlab_ranking_board")
    assert len(board["order"]) == 8 and live_data(at)["tiles"]
    predicting = run_page("playground", query={"predict": "on"})
    names = bidi_names(predicting)
    assert "irlab_board_and_charts" not in names
    assert names.index("irlab_ranking_board") < names.index("irlab_charts_and_formula")
    assert component_data(predicting, "irlab_formula")[0]["preview"] is None   # no answers given


def test_the_metric_switch_in_the_formula_view_picks_the_formula_and_its_pros_and_cons():
    """The Metric switch moved into the joint element (ui/shared/formula_view.py): its trigger
    sets the metric, and the page reruns whole, so the pros and cons outside follow."""
    from tests.apptest import trigger
    at = run(k=8)
    assert r"\cdot 1}{4} = 0.54" not in formula(at)["latex"]      # not AP's yet
    at = trigger(at, "irlab_board_and_charts", "metric", "AP")
    assert not at.exception, at.exception
    assert r"\cdot 1}{4} = 0.54" in formula(at)["latex"]
    assert page_state_value(at, "metric") == "AP"
    assert any("**AP@K**" in m.value for m in at.markdown)          # the pros and cons
    at = trigger(at, "irlab_board_and_charts", "metric", "not a metric")
    assert page_state_value(at, "metric") == "AP"


def page_state_value(at, name):
    return at.session_state["pg_" + name]
