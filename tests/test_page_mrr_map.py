"""AppTest for the MRR & MAP page: the article's numbers by default, and live updates."""
from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.apptest import run_page
from ui.shared.catalog import load_catalog
from ui.shared.boards import grades_key, order_key
from ui.lessons.mrr_map import MM, MRR_QUERIES


def run(**state) -> AppTest:
    return run_page("mrr_map", session=state)


def tiles(at: AppTest) -> list[tuple[str, str]]:
    """Each query's RR and AP tiles in query order, the means (drawn first, beside K), then
    the "ten results" demo's."""
    shown = [(m.label, m.value) for m in at.metric]
    return shown[2:8] + shown[:2] + shown[8:]


def latex(at: AppTest) -> str:
    return "\n".join(x.value for x in at.latex)


def table(at: AppTest):
    return at.dataframe[0].value


@pytest.fixture(scope="module")
def default() -> AppTest:
    return run()


def test_default_orders_match_the_articles_relevant_ranks():
    catalog = load_catalog()
    ranks = {}
    for qid in MRR_QUERIES:
        q = catalog.queries[qid]
        ranks[qid] = [r for r, item in enumerate(q.order, 1) if q.grades[item]]
    assert ranks == {"cat-in-a-box": [2, 4, 5, 7], "white-animal": [1, 4, 5, 7],
                     "dark-cats": [5, 8]}


def test_default_tiles_per_query_and_means(default):
    assert tiles(default)[:8] == [
        ("RR@8", "0.5"), ("AP@8", "0.54"),     # cat in a box
        ("RR@8", "1"), ("AP@8", "0.67"),       # white animal (the article's "white cat")
        ("RR@8", "0.2"), ("AP@8", "0.23"),     # dark cats (exact 0.225)
        ("MRR@8", "0.57"), ("MAP@8", "0.48")]


def test_default_formulas_are_substituted(default):
    tex = latex(default)
    assert r"\frac{1}{3}\left(\frac{1}{2} + \frac{1}{1} + \frac{1}{5}\right)" in tex
    assert r"\frac{0.5 + 1 + 0.2}{3} = 0.57" in tex
    assert r"\frac{0.54 + 0.67 + 0.23}{3} = 0.48" in tex
    # AP@8 of each query, as the article writes it (with the right precisions for query 2)
    assert r"\frac{0.5 \cdot 1 + 0.5 \cdot 1 + 0.6 \cdot 1 + 0.57 \cdot 1}{4} = 0.54" in tex
    assert r"\frac{1 \cdot 1 + 0.5 \cdot 1 + 0.6 \cdot 1 + 0.57 \cdot 1}{4} = 0.67" in tex
    assert r"\frac{0.2 \cdot 1 + 0.25 \cdot 1}{2} = 0.23" in tex
    assert r"\frac{1}{2} = 0.5" in tex and r"\frac{1}{5} = 0.2" in tex


def test_default_table_rows_and_means(default):
    df = table(default)
    assert list(df["Query"]) == ["1. cat in a box", "2. white animal", "3. dark cats",
                                 "Mean of 3 queries"]
    assert df["RR@8"].round(4).tolist() == [0.5, 1.0, 0.2, 0.5667]
    assert df["AP@8"].round(4).tolist() == [0.5429, 0.6679, 0.225, 0.4786]
    assert df["First relevant at rank"].tolist()[:3] == ["2", "1", "5"]


def test_page_says_why_white_animal_and_the_errata(default):
    text = " ".join(c.value for c in default.caption) + " ".join(m.value for m in default.markdown)
    assert "white animal" in text and "white cat" in text
    assert "0.225" in text and "labelled **RR**" in text


def test_moving_a_hit_to_rank_one_updates_rr_and_mrr():
    q = load_catalog().queries["cat-in-a-box"]
    order = list(q.order)
    order[0], order[1] = order[1], order[0]          # white cat in a box to rank 1
    at = run(**{order_key(MM, "cat-in-a-box"): order})
    assert tiles(at)[0] == ("RR@8", "1")
    assert ("MRR@8", "0.73") in tiles(at)
    assert r"\frac{1 + 1 + 0.2}{3} = 0.73" in latex(at)
    # AP@8 = (1 + 0.5 + 0.6 + 0.57) / 4 = 0.67 now, MAP = (0.67 + 0.67 + 0.23) / 3 = 0.52
    assert tiles(at)[1] == ("AP@8", "0.67")
    assert ("MAP@8", "0.52") in tiles(at)


def test_changing_a_judgment_updates_the_query():
    grades = dict(load_catalog().queries["white-animal"].grades)
    grades["dog"] = 0                                # rank 1 no longer relevant
    at = run(**{grades_key(MM, "white-animal"): grades})
    assert tiles(at)[2] == ("RR@8", "0.25")          # first hit now at rank 4
    assert table(at)["First relevant at rank"][1] == "4"
    assert r"\frac{0.5 + 0.25 + 0.2}{3} = 0.32" in latex(at)


def test_k_cuts_every_query():
    at = run(**{MM + "k": 4})
    assert tiles(at)[4] == ("RR@4", "0")             # dark cats: first hit at rank 5
    assert ("MRR@4", "0.5") in tiles(at)
    assert table(at)["First relevant at rank"][2] == "none in the top 4"
    assert r"\frac{1}{3}\left(\frac{1}{2} + \frac{1}{1} + 0\right)" in latex(at)


def test_reset_restores_the_articles_rankings():
    q = load_catalog().queries["dark-cats"]
    at = run(**{order_key(MM, "dark-cats"): list(reversed(q.order))})
    assert tiles(at)[4] == ("RR@8", "1")
    at.button(key=MM + "reset").click().run()
    assert tiles(at)[4] == ("RR@8", "0.2")
    assert ("MRR@8", "0.57") in tiles(at)


def test_ten_results_one_relevant(default):
    t = dict(tiles(default)[8:])
    assert t == {"RR@10": "1", "Precision@10": "0.1", "Recall@10": "0.1", "AP@10": "0.1"}


def test_ten_results_more_hits_leave_rr_alone():
    at = run(**{MM + "ten_hits": 10})
    t = dict(tiles(at)[8:])
    assert t == {"RR@10": "1", "Precision@10": "1", "Recall@10": "1", "AP@10": "1"}
    at = run(**{MM + "ten_first": 3, MM + "ten_hits": 2})
    t = dict(tiles(at)[8:])
    # hits at 3 and 4: RR = 1/3, P@10 = 0.2, AP@10 = (1/3 + 2/4) / 10
    assert t == {"RR@10": "0.33", "Precision@10": "0.2", "Recall@10": "0.2", "AP@10": "0.08"}


def test_every_widget_has_a_key(default):
    for widget in (*default.slider, *default.button):
        assert widget.key, widget


def test_no_relevant_result_anywhere_scores_zero_without_errors():
    ids = list(load_catalog().items)
    at = run(**{MM + "k": 3, **{grades_key(MM, q): {i: 0 for i in ids} for q in MRR_QUERIES}})
    assert ("MRR@3", "0") in tiles(at) and ("MAP@3", "0") in tiles(at)
    assert set(table(at)["First relevant at rank"][:3]) == {"none in the top 3"}
