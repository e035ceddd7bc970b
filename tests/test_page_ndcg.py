"""AppTest for the NDCG page: the article's worked numbers, gains, and the ideal's source."""
from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from tests.apptest import run_page
from ui.shared.catalog import load_catalog
from ui.shared.boards import order_key
from ui.lessons.ndcg import ND


def run(**state) -> AppTest:
    return run_page("ndcg", session=state)


def tiles(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def latex(at: AppTest) -> list[str]:
    """Every formula on the page, without the $$ delimiters st.latex adds."""
    return [x.value.strip().removeprefix("$$").removesuffix("$$").strip() for x in at.latex]


def chart_traces(at: AppTest, index: int) -> list[str]:
    spec = json.loads(at.get("plotly_chart")[index].proto.spec)
    return [trace["name"] for trace in spec["data"]]


@pytest.fixture(scope="module")
def default() -> AppTest:
    return run()


def test_default_tiles_are_the_articles_k2_numbers(default):
    t = tiles(default)
    assert (t["CG@2"], t["DCG@2"], t["IDCG@2"], t["NDCG@2"]) == ("4", "2.52", "6.52", "0.39")


def test_default_step_by_step_formulas(default):
    tex = latex(default)
    # CG@2 = 4 in both orders of the first two (the page's order, then the swapped one)
    cg, cg_swapped, dcg, dcg_swapped = tex[:4]
    assert cg.startswith(r"\begin{aligned}\text{CG@2}")
    assert cg.endswith(r"&= 0 + 4 = 4\end{aligned}")
    assert r"\text{CG@2}" in cg_swapped and cg_swapped.endswith(r"&= 4 + 0 = 4\end{aligned}")
    # DCG@2 = 2.52, and 4 when swapped
    assert dcg.startswith(r"\begin{aligned}\text{DCG@2}")
    assert r"&= \frac{0}{\log_2(2)} + \frac{4}{\log_2(3)} = 2.52" in dcg
    assert r"\text{DCG@2}" in dcg_swapped
    assert r"&= \frac{4}{\log_2(2)} + \frac{0}{\log_2(3)} = 4" in dcg_swapped
    captions = [c.value for c in default.caption]
    assert captions.count("With the first two results swapped:") == 2
    # IDCG@2 = 6.52 and NDCG@2 = 0.39
    assert r"\text{IDCG@2} = \frac{4}{\log_2(2)} + \frac{4}{\log_2(3)} = 6.52" in tex
    assert r"\text{NDCG@2} = \frac{DCG@2}{IDCG@2} = \frac{2.52}{6.52} = 0.39" in tex


def test_the_articles_041_comes_from_its_code_grades(default):
    assert default.expander[0].label == "Where the article's 0.41 comes from"
    assert "[0, 7, 2, 4, 6, 1, 4, 3]" in default.expander[0].markdown[0].value
    assert r"\text{NDCG@2} = \frac{DCG@2}{IDCG@2} = \frac{4.42}{10.79} = 0.41" in latex(default)


def test_swap_button_changes_dcg_but_not_cg(default):
    at = run()
    at.button(key=ND + "swap").click().run()
    t = tiles(at)
    assert (t["CG@2"], t["DCG@2"], t["IDCG@2"], t["NDCG@2"]) == ("4", "4", "6.52", "0.61")
    at.button(key=ND + "reset").click().run()
    assert tiles(at)["DCG@2"] == "2.52"


def test_ndcg8_linear_then_exponential_gain():
    at = run(**{ND + "k": 8})
    assert tiles(at)["NDCG@8"] == "0.73"
    at.button_group(key=ND + "gain").set_value("exponential").run()
    assert tiles(at)["NDCG@8"] == "0.68"
    assert any(r"\text{DCG@8}" in x and "(2^{4}-1)" in x for x in latex(at))


def test_k8_and_exponential_at_k2():
    at = run(**{ND + "gain": "exponential"})
    t = tiles(at)
    # 15/log2(3) = 9.46; ideal 15 + 9.46 = 24.46; NDCG@2 is still 0.39 (both top grades are 4)
    assert (t["CG@2"], t["DCG@2"], t["IDCG@2"], t["NDCG@2"]) == ("4", "9.46", "24.46", "0.39")


def test_dcg_chart_shows_both_gains_when_asked(default):
    assert chart_traces(default, 0) == ["DCG (grade)", "IDCG (grade)",
                                        "DCG (2^grade − 1)", "IDCG (2^grade − 1)"]
    at = run(**{ND + "both": False})
    assert chart_traces(at, 0) == ["DCG (grade)", "IDCG (grade)"]
    at.toggle(key=ND + "both").set_value(True).run()
    assert len(chart_traces(at, 0)) == 4


def test_ideal_source_matters_once_the_list_is_short():
    # The system returns the top 4 (grades 0, 4, 1, 3); the judged pool still has 4, 3, 2, 1.
    at = run(**{ND + "k": 8, ND + "shown": 4})
    t = tiles(at)
    assert t["NDCG@8"] == "0.4"                      # ideal from all eight judged pictures
    assert t["NDCG@8, ideal from all judged"] == "0.4"
    assert t["NDCG@8, ideal from the shown list"] == "0.68"
    at.button_group(key=ND + "ideal").set_value("shown").run()
    assert tiles(at)["NDCG@8"] == "0.68"             # scikit-learn's view
    assert tiles(at)["IDCG@8"] == "6.39"             # 4 + 3/log2(3) + 1/2 + 0


def test_all_shown_both_ideals_agree(default):
    t = tiles(default)
    assert t["NDCG@2, ideal from all judged"] == t["NDCG@2, ideal from the shown list"] == "0.39"


def test_board_state_drives_the_numbers():
    ids = list(load_catalog().items)
    grades = load_catalog().queries["white-cat-in-a-box"].grades
    ideal = sorted(ids, key=lambda i: -grades[i])
    at = run(**{order_key(ND): ideal, ND + "k": 8})
    assert tiles(at)["NDCG@8"] == "1"
    at.button(key=ND + "reset").click().run()
    assert tiles(at)["NDCG@8"] == "0.73"


def test_every_widget_has_a_key(default):
    for widget in (*default.slider, *default.button, *default.toggle,
                   *default.button_group):
        assert widget.key, widget


@pytest.mark.parametrize("gain", ["linear", "exponential"])
@pytest.mark.parametrize("ideal", ["judged", "shown"])
def test_all_zero_grades_and_a_one_result_list(gain, ideal):
    ids = list(load_catalog().items)
    at = run(**{ND + "grades": {i: 0 for i in ids}, ND + "gain": gain, ND + "ideal": ideal})
    assert tiles(at)["NDCG@2"] == "0"
    at = run(**{ND + "shown": 1, ND + "k": 8, ND + "gain": gain, ND + "ideal": ideal})
    assert tiles(at)["DCG@8"] == "0"                  # only the dog (grade 0) is returned
