"""The Practice page under AppTest: pick a challenge, reach its goal, see it ticked and kept;
a worked answer is seen, not solved; the way on after a solve.

A learner's drag is a change of the open boards (``pr_at``), as the board's callback makes it.
"""
from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.apptest import ROOT, address, component_data, run_page
from ui.lessons.practice import lesson as pr
from ui.lessons.practice.lesson import PREFIX, all_challenges, at_codec, solved_codec

CHALLENGES = all_challenges()
AT = at_codec(CHALLENGES)


def plain(markdown: str) -> str:
    """The text a reader sees: the page escapes every Markdown character."""
    return markdown.replace("\\", "")


def verdicts(at) -> list[str]:
    """The check's sentence (a success when solved, else an info)."""
    return [plain(e.value) for e in (*at.success, *at.info)
            if plain(e.value).startswith(("Not yet: ", "Solved: "))]


def captions(at) -> str:
    return " ".join(plain(c.value) for c in at.caption)


def pick(at, cid: str) -> None:
    """Choose a challenge in the picker (its options are labels; AppTest picks by index)."""
    at.selectbox(key=PREFIX + "pick").select_index(list(CHALLENGES).index(cid)).run()
    assert not at.exception, at.exception


def label(at, cid: str) -> str:
    label = at.selectbox(key=PREFIX + "pick").options[list(CHALLENGES).index(cid)]
    assert CHALLENGES[cid].title in label
    return label


def ticked(at, cid: str) -> bool:
    return label(at, cid).startswith("✓ ")


def learner_makes(at, cid: str, boards) -> None:
    """The learner's own moves bring the open challenge's boards to ``boards``."""
    at.session_state[PREFIX + "at"] = (cid, tuple(boards))
    at.run()
    assert not at.exception, at.exception


def shown_boards(at) -> list[list[str]]:
    return [board["order"] for board in component_data(at, "irlab_ranking_board")]


def link(cid: str, boards) -> str:
    return AT.encode((cid, tuple(boards)))


def reopen(at) -> AppTest:
    """The page's link opened again (a reload, or the copied link in a new tab)."""
    return run_page("practice", query=address(at))


def test_opens_on_the_first_challenge_with_its_check_and_board():
    at = run_page("practice")
    first = next(iter(CHALLENGES.values()))
    assert CHALLENGES[first.id].title in at.selectbox(key=PREFIX + "pick").value
    (why,) = verdicts(at)
    assert why.startswith("Not yet") and first.check(first.start).why == why
    (board,) = component_data(at, "irlab_ranking_board")
    assert board["order"] == list(first.start[0].order)
    assert address(at)["challenge"] == link(first.id, first.start)
    assert (f"✓ **0 of {len(CHALLENGES)} solved** · ◐ 0 answer seen · {len(CHALLENGES)} left. "
            "Only your own board counts as a solve") in captions(at)


def test_the_worked_answer_is_seen_not_solved_until_the_learners_own_board():
    at = run_page("practice")
    pick(at, "p2-vs-ap")
    c = CHALLENGES["p2-vs-ap"]
    assert len(component_data(at, "irlab_ranking_board")) == 3       # the lecture's three
    assert not at.success
    # the answer is behind a second click that says what looking at it does
    assert at.button(key=PREFIX + "answer").label == "Show me the answer"
    assert "marks this challenge ◐ *answer seen*" in plain(" ".join(m.value for m in at.markdown))
    at.button(key=PREFIX + "answer").click().run()
    assert label(at, c.id).startswith("◐ ") and address(at)["seen"] == c.id
    assert "**From the starting board:** " + c.answer_text in plain(
        " ".join(m.value for m in at.markdown))
    assert at.button(key=PREFIX + "answer").label == "Put this answer on the board"
    at.button(key=PREFIX + "answer").click().run()
    assert not at.exception
    assert verdicts(at) == [c.check(c.answer).why] and at.success       # the board meets it...
    assert not ticked(at, c.id) and label(at, c.id).startswith("◐ ")  # ... but is not counted
    assert at.selectbox(key=PREFIX + "pick").label == f"Challenge — 0 of {len(CHALLENGES)} solved"
    assert "This board is the worked answer: it does not count" in captions(at)
    assert address(at).get("solved", "") == "" and address(at)["seen"] == c.id
    # a reload of that address does not count it either
    again = reopen(at)
    assert again.success and not ticked(again, c.id) and label(again, c.id).startswith("◐ ")
    assert address(again).get("solved", "") == ""
    # moving on from the answer and back to the goal is the learner's own board: it counts
    learner_makes(again, c.id, (c.answer[0].moved("C", 1), *c.answer[1:]))
    assert not again.success
    learner_makes(again, c.id, c.answer)
    assert ticked(again, c.id)
    assert again.selectbox(key=PREFIX + "pick").label == \
        f"Challenge — 1 of {len(CHALLENGES)} solved"
    assert address(again)["solved"] == link(c.id, c.answer)
    assert address(again)["seen"] == c.id                               # seen stays recorded
    # and shown: a progress link says this solve followed the worked answer (it read "◐ 0
    # answer seen", the mark wiped by the solve)
    assert label(again, c.id).startswith("✓ ◐ ")
    assert (f"✓ **1 of {len(CHALLENGES)} solved** · ◐ 1 answer seen (1 of them solved after) · "
            f"{len(CHALLENGES) - 1} left" in captions(again))
    again.button(key=PREFIX + "restart").click().run()                 # and whatever comes next
    learner_makes(again, c.id, c.answer)
    assert label(again, c.id).startswith("✓ ◐ ")


