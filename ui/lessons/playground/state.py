"""The playground's whole state, as fields of a :class:`ui.shared.page_state.PageState`.

The URL is compact and readable: ``?order=21345678&labels=01011010&grades=04134132&mode=binary
&k=2&metric=R&gain=linear&rel=1&chart=dcg``. ``order`` lists picture numbers (1-8, the sources'
default order) from rank 1 down; ``labels``/``grades`` give each picture's judgment in picture
order.
"""
from __future__ import annotations

from dataclasses import dataclass

from irlib.measures.registry import TAUGHT_MEASURES

MODES = ("binary", "graded")
GAINS = ("linear", "exponential")
#: What the second chart beside the tiles shows: DCG and IDCG against K, or the
#: precision–recall graph of the eight results (with its interpolated envelope).
CHARTS = {"dcg": "DCG@K", "pr": "Precision–recall"}
#: The metrics whose formula the playground explains: the measures the lessons teach.
METRICS = TAUGHT_MEASURES


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
    present: bool = False                  # the presenter view (projector)
    chart: str = "dcg"                     # the second chart: one of CHARTS

    def current_grades(self) -> dict[str, int]:
        return self.labels if self.mode == "binary" else self.grades
