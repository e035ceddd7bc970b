"""Class-room questions on Lesson 7 (metrics as users): which ranking do interleaved users'
clicks favour?

Registered in :data:`ui.rooms.kinds.KINDS` when that module loads. The right answer is
exact: :func:`irlib.online.vote_probabilities` enumerates every team-draft list and every
click pattern of the lesson's cascade users, so no simulation noise decides it.
"""
from __future__ import annotations

import random
from collections.abc import Mapping

from irlib import online
from ui.rooms.kinds import SAME, cats, question_items, register, same_value

#: The lesson's default users (ui/lessons/online.py): cascade, 10 % noise, 90 % patience.
SETTING = online.Setting()


def _percents(a: float, b: float) -> tuple[str, str]:
    """Two shares with the digits that tell them apart (up to 3 decimals).

    >>> _percents(0.4449, 0.4431)
    ('44.5 %', '44.3 %')
    """
    for digits in range(4):
        shown = f"{100 * a:.{digits}f} %", f"{100 * b:.{digits}f} %"
        if shown[0] != shown[1]:
            return shown
    return shown


@register("interleaving", "Interleaving: which ranking do the clicks favour?",
          "Two orders of the graded cats, mixed by team draft for simulated cascade users "
          "(Lesson 7); the class picks the ranking more users' clicks go to.",
          short="Interleaving")
def make_interleaving(rng: random.Random, params: Mapping) -> dict:
    """The sources' order of the graded cats against a draw of it with two results swapped
    (A and B at random). The answer: the ranking with the larger exact vote share."""
    catalog, query = cats("white-cat-in-a-box")
    titles = {i: item.title for i, item in catalog.items.items()}
    order = list(query.order)
    other = list(order)
    while other == order or all(query.grades[a] == query.grades[b]
                                for a, b in zip(order, other)):
        i, j = sorted(rng.sample(range(len(order)), 2))
        other = list(order)
        other[i], other[j] = other[j], other[i]
    orders = {"A": order, "B": other} if rng.random() < 0.5 else {"A": other, "B": order}
    grades = dict(query.grades)
    attract = dict(zip(grades, online.attractiveness(list(grades.values()), 4, SETTING.noise)))
    votes = online.vote_probabilities(orders["A"], orders["B"], attract,
                                      method=SETTING.method, model=SETTING.model,
                                      patience=SETTING.patience)
    correct = SAME if same_value(votes.a, votes.b) else ("A" if votes.a > votes.b else "B")
    share_a, share_b = _percents(votes.a, votes.b)
    return {
        "prompt": "Interleaved for each user, which ranking do more users' clicks favour?",
        "choices": [["A", "Ranking A"], ["B", "Ranking B"], [SAME, "Neither"]],
        "correct": correct,
        "explanation": (f"Team draft, cascade users (10 % noise, 90 % patience): "
                        f"{share_a} of users' clicks favour A, {share_b} favour B, the rest "
                        "neither."),
        "context": (f"The query “{query.text}”, graded 0–4: the same eight cats in two "
                    "orders. Each user sees one list mixed from both; a click counts for "
                    "the ranking that placed the result."),
        "rankings": [{"label": name, "items": question_items(o, grades, titles)}
                     for name, o in orders.items()],
        "phrases": {"A": "ranking A draws more votes",
                    "B": "ranking B draws more votes", SAME: "neither does"},
    }