def test_an_answer_board_restored_by_the_tab_does_not_count():
    """A sidebar link after a reload restores the page from the tab's kept address, a run
    after the page has started (ui/shared/address.py): the answer's board must not count then
    either."""
    c = CHALLENGES["k-decides"]
    at = run_page("practice")
    restored = pr.page_state().from_link({"challenge": link(c.id, c.answer), "seen": c.id})
    for name, value in restored.items():        # what PageState.restore sets
        at.session_state[PREFIX + name] = value
    at.run()
    assert at.success and not ticked(at, c.id) and label(at, c.id).startswith("◐ ")
    assert address(at).get("solved", "") == ""


def test_start_again_then_the_learners_own_moves_count():
    c = CHALLENGES["f1-three-quarters"]
    at = run_page("practice", query={"challenge": link(c.id, c.start)})
    at.button(key=PREFIX + "answer").click().run()
    at.button(key=PREFIX + "answer").click().run()
    assert not ticked(at, c.id)
    at.button(key=PREFIX + "restart").click().run()
    assert shown_boards(at) == [list(c.start[0].order)] and not at.success
    own = (c.start[0].moved("empty-box", 8),)                # not the answer's move
    learner_makes(at, c.id, own)
    assert at.success and ticked(at, c.id)
    assert address(at)["solved"] == link(c.id, own)


def test_a_board_in_the_session_is_checked_at_once():
    c = CHALLENGES["ndcg-one-move"]
    at = run_page("practice", session={PREFIX + "at": (c.id, c.answer)})
    assert verdicts(at) == [c.check(c.answer).why] and at.success
    # one more move breaks "one move": the check says what it counts, in the same words
    two = (c.answer[0].moved("dog", 8),)
    learner_makes(at, c.id, two)
    (why,) = verdicts(at)
    assert "the board is 2 moves from the start: it can be done in 1" in why
    assert address(at)["solved"] == link(c.id, c.answer)         # solved once stays solved
    assert "✓ You solved this one; the check is for your board as it is now." in captions(at)


def test_a_reload_keeps_a_solved_challenges_board():
    """Issue 27: a solved challenge, left for another and reopened after a reload, showed its
    starting board and "Not yet" beside its tick."""
    c = CHALLENGES["one-query-lifts-map"]
    solving = (*c.start[:2], c.start[2].moved("dark-cat-box", 1))
    at = run_page("practice", query={"challenge": link(c.id, c.start)})
    learner_makes(at, c.id, solving)
    assert ticked(at, c.id)
    pick(at, "map-not-mrr")                                         # on to another one
    again = reopen(at)
    assert "MAP up, MRR still" in again.selectbox(key=PREFIX + "pick").value
    pick(again, c.id)
    assert shown_boards(again) == [list(b.order) for b in solving]
    assert again.success and verdicts(again) == [c.check(solving).why]
    assert ticked(again, c.id)
    again.button(key=PREFIX + "restart").click().run()              # "Start again" is there
    assert shown_boards(again) == [list(b.order) for b in c.start]
    assert ticked(again, c.id)                                       # and keeps the tick


