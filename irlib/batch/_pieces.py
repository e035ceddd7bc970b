"""A run cut into pieces of whole queries, worked on one after another.

:mod:`irlib.batch._judged` hashes and searches a run a piece at a time: each piece's
temporaries stay in the CPU's cache, instead of a dozen passes over all rows through memory.
"""
from __future__ import annotations

from itertools import pairwise

import numpy as np

PIECE_ROWS = 1 << 16                  # rows worked on together: in the CPU's cache


def grouped(run_q: np.ndarray) -> bool:
    """Whether each query's rows are together: codes in first-seen order never decrease."""
    return len(run_q) < 2 or bool((run_q[1:] >= run_q[:-1]).all())


def query_pieces(run_q: np.ndarray, is_grouped: bool) -> list[tuple[int, int]]:
    """``(start, end)`` ranges of about :data:`PIECE_ROWS` rows that split no query (a
    grouped run), else one range of all rows."""
    n, rows = len(run_q), PIECE_ROWS
    if n <= 2 * rows or not is_grouped:
        return [(0, n)]
    cuts = np.concatenate([[0], np.searchsorted(run_q, run_q[rows::rows]), [n]])
    return list(pairwise(np.unique(cuts).tolist()))
