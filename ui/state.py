"""The playground's whole state, to and from the URL, so a teacher can share a link.

The URL is compact and readable: ``?order=21345678&labels=01011010&grades=04134132&mode=binary
&k=2&metric=R&gain=linear&rel=1``. ``order`` lists picture numbers (1-8, the sources' default
order) from rank 1 down; ``labels``/``grades`` give each picture's judgment in picture order.
A broken or tampered field falls back to its default and yields a short notice.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

MODES = ("binary", "graded")
GAINS = ("linear", "exponential")
METRICS = ("P", "R", "F1", "RR", "AP", "CG", "DCG", "IDCG", "nDCG")


@dataclass(frozen=True)
class PlaygroundState:
    order: tuple[str, ...]                 # item ids, rank 1 first
    labels: dict[str, int]                 # binary judgments (0/1) per item id
    grades: dict[str, int]                 # graded judgments (0-4) per item id
    mode: str = "binary"
    k: int = 2
    metric: str = "R"
    gain: str = "linear"
    rel: int = 1                           # graded mode: grade >= rel counts as relevant
    notices: tuple[str, ...] = field(default=(), compare=False)

    def current_grades(self) -> dict[str, int]:
        return self.labels if self.mode == "binary" else self.grades


def _digits(text: str, n: int, allowed: str) -> list[int] | None:
    if len(text) != n or any(c not in allowed for c in text):
        return None
    return [int(c) for c in text]


def decode(params: dict, defaults: PlaygroundState) -> PlaygroundState:
    """Read a state from URL parameters; every bad field keeps its default and adds a notice."""
    ids = list(defaults.order)
    n = len(ids)
    notices, state = [], defaults

    def bad(name, value, expected):
        # The value itself is not echoed: notices are Markdown, and a link could inject one.
        notices.append(f"The link's `{name}` is not {expected}; the default is shown instead.")

    if "order" in params:
        numbers = _digits(params["order"], n, "123456789"[:n])
        if numbers is None or sorted(numbers) != list(range(1, n + 1)):
            bad("order", params["order"], f"an ordering of the pictures 1-{n}")
        else:
            state = replace(state, order=tuple(ids[i - 1] for i in numbers))
    for name, allowed, target in (("labels", "01", "labels"), ("grades", "01234", "grades")):
        if name in params:
            values = _digits(params[name], n, allowed)
            if values is None:
                bad(name, params[name], f"{n} digits from {allowed[0]} to {allowed[-1]}")
            else:
                state = replace(state, **{target: dict(zip(ids, values))})
    choices = {"mode": MODES, "metric": METRICS, "gain": GAINS}
    for name, options in choices.items():
        if name in params:
            if params[name] in options:
                state = replace(state, **{name: params[name]})
            else:
                bad(name, params[name], "one of " + ", ".join(options))
    for name, low, high in (("k", 1, n), ("rel", 1, 4)):
        if name in params:
            value = params[name]
            if re.fullmatch(r"[0-9]{1,3}", value) and low <= int(value) <= high:
                state = replace(state, **{name: int(value)})
            else:
                bad(name, value, f"a whole number from {low} to {high}")
    return replace(state, notices=tuple(notices))


def encode(state: PlaygroundState, ids: list[str]) -> dict[str, str]:
    """URL parameters for ``state`` (``ids`` in picture order)."""
    number = {item: str(i + 1) for i, item in enumerate(ids)}
    return {"order": "".join(number[i] for i in state.order),
            "labels": "".join(str(state.labels[i]) for i in ids),
            "grades": "".join(str(state.grades[i]) for i in ids),
            "mode": state.mode, "k": str(state.k), "metric": state.metric, "gain": state.gain,
            "rel": str(state.rel)}
