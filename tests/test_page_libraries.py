"""The "Why libraries disagree" page through AppTest: the documented numbers for the graded
eight pictures, and each convention's switch (threshold, missed documents, ties)."""

import pytrec_eval

from tests.apptest import run_page

LIBS = ["trec_eval", "ranx", "scikit-learn", "torchmetrics", "Kaggle apk", "Spark",
        "Recommenders", "RecBole"]
SECOND_AP = "AP@2 via meanAveragePrecision / map"


def run(**settings):
    return run_page("libraries", session={"libraries_" + k: v for k, v in settings.items()})


def scores(at):
    """{library: {measure: text}} of the side-by-side table (measures are its rows)."""
    return at.table[0].value.to_dict()


def tiles(at):
    return {m.label: m.value for m in at.metric}


def column(at, name):
    return [scores(at)[lib][name] for lib in LIBS]


def test_default_side_by_side_has_the_documented_numbers():
    at = run()
    assert list(scores(at)) == LIBS
    # AP@2 = 0.0714 trec_eval / 0.25 apk, Spark, Recommenders' map_at_k, RecBole / 0.5
    # torchmetrics (and sklearn given the top 2)
    assert column(at, "AP@2") == ["0.0714", "0.0714", "0.5", "0.5"] + ["0.25"] * 4
    # NDCG@8 = 0.7283 linear / 0.6829 exponential / 0.8118 binary (every relevant gains 1)
    assert column(at, "NDCG@8 (gain = grade)") == ["0.7283"] * 4 + ["—", "—", "0.7283", "—"]
    assert column(at, "NDCG@8 (gain = 2^grade − 1)") == \
        ["0.6829", "0.6829", "—", "—", "—", "—", "0.6829", "—"]
    assert column(at, "NDCG@8 (gain = 1 if relevant)") == ["—"] * 5 + ["0.8118"] * 3
    assert column(at, "HitRate@2") == ["1", "1", "—", "1", "—", "—", "—", "1"]
    # the recommender tools' second AP: over R, as trec_eval
    assert column(at, SECOND_AP) == ["—"] * 5 + ["0.0714", "0.0714", "—"]


def test_default_tiles_show_the_three_denominators_and_two_gains():
    shown = tiles(run())
    assert shown["÷ R, all relevant"] == "0.0714"
    assert shown["÷ min(R, K)"] == "0.25"
    assert shown["÷ relevant found in the top K"] == "0.5"
    assert shown["gain grade · ideal: all judged"] == "0.7283"
    assert shown["gain 2^grade − 1 · all judged"] == "0.6829"
    assert shown["gain grade · ideal: given list"] == "0.7283"
    assert shown["gain 1 if relevant · all judged"] == "0.8118"


def test_binary_gain_ignores_a_better_grade_and_follows_the_threshold():
    from ui.shared.catalog import load_catalog
    grades = dict(load_catalog().queries["white-cat-in-a-box"].grades)
    grades["empty-box"] = 4                       # rank 3: grade 1 -> 4, still relevant
    s = scores(run(grades=grades))
    assert s["Spark"]["NDCG@8 (gain = 1 if relevant)"] == "0.8118"
    assert s["RecBole"]["NDCG@8 (gain = 1 if relevant)"] == "0.8118"
    assert s[LIBS[0]]["NDCG@8 (gain = grade)"] != "0.7283"            # trec_eval sees it
    s = scores(run(rel=2))                        # grade 1 no longer relevant: labels shrink
    assert s["RecBole"]["NDCG@8 (gain = 1 if relevant)"] != "0.8118"


def test_ap_formulas_are_substituted():
    at = run()
    text = " ".join(x.value for x in at.latex)
    assert r"\frac{0.5}{7} = 0.0714" in text
    assert r"\frac{0.5}{\min(7, 2)} = 0.25" in text
    assert r"\frac{0.5}{1} = 0.5" in text


def test_pytrec_eval_agrees_with_the_trec_eval_column():
    grades = [0, 4, 1, 3, 4, 1, 3, 2]
    ids = [f"d{i}" for i in range(8)]
    got = pytrec_eval.RelevanceEvaluator({"q": dict(zip(ids, grades))},
                                         {"map_cut.2", "ndcg_cut.8"}).evaluate(
        {"q": {d: float(8 - i) for i, d in enumerate(ids)}})["q"]
    row = scores(run())[LIBS[0]]
    assert row["AP@2"] == f"{got['map_cut_2']:.4f}"
    assert row["NDCG@8 (gain = grade)"] == f"{got['ndcg_cut_8']:.4f}"


def test_missed_documents_lower_trec_eval_but_not_scikit_learn():
    at = run(missed=2, missed_grade=4)
    shown = tiles(at)
    assert shown["gain grade · ideal: given list"] == "0.7283"       # cannot see them
    assert float(shown["gain grade · ideal: all judged"]) < 0.7283
    s = scores(at)
    assert s["scikit-learn"]["NDCG@8 (gain = grade)"] == "0.7283"
    assert float(s["ranx"]["NDCG@8 (gain = grade)"]) < 0.7283
    assert s[LIBS[0]]["AP@2"] == "0.0556"                             # 0.5 / 9
    assert s["Kaggle apk"]["AP@2"] == "0.25"             # 0.5 / min(9, 2)
    assert s["torchmetrics"]["AP@2"] == "0.5"


