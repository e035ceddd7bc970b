"""Lesson 7's class-room question: which ranking do interleaved users' clicks favour. The
right answer is checked against users simulated by team draft itself, not against the exact
enumeration the question uses."""
import random

import numpy as np
import pytest

from irlib import online
from ui.rooms import questions as qs
from ui.rooms.online_questions import SETTING


@pytest.mark.parametrize("seed", range(6))
def test_the_answer_is_what_simulated_users_vote(seed):
    q = qs.make_question("interleaving", random.Random(seed))
    a, b = ([item["id"] for item in r["items"]] for r in q["rankings"])
    grades = {item["id"]: item["grade"] for item in q["rankings"][0]["items"]}
    assert sorted(a) == sorted(b) and a != b
    attract = dict(zip(grades, online.attractiveness(list(grades.values()), 4, SETTING.noise)))
    exact = online.vote_probabilities(a, b, attract, patience=SETTING.patience)
    votes = online.simulate_votes(a, b, attract, 40_000, patience=SETTING.patience, rng=seed)
    # the simulation agrees with the exact shares the answer comes from
    for share, p in (((votes > 0).mean(), exact.a), ((votes < 0).mean(), exact.b)):
        assert abs(share - p) < 4 * np.sqrt(p * (1 - p) / 40_000)
    assert q["correct"] == ("A" if exact.a > exact.b else "B")
    assert "of users' clicks favour A" in q["explanation"]


def test_the_same_seed_draws_the_same_question_and_both_answers_occur():
    assert qs.draw("interleaving", 5) == qs.draw("interleaving", 5)
    answers = {qs.draw("interleaving", s)["correct"] for s in range(30)}
    assert answers == {"A", "B"}
