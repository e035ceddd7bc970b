"""The sources' worked numbers (../shared/seeds/, see its README.md), in two kinds.

* Printed: a number the source prints, with the file and the place (line, or the video's
  timestamp), checked at the precision it is printed with.
* Derived: a number the sources do not print but that follows from their examples; each is
  written as its arithmetic, so a reader can check it by hand.

Seeds: 000 video transcript, 002 article, 003 lecture transcript, 004 DCG notebook.
"""
from math import log2

import pytest

import irlib
from irlib import (average_precision, cg_at_k, dcg_at_k, idcg_at_k, mean_average_precision,
                   mean_reciprocal_rank, ndcg_at_k, precision_at_k, recall_at_k, reciprocal_rank)

CAT_IN_A_BOX = [0, 1, 0, 1, 1, 0, 1, 0]          # 002: relevant at ranks 2, 4, 5, 7
WHITE_CAT = [1, 0, 0, 1, 1, 0, 1, 0]             # 002: relevant at 1, 4, 5, 7
DARK_CATS = [0, 0, 0, 0, 1, 0, 0, 1]             # 002: relevant at 5, 8
THREE_QUERIES = [CAT_IN_A_BOX, WHITE_CAT, DARK_CATS]
GRADED = [0, 4, 1, 3, 4, 1, 3, 2]                # 000 / 002: "white cat in a box", grades 0-4
ARTICLE_CODE_GRADES = [0, 7, 2, 4, 6, 1, 4, 3]   # 002's NDCG code (erratum: not 0-4)
LECTURE = [[1, 1, 0, 0, 0, 1],                   # 003: three rankings of six documents
           [0, 1, 0, 0, 1, 1],
           [0, 0, 1, 1, 1, 0]]


def printed(value: float, decimals: int) -> float:
    return round(value, decimals)


# =========================================================================== printed

def test_printed_article_recall_at_1_to_8():
    """002 line 121 (notebook output): Recall@1 = 0.0 ... Recall@8 = 1.0."""
    expected = [0.0, 0.25, 0.25, 0.5, 0.75, 0.75, 1.0, 1.0]
    assert [recall_at_k(CAT_IN_A_BOX, k) for k in range(1, 9)] == expected
    assert irlib.metric_curves(CAT_IN_A_BOX)["R"].tolist() == expected


def test_printed_article_precision_at_2():
    """002 line 217: Precision@2 = 1/2 = 0.5."""
    assert precision_at_k(CAT_IN_A_BOX, 2) == 0.5


def test_printed_article_reciprocal_ranks_and_mrr():
    """002 lines 157-167 and 182 (code output): 0.5, 1.0, 0.2; MRR ≅ 0.57."""
    assert [reciprocal_rank(q) for q in THREE_QUERIES] == [0.5, 1.0, 0.2]
    assert printed(mean_reciprocal_rank(THREE_QUERIES), 2) == 0.57


def test_printed_article_ap_at_8_and_map():
    """002 lines 243-255 (text): 0.54, 0.67, 0.22, MAP 0.48; line 266 (code): 0.23.

    Erratum (seeds README): the third is 0.225, so it prints as 0.22 or 0.23 depending on
    the rounding; both are a correct rounding of the exact value (see the derived tests).
    """
    ap = [average_precision(q, 8) for q in THREE_QUERIES]
    assert [printed(x, 2) for x in ap[:2]] == [0.54, 0.67]
    assert abs(ap[2] - 0.22) <= 0.005 + 1e-12 and abs(ap[2] - 0.23) <= 0.005 + 1e-12
    assert printed(mean_average_precision(THREE_QUERIES, 8), 2) == 0.48


def test_printed_article_cg_dcg_idcg_ndcg_at_2():
    """002 line 320: DCG@2 = 0 + 2.52 = 2.52; line 324 (top two swapped): 4 + 0 = 4;
    line 356: IDCG@2 = 4 + 2.52 = 6.52; line 379: NDCG@2 = 2.52 / 6.52 = 0.39 (also
    000 at 00:27:37-00:28:48). CG@2 is 4 either way (the reason DCG exists)."""
    swapped = [4, 0] + GRADED[2:]
    assert cg_at_k(GRADED, 2) == cg_at_k(swapped, 2) == 4
    assert printed(dcg_at_k(GRADED, 2), 2) == 2.52
    assert dcg_at_k(swapped, 2) == 4
    assert printed(idcg_at_k(GRADED, 2), 2) == 6.52
    assert printed(ndcg_at_k(GRADED, 2), 2) == 0.39