def test_after_a_solve_the_way_on():
    # the next unsolved challenge, in the course's order
    c = CHALLENGES["top-three"]
    at = run_page("practice", query={"solved": "first-hit-poor-list"})
    assert not [b for b in at.button if b.key == PREFIX + "next"]     # nothing before a solve
    learner_makes(at, c.id, c.answer)
    nxt = at.button(key=PREFIX + "next")
    assert nxt.label == "Next challenge: " + CHALLENGES["recall-not-precision"].title
    nxt.click().run()
    assert CHALLENGES["recall-not-precision"].title in at.selectbox(key=PREFIX + "pick").value
    assert shown_boards(at) == [list(CHALLENGES["recall-not-precision"].start[0].order)]
    assert address(at)["challenge"].startswith("recall-not-precision~")
    # a lesson's last challenge: the next lesson too
    c = CHALLENGES["order-matters"]
    learner_makes(at, c.id, c.answer)
    assert "Next lesson: 2. Many queries: MRR and MAP" in captions(at)
    # the libraries' last challenge: the next lesson, then Lesson 7's challenges
    c = CHALLENGES["libraries-agree"]
    learner_makes(at, c.id, c.answer)
    assert "Next lesson: 6. Beyond accuracy" in captions(at)
    assert at.button(key=PREFIX + "next").label == \
        "Next challenge: " + CHALLENGES["patience-decides"].title
    # the online lesson's last challenge: the next lesson, then Lesson 8's challenges
    c = CHALLENGES["unseen-gain"]
    learner_makes(at, c.id, c.answer)
    assert "Next lesson: 8. Recommenders: new traps" in captions(at)
    assert at.button(key=PREFIX + "next").label == \
        "Next challenge: " + CHALLENGES["hit-blind-to-order"].title
    # the recommenders' last challenge: the next lesson, then Lesson 9's challenges
    c = CHALLENGES["coverage-keeps-hits"]
    learner_makes(at, c.id, c.answer)
    assert "Next lesson: 9. Where judgments come from" in captions(at)
    assert at.button(key=PREFIX + "next").label == \
        "Next challenge: " + CHALLENGES["second-rater"].title
    # the course's last challenge: what the learner did
    c = CHALLENGES["outvoted"]
    learner_makes(at, c.id, c.answer)
    assert "Next lesson: 10. Your own judgments" in captions(at)
    assert at.button(key=PREFIX + "next").label == \
        "Next challenge: " + CHALLENGES["recall-not-precision"].title   # wraps round
    summary = plain(" ".join(m.value for m in at.markdown))
    n = len(CHALLENGES)
    assert (f"That was the last challenge. You have: ✓ **7 of {n} solved** · ◐ 0 answer seen · "
            f"{n - 7} left.") in summary


def test_the_hint_follows_the_board():
    c = CHALLENGES["top-three"]
    at = run_page("practice", query={"challenge": link(c.id, c.start)})
    hint = "On your board, the cards at ranks 1 and 3 are not cats in boxes: send them down."
    assert hint in plain(" ".join(m.value for m in at.markdown))
    learner_makes(at, c.id, (c.start[0].moved("dog", 8),))
    text = plain(" ".join(m.value for m in at.markdown))
    assert hint not in text
    assert "On your board, the card at rank 2 is not a cat in a box: send it down." in text


def test_the_link_to_copy_holds_the_progress():
    c = CHALLENGES["f1-three-quarters"]
    at = run_page("practice", query={"challenge": link(c.id, c.start), "seen": "mrr-one"})
    learner_makes(at, c.id, c.answer)
    (code,) = at.code
    assert code.value == "/practice?" + "&".join(f"{k}={v}" for k, v in address(at).items())
    again = run_page("practice", query=address(at))
    assert ticked(again, c.id) and label(again, "mrr-one").startswith("◐ ")


def test_a_shared_link_opens_the_board_and_progress():
    c = CHALLENGES["recall-not-precision"]
    query = {"challenge": link(c.id, c.answer), "solved": "top-three.mrr-one"}   # an older link
    at = run_page("practice", query=query)
    assert c.title in at.selectbox(key=PREFIX + "pick").value
    assert at.success and "Recall@4 = 1 as asked" in verdicts(at)[0]
    assert ticked(at, "top-three") and ticked(at, "mrr-one") and ticked(at, c.id)
    assert solved_codec(CHALLENGES).parse(address(at)["solved"]) == {
        "top-three": None, c.id: c.answer, "mrr-one": None}
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
    at = run_page("practice", query={"solved": "top-three~ABCDEF.111000", "seen": "nope"})
    assert len([i for i in at.info if "could not be read" in i.value]) == 1


def test_progress_and_the_board_survive_a_trip_to_another_page():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("pages/practice.py").run()
    pick(at, "gain-matters")
    gain = CHALLENGES["gain-matters"]
    learner_makes(at, gain.id, gain.answer)
    pick(at, "order-matters")
    c = CHALLENGES["order-matters"]
    half = (c.start[0].moved("white-cat-box", 1),)
    learner_makes(at, c.id, half)
    before = address(at)
    for other in ("pages/playground.py", "pages/home.py", "pages/ndcg.py"):
        at.switch_page(other).run()
        assert not at.exception, at.exception
    at.switch_page("pages/practice.py").run()
    assert not at.exception
    assert address(at) == before
    assert "Same precision" in at.selectbox(key=PREFIX + "pick").value
    assert shown_boards(at) == [list(half[0].order)]
    assert ticked(at, "gain-matters")
    # the other challenge's boards were kept for the session too
    pick(at, "gain-matters")
    assert at.success, "gain-matters lost its solved boards"


