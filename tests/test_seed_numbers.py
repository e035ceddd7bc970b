"""The sources' worked numbers, exactly (see ../shared/seeds/README.md)."""
import pytest

import irlib
from irlib import (average_precision, cg_at_k, dcg_at_k, idcg_at_k, mean_average_precision,
                   mean_reciprocal_rank, ndcg_at_k, precision_at_k, recall_at_k, reciprocal_rank)

CAT_IN_A_BOX = [0, 1, 0, 1, 1, 0, 1, 0]          # article: relevant at ranks 2, 4, 5, 7
WHITE_CAT = [1, 0, 0, 1, 1, 0, 1, 0]             # relevant at 1, 4, 5, 7
DARK_CATS = [0, 0, 0, 0, 1, 0, 0, 1]             # relevant at 5, 8
GRADED = [0, 4, 1, 3, 4, 1, 3, 2]                # video: "white cat in a box", grades 0-4
ARTICLE_CODE_GRADES = [0, 7, 2, 4, 6, 1, 4, 3]   # article's NDCG code (erratum: not 0-4)


def test_article_recall_at_1_to_8():
    assert [recall_at_k(CAT_IN_A_BOX, k) for k in range(1, 9)] == \
        [0, 0.25, 0.25, 0.5, 0.75, 0.75, 1, 1]
    assert irlib.metric_curves(CAT_IN_A_BOX)["R"].tolist() == [0, 0.25, 0.25, 0.5, 0.75, 0.75, 1, 1]


def test_article_precision_at_2():
    assert precision_at_k(CAT_IN_A_BOX, 2) == 0.5


def test_article_three_queries_rr_and_mrr():
    queries = [CAT_IN_A_BOX, WHITE_CAT, DARK_CATS]
    assert [reciprocal_rank(q) for q in queries] == [0.5, 1.0, 0.2]
    assert mean_reciprocal_rank(queries) == pytest.approx(0.5667, abs=5e-5)


def test_article_three_queries_ap_at_8_and_map():
    queries = [CAT_IN_A_BOX, WHITE_CAT, DARK_CATS]
    assert [average_precision(q, 8) for q in queries] == \
        pytest.approx([0.542857, 0.667857, 0.225], abs=5e-7)
    # erratum: the article prints 0.22 in the text and 0.23 in the code output; exact is 0.225
    assert average_precision(DARK_CATS, 8) == 0.225
    assert mean_average_precision(queries, 8) == pytest.approx(0.478571, abs=5e-7)


def test_graded_cg_dcg_idcg_ndcg_at_2():
    swapped = [4, 0] + GRADED[2:]
    assert cg_at_k(GRADED, 2) == 4 and cg_at_k(swapped, 2) == 4
    assert dcg_at_k(GRADED, 2) == pytest.approx(2.5237, abs=5e-5)
    assert dcg_at_k(swapped, 2) == 4.0
    assert idcg_at_k(GRADED, 2) == pytest.approx(6.5237, abs=5e-5)
    assert ndcg_at_k(GRADED, 2) == pytest.approx(0.3869, abs=5e-5)


def test_graded_ndcg_at_8_linear_and_exponential():
    assert ndcg_at_k(GRADED, 8) == pytest.approx(0.7283, abs=5e-5)
    assert ndcg_at_k(GRADED, 8, gain="exponential") == pytest.approx(0.6829, abs=5e-5)


def test_article_code_grades_give_its_0_41():
    assert ndcg_at_k(ARTICLE_CODE_GRADES, 2) == pytest.approx(0.4095, abs=5e-5)


LECTURE = {  # six documents, relevant ranks
    "ranking 1": [1, 1, 0, 0, 0, 1],
    "ranking 2": [0, 1, 0, 0, 1, 1],
    "ranking 3": [0, 0, 1, 1, 1, 0],
}


def test_lecture_three_rankings():
    r = list(LECTURE.values())
    assert [irlib.success_at_k(g, 2) for g in r] == [1, 1, 0]
    assert [reciprocal_rank(g, 2) for g in r] == [1, 0.5, 0]
    assert [precision_at_k(g, 2) for g in r] == [1, 0.5, 0]
    assert [recall_at_k(g, 2) for g in r] == pytest.approx([2 / 3, 1 / 3, 0])
    assert [precision_at_k(g, 5) for g in r] == pytest.approx([0.4, 0.4, 0.6])
    assert [recall_at_k(g, 5) for g in r] == pytest.approx([2 / 3, 2 / 3, 1])
    assert [average_precision(g) for g in r] == pytest.approx([0.8333, 0.4667, 0.4778], abs=5e-5)


@pytest.mark.parametrize("grades, expected", [
    ([2, 3, 0, 1], 7.847185), ([3, 2, 1, 0], 9.392789), ([0, 0, 0, 1], 0.430677)])
def test_notebook_exponential_dcg_at_4(grades, expected):
    assert dcg_at_k(grades, 4, gain="exponential") == pytest.approx(expected, abs=5e-7)


def test_library_conventions_ap_at_2_denominators():
    assert average_precision(GRADED, 2, denominator="relevant") == pytest.approx(0.0714, abs=5e-5)
    assert average_precision(GRADED, 2, denominator="min_r_k") == 0.25
    assert average_precision(GRADED, 2, denominator="retrieved") == 0.5


def test_explain_substitutes_the_articles_numbers():
    assert irlib.explain("R", CAT_IN_A_BOX, 2).latex.endswith(r"\frac{1}{1 + 3} = 0.25")
    ap = irlib.explain("AP", CAT_IN_A_BOX, 8)
    assert r"0.5 \cdot 1 + 0.5 \cdot 1 + 0.6 \cdot 1 + 0.57 \cdot 1}{4} = 0.54" in ap.latex
    dcg = irlib.explain("DCG", GRADED, 2)
    assert r"\frac{0}{\log_2(2)} + \frac{4}{\log_2(3)} = 2.52" in dcg.latex
    assert [round(r["running_dcg"], 4) for r in dcg.rows] == [0, 2.5237]
    nd = irlib.explain("nDCG", GRADED, 2)
    assert nd.ideal_rows[0]["grade"] == 4 and nd.latex.endswith(r"\frac{2.52}{6.52} = 0.39")
    rr = irlib.explain("RR", CAT_IN_A_BOX, 8)
    assert rr.details["first_relevant_rank"] == 2 and rr.value == 0.5
    c = irlib.explain("P", CAT_IN_A_BOX, 2).details
    assert (c["tp"], c["fp"], c["fn"], c["tn"]) == (1, 1, 3, 3)


def test_precision_formula_divides_by_k_even_when_fewer_were_returned():
    assert irlib.explain("P", CAT_IN_A_BOX, 2).latex.endswith(r"\frac{1}{2} = 0.5")
    short = irlib.explain("P", [1, 1, 1, 0], 10)
    assert short.value == 0.3 and r"\frac{3}{10} = 0.3" in short.latex
    assert "only 4 returned" in short.latex
