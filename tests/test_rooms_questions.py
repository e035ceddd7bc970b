"""Room questions: every right answer agrees with irlib's per-metric functions, recomputed here
from what the students are shown (the rankings and the change), not from the question's own
numbers."""
from __future__ import annotations

import random

import pytest

import irlib
from ui.shared.numbers import fmt
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
    assert question["explanation"].startswith(f"{qs.metric_label(metric, k)}: A {fmt(a)}")


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
    from ui.rooms import kinds
    monkeypatch.setattr(kinds, "KINDS", dict(kinds.KINDS))

    @qs.register("challenge-demo", "A challenge", "One of the challenges.")
    def make(rng, params):
        return {"prompt": "Does AP@8 reach 0.6?", "choices": [["y", "Yes"], ["n", "No"]],
                "correct": "y" if irlib.average_precision([1, 0, 1], 3) >= 0.6 else "n"}

    assert kinds.KINDS["challenge-demo"].label == "A challenge"
    question = qs.make_question("challenge-demo")
    assert question["kind"] == "challenge-demo" and question["correct"] == "y"
    check_payload(question)


def _board_of(challenge, ranking: dict):
    """The board the students see, rebuilt from the question's items alone."""
    return challenge.start[0].with_state([i["id"] for i in ranking["items"]],
                                         {i["id"]: i["grade"] for i in ranking["items"]})


@pytest.mark.parametrize("seed", range(30))
def test_challenge_questions_agree_with_the_challenges_own_check(seed):
    from ui.lessons.practice.lesson import all_challenges

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
    from ui.lessons.practice.lesson import all_challenges

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
    from ui.lessons.practice.lesson import all_challenges
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


# --------------------------------------------------------------------------- recommenders

#: irlib.evaluate's name of each recommender metric a prompt names.
REC_NAMES = {"HitRate": "Success", "Recall": "R", "NDCG": "nDCG", "MRR": "RR",
             # one user's list (the "users" question): its hit and its RR
             "Hit": "Success", "RR": "RR"}


def rec_shown(question: dict) -> tuple[str, int]:
    """The metric (irlib's name) and K a recommender question's prompt names."""
    import re
    name, k = re.search(r"\b(HitRate|Hit|Recall|NDCG|MRR|RR)@(\d+)", question["prompt"]).groups()
    return REC_NAMES[name], int(k)


def test_a_film_challenge_shows_its_films_by_title():
    from ui.shared.films import _films
    question = qs.make_question("challenge", random.Random(0), {"challenge": "hit-blind-to-order"})
    items = [i for r in question["rankings"] for i in r["items"]]
    # as the Practice board titles them: the title, then the genre
    assert len(items) == 16 and all(i["title"] == " · ".join(_films()[i["id"]]) for i in items)
    assert "Maya's top 8 from Matrix factorisation: watched 18 films" in question["context"]


@pytest.mark.parametrize("seed", range(12))
def test_users_questions_agree_with_irlib(seed):
    """Recomputed from what the students see (each list's order) against every film each user
    watched after the cut (the lesson's split), by irlib.evaluate."""
    import pandas as pd

    from course.reclab.data import generate
    from course.reclab.lesson import HONEST_SPLIT, held_out
    from course.reclab.splits import lesson_split
    question = qs.make_question("users", random.Random(seed))
    check_payload(question)
    measure, k = rec_shown(question)
    ids = {name: u for u, name in generate().names.items()}
    test = lesson_split(HONEST_SPLIT).test
    values = []
    for ranking in question["rankings"]:
        user = ids[ranking["label"].split(": ")[1].split(" · ")[0]]
        films = [i["id"] for i in ranking["items"]]
        assert [i["grade"] for i in ranking["items"]] == [int(f in held_out()[user])
                                                          for f in films]      # ✓ = watched
        assert f" · watched {len(held_out()[user])} films after the cut" in ranking["label"]
        mine = test[test["user_id"] == user]
        qrels = pd.DataFrame({"query_id": mine["user_id"], "doc_id": mine["item_id"],
                              "relevance": 1})
        run = pd.DataFrame({"query_id": user, "doc_id": films,
                            "score": [float(8 - n) for n in range(len(films))]})
        values.append(float(irlib.evaluate(qrels, run, [f"{measure}@{k}"]).means.iloc[0]))
    a, b = values
    assert question["correct"] == (qs.SAME if abs(a - b) <= 1e-12 else "A" if a > b else "B")
    assert question["k"] == k and len(question["rankings"][0]["items"]) == qs.LIST_FILMS


