"""Lesson 8's class-room question: which two raters agree most. The right answer is checked
against scikit-learn's Cohen's κ of the grades the students see (the question's own items)."""
from __future__ import annotations

import random

import pytest
from sklearn.metrics import cohen_kappa_score

from ui.rooms import questions as qs
from ui.rooms.judgment_questions import PAIRS
from ui.rooms.store import check_payload


@pytest.mark.parametrize("seed", range(8))
def test_the_right_pair_is_the_one_with_the_highest_kappa(seed):
    question = qs.make_question("raters", random.Random(seed))
    check_payload(question)
    grades = [[item["grade"] for item in ranking["items"]] for ranking in question["rankings"]]
    ids = [[item["id"] for item in ranking["items"]] for ranking in question["rankings"]]
    assert ids[0] == ids[1] == ids[2] and len(grades) == 3      # the same cats, three raters
    kappas = {key: cohen_kappa_score(grades[a - 1], grades[b - 1]) for key, (a, b) in PAIRS.items()}
    assert question["correct"] == max(kappas, key=kappas.get)
    best = kappas[question["correct"]]
    assert all(best - v >= 0.1 - 1e-9 for k, v in kappas.items() if k != question["correct"])
    assert "Cohen's κ: raters 1 and 2" in question["explanation"]


def test_the_kind_is_offered_and_drawn_by_surprise():
    assert "raters" in qs.KINDS and not qs.KINDS["raters"].written
    assert "raters" in {qs.draw(qs.SURPRISE, seed)["kind"] for seed in range(60)}
