"""The "Beyond accuracy" page through AppTest: the illustrative rows and their frontier, bad
cells named and left out, the latency budget, and user text kept inert."""
import base64
import json
import re

import numpy as np

from tests.apptest import run_page
from ui.lessons import beyond as by


def run(table=None, **settings):
    session = {} if table is None else {by.DATA_KEY: table}
    return run_page("beyond", session={**session,
                                       **{by.PREFIX + k: v for k, v in settings.items()}})


def figure(at) -> dict:
    return json.loads(at.get("plotly_chart")[0].proto.spec)


def traces(at) -> dict[str, dict]:
    return {t["name"]: t for t in figure(at)["data"]}


def names(trace: dict) -> list[str]:
    """The systems a trace draws (each point's hover label)."""
    return list(trace["hovertext"])


def shown(trace: dict) -> list[str]:
    """The names written beside the points ("" where there was no room), on one line."""
    return [t.replace(" <br>", " ") for t in trace["text"]]


def values(v) -> list:
    """A Plotly array as a list (Plotly sends NumPy arrays as base64 "bdata")."""
    if isinstance(v, dict) and "bdata" in v:
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"]).tolist()
    return list(v)


def verdicts(at) -> dict[str, str]:
    """The verdicts table (a static table of Markdown cells), its escapes undone."""
    (table,) = [t.value for t in at.table if "Verdict" in t.value.columns]
    plain = table.map(lambda cell: re.sub(r"\\(.)", r"\1", str(cell)))
    return dict(zip(plain[by.NAME], plain["Verdict"]))


def problems(at) -> list[str]:
    return [w.value for w in at.warning if not w.value.startswith(f"**{by.ILLUSTRATIVE}")]


def test_default_rows_are_labelled_illustrative():
    at = run()
    assert at.warning[0].value.startswith(f"**{by.ILLUSTRATIVE}.**")
    assert not problems(at)
    assert figure(at)["layout"]["annotations"][0]["text"] == by.ILLUSTRATIVE
    editor = at.session_state[by.DATA_KEY]
    assert list(editor.columns) == ["System", "MRR@10", "Latency (ms)", "Cost (USD / month)"]
    assert {"BM25", "dense bi-encoder", "cross-encoder re-ranker", "BM25 + re-ranker",
            "large LLM re-ranker"} <= set(editor["System"])


def test_default_frontier_and_dominated_systems():
    at = run()
    t = traces(at)
    # every name written beside its point: there is room for all six
    assert shown(t["on the Pareto frontier"]) == ["BM25", "learned sparse (SPLADE-style)",
                                                  "cross-encoder re-ranker",
                                                  "large LLM re-ranker"]
    assert shown(t["dominated"]) == ["dense bi-encoder", "BM25 + re-ranker"]
    assert t["dominated"]["marker"]["color"] == by.DOMINATED_COLOR            # greyed
    assert t["Pareto frontier"]["line"]["shape"] == "hv"
    assert values(t["Pareto frontier"]["x"]) == [100, 350, 2500, 12000]
    v = verdicts(at)
    assert v["dense bi-encoder"] == "dominated by learned sparse (SPLADE-style)"
    assert v["BM25"] == "on the Pareto frontier"
    layout = figure(at)["layout"]
    assert layout["xaxis"]["type"] == "log" and "Cost" in layout["xaxis"]["title"]["text"]
    assert layout["yaxis"]["title"]["text"].startswith("MRR@10")


def test_marker_size_grows_with_latency():
    t = traces(run())["on the Pareto frontier"]
    sizes = values(t["marker"]["size"])
    assert sizes == sorted(sizes)                          # latencies 30, 60, 400, 2500


