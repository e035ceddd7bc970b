"""What each metric is called, what it means, and its pros and cons as the sources put them.

One table for the tiles, the chart legends, the formula view and the help texts; the labels
and one-line help come from irlib's measure registry (``irlib.measures.registry.MEASURES``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from irlib.measures.registry import MEASURES


@dataclass(frozen=True)
class MetricText:
    label: str          # e.g. "Recall@K"
    short: str          # one line for tooltips
    order_aware: bool
    pros: str
    cons: str


#: What the sources say for and against each measure: (pros, cons). Everything else about a
#: measure (label, one-line help, family) comes from irlib's registry.
PROS_CONS = {
    "P": (
        "Easy to read: 'how much of what we showed was useful'.",
        "Order-unaware: a hit at rank 1 counts the same as at rank K. The denominator is "
        "always K, so a query with only 2 relevant documents can never reach P@10 = 1."),
    "R": (
        "One of the most interpretable metrics: 1.0 means everything relevant was returned.",
        "Order-unaware, and it can be gamed: raise K to N and recall is always 1 "
        "(the article's warning)."),
    "F1": (
        "Balances precision and recall in one number (the lecture's 'balance' case).",
        "Still order-unaware; hides which of the two is low."),
    "Success": (
        "Matches a user who needs one good answer and hates scrolling.",
        "Says nothing about where in the top K the hit is, or how many there are."),
    "RR": (
        "Order-aware and simple; right for question answering and chatbots, where the first "
        "hit is what matters.",
        "Sees only the first relevant result: one hit at rank 1 and nine misses still scores "
        "a perfect 1.0."),
    "AP": (
        "Order-aware and rewards putting all relevant results early; makes the finest "
        "distinctions between rankings (the lecture).",
        "Binary: a 'perfect' and a 'somewhat' relevant result count the same. Libraries "
        "disagree on its denominator."),
    "CG": (
        "Uses graded relevance.",
        "Order-unaware: swapping the first two results changes nothing."),
    "DCG": (
        "Uses graded labels and rewards putting the most relevant results first.",
        "Not comparable across queries: its scale depends on how many good results exist."),
    "IDCG": (
        "The yardstick that makes DCG comparable.",
        "Depends on which documents are judged: libraries take the ideal from different pools."),
    "nDCG": (
        "Order-aware, graded, and comparable across queries; the usual choice for search "
        "and recommendation with graded labels.",
        "Needs graded labels, which cost more to collect; less intuitive to explain."),
    "Rprec": (
        "Needs no K: each query is cut at its own number of relevant documents, so queries "
        "with 2 and with 20 relevant results are judged on the same footing.",
        "Order-unaware inside the top R, and R must be known: it needs complete judgments."),
}


def metric_text(name: str) -> MetricText:
    """A measure's texts: its label, one-line help and kind from irlib's registry, with the
    sources' pros and cons."""
    info = MEASURES[name]
    pros, cons = PROS_CONS.get(name, ("", ""))
    return MetricText(info.label_at("K"), info.description, info.order_aware, pros, cons)


METRIC_TEXT = {name: metric_text(name) for name in MEASURES}

#: The headline scores between 0 and 1 (the registry's bounded tile measures), by label: the
#: playground's scores chart, what predict mode and the class rooms ask about.
SCORES = {name: info.label for name, info in MEASURES.items() if info.tile and info.bounded}

OUTCOME_TEXT = {
    "TP": "true positive (p·p̂): returned and relevant",
    "FP": "false positive (n·p̂): returned, not relevant",
    "FN": "false negative (p·n̂): relevant, not returned",
    "TN": "true negative (n·n̂): not relevant, not returned",
}


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$&:=\"'])")


#: A number's space before its per cent sign.
_PERCENT_SPACE = re.compile(r"(?<=\d) %")


def md_escape(text: object) -> str:
    """User text (file names, query texts, system names) made literal inside Streamlit Markdown.

    Every Markdown/LaTeX/HTML special character is backslash-escaped and whitespace folded,
    so a name like ``[x](https://evil)`` or ``![t](https://img)`` shows as typed.

    >>> print(md_escape("**bold** $x$"))
    \\*\\*bold\\*\\* \\$x\\$

    A number keeps its per cent sign on its line (a no-break space: "4.6 %" never wraps
    between them):

    >>> md_escape("46 % of users") == "46\\u00a0% of users"
    True
    """
    flat = _PERCENT_SPACE.sub("\u00a0%", " ".join(str(text).split()))
    return _MD_SPECIAL.sub(r"\\\1", flat)
