"""Moving around loses nothing: every page keeps its state across a trip to every other page.

AppTest runs the whole app (app.py's st.navigation), so a page switch drops the widgets of the
page left behind exactly as in a browser; tests/browser/test_navigation.py does the same
with the sidebar, Home and the Back button.
"""
from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.apptest import ROOT, address
from ui.shared.course import HOME, LESSONS


#: page -> (a change a learner makes there, what the page must still show after a trip away)
CHANGES = {
    "pages/playground.py": (
        lambda at: (at.button_group(key="pg_mode").set_value("graded").run(),
                    at.slider(key="pg_k").set_value(5).run()),
        lambda at: at.session_state["pg_mode"] == "graded" and at.slider(key="pg_k").value == 5),
    "pages/mrr_map.py": (
        lambda at: at.slider(key="mm_k").set_value(3).run(),
        lambda at: at.slider(key="mm_k").value == 3),
    "pages/ndcg.py": (
        lambda at: (at.slider(key="nd_k").set_value(5).run(),
                    at.button_group(key="nd_gain").set_value("exponential").run()),
        lambda at: at.slider(key="nd_k").value == 5
        and at.button_group(key="nd_gain").value == "exponential"),
    "pages/choosing.py": (
        lambda at: at.slider(key="choosing_k").set_value(5).run(),
        lambda at: at.slider(key="choosing_k").value == 5),
    "pages/libraries.py": (
        lambda at: at.slider(key="libraries_k_ap").set_value(6).run(),
        lambda at: at.slider(key="libraries_k_ap").value == 6),
    "pages/beyond.py": (
        lambda at: at.number_input(key="beyond_budget").set_value(500).run(),
        lambda at: at.number_input(key="beyond_budget").value == 500),
    "pages/online.py": (
        lambda at: (at.radio(key="on_model").set_value("position").run(),
                    at.select_slider(key="on_noise").set_value(0.3).run()),
        lambda at: at.radio(key="on_model").value == "position"
        and at.select_slider(key="on_noise").value == 0.3),
    "pages/recommenders.py": (
        lambda at: (at.button_group(key="rec_trap").set_value("sampled").run(),
                    at.slider(key="rec_negatives").set_value(20).run()),
        lambda at: at.button_group(key="rec_trap").value == "sampled"
        and at.slider(key="rec_negatives").value == 20),
    "pages/judgments.py": (
        lambda at: (at.button_group(key="jd_part").set_value("pool").run(),
                    at.slider(key="jd_depth").set_value(4).run()),
        lambda at: at.button_group(key="jd_part").value == "pool"
        and at.slider(key="jd_depth").value == 4),
    "pages/upload.py": (
        lambda at: at.radio(key="upload_input").set_value("trec").run(),
        lambda at: at.radio(key="upload_input").value == "trec"),
}


@pytest.fixture(scope="module")
def app() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    assert not at.exception
    return at


def test_every_page_keeps_its_state_across_trips_to_every_other_page(app):
    at = app
    pages = [p.path for p in LESSONS]
    for path, (change, _) in CHANGES.items():
        at.switch_page(path).run()
        assert not at.exception, (path, at.exception)
        change(at)
        assert not at.exception, (path, at.exception)
    for path, (_, kept) in CHANGES.items():
        for other in [HOME.path, *pages]:            # away to every other page ...
            if other != path:
                at.switch_page(other).run()
                assert not at.exception, (other, at.exception)
        at.switch_page(path).run()                   # ... and back
        assert not at.exception, (path, at.exception)
        assert kept(at), f"{path} lost its state"


def test_lesson_1_comes_back_after_a_trip_away(app):
    """The crash of issue 16: KeyError 'pg_mode' on every return to lesson 1."""
    at = app
    at.switch_page("pages/playground.py").run()
    at.switch_page("pages/home.py").run()
    at.switch_page("pages/playground.py").run()
    assert not at.exception
    assert address(at)["mode"] in ("binary", "graded")


@pytest.mark.parametrize("path, query, expect", [
    ("pages/mrr_map.py", {"k": "3"}, {"k": "3"}),
    ("pages/ndcg.py", {"k": "5", "gain": "exponential"}, {"k": "5", "gain": "exponential"}),
    ("pages/choosing.py", {"k": "5", "o1": "FEDCBA"}, {"k": "5", "o1": "FEDCBA"}),
    ("pages/libraries.py", {"k_ap": "4", "missed": "2"}, {"k_ap": "4", "missed": "2"}),
    ("pages/beyond.py", {"budget": "300", "log": "0"}, {"budget": "300", "log": "0"}),
    ("pages/online.py", {"pair": "lecture", "model": "position", "touched": "0.5"},
     {"pair": "lecture", "model": "position", "touched": "0.5"}),
    ("pages/recommenders.py", {"trap": "users", "cap": "3", "model": "popular"},
     {"trap": "users", "cap": "3", "model": "popular"}),
    ("pages/upload.py", {"input": "trec", "k": "7"}, {"input": "trec", "k": "7", "gain": "linear"}),
])
def test_every_lesson_opens_from_its_link_and_writes_it_back(path, query, expect):
    from tests.apptest import run_page
    name = path.split("/")[1].removesuffix(".py")
    at = run_page(name, query=query)
    assert not at.info or not any("could not be read" in i.value for i in at.info)
    written = address(at)
    assert {k: written[k] for k in expect} == expect
    again = run_page(name, query=written)            # the written link reopens the same page
    assert address(again) == written


def test_an_edited_table_of_lesson_6_survives_a_trip_away(app):
    """st.data_editor keeps a learner's edits as changes to the table it started from, and
    Streamlit drops them with the page: the lesson keeps the edited table itself
    (ui/lessons/beyond.py keep_edits) and restarts the editor from it."""
    from ui.lessons import beyond as by
    at = app
    at.switch_page("pages/beyond.py").run()
    edited = by.default_table()
    edited.loc[0, by.MRR] = 0.99                        # what keep_edits stores after an edit
    at.session_state[by.DATA_KEY] = edited
    at.switch_page("pages/playground.py").run()         # away: Streamlit drops the editor
    assert by.EDITOR_KEY not in at.session_state
    at.switch_page("pages/beyond.py").run()             # back: the editor starts from it
    assert not at.exception
    assert at.session_state[by.DATA_KEY].loc[0, by.MRR] == 0.99
    assert at.session_state[by.ORIGIN_KEY].loc[0, by.MRR] == 0.99
    assert '["BM25",0.99,' in address(at)["systems"]
