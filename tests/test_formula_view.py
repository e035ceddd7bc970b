"""The playground's formula view (ui/shared/formula_view.py): what it is sent, and the
neighbour table's formulas (ui/lessons/playground/preview.py: formula_preview)."""
import base64
import json
import zlib

import irlib
from ui.lessons.playground.preview import formula_preview, signature
from ui.shared.formula import explanation_tables
from ui.shared.formula_view import formula_entry


def inflate(text: str) -> dict:
    assert text.startswith("deflate:")
    return json.loads(zlib.decompress(base64.b64decode(text[len("deflate:"):])))


def test_the_tables_keep_the_dataframes_columns_and_three_decimals():
    (ap,) = explanation_tables(irlib.explain("AP", [1, 0, 1], 3, rel=1, gain="linear"))
    assert ap["columns"] == ["rank", "rel_k", "Precision@k", "Precision@k · rel_k"]
    assert ap["rows"] == [["1", "1", "1.000", "1.000"], ["2", "0", "0.500", "0.000"],
                          ["3", "1", "0.667", "0.667"]]
    ranking, ideal = explanation_tables(irlib.explain("nDCG", [0, 4], 2, rel=1, gain="linear"))
    assert ranking["columns"][3:] == ["discount log2(rank+1)", "discounted gain", "DCG so far"]
    assert ranking["rows"][1] == ["2", "4", "4.000", "1.585", "2.524", "2.524"]
    assert ideal["caption"].startswith("Ideal ranking") and ideal["rows"][0][1] == "4"
    assert explanation_tables(irlib.explain("RR", [0, 1], 2, rel=1, gain="linear")) == []


def test_each_neighbour_carries_irlibs_formula_for_that_state():
    order, grades = list("abcd"), {"a": 0, "b": 2, "c": 0, "d": 1}
    for metric in ("RR", "AP", "nDCG"):
        table = inflate(formula_preview(order, grades, range(5), k=3, rel=1, gain="linear",
                                        metric=metric, board="pg_board"))
        assert table["board"] == "pg_board" and table["base"] == signature(order, grades)
        # rank 4 (d) moved to rank 1; rank 1 (a) graded 3
        for key, state in (("move:3:0", [1, 0, 2, 0]), ("grade:0:3", [3, 2, 0, 1])):
            entry = table["entries"][table["keys"][key]]
            assert entry == formula_entry(irlib.explain(metric, state, 3, rel=1, gain="linear"))
        assert len(table["keys"]) == len(irlib.one_move_neighbours((0, 2, 0, 1), range(5)).grades)