@pytest.mark.parametrize("seed", range(6))
def test_sampled_questions_agree_with_irlib(seed):
    """Recomputed with course.reclab.sampled's own functions on a freshly drawn sample (seed 0,
    as the lesson's page), not through the lesson's caches."""
    from course.reclab.data import generate
    from course.reclab.models import MODELS, rankings
    from course.reclab.sampled import negative_orders, sampled_accuracy
    from course.reclab.splits import split
    question = qs.make_question("sampled", random.Random(seed))
    check_payload(question)
    measure, k = rec_shown(question)
    n = int(question["prompt"].split("only ")[1].split()[0])
    assert k == qs.SAMPLED_K and n in qs.NEGATIVES
    data = generate()
    s = split(data, "last")
    orders = negative_orders(data, s, 0)
    key = next(key for key, name in (("hit", "Success"), ("ndcg", "nDCG"), ("mrr", "RR"))
               if name == measure)
    a, b = (m for m, _ in question["choices"][:2])
    sampled, whole = {}, {}
    for m in (a, b):
        ranking = rankings(data, s.train, m)
        sampled[m] = float(sampled_accuracy(ranking, s, orders, n, k, (key,)).means.iloc[0])
        whole[m] = float(sampled_accuracy(ranking, s, orders, None, k, (key,)).means.iloc[0])
    expected = qs.SAME if abs(sampled[a] - sampled[b]) <= 1e-12 else (
        a if sampled[a] > sampled[b] else b)
    assert question["correct"] == expected
    assert f"{MODELS[a]} {fmt(whole[a], 3)}, " in question["context"]
    assert f"{MODELS[a]} {fmt(sampled[a], 3)}" in question["explanation"]
    flipped = (whole[a] - whole[b]) * (sampled[a] - sampled[b]) < 0
    assert ("the order flips" in question["explanation"]) == flipped


def test_the_sampled_flip_comes_up():
    """The lesson's flip: Matrix factorisation beats Trending among 20 random films on
    HitRate@10, and loses to it on the whole catalogue."""
    found = [qs.draw("sampled", seed, {"rec_metric": "hit", "negatives": 20}) for seed in range(8)]
    flips = [q for q in found if "the order flips" in q["explanation"]]
    assert flips and all("Among 20 random films" in q["explanation"] for q in found)


def test_the_teachers_recommender_options_are_kept():
    for key in qs.REC_METRICS["users"]:
        for k in (1, 4, 8):
            question = qs.draw("users", k, {"rec_metric": key, "k": k, "negatives": 5})
            # one user's list has an RR and a hit, not an MRR or a hit rate (Lesson 2)
            shown = {"mrr": f"RR@{k}", "hit": f"Hit@{k}"}.get(key, qs.rec_metric_label(key, k))
            assert question["k"] == k and f"higher {shown}," in question["prompt"]
            assert "MRR" not in question["prompt"] + question["explanation"]
    for key in qs.REC_METRICS["sampled"]:
        for n in qs.NEGATIVES:
            question = qs.draw("sampled", n, {"rec_metric": key, "negatives": n, "k": 3})
            assert f"only {n} random films" in question["prompt"]
            assert qs.rec_metric_label(key, qs.SAMPLED_K) in question["prompt"]
    # Recall@K is not a sampled question's metric (one held-out film: it is HitRate): drawn
    assert "Recall" not in qs.draw("sampled", 1, {"rec_metric": "recall"})["prompt"]


def test_the_tally_labels_every_answer_and_never_shrinks_its_counts():
    """Six answers: Plotly dropped every other category label (the chosen bar's too) and
    shrank the counts to fit (~6 px on the projector)."""
    from ui.rooms.view import tally_figure
    choices = [[f"c{n}", f"Answer number {n}"] for n in range(6)]
    figure = tally_figure({"choices": choices, "correct": "c2"}, {"c2": 7}, True, height=200)
    axis = figure["layout"]["yaxis"]
    assert axis["tickmode"] == "array" and len(axis["tickvals"]) == 6 == len(axis["ticktext"])
    assert set(axis["ticktext"]) == set(figure["data"][0]["y"])
    assert figure["data"][0]["constraintext"] == "none"
    assert figure["data"][0]["textfont"]["size"] >= 20
    assert figure["layout"]["height"] >= 6 * 40            # room for six labels of 24 px
