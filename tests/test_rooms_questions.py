"""Room questions: every right answer agrees with irlib's per-metric functions, recomputed here
from what the students are shown (the rankings and the change), not from the question's own
numbers."""
from __future__ import annotations

import random

import pytest

import irlib
from ui.rooms import questions as qs
from ui.rooms.store import RoomError, check_payload

#: The per-metric function of each metric a question can name (independent of metric_curves).
BY_METRIC = {
    "P": lambda g, k: irlib.precision_at_k(g, k),
    "R": lambda g, k: irlib.recall_at_k(g, k),
    "F1": lambda g, k: irlib.f1_at_k(g, k),
    "RR": lambda g, k: irlib.reciprocal_rank(g, k),
    "AP": lambda g, k: irlib.average_precision(g, k),
    "nDCG": lambda g, k: irlib.ndcg_at_k(g, k),
}


def shown(question: dict) -> tuple[str, int]:
    """The metric and K as the prompt names them ("... higher NDCG@3, A or B?")."""
    label = next(name for name, text in qs.METRICS.items()
                 if f" {text}@" in question["prompt"])
    k = int(question["prompt"].split("@")[1].split(",")[0].split()[0])
    return label, k


def grades_of(ranking: dict) -> list[int]:
    return [item["grade"] for item in ranking["items"]]


def direction(before: float, after: float) -> str:
    if abs(before - after) <= 1e-12:
        return qs.SAME
    return "up" if after > before else "down"


@pytest.mark.parametrize("seed", range(60))
def test_compare_questions_agree_with_irlib(seed):
    question = qs.make_question("compare", random.Random(seed))
    check_payload(question)
    metric, k = shown(question)
    a, b = (BY_METRIC[metric](grades_of(r), k) for r in question["rankings"])
    expected = qs.SAME if abs(a - b) <= 1e-12 else ("A" if a > b else "B")
    assert question["correct"] == expected
    assert question["explanation"].startswith(f"{qs.metric_label(metric, k)}: A {irlib.fmt(a)}")


@pytest.mark.parametrize("source", ["cats", "graded", "lecture"])
def test_each_source_of_compare_questions(source):
    question = qs.make_question("compare", random.Random(1), {"source": source, "metric": "nDCG",
                                                               "k": 3})
    (a, b) = question["rankings"]
    n = 6 if source == "lecture" else 8
    assert len(a["items"]) == len(b["items"]) == n
    assert {i["id"] for i in a["items"]} == {i["id"] for i in b["items"]}
    if source == "graded":
        assert max(grades_of(a)) == 4
    if source == "lecture":
        orders = ["".join(i["id"] for i in r["items"]) for r in (a, b)]
        assert set(orders) <= {"ABDEFC", "DAEFBC", "DEABCF"}


def apply(change: dict, grades: list[int]) -> list[int]:
    grades = list(grades)
    if change["kind"] == "move":
        grades.insert(change["to"], grades.pop(change["from"]))
    else:
        grades[change["from"]] = change["grade"]
    return grades


@pytest.mark.parametrize("seed", range(60))
def test_predict_questions_agree_with_irlib(seed):
    question = qs.make_question("predict", random.Random(seed))
    check_payload(question)
    metric, k = shown(question)
    (ranking,) = question["rankings"]
    before = grades_of(ranking)
    after = apply(question["change"], before)
    assert question["correct"] == direction(BY_METRIC[metric](before, k),
                                            BY_METRIC[metric](after, k))
    # the sentence students read names the same change
    change, items = question["change"], ranking["items"]
    assert items[change["from"]]["title"] in question["action"]
    assert f"rank {change['from'] + 1}" in question["action"]


@pytest.mark.parametrize("wanted", ["up", "down", qs.SAME])
def test_predict_questions_come_in_every_direction(wanted):
    question = qs.make_question("predict", random.Random(7), {"direction": wanted, "metric": "AP",
                                                               "k": 5})
    assert question["correct"] == wanted


def test_a_teachers_question_stays_text():
    question = qs.make_question("text", params={
        "prompt": "Is <script>alert(1)</script> **relevant**?",
        "choices": "Yes <b>really</b>\n\n  No  \n[link](http://x)", "correct": 1})
    assert question["prompt"] == "Is <script>alert(1)</script> **relevant**?"
    assert question["choices"] == [["c1", "Yes <b>really</b>"], ["c2", "No"],
                                   ["c3", "[link](http://x)"]]
    assert question["correct"] == "c2"
    check_payload(question)
    poll = qs.make_question("text", params={"prompt": "Which?", "choices": ["a", "b"],
                                            "correct": None})
    assert poll["correct"] is None
    past_the_end = qs.make_question("text", params={"prompt": "?", "choices": ["a", "b"],
                                                    "correct": 4})
    with pytest.raises(RoomError, match="right answer is not one of the answers"):
        check_payload(past_the_end)


