"""The "Choosing a metric" page through AppTest: the lecture's numbers, the K = 2 vs K = 5
twist, edits on the boards, and the decision aid."""

import pytest

from tests.apptest import run_page
from ui.lessons import choosing as ch


def run(**session):
    return run_page("choosing", session=session)


def table(at):
    """{metric row: {"Ranking n": cell text}} of the results table."""
    return at.table[0].value.to_dict("index")


def winners(row: dict) -> list[str]:
    return [col for col, cell in row.items() if cell.startswith(ch.WINNER_MARK)]


def number(cell: str) -> float:
    return float(cell.replace(ch.WINNER_MARK, "").strip())


def test_default_k2_ranking_1_wins_precision_and_recall():
    at = run()
    t = table(at)
    assert t["Relevant at ranks"] == {"Ranking 1": "1, 2, 6", "Ranking 2": "2, 5, 6",
                                      "Ranking 3": "3, 4, 5"}
    assert [number(c) for c in t["P@2"].values()] == [1.0, 0.5, 0.0]     # 2/2, 1/2, 0/2
    assert [number(c) for c in t["R@2"].values()] == [0.67, 0.33, 0.0]   # 2/3, 1/3, 0/3
    assert winners(t["P@2"]) == ["Ranking 1"] and winners(t["R@2"]) == ["Ranking 1"]
    assert [number(c) for c in t["Success@2"].values()] == [1.0, 1.0, 0.0]
    assert winners(t["Success@2"]) == ["Ranking 1", "Ranking 2"]        # a tie: both starred
    assert [number(c) for c in t["RR@2"].values()] == [1.0, 0.5, 0.0]
    assert "At **K = 2**, **Ranking 1** scores highest on both precision" in at.info[0].value


def test_k5_ranking_3_takes_the_lead_and_ap_does_not_move():
    at = run(choosing_k=5)
    t = table(at)
    assert [number(c) for c in t["P@5"].values()] == [0.4, 0.4, 0.6]     # 3/5 for ranking 3
    assert [number(c) for c in t["R@5"].values()] == [0.67, 0.67, 1.0]   # 3/3
    assert winners(t["P@5"]) == ["Ranking 3"] and winners(t["R@5"]) == ["Ranking 3"]
    assert winners(t["F1@5"]) == ["Ranking 3"]
    assert "At **K = 5**, **Ranking 3** scores highest on both" in at.info[0].value
    for k in (1, 2, 5, 6):
        ap = table(run(choosing_k=k))["AP"]
        assert [number(c) for c in ap.values()] == [0.83, 0.47, 0.48]    # the lecture's AP
        assert winners(ap) == ["Ranking 1"]


def test_moving_the_slider_reruns_with_the_new_k():
    at = run()
    at.slider(key="choosing_k").set_value(5).run()
    assert "P@5" in table(at) and winners(table(at)["P@5"]) == ["Ranking 3"]
    assert at.get("plotly_chart")[0].proto is not None


def test_the_insight_says_the_highest_precision_depends_on_k():
    text = run().info[0].value
    assert ("The highest precision depends on K: at K = 2 **Ranking 1**, at K = 5 "
            "**Ranking 3**.") in text
    assert "AP (0.83, 0.47, 0.48 for rankings 1, 2, 3) does not depend on K" in text


def insight_for(orders: dict[int, str], grades: dict[str, int] = ch.LECTURE_GRADES) -> str:
    """insight() for three rankings given as strings of document letters."""
    by_ranking = {n: [grades[d] for d in order] for n, order in orders.items()}
    scores = ch.score_all(by_ranking, 2)
    return ch.insight(scores, ch.score_all(by_ranking, 2, ["P"]),
                      ch.score_all(by_ranking, 5, ["P"]), scores.values["AP"])


def test_insight_when_nothing_is_relevant():
    text = insight_for(dict(ch.LECTURE_ORDERS), {d: 0 for d in ch.DOCS})
    assert "depends on K" not in text and "highest" not in text.split(". ", 1)[1]
    assert "precision is 0 for all three rankings at K = 2 and at K = 5" in text


def test_insight_when_all_three_tie_at_k2_only():
    # relevant at ranks 1, 3, 6 / 2, 5, 6 / 1, 3, 4: P@2 = 0.5 for all; P@5 = 0.4, 0.4, 0.6
    text = insight_for({1: "ADBEFC", 2: "DAEFBC", 3: "ADBCEF"})
    assert "at both K = 2 and K = 5" not in text
    assert "at K = 2 no ranking (all three score the same), at K = 5 **Ranking 3**." in text


