"""Class-room questions from Lesson 9 (where judgments come from), registered with
:func:`ui.rooms.kinds.register` like every kind. The numbers are irlib.stats.raters'."""
from __future__ import annotations

import math
import random
from collections.abc import Mapping

from ui.shared.numbers import fmt
from irlib.stats.raters import agreement
from ui.rooms.kinds import cats, question_items, register

PAIRS = {"12": (1, 2), "13": (1, 3), "23": (2, 3)}
WORDS = {1: "one", 2: "two", 3: "three"}
#: κ of the winning pair is at least this far above the others: a clear answer to argue about.
MARGIN = 0.1
CARDS = 6
TOP_GRADE = 3


@register("raters", "Raters: which two agree most?",
          "Three raters grade the same six cats 0–3; the class picks the pair that agrees "
          "most beyond chance (Cohen's κ, as Lesson 9).", short="Which raters agree?")
def make_raters(rng: random.Random, params: Mapping) -> dict:
    """Three raters' grades of six cats, drawn around one shared opinion so that one pair's
    Cohen's κ clearly beats the others' (by :data:`MARGIN`). The explanation gives every
    pair's κ and Fleiss' κ of all three, from :func:`irlib.stats.raters.agreement`."""
    catalog, query = cats()
    titles = {i: item.title for i, item in catalog.items.items()}
    for _ in range(500):
        order = rng.sample(list(query.order), CARDS)
        shared = [rng.randint(0, TOP_GRADE) for _ in order]
        raters = [[g if rng.random() < keep else rng.randint(0, TOP_GRADE) for g in shared]
                  for keep in rng.sample([0.9, 0.6, 0.3], 3)]
        found = agreement([list(row) for row in zip(*raters)])
        kappas = {key: found.pairs[pair] for key, pair in PAIRS.items()}
        if any(math.isnan(k) for k in kappas.values()):   # one rater gave one grade throughout
            continue
        best, *rest = sorted(kappas, key=kappas.get, reverse=True)
        if all(kappas[best] - kappas[other] >= MARGIN for other in rest):
            break
    shown = ", ".join(f"raters {a} and {b} {fmt(kappas[k])}" for k, (a, b) in PAIRS.items())
    grades = [{i: g for i, g in zip(order, rater)} for rater in raters]
    return {
        "prompt": "Three raters graded the same six cats (0–3). Which two raters agree most, "
                  "beyond chance?",
        "choices": [[key, f"Raters {a} and {b}"] for key, (a, b) in PAIRS.items()],
        "phrases": {key: f"raters {WORDS[a]} and {WORDS[b]} agree most"
                    for key, (a, b) in PAIRS.items()},
        "correct": best,
        "explanation": f"Cohen's κ: {shown}. Fleiss' κ of all three: {fmt(found.kappa)} "
                       f"({found.words}).",
        "context": "Lesson 9, where judgments come from: the query “"
                   f"{query.text}”, the same six cats graded by three people.",
        "rankings": [{"label": f"Rater {n}", "items": question_items(order, grade, titles)}
                     for n, grade in enumerate(grades, start=1)],
    }