def test_threshold_moves_ap_everywhere_and_ndcg_only_in_ranx():
    at = run(rel=2)
    s = scores(at)
    assert s[LIBS[0]]["AP@2"] == "0.1"                                 # 0.5 / 5
    assert s[LIBS[0]]["NDCG@8 (gain = grade)"] == "0.7283"            # trec_eval ignores -l
    assert s["ranx"]["NDCG@8 (gain = grade)"] != "0.7283"             # ranx drops grade 1


def test_changing_k_relabels_and_recomputes():
    at = run()
    at.slider(key="libraries_k_ap").set_value(8).run()
    at.slider(key="libraries_k_ndcg").set_value(2).run()
    s = scores(at)
    assert s[LIBS[0]]["AP@8"] == "0.7546"                              # map_cut.8
    assert s["ranx"]["NDCG@2 (gain = grade)"] == "0.3869"


def test_tie_example_doc_id_descending_changes_the_score():
    at = run()
    ties = at.table[1].value.to_dict("index")
    trec, given, averaged = ties.values()
    assert trec["Ranks 1, 2 (doc ids)"] == "white-cat-box → dog"      # "w" > "d"
    assert given["Ranks 1, 2 (doc ids)"] == "dog → white-cat-box"
    assert (trec["AP@2"], given["AP@2"]) == ("0.1429", "0.0714")
    assert (trec["NDCG@8"], given["NDCG@8"], averaged["NDCG@8"]) == ("0.8653", "0.7283",
                                                                    "0.7968")


def test_tie_table_counts_documents_never_returned_like_the_side_by_side_table():
    at = run(missed=2, missed_grade=4)
    s = scores(at)
    trec, given, averaged = at.table[1].value.to_dict("index").values()
    assert given["AP@2"] == s["ranx"]["AP@2"] == "0.0556"            # 0.5 / 9, R counts them
    assert given["NDCG@8"] == s["ranx"]["NDCG@8 (gain = grade)"]
    assert trec["AP@2"] == "0.1111"                                   # 1 / 9: cat box first
    assert float(trec["NDCG@8"]) < 0.8653                             # IDCG from all judged
    assert averaged["NDCG@8"] == "0.7968"                             # scikit-learn: unseen
    assert any("never returned count here" in c.value for c in at.caption)


def test_tie_between_equal_grades_changes_nothing():
    at = run(tie=3)                       # ranks 3 and 4: grades 1 and 3
    trec, given, _ = at.table[1].value.to_dict("index").values()
    assert trec["NDCG@8"] != given["NDCG@8"]
    at = run(order=["dog", "white-cat-box", "white-cat-box-2", "empty-box", "ginger-cat-box",
                    "two-cats", "dark-cat-box", "dog-box"], tie=2)   # two grade-4 pictures tie
    trec, given, _ = at.table[1].value.to_dict("index").values()
    assert trec["NDCG@8"] == given["NDCG@8"]
    assert any("same grade" in c.value for c in at.caption)


def test_conventions_matrix_and_details():
    at = run()
    matrix = at.table[2].value
    assert list(matrix.index) == ["AP@K denominator", "NDCG gain", "IDCG comes from",
                                  "Relevant when", "Tied scores",
                                  "Query with no relevant document"]
    assert list(matrix.columns) == ["trec_eval", "ranx", "scikit-learn", "torchmetrics",
                                    "Kaggle apk", "Spark", "Recommenders", "RecBole"]
    assert matrix.loc["AP@K denominator", "Kaggle apk"] == "min(R, K)"
    assert matrix.loc["Tied scores", "trec_eval"] == "doc id descending"
    details = [t.value for t in at.table[3:]]
    assert len(details) == 8 and all("Sources" in d.index for d in details)
    recommenders = details[6].iloc[:, 0]
    assert "map_at_k" in recommenders["Called as"] and "map(" in recommenders["Called as"]


def test_editing_a_grade_on_the_board_flows_to_every_library():
    from ui.shared.catalog import load_catalog
    grades = dict(load_catalog().queries["white-cat-in-a-box"].grades)
    grades["dog"] = 4                                   # rank 1 now excellent
    at = run(grades=grades)
    s = scores(at)
    assert s["torchmetrics"]["AP@2"] == "1"             # both of the top two relevant
    assert s[LIBS[0]]["AP@2"] == "0.25"                 # 2 / 8


def test_reset_restores_the_video_ranking():
    at = run(order=list(reversed(["dog", "white-cat-box", "empty-box", "ginger-cat-box",
                                  "white-cat-box-2", "two-cats", "dark-cat-box", "dog-box"])))
    assert scores(at)[LIBS[0]]["AP@2"] != "0.0714"
    at.button(key="libraries_reset").click().run()
    assert scores(at)[LIBS[0]]["AP@2"] == "0.0714"