def test_a_new_kind_is_one_registration(monkeypatch):
    monkeypatch.setattr(qs, "KINDS", dict(qs.KINDS))

    @qs.register("challenge-demo", "A challenge", "One of the challenges.")
    def make(rng, params):
        return {"prompt": "Does AP@8 reach 0.6?", "choices": [["y", "Yes"], ["n", "No"]],
                "correct": "y" if irlib.average_precision([1, 0, 1], 3) >= 0.6 else "n"}

    assert qs.KINDS["challenge-demo"].label == "A challenge"
    question = qs.make_question("challenge-demo")
    assert question["kind"] == "challenge-demo" and question["correct"] == "y"
    check_payload(question)


def _board_of(challenge, ranking: dict):
    """The board the students see, rebuilt from the question's items alone."""
    start = challenge.start[0]
    return type(start)(tuple(i["id"] for i in ranking["items"]),
                       {i["id"]: i["grade"] for i in ranking["items"]}, start.top, start.label)


@pytest.mark.parametrize("seed", range(30))
def test_challenge_questions_agree_with_the_challenges_own_check(seed):
    from ui.practice import all_challenges

    question = qs.make_question("challenge", random.Random(seed))
    challenge = next(c for c in all_challenges().values()
                     if question["context"].startswith(
                         f"Practice, lesson {c.lesson}: “{c.title}”"))
    solves = {r["label"]: challenge.check([_board_of(challenge, r)]).solved
              for r in question["rankings"]}
    want = ("both" if all(solves.values()) else "neither" if not any(solves.values())
            else next(label for label, ok in solves.items() if ok))
    assert question["correct"] == want
    assert [key for key, _ in question["choices"]] == ["A", "B", "both", "neither"]
    check_payload(question)          # the store accepts it as it is


def test_every_one_board_challenge_can_be_asked():
    from ui.practice import all_challenges

    one_board = [cid for cid, c in all_challenges().items() if len(c.start) == 1]
    assert len(one_board) >= 8
    for cid in one_board:
        question = qs.make_question("challenge", random.Random(0), {"challenge": cid})
        assert question["prompt"].startswith(all_challenges()[cid].task)
        assert question["correct"] in {"A", "B", "both", "neither"}


def test_a_preview_is_the_same_question_from_the_same_choice_and_seed():
    """What the teacher's page keeps in its address (kind, options, seed) is the question."""
    for choice in (qs.SURPRISE, *(k for k, kind in qs.KINDS.items() if not kind.written)):
        assert qs.draw(choice, 42) == qs.draw(choice, 42)
        assert any(qs.draw(choice, 42) != qs.draw(choice, seed) for seed in range(5))
    kinds = {qs.draw(qs.SURPRISE, seed)["kind"] for seed in range(40)}
    assert kinds == {k for k, kind in qs.KINDS.items() if not kind.written}


@pytest.mark.parametrize("source", [None, *qs.SOURCES])
def test_the_teachers_options_are_kept(source):
    for k in qs.k_choices(source):
        params = {"metric": "RR", "k": k, "source": source, "ignored": "x"}
        question = qs.draw("compare", k, params)
        assert shown(question) == ("RR", k) and question["k"] == k
        if source:
            assert len(question["rankings"][0]["items"]) == qs.DOCUMENTS[source]
    predict = qs.draw("predict", 3, {"metric": "P", "k": 8, "source": "lecture"})
    assert shown(predict) == ("P", 8) and predict["k"] == 8
    from ui.practice import all_challenges
    for cid in qs.one_board_challenges():
        question = qs.draw("challenge", 1, {"challenge": cid})
        assert question["prompt"].startswith(all_challenges()[cid].task)


@pytest.mark.parametrize("seed", range(10))
def test_every_answer_reads_in_a_sentence(seed):
    """A student's confirmation ("Your answer: it stays the same") has a phrase for each
    answer of every drawn kind, and no stray symbol."""
    for key, kind in qs.KINDS.items():
        if kind.written:
            continue
        question = qs.make_question(key, random.Random(seed))
        phrases = question["phrases"]
        assert set(phrases) == {choice for choice, _ in question["choices"]}
        assert all(text.replace(" ", "").isalpha() for text in phrases.values()), phrases
