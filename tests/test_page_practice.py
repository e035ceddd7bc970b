"""The Practice page under AppTest: pick a challenge, reach its answer, see it ticked and kept."""
from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.apptest import ROOT, address, component_data, run_page
from ui import practice as pr
from ui.practice import PREFIX, all_challenges, at_codec, id_set

CHALLENGES = all_challenges()
AT = at_codec(CHALLENGES)


def plain(markdown: str) -> str:
    """The text a reader sees: the page escapes every Markdown character."""
    return markdown.replace("\\", "")


def verdicts(at) -> list[str]:
    """The check's sentence (a success when solved, else an info)."""
    return [plain(e.value) for e in (*at.success, *at.info)
            if plain(e.value).startswith(("Not yet: ", "Solved: "))]


def pick(at, cid: str) -> None:
    """Choose a challenge in the picker (its options are labels; AppTest picks by index)."""
    at.selectbox(key=PREFIX + "pick").select_index(list(CHALLENGES).index(cid)).run()


def ticked(at, cid: str) -> bool:
    label = at.selectbox(key=PREFIX + "pick").options[list(CHALLENGES).index(cid)]
    return CHALLENGES[cid].title in label and label.startswith("✓ ")


def link(cid: str, boards) -> str:
    return AT.encode((cid, tuple(boards)))


def test_opens_on_the_first_challenge_with_its_check_and_board():
    at = run_page("practice")
    first = next(iter(CHALLENGES.values()))
    assert CHALLENGES[first.id].title in at.selectbox(key=PREFIX + "pick").value
    (why,) = verdicts(at)
    assert why.startswith("Not yet") and first.check(first.start).why == why
    (board,) = component_data(at, "irlab_ranking_board")
    assert board["order"] == list(first.start[0].order)
    assert address(at)["challenge"] == link(first.id, first.start)


def test_picking_a_challenge_then_its_answer_solves_and_ticks_it():
    at = run_page("practice")
    pick(at, "p2-vs-ap")
    c = CHALLENGES["p2-vs-ap"]
    assert len(component_data(at, "irlab_ranking_board")) == 3       # the lecture's three
    assert not at.success
    at.button(key=PREFIX + "apply").click().run()
    assert not at.exception
    assert verdicts(at) == [c.check(c.answer).why] and at.success
    assert ticked(at, "p2-vs-ap")
    assert address(at)["solved"] == "p2-vs-ap"
    assert address(at)["challenge"] == link("p2-vs-ap", c.answer)
    assert at.selectbox(key=PREFIX + "pick").label == f"Challenge — 1 of {len(CHALLENGES)} solved"


def test_a_board_in_the_session_is_checked_at_once():
    c = CHALLENGES["ndcg-one-move"]
    at = run_page("practice", session={PREFIX + "at": (c.id, c.answer)})
    assert verdicts(at) == [c.check(c.answer).why] and at.success
    # one more move breaks "one move": the check says so at once, and what it counts
    two = (c.answer[0].moved("dog", 8),)
    at.session_state[PREFIX + "at"] = (c.id, two)
    at.run()
    (why,) = verdicts(at)
    assert "the board is 2 moves from the start: it can be done in 1" in why
    assert address(at)["solved"] == c.id                             # solved once stays solved


def test_a_shared_link_opens_the_board_and_progress():
    c = CHALLENGES["recall-not-precision"]
    query = {"challenge": link(c.id, c.answer), "solved": "top-three.mrr-one"}
    at = run_page("practice", query=query)
    assert c.title in at.selectbox(key=PREFIX + "pick").value
    assert at.success and "Recall@4 = 1 as asked" in verdicts(at)[0]
    assert address(at)["solved"] == id_set(CHALLENGES).encode(
        ("top-three", "mrr-one", c.id))
    assert not [i for i in at.info if "could not be read" in i.value]


def test_a_bad_link_gives_one_notice_and_the_defaults():
    at = run_page("practice", query={"challenge": "no-such~12345678.00000000",
                                     "solved": "top-three.<script>"})
    notices = [i.value for i in at.info if "could not be read" in i.value]
    assert len(notices) == 1 and "`challenge`" in notices[0] and "`solved`" in notices[0]
    assert "<script>" not in notices[0]
    assert next(iter(CHALLENGES.values())).title in at.selectbox(key=PREFIX + "pick").value
    # a board that does not fit its challenge (a 6-card order on the cats) is refused too
    at = run_page("practice", query={"challenge": "top-three~ABCDEF.111000"})
    assert len([i for i in at.info if "could not be read" in i.value]) == 1


def test_progress_and_the_board_survive_a_trip_to_another_page():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("pages/practice.py").run()
    pick(at, "gain-matters")
    at.button(key=PREFIX + "apply").click().run()
    pick(at, "order-matters")
    c = CHALLENGES["order-matters"]
    half = (c.start[0].moved("white-cat-box", 1),)
    at.session_state[PREFIX + "at"] = (c.id, half)
    at.run()
    before = address(at)
    for other in ("pages/playground.py", "pages/home.py", "pages/ndcg.py"):
        at.switch_page(other).run()
        assert not at.exception, at.exception
    at.switch_page("pages/practice.py").run()
    assert not at.exception
    assert address(at) == before
    assert "Same precision" in at.selectbox(key=PREFIX + "pick").value
    assert ticked(at, "gain-matters")
    # the other challenge's boards were kept for the session too
    pick(at, "gain-matters")
    assert at.success, "gain-matters lost its solved boards"


def test_every_field_reads_back_what_it_writes():
    for field in pr.page_state().fields:
        text = field.codec.encode(field.fresh_default())
        assert field.codec.parse(text) == field.fresh_default()
    for c in CHALLENGES.values():
        assert AT.parse(link(c.id, c.answer)) == (c.id, c.answer)
