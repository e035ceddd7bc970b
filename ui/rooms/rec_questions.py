"""Class-room questions on Lesson 8's recommenders: two users' lists, and sampled metrics.

Registered in :data:`ui.rooms.kinds.KINDS` when that module loads (it imports this one
where these kinds stand in the teacher's picker); the numbers come from ``course.reclab``.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from ui.shared.numbers import fmt
from ui.rooms.kinds import SAME, register, same_value


#: The recommenders' metrics a question may name (course.reclab.evaluation's keys), per kind:
#: a sampled question ranks one held-out film, where Recall@K is HitRate@K.
REC_METRICS = {"users": ("hit", "recall", "ndcg", "mrr"), "sampled": ("hit", "ndcg", "mrr")}
#: The films in each user's list, and the lesson's K and sample sizes for a sampled question.
LIST_FILMS = 8
SAMPLED_K = 10
NEGATIVES = (5, 10, 20, 50, 100)


def rec_metric_label(key: str, k: int) -> str:
    """``"HitRate@3"``."""
    from course.reclab.evaluation import label
    return label(key, k)


def _rec_metric(rng: random.Random, params: Mapping, kind: str) -> str:
    """The metric the teacher fixed, if this kind asks it, else one drawn."""
    fixed = params.get("rec_metric")
    return fixed if fixed in REC_METRICS[kind] else rng.choice(REC_METRICS[kind])


def _film_items(order: Sequence[str], watched) -> list:
    from ui.shared.films import title
    return [{"id": i, "title": title(i), "grade": int(i in watched)} for i in order]


def _winner(values: Mapping[str, float]) -> str:
    (a, va), (b, vb) = values.items()
    return SAME if same_value(va, vb) else (a if va > vb else b)


@register("users", "Two users' lists: which scores higher?",
          "One recommender's top 8 for two users of Lesson 8's film service (✓: watched after "
          "the cut) and one metric at K; the class picks the list that scores higher.",
          short="Whose list?", options=("rec_metric", "k"))
def make_users(rng: random.Random, params: Mapping) -> dict:
    """Two users' lists from one of the lesson's models (temporal split). ``params``:
    ``rec_metric`` (HitRate, Recall, NDCG, MRR), ``k``; drawn when missing. Every held-out
    film of a user counts, listed or not (Recall, NDCG's ideal): the context says how many.
    The numbers are :func:`irlib.evaluate`'s (:func:`course.reclab.evaluation.accuracy`)."""
    from course.reclab.data import generate
    from course.reclab.evaluation import accuracy
    from course.reclab.lesson import HONEST_SPLIT, held_out, top_list
    from course.reclab.models import MODELS, lesson_ranking
    from course.reclab.splits import lesson_split

    key = _rec_metric(rng, params, "users")
    k = min(int(params.get("k") or 0), LIST_FILMS) or rng.randint(2, LIST_FILMS)
    held, names = held_out(), generate().names
    test = lesson_split(HONEST_SPLIT).test
    allow_tie = rng.random() < 0.15
    for _ in range(100):
        model = rng.choice(sorted(MODELS))
        users = rng.sample(sorted(held), 2)
        lists = {u: top_list(model, u, LIST_FILMS) for u in users}
        if not all(held[u] & set(lists[u]) for u in users) or \
                not any(held[u] & set(lists[u][:k]) for u in users):
            continue      # a ✓ on each list, one in a top K at least: not 0 against 0
        per_user = accuracy(test[test["user_id"].isin(users)],
                            lesson_ranking(HONEST_SPLIT, model).top_k(LIST_FILMS, users), k,
                            (key,)).per_query.iloc[:, 0]
        values = {"A": float(per_user[users[0]]), "B": float(per_user[users[1]])}
        if allow_tie or _winner(values) != SAME:
            break
    # one user's list: a mean over users is that user's own score (MRR of one list is its
    # RR, a hit rate a hit), named as Lesson 2 names it
    shown = {"mrr": f"RR@{k}", "hit": f"Hit@{k}"}.get(key) or rec_metric_label(key, k)
    who = {name: names[u] for name, u in zip("AB", users)}
    counts = {name: len(held[u]) for name, u in zip("AB", users)}
    correct = _winner(values)
    return {
        "prompt": f"Whose list has the higher {shown}, A or B?",
        "choices": [["A", f"A: {who['A']}"], ["B", f"B: {who['B']}"], [SAME, "Both the same"]],
        "correct": correct,
        "explanation": f"{shown}: A ({who['A']}) {fmt(values['A'], 3)}, B ({who['B']}) "
                       f"{fmt(values['B'], 3)}" + (
                           " — the same value." if correct == SAME else
                           f" — {who[correct]}'s list is higher."),
        # one line on a laptop's projector (the counts go with each list's name)
        "context": f"{MODELS[model]}'s top {LIST_FILMS} for each; ✓ = watched after the cut.",
        "rankings": [{"label": f"{name}: {who[name]} · watched {counts[name]} films after the "
                               "cut, listed or not",
                      "items": _film_items(lists[u], held[u])}
                     for name, u in zip("AB", users)],
        "k": k,
        "phrases": {"A": "list A is higher", "B": "list B is higher", SAME: "both are the same"},
    }


@register("sampled", "Sampled metrics: does the order hold?",
          "Two recommenders' whole-catalogue numbers from Lesson 8; the class predicts which "
          "has the higher mean when each held-out film is ranked among only N random films.",
          short="Sampled?", options=("rec_metric", "negatives"))
def make_sampled(rng: random.Random, params: Mapping) -> dict:
    """Two of the lesson's models on leave-last-out at K = :data:`SAMPLED_K`: the whole
    catalogue's numbers are given, the sampled ones asked (Krichene & Rendle 2020).
    ``params``: ``rec_metric`` (HitRate, NDCG, MRR), ``negatives`` (one of
    :data:`NEGATIVES`); drawn when missing. The sample is the lesson's (seed 0), so its page
    shows the same numbers; they come from :mod:`course.reclab.sampled` via irlib.evaluate."""
    from course.reclab import lesson
    from course.reclab.models import MODELS

    key = _rec_metric(rng, params, "sampled")
    n = int(params.get("negatives") or 0) or rng.choice(NEGATIVES)
    a, b = rng.sample(sorted(MODELS), 2)
    full = lesson.full_catalogue(key, SAMPLED_K)
    sampled = lesson.sampled_at(key, SAMPLED_K, 0, n)
    shown = rec_metric_label(key, SAMPLED_K)
    whole = {m: float(full[m]) for m in (a, b)}
    among = {m: float(sampled[m]) for m in (a, b)}
    correct, before = _winner(among), _winner(whole)
    low, high = lesson.unwatched_range()
    turned = ("the same order" if correct == before else
              "the same value" if correct == SAME else "the order flips")
    return {
        "prompt": f"Ranked among only {n} random films instead, which has the higher {shown}?",
        "choices": [[a, MODELS[a]], [b, MODELS[b]], [SAME, "The same"]],
        "correct": correct,
        "explanation": f"Among {n} random films: {MODELS[a]} {fmt(among[a], 3)}, "
                       f"{MODELS[b]} {fmt(among[b], 3)} — {turned} (the whole catalogue: "
                       f"{fmt(whole[a], 3)} and {fmt(whole[b], 3)}).",
        "context": f"The whole catalogue: each user's last film held out and ranked among every "
                   f"film they never watched ({low}–{high}). {shown}: {MODELS[a]} "
                   f"{fmt(whole[a], 3)}, {MODELS[b]} {fmt(whole[b], 3)}.",
        "phrases": {a: f"{MODELS[a]} is higher", b: f"{MODELS[b]} is higher",
                    SAME: "both are the same"},
    }
