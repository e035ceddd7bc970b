"""Questions a teacher can pose in a class room, each with its right answer computed by irlib.

A question is a plain dict (it travels through the database as JSON)::

    {"kind": "compare", "prompt": "Which ranking has the higher AP@8?",
     "choices": [["A", "Ranking A"], ["B", "Ranking B"], ["same", "Both the same"]],
     "correct": "A",                      # None: no right answer (an opinion poll)
     "explanation": "AP@8: A 0.66, B 0.41.",
     "rankings": [{"label": "A", "items": [{"id", "title", "grade"}, ...]}, ...],
     "action": "Move ... from rank 5 to rank 1.",  # optional
     "k": 8,                              # optional: the K cut drawn on the rankings
     "phrases": {"A": "ranking A is higher", ...}}   # optional: a choice in a sentence

Every kind is one :class:`Kind` in :data:`KINDS`: labels for the teacher's picker, the options
the teacher may fix (``source``, ``metric``, ``k``, ``challenge``) and a ``make(rng, params)``
that returns such a dict. Adding a kind is one :func:`register` call; the pages draw any
question from the dict alone. :func:`draw` is what the teacher's preview shows: the same kind,
options and seed give the same question, so a link or a reload shows it again. No Streamlit
calls here, and no metric math: the numbers come from :func:`irlib.metric_curves` and
:func:`irlib.metric_curves_batch`.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import numpy as np

import irlib
from ui.shared.numbers import fmt
from ui.lessons.choosing import DOCS, LECTURE_GRADES, LECTURE_ORDERS
from ui.rooms.kinds import (DIRECTIONS, DOCUMENTS, KINDS, METRICS, SAME, SOURCES,  # noqa: F401
                            SURPRISE, Kind, cats, curve_value, draw, k_choices, make_question,
                            metric_label, question_items, register, same_value)

# --------------------------------------------------------------------------- compare


def _compare_payload(metric: str, k: int, rankings: dict[str, list[int]], items: dict,
                     context: str) -> dict:
    values = {name: curve_value(irlib.metric_curves(grades), metric, k)
              for name, grades in rankings.items()}
    a, b = values["A"], values["B"]
    correct = SAME if same_value(a, b) else ("A" if a > b else "B")
    shown = metric_label(metric, k)
    return {
        "prompt": f"Which ranking has the higher {shown}, A or B?",
        "choices": [["A", "Ranking A"], ["B", "Ranking B"], [SAME, "Both the same"]],
        "correct": correct,
        "explanation": f"{shown}: A {fmt(a)}, B {fmt(b)}" + (
            " — a tie." if correct == SAME else f" — ranking {correct} is higher."),
        "context": context,
        "rankings": [{"label": name, "items": items[name]} for name in ("A", "B")],
        "k": k,
        "phrases": {"A": "ranking A is higher", "B": "ranking B is higher",
                    SAME: "both are the same"},
    }


@register("compare", "Which ranking is higher, A or B?",
          "Two orders of the eight cats (or two of the lecture's three rankings, or of your "
          "own example) and one metric at K; the class picks the higher one.",
          short="A or B?", options=("source", "metric", "k", "example"))
def make_compare(rng: random.Random, params: Mapping) -> dict:
    """Two rankings, one metric at K. ``params``: ``source`` ("cats", "graded", "lecture"),
    ``metric``, ``k``; each drawn when missing (a source with at least K documents). Ties are
    allowed but drawn less often. ``example``: a lecturer's own example
    (:class:`ui.lessons.playground.example_data.OwnExample`), used in place of any source."""
    fixed_k = int(params.get("k") or 0)
    own = _own(params)
    if own is not None:
        order, grades, titles, context = own
        metric = params.get("metric") or rng.choice(list(METRICS))
        return _shuffled_pair(rng, metric, min(fixed_k, len(order)) or
                              rng.randint(2, len(order) - 1), order, grades, titles, context)
    source = params.get("source") or rng.choice(
        [s for s in ("cats", "cats", "graded", "lecture") if DOCUMENTS[s] >= fixed_k])
    metric = params.get("metric") or ("nDCG" if source == "graded" else rng.choice(list(METRICS)))
    if source == "lecture":
        k = min(fixed_k, len(DOCS)) or rng.randint(2, len(DOCS))
        first, second = rng.sample(sorted(LECTURE_ORDERS), 2)
        orders = {"A": LECTURE_ORDERS[first], "B": LECTURE_ORDERS[second]}
        titles = {d: d for d in DOCS}
        return _compare_payload(
            metric, k, {n: [LECTURE_GRADES[d] for d in o] for n, o in orders.items()},
            {n: question_items(o, LECTURE_GRADES, titles) for n, o in orders.items()},
            f"The lecture's ranking {first} (A) and ranking {second} (B): six documents, "
            "A, B and C relevant.")
    catalog, query = cats("white-cat-in-a-box" if source == "graded" else "cat-in-a-box")
    titles = {i: item.title for i, item in catalog.items.items()}
    k = min(fixed_k, len(query.order)) or rng.randint(2, len(query.order) - 1)
    return _shuffled_pair(rng, metric, k, list(query.order), query.grades, titles,
                          f"The query “{query.text}”, {query.scale} judgments.")


def _shuffled_pair(rng: random.Random, metric: str, k: int, ids: list[str],
                   grades: Mapping[str, int], titles: Mapping[str, str], context: str) -> dict:
    """Two shuffled orders of ``ids`` as an A-or-B question; a tie only now and then."""
    allow_tie = rng.random() < 0.15
    for _ in range(200):
        orders = {name: rng.sample(ids, len(ids)) for name in "AB"}
        ranked = {name: [grades[i] for i in order] for name, order in orders.items()}
        question = _compare_payload(
            metric, k, ranked, {n: question_items(o, grades, titles) for n, o in orders.items()},
            context)
        if allow_tie or question["correct"] != SAME:
            return question
    return question


def _own(params: Mapping) -> tuple[list[str], dict[str, int], dict[str, str], str] | None:
    """A lecturer's own example (``params["example"]``) as ids, grades, titles and a context
    line; None without one. Its titles are the lecturer's text: the room shows them escaped
    (``ui/rooms/view.py``). Ids are prefixed so that no card takes a cat's or a film's picture."""
    example = params.get("example")
    if example is None:
        return None
    ids = [f"own-{i}" for i in example.ids]
    grades = {i: item.grade for i, item in zip(ids, example.items)}
    titles = {i: item.title for i, item in zip(ids, example.items)}
    graded = any(g > 1 for g in grades.values())
    return ids, grades, titles, (f"The query “{example.query}”, "
                                 + ("grades 0–4 (relevant: 1 or more)." if graded
                                    else "binary judgments."))


# --------------------------------------------------------------------------- predict


@register("predict", "Predict: up, down or the same?",
          "One move or one judgment on the eight cats; the class predicts which way a metric "
          "at K goes.", short="Up, down, same?", options=("metric", "k", "example"))
def make_predict(rng: random.Random, params: Mapping) -> dict:
    """A ranking of the cats, one action (a drag or a judgment) and a metric at K.

    ``params``: ``metric``, ``k``, ``direction`` ("up", "down", "same"; drawn when missing, so
    the three answers come up about as often). Every action one step away is scored at once
    by :func:`irlib.one_move_neighbours` and :func:`irlib.metric_curves_batch`. ``example``:
    a lecturer's own example in place of the cats (its grades 0-4, a judgment any grade).
    """
    own = _own(params)
    if own is None:
        catalog, query = cats()
        ids, judged, context = list(query.order), query.grades, \
            f"The query “{query.text}”, binary judgments."
        titles = {i: item.title for i, item in catalog.items.items()}
    else:
        ids, judged, titles, context = own
    levels = (0, 1) if max(judged.values()) <= 1 else tuple(range(5))
    metric = params.get("metric") or rng.choice(list(METRICS))
    k = min(int(params.get("k") or 0), len(ids)) or rng.randint(2, len(ids) - 1)
    wanted = params.get("direction") or rng.choice([key for key, _ in DIRECTIONS])
    for _ in range(50):
        order = rng.sample(ids, len(ids))
        grades = [judged[i] for i in order]
        nb = irlib.one_move_neighbours(grades, levels=levels)
        before = curve_value(irlib.metric_curves(grades), metric, k)
        after = np.asarray(irlib.metric_curves_batch(nb.grades)[metric])[:, k - 1]
        direction = [SAME if same_value(before, v) else ("up" if v > before else "down")
                     for v in after.tolist()]
        rows = [r for r, d in enumerate(direction) if d == wanted]
        if rows:
            break
    row = rng.choice(rows or range(len(nb)))
    at, to = int(nb.positions[row]), int(nb.to_positions[row])
    title = titles[order[at]]
    if nb.kinds[row] == "move":
        action = f"Move “{title}” from rank {at + 1} to rank {to + 1}."
    elif levels == (0, 1):
        word = "relevant" if nb.new_grades[row] else "not relevant"
        action = f"Judge “{title}” (rank {at + 1}) {word}."
    else:
        action = f"Grade “{title}” (rank {at + 1}) {int(nb.new_grades[row])} instead of " \
                 f"{grades[at]}."
    shown = metric_label(metric, k)
    value = float(after[row])
    return {
        "prompt": f"After this change, does {shown} go up, go down or stay the same?",
        "choices": [list(pair) for pair in DIRECTIONS],
        "correct": direction[row],
        "explanation": f"{shown} goes from {fmt(before)} to {fmt(value)}.",
        "context": context,
        "action": action,
        "change": {"kind": nb.kinds[row], "from": at, "to": to,
                   "grade": int(nb.new_grades[row])},
        "rankings": [{"label": "Now", "items": question_items(order, judged, titles)}],
        "k": k,
        "phrases": {"up": "it goes up", "down": "it goes down", SAME: "it stays the same"},
    }


# --------------------------------------------------------------------------- challenge


@register("challenge", "A challenge: which board solves it?",
          "One of the Practice lesson's challenges and two boards; the class picks the one "
          "that solves it (or neither). irlib's check of each board decides.",
          short="Which board?", options=("challenge",))
def make_challenge(rng: random.Random, params: Mapping) -> dict:
    """A one-board challenge (``params``: ``challenge``, its id; drawn when missing), shown on
    two boards: its worked answer and its start, or (a third of the time) its start and
    another board that fails too. The right answer is what :meth:`Challenge.check` says of
    each board; the explanation is its sentence, with the numbers."""
    pool = one_board_challenges()
    challenge = pool.get(params.get("challenge")) or pool[rng.choice(sorted(pool))]
    (start,), (answer,) = challenge.start, challenge.answer
    second = answer
    if rng.random() < 1 / 3:
        for _ in range(200):              # a shuffled order that fails too: "neither"
            candidate = start.with_state(rng.sample(list(start.order), len(start.order)),
                                         start.grades)
            if not challenge.check([candidate]).solved:
                second = candidate
                break
    boards = dict(zip("AB", rng.sample([start, second], 2)))
    verdicts = {name: challenge.check([board]) for name, board in boards.items()}
    solving = [name for name, verdict in verdicts.items() if verdict.solved]
    correct = solving[0] if len(solving) == 1 else ("both" if solving else "neither")
    from ui.lessons.practice.lesson import items_of
    titles = {item["id"]: item["title"] for item in items_of(start)}
    return {
        "prompt": f"{challenge.task} Which board solves it?",
        "choices": [["A", "Board A"], ["B", "Board B"], ["both", "Both"],
                    ["neither", "Neither"]],
        "phrases": {"A": "board A solves it", "B": "board B solves it",
                    "both": "both boards solve it", "neither": "neither board solves it"},
        "correct": correct,
        "explanation": " ".join(f"Board {name}: {verdict.why}"
                                for name, verdict in verdicts.items()),
        "context": f"Practice, lesson {challenge.lesson}: “{challenge.title}”, {start.label}.",
        "rankings": [{"label": name, "items": question_items(board.order, board.grades, titles)}
                     for name, board in boards.items()],
    }


def one_board_challenges() -> dict:
    """The challenges a room can ask (one board each), by id, in course order."""
    from ui.lessons.practice.lesson import all_challenges       # the lessons' boards (imports the widgets)

    return {cid: c for cid, c in all_challenges().items() if len(c.start) == 1}


# --------------------------------------------------------------------------- recommenders

# Their kinds register here, between the challenge and the teacher's own question.
from ui.rooms.rec_questions import (  # noqa: E402,F401  (the room page reads them here)
    LIST_FILMS, NEGATIVES, REC_METRICS, SAMPLED_K, rec_metric_label)


# --------------------------------------------------------------------------- written


def written_answers(choices: str | Sequence[str]) -> list[str]:
    """The answers a teacher typed (one a line, or a list): blanks squeezed, empty lines gone.

    >>> written_answers("  Yes \\n\\n No, never\\n")
    ['Yes', 'No, never']
    """
    if isinstance(choices, str):
        choices = choices.splitlines()
    texts = [" ".join(str(c).split()) for c in choices]
    return [t for t in texts if t]


@register("text", "Your own question",
          "Write a question and 2–6 answers; mark the right one, or none for a poll.",
          short="Your own", written=True)
def make_text(rng: random.Random, params: Mapping) -> dict:
    """The teacher's own question: ``params`` = ``prompt``, ``choices`` (texts, one a line or a
    list) and ``correct`` (the index of the right one, or None). Shown as text, never HTML."""
    texts = written_answers(params.get("choices") or [])
    correct = params.get("correct")
    return {
        "prompt": " ".join(str(params.get("prompt") or "").split()),
        "choices": [[f"c{n}", t] for n, t in enumerate(texts, start=1)],
        # an index past the answers stays wrong, so the store refuses it with a reason
        "correct": None if correct is None else f"c{int(correct) + 1}",
        "explanation": "",
    }


from ui.rooms import judgment_questions  # noqa: E402,F401  Lesson 9's kinds register themselves
from ui.rooms import online_questions  # noqa: E402,F401  Lesson 7's kind registers itself