def test_every_field_reads_back_what_it_writes():
    for field in pr.page_state().fields:
        text = field.codec.encode(field.fresh_default())
        assert field.codec.parse(text) == field.fresh_default()
    every = {c.id: c.answer for c in CHALLENGES.values()}
    assert solved_codec(CHALLENGES).parse(solved_codec(CHALLENGES).encode(every)) == every
    for c in CHALLENGES.values():
        assert AT.parse(link(c.id, c.answer)) == (c.id, c.answer)
        assert c.check(c.start).solved is False     # a start never counts as a solve


def test_a_recommender_challenge_is_solved_by_the_learners_moves():
    """Lesson 7: a user's films on the board, the held-out ones ✓; moves that reach the goal
    count, and the link keeps the films' order."""
    c = CHALLENGES["hit-blind-to-order"]
    at = run_page("practice", query={"challenge": link(c.id, c.start)})
    assert at.selectbox(key=PREFIX + "pick").value == "8. Recommenders · " + c.title
    (board,) = component_data(at, "irlab_ranking_board")
    from ui.shared.films import _films
    titles = {i["id"]: i["title"] for i in board["items"]}
    assert titles == {i: " · ".join(_films()[i]) for i in c.start[0].order}   # title · genre
    assert all(i["image"].startswith("data:image/svg+xml;base64,") for i in board["items"])
    assert board["k"] == 3 and board["grades"] == dict(c.start[0].grades)
    assert "Maya's top 8 from Matrix factorisation: watched 18 films after the cut" in \
        plain(" ".join(m.value for m in at.markdown))
    (why,) = verdicts(at)
    assert why == c.check(c.start).why and "NDCG@3 = 0.765, not below 0.25" in why
    # one drag: a ✓ film still at rank 2, not yet below 0.25
    first = c.start[0]
    one = (first.moved(first.order[0], 8),)
    learner_makes(at, c.id, one)
    assert not at.success and not ticked(at, c.id)
    # a second: the learner's own board (not the worked answer's moves) reaches the goal
    own = (one[0].moved(one[0].order[0], 7),)
    assert own != c.answer and c.check(own).solved
    learner_makes(at, c.id, own)
    assert at.success and ticked(at, c.id)
    assert "Solved: HitRate@3 = 1 as asked; NDCG@3 = 0.235, below 0.25 as asked" in verdicts(at)[0]
    assert address(at)["solved"] == link(c.id, own)
    again = reopen(at)
    assert ticked(again, c.id) and shown_boards(again) == [list(own[0].order)]


def test_a_recommender_answer_on_the_board_is_seen_not_solved():
    c = CHALLENGES["coverage-keeps-hits"]
    at = run_page("practice", query={"challenge": link(c.id, c.start)})
    assert len(component_data(at, "irlab_ranking_board")) == 3        # three users' lists
    at.button(key=PREFIX + "answer").click().run()
    text = plain(" ".join(m.value for m in at.markdown))
    assert "“The Silent Horizon” up to rank 3" in text
    assert "The Silent Horizon · Sci-fi (0)" in text                    # the boards, titled
    at.button(key=PREFIX + "answer").click().run()
    assert not at.exception
    assert at.success and verdicts(at) == [c.check(c.answer).why]
    assert "Coverage@3 (9 of 200 films) = 0.045" in verdicts(at)[0]
    assert not ticked(at, c.id) and label(at, c.id).startswith("◐ ")
    assert "This board is the worked answer: it does not count" in captions(at)
    assert address(at).get("solved", "") == "" and address(at)["seen"] == c.id


def test_an_online_challenge_is_solved_on_the_lectures_rankings():
    """Lesson 7: rankings 1 and 3 on the board, ranking 1 kept; the learner's own two moves
    reach the goal, with irlib's numbers in the check, and the link keeps both boards."""
    c = CHALLENGES["patience-decides"]
    at = run_page("practice", query={"challenge": link(c.id, c.start)})
    assert at.selectbox(key=PREFIX + "pick").value == "7. Online · " + c.title
    assert shown_boards(at) == [list(b.order) for b in c.start]
    (why,) = verdicts(at)
    assert why == c.check(c.start).why and "RBP (p = 0.9) = 0.220 for ranking 3" in why
    # the learner's own order, not the worked answer's: A first, D to the bottom
    r3 = c.start[1]
    own = (c.start[0], r3.moved("A", 1).moved("D", 6))
    assert own != c.answer and c.check(own).solved
    learner_makes(at, c.id, own)
    assert at.success and ticked(at, c.id)
    assert "RBP (p = 0.5) = 0.688 for ranking 3 and 0.766 for ranking 1: lower as asked" in \
        verdicts(at)[0]
    again = reopen(at)
    assert ticked(again, c.id) and shown_boards(again) == [list(b.order) for b in own]