def test_insight_names_every_tied_ranking():
    # rankings 1 and 3 identical (relevant at 1, 2, 3): they tie at K = 2 and at K = 5
    text = insight_for({1: "ABCDEF", 2: "DAEFBC", 3: "ABCDEF"})
    assert ("**Rankings 1 and 3** share the highest score on precision at both K = 2 and "
            "K = 5 (a tie)") in text
    # relevant at 1, 2, 6 / 2, 5, 6 / 1, 2, 3: 1 and 3 tie at K = 2, 3 alone wins at K = 5
    text = insight_for({1: "ABDEFC", 2: "DAEFBC", 3: "ABCDEF"})
    assert "at K = 2 **Rankings 1 and 3** (a tie), at K = 5 **Ranking 3**." \
        in text


def test_insight_when_all_three_rankings_are_the_same():
    text = insight_for({n: "ABDEFC" for n in ch.RANKINGS})
    assert "all three score the same on precision at K = 2 and at K = 5" in text
    assert "depends on K" not in text


def test_page_insight_when_nothing_is_judged_relevant():
    at = run(**{ch.GRADES_KEY: {d: 0 for d in ch.DOCS}})
    text = at.info[0].value
    assert "precision is 0 for all three rankings at K = 2 and at K = 5" in text
    assert "depends on K" not in text


def test_editing_a_ranking_changes_the_numbers():
    # ranking 3 reordered like ranking 1: now 1 and 3 tie on everything
    at = run(**{ch.order_key(3): list(ch.LECTURE_ORDERS[1])})
    t = table(at)
    assert t["Relevant at ranks"]["Ranking 3"] == "1, 2, 6"
    assert winners(t["P@2"]) == ["Ranking 1", "Ranking 3"]
    # a fourth relevant document (F) is judged in all three rankings at once
    at = run(**{ch.GRADES_KEY: {**ch.LECTURE_GRADES, "F": 1}})
    t = table(at)
    assert t["Relevant at ranks"] == {"Ranking 1": "1, 2, 5, 6", "Ranking 2": "2, 4, 5, 6",
                                      "Ranking 3": "3, 4, 5, 6"}
    assert number(t["R@2"]["Ranking 1"]) == 0.5                          # 2 of 4


def test_all_tied_means_no_star():
    same = {ch.order_key(n): list(ch.LECTURE_ORDERS[1]) for n in ch.RANKINGS}
    t = table(run(**same))
    assert all(not winners(row) for name, row in t.items() if name != "Relevant at ranks")


def test_reset_restores_the_lecture_rankings():
    at = run(**{ch.order_key(1): list("FEDCBA")})
    assert table(at)["Relevant at ranks"]["Ranking 1"] == "4, 5, 6"
    at.button(key="choosing_reset").click().run()
    assert table(at)["Relevant at ranks"]["Ranking 1"] == "1, 2, 6"


def test_winner_cells_are_styled_not_only_starred():
    styled = ch.styled_table(table_frame := run().table[0].value).to_html()
    assert "font-weight: 700" in styled and "rgba(230, 159, 0" in styled
    assert table_frame.shape == (7, 3)


@pytest.mark.parametrize("need, metric, text", [
    ("scroll", "Success", "Success@K"), ("several", "AP", "Avoid **RR**"),
    ("everything", "R", "Recall@K"), ("only_relevant", "P", "Precision@K"),
    ("balance", "F1", "F1@K"), ("finest", "AP", "finest distinctions"),
    ("graded", "nDCG", "NDCG@K")])
def test_decision_aid_follows_the_lecture(need, metric, text):
    at = run()
    at.radio(key="choosing_need").set_value(need).run()
    assert not at.exception
    shown = " ".join(m.value for m in at.markdown)
    assert text in shown
    assert ch.NEED_BY_KEY[need].metric == metric
    if need == "everything":
        assert ("(one query, no test), **Ranking 1** scores highest on R@2 (0.67, 0.33, "
                "0.00)") in shown


def test_how_each_number_is_made_shows_the_formula():
    at = run()
    at.selectbox(key="choosing_explain_ranking").set_value(3).run()
    at.selectbox(key="choosing_explain_metric").set_value("AP").run()
    assert any("0.48" in x.value for x in at.latex)