def test_printed_article_code_grades_ndcg_0_41():
    """002 line 400: "a more interpretable result of 0.41" (its code's grades 0-7)."""
    assert printed(ndcg_at_k(ARTICLE_CODE_GRADES, 2), 2) == 0.41


def test_printed_lecture_success_rr_precision_recall_at_2():
    """003 at 00:08:30-00:09:33: Success@2 = 1, 1, 0 and RR@2 = 1, 1/2, 0;
    at 00:11:20-00:12:17: P@2 = 2/2, 1/2, 0/2 and R@2 = 2/3, 1/3, 0/3."""
    assert [irlib.success_at_k(g, 2) for g in LECTURE] == [1, 1, 0]
    assert [reciprocal_rank(g, 2) for g in LECTURE] == [1, 1 / 2, 0]
    assert [precision_at_k(g, 2) for g in LECTURE] == [2 / 2, 1 / 2, 0 / 2]
    assert [recall_at_k(g, 2) for g in LECTURE] == [2 / 3, 1 / 3, 0 / 3]


def test_printed_lecture_ranking_3_leads_at_5():
    """003 at 00:12:46-00:12:52: ranking 3 gets P@5 = 3/5 and R@5 = 3/3."""
    assert precision_at_k(LECTURE[2], 5) == 3 / 5
    assert recall_at_k(LECTURE[2], 5) == 3 / 3


@pytest.mark.parametrize("grades, expected, where", [
    ([2, 3, 0, 1], 7.847185, "004 line 195: disagreement (grades at lines 101-104)"),
    ([3, 2, 1, 0], 9.392789, "004 line 197: test"),
    ([0, 0, 0, 1], 0.430677, "004 line 104: grade 1 at position 4, its discounted gain")])
def test_printed_notebook_exponential_dcg_at_4(grades, expected, where):
    assert printed(dcg_at_k(grades, 4, gain="exponential"), 6) == expected, where


def test_printed_article_formulas_with_their_numbers():
    """The article's formulas, substituted as it prints them: 002 line 217 (P@2), line 243
    (AP@8 of query 1, terms to 2 decimals), line 320 (DCG@2), line 379 (NDCG@2)."""
    assert irlib.explain("P", CAT_IN_A_BOX, 2).latex.endswith(r"\frac{1}{2} = 0.5")
    assert irlib.explain("R", CAT_IN_A_BOX, 2).latex.endswith(r"\frac{1}{1 + 3} = 0.25")
    ap = irlib.explain("AP", CAT_IN_A_BOX, 8)
    assert r"0.5 \cdot 1 + 0.5 \cdot 1 + 0.6 \cdot 1 + 0.57 \cdot 1}{4} = 0.54" in ap.latex
    dcg = irlib.explain("DCG", GRADED, 2)
    assert r"\frac{0}{\log_2(2)} + \frac{4}{\log_2(3)} = 2.52" in dcg.latex
    nd = irlib.explain("nDCG", GRADED, 2)
    assert nd.ideal_rows[0]["grade"] == 4 and nd.latex.endswith(r"\frac{2.52}{6.52} = 0.39")
    rr = irlib.explain("RR", CAT_IN_A_BOX, 8)
    assert rr.details["first_relevant_rank"] == 2 and rr.value == 0.5
    c = irlib.explain("P", CAT_IN_A_BOX, 2).details
    assert (c["tp"], c["fp"], c["fn"], c["tn"]) == (1, 1, 3, 3)


# =========================================================================== derived

def test_derived_mrr_exactly():
    assert mean_reciprocal_rank(THREE_QUERIES) == pytest.approx((1 / 2 + 1 / 1 + 1 / 5) / 3)


