"""The class room's question kinds, the registry every kind adds itself to.

A kind is a maker ``make(rng, params) -> question dict`` registered under a key
(:func:`register`); :func:`draw` makes the question a teacher previews. The kinds themselves
live beside this module: the search lessons' in :mod:`ui.rooms.questions` (which also gathers
every kind, in the teacher's picker's order), the recommenders' in :mod:`ui.rooms.rec_questions`,
the raters' in :mod:`ui.rooms.judgment_questions`, the interleaving one in
:mod:`ui.rooms.online_questions`. Each imports this module and none imports another, so
there is no circle.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ui.lessons.choosing import DOCS
from ui.shared.catalog import load_catalog
from ui.shared.texts import SCORES

#: Metric key (irlib's curve name) -> how the question names it.
METRICS = SCORES          # labels from irlib's registry (ui/shared/texts.py)
SAME = "same"
DIRECTIONS = (("up", "Goes up ▲"), ("down", "Goes down ▼"), (SAME, "Stays the same ="))


@dataclass(frozen=True)
class Kind:
    """A kind of question: its labels, a sentence for the teacher, the options the teacher
    may fix (keys of ``params``; the others are drawn) and its maker."""
    key: str
    label: str
    short: str                  # the picker's label
    help: str
    make: Callable[[random.Random, Mapping], dict]
    options: tuple[str, ...] = ()
    #: The teacher writes it (the page shows a form) instead of drawing one at random.
    written: bool = False


KINDS: dict[str, Kind] = {}
#: The teacher's "Surprise me": any drawn kind, every option drawn.
SURPRISE = "surprise"
#: Where the two rankings of an A-or-B question come from, and how many documents each has.
SOURCES = {"cats": "eight cats", "graded": "eight cats, graded", "lecture": "the lecture's three"}
DOCUMENTS = {"cats": 8, "graded": 8, "lecture": len(DOCS)}


def register(key: str, label: str, help: str, *, short: str | None = None,
             options: tuple[str, ...] = (), written: bool = False):
    """Decorator: add ``make(rng, params) -> question dict`` to :data:`KINDS` as ``key``."""
    def add(make):
        KINDS[key] = Kind(key, label, short or label, help, make, tuple(options), written)
        return make
    return add


def make_question(key: str, rng: random.Random | None = None,
                  params: Mapping | None = None) -> dict:
    """A new question of kind ``key`` (``rng`` for repeatable draws in tests)."""
    question = KINDS[key].make(rng or random.Random(), dict(params or {}))
    return {"kind": key, **question}


def draw(choice: str, seed: int, params: Mapping | None = None) -> dict:
    """The question the teacher's preview shows: kind ``choice`` (or :data:`SURPRISE`) with
    the options ``params`` fixes (unset ones are drawn), from ``seed``. The same arguments give
    the same question: the preview, the link that keeps it and what is posed agree."""
    rng = random.Random(seed)
    if choice == SURPRISE:
        return make_question(rng.choice([k for k, kind in KINDS.items() if not kind.written]),
                             rng)
    kind = KINDS[choice]
    return make_question(choice, rng, {name: value for name, value in (params or {}).items()
                                       if name in kind.options and value})


def k_choices(source: str | None = None) -> range:
    """The K a teacher may fix: up to the documents of ``source`` (the eight cats when None;
    an A-or-B question with a drawn source then draws one with enough)."""
    return range(1, DOCUMENTS.get(source or "cats", 8) + 1)


def metric_label(metric: str, k: int) -> str:
    """``"NDCG@3"``."""
    return f"{METRICS[metric]}@{k}"


def same_value(a: float, b: float) -> bool:
    """Equal up to float noise: one ranking scored along two paths is one value, not a win."""
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


def curve_value(curves: Mapping, metric: str, k: int) -> float:
    return float(np.asarray(curves[metric])[..., k - 1])


def cats(query: str = "cat-in-a-box"):
    catalog = load_catalog()
    return catalog, catalog.queries[query]


def question_items(order: Sequence[str], grades: Mapping[str, int], titles: Mapping[str, str]) -> list:
    return [{"id": i, "title": titles[i], "grade": int(grades[i])} for i in order]