def test_bad_cells_are_named_and_left_out_the_rest_still_drawn():
    bad = by.default_table()
    bad.loc[2, by.MRR] = 1.3               # row 3
    bad.loc[3, by.COST] = -5               # row 4
    bad.loc[4, by.NAME] = ""               # row 5
    bad.loc[5, by.LATENCY] = -1            # row 6
    at = run(bad)
    found = problems(at)
    assert len(found) == 4
    assert found[0].startswith("Row 3 (“dense bi\\-encoder”), column “MRR@10”: 1\\.3 is "
                               "outside 0–1")
    assert "Row 4" in found[1] and "Cost \\(USD / month\\)" in found[1] and "negative" in found[1]
    assert found[2].startswith("Row 5, column “System”: the name is empty")
    assert "Row 6" in found[3] and "Latency \\(ms\\)" in found[3]
    assert all("left out of the chart" in w for w in found)
    drawn = [n for t in figure(at)["data"] if "hovertext" in t for n in names(t)]
    assert drawn == ["BM25", "learned sparse (SPLADE-style)"]
    assert figure(at)["layout"]["annotations"][0]["text"] == "Your numbers"


def test_empty_and_non_numeric_cells():
    table = by.default_table().astype({by.MRR: object})
    table.loc[0, by.MRR] = None
    table.loc[len(table)] = [None, None, None, None]      # a fresh, empty row: skipped quietly
    at = run(table)
    assert problems(at) == ["Row 1 (“BM25”), column “MRR@10”: is empty or not a number. "
                            "This row is left out of the chart."]
    assert any("1 empty row ignored" in c.value for c in at.caption)


def test_nothing_valid_says_so():
    table = by.default_table()
    table[by.MRR] = 2.0
    at = run(table)
    assert len(problems(at)) == len(table)
    assert at.info and "No valid rows" in at.info[0].value
    assert not at.get("plotly_chart")


def test_latency_budget_takes_slow_systems_off_the_frontier():
    at = run(budget=500)
    t = traces(at)
    assert names(t["over the latency budget"]) == ["large LLM re-ranker"]
    assert t["over the latency budget"]["marker"]["symbol"] == "x"
    assert "large LLM re-ranker" not in names(t["on the Pareto frontier"])
    assert verdicts(at)["large LLM re-ranker"] == "over the 500 ms latency budget"


def test_zero_cost_falls_back_to_a_linear_axis():
    table = by.default_table()
    table.loc[0, by.COST] = 0
    at = run(table)
    assert figure(at)["layout"]["xaxis"]["type"] == "linear"
    assert any("log scale" in c.value for c in at.caption)
    at = run(log_x=False)
    assert figure(at)["layout"]["xaxis"]["type"] == "linear"


def test_user_text_stays_text():
    table = by.default_table()
    table.loc[0, by.NAME] = "<img src=x onerror=alert(1)>"
    table.loc[1, by.NAME] = "[click](javascript:alert(1)) **$x$**"
    table.loc[1, by.MRR] = 5.0                           # so its name appears in a warning
    at = run(table)
    drawn = [n for t in figure(at)["data"] if "hovertext" in t
             for n in names(t) + list(t["text"])]
    assert "&lt;img src=x onerror=alert(1)&gt;" in names(traces(at)["on the Pareto frontier"])
    assert not any("<img" in n for n in drawn)
    warning = problems(at)[0]
    assert "\\[click\\]\\(javascript\\:alert\\(1\\)\\) \\*\\*\\$x\\$\\*\\*" in warning
    assert verdicts(at)["<img src=x onerror=alert(1)>"] == "on the Pareto frontier"


def test_reset_restores_the_illustrative_rows():
    table = by.default_table().iloc[:2]
    at = run(table)
    assert len(names(traces(at)["on the Pareto frontier"])) == 2
    at.button(key="beyond_reset").click().run()
    assert len(at.session_state[by.DATA_KEY]) == len(by.DEFAULT_ROWS)
    assert len(names(traces(at)["on the Pareto frontier"])) == 4


def test_frontier_steps_table():
    """A static table (its cells wrap on a phone), its names Markdown-escaped."""
    (steps,) = [t.value for t in run().table if "MRR@10 gained" in t.value.columns]
    steps = steps.map(lambda cell: re.sub(r"\\(.)", r"\1", str(cell)))
    assert steps[by.NAME].tolist() == ["BM25", "learned sparse (SPLADE-style)",
                                          "cross-encoder re-ranker", "large LLM re-ranker"]
    assert steps["MRR@10 gained"].tolist() == ["—", "+0.180", "+0.020", "+0.020"]
    assert steps["Extra cost"].tolist() == ["—", "+250", "+2,150", "+9,500"]
