"""Guess a file's kind from its first bytes (the readers do the real validation)."""
from __future__ import annotations

import re

from .._common import InputError
from .decoding import head_text
from .ratings import RATING_RE
from .source import load_head
from .tables import is_parquet

_HEAD_BYTES = 65536


def sniff_kind(src, *, name: str | None = None) -> str:
    """Guess what a file is: ``"qrels"``, ``"run"``, ``"ratings"`` or ``"table"``.

    Best effort, from the first lines only; the matching reader does the real validation.
    File-like objects are rewound, so the reader can be called afterwards.

    Examples
    --------
    >>> sniff_kind(b"q1 Q0 d1 1 2.5 bm25\\n")
    'run'
    >>> sniff_kind(b"queryid,query,document,position,rating_1\\n1,a,d,1,2\\n")
    'ratings'
    >>> sniff_kind(b"# judged by assessors, 2024\\n301 0 FBIS3-10082 1\\n")
    'qrels'
    """
    head, name = load_head(src, name, _HEAD_BYTES)
    if is_parquet(head):
        return "table"
    text = head_text(head)
    # blank lines and TREC comment lines (``#``, trec_eval 10) say nothing about the kind
    lines = [ln for ln in text.split("\n")[:200]
             if ln.strip() and not ln.lstrip().startswith("#")]
    if len(text.split("\n")) > 1 and not text.endswith("\n"):
        lines = lines[:-1] or lines            # last line may be cut off
    if not lines:
        raise InputError("the file is empty", source=name)
    first = lines[0]
    delimiter = max((",", "\t", ";"), key=first.count)
    if first.count(delimiter):
        cells = [c.strip().strip('"').lower() for c in first.split(delimiter)]
        if any(RATING_RE.match(c) for c in cells) or "queryid" in cells:
            return "ratings"
        if "query_id" in cells or "doc_id" in cells:
            return "table"
        if delimiter != "\t":
            return "table"
    fields = [ln.split() for ln in lines]
    width = len(fields[0])
    if width >= 6:                       # a run's tag may be followed by more text
        return "run"
    if width == 4:
        return "qrels"
    if width == 3:
        last = [f[-1] for f in fields if len(f) == 3]
        if all(re.fullmatch(r"-?\d+", v) for v in last) and \
                len({int(v) for v in last}) <= 10:
            return "qrels"
        return "run"
    return "table"