def test_derived_ap_at_8_and_map_exactly():
    expected = [(1 / 2 + 2 / 4 + 3 / 5 + 4 / 7) / 4,
                (1 / 1 + 2 / 4 + 3 / 5 + 4 / 7) / 4,
                (1 / 5 + 2 / 8) / 2]                       # = 0.225: the erratum's value
    assert [average_precision(q, 8) for q in THREE_QUERIES] == pytest.approx(expected)
    assert average_precision(DARK_CATS, 8) == 0.225
    assert mean_average_precision(THREE_QUERIES, 8) == pytest.approx(sum(expected) / 3)


def test_derived_dcg_idcg_ndcg_at_2_exactly():
    assert dcg_at_k(GRADED, 2) == pytest.approx(0 / log2(2) + 4 / log2(3))
    assert idcg_at_k(GRADED, 2) == pytest.approx(4 / log2(2) + 4 / log2(3))
    assert ndcg_at_k(GRADED, 2) == pytest.approx((4 / log2(3)) / (4 + 4 / log2(3)))
    assert ndcg_at_k(ARTICLE_CODE_GRADES, 2) == pytest.approx(
        (0 + 7 / log2(3)) / (7 + 6 / log2(3)))


def test_derived_ndcg_at_8_linear_and_exponential():
    dcg = (0 / log2(2) + 4 / log2(3) + 1 / log2(4) + 3 / log2(5) + 4 / log2(6) + 1 / log2(7)
           + 3 / log2(8) + 2 / log2(9))
    idcg = (4 / log2(2) + 4 / log2(3) + 3 / log2(4) + 3 / log2(5) + 2 / log2(6) + 1 / log2(7)
            + 1 / log2(8) + 0 / log2(9))
    assert ndcg_at_k(GRADED, 8) == pytest.approx(dcg / idcg)
    dcg_exp = (0 / log2(2) + 15 / log2(3) + 1 / log2(4) + 7 / log2(5) + 15 / log2(6)
               + 1 / log2(7) + 7 / log2(8) + 3 / log2(9))
    idcg_exp = (15 / log2(2) + 15 / log2(3) + 7 / log2(4) + 7 / log2(5) + 3 / log2(6)
                + 1 / log2(7) + 1 / log2(8) + 0 / log2(9))
    assert ndcg_at_k(GRADED, 8, gain="exponential") == pytest.approx(dcg_exp / idcg_exp)


def test_derived_lecture_precision_recall_at_5_and_ap():
    """003 prints only ranking 3's values at K = 5 and no AP values for the rankings."""
    assert [precision_at_k(g, 5) for g in LECTURE] == pytest.approx([2 / 5, 2 / 5, 3 / 5])
    assert [recall_at_k(g, 5) for g in LECTURE] == pytest.approx([2 / 3, 2 / 3, 3 / 3])
    assert [average_precision(g) for g in LECTURE] == pytest.approx([
        (1 / 1 + 2 / 2 + 3 / 6) / 3,          # relevant at 1, 2, 6
        (1 / 2 + 2 / 5 + 3 / 6) / 3,          # relevant at 2, 5, 6
        (1 / 3 + 2 / 4 + 3 / 5) / 3])         # relevant at 3, 4, 5


def test_derived_ap_at_2_under_three_denominators():
    """The libraries lesson: AP@2 of the graded pictures (7 relevant; one hit, at rank 2)."""
    numerator = 1 / 2
    assert average_precision(GRADED, 2, denominator="relevant") == pytest.approx(numerator / 7)
    assert average_precision(GRADED, 2, denominator="min_r_k") == numerator / min(7, 2)
    assert average_precision(GRADED, 2, denominator="retrieved") == numerator / 1


def test_precision_formula_divides_by_k_even_when_fewer_were_returned():
    assert irlib.explain("P", CAT_IN_A_BOX, 2).latex.endswith(r"\frac{1}{2} = 0.5")
    short = irlib.explain("P", [1, 1, 1, 0], 10)
    assert short.value == 3 / 10 and r"\frac{3}{10} = 0.3" in short.latex
    assert "only 4 returned" in short.latex
