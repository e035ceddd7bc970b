"""Where a run's judged documents sit: duplicate rows, judged rows and their ranks.

Every batch measure needs only the ranks of the *judged* documents (and per-query counts),
so nothing here sorts the run. A judged document's rank is 1 + the number of the query's
documents that outrank it in trec_eval's order (score descending, then doc id descending):
one search of every row's score among its query's few judged scores, the rows counted in
each place, and a string comparison only inside groups of tied scores. A run already in
that order, query by query (as TREC files are written), skips the search: a hit's rank
is its position, corrected inside its block of tied scores.
"""
from __future__ import annotations

import numpy as np

from irlib.batch import _pieces
from irlib.batch._pieces import grouped, query_pieces

_MAX_ROUNDS = 40                      # ~5x, then ~20x fewer rows each round: never reached
_GOLDEN = 0x9E3779B1                   # 2^32 / golden ratio, odd: Fibonacci hashing


def _next_multiplier(multiplier: int) -> int:
    return (multiplier * 1664525 + 1013904223) % 2**32 | 1


def _wide(multiplier: int) -> np.uint64:
    """A 64-bit odd multiplier from a round's 32-bit one, for 64-bit keys."""
    return np.uint64((multiplier * 0x9E3779B97F4A7C15 + multiplier) % 2**64 | 1)


class _Regions:
    """One hash table region per query, ``2^bits >= 4 * rows`` slots (``2 * rows`` when
    the run's rows are many: matched at once, not piece by piece).

    A query's rows only ever meet in its own region, so a row's key is its doc code
    alone, and a run that lists each query's rows together touches one small region at
    a time (the table is large, each region fits in the CPU's cache). A quarter full, a
    region sends ~11% of the rows round again, against ~21% half full (the benchmark's
    pieces of 65,000 rows: a table of 1 MiB, not 0.5; matching 7,000,000 rows ~64 ms of
    CPU against ~74).
    """

    def __init__(self, q: np.ndarray, n_queries: int, counts: np.ndarray | None = None):
        if counts is None:
            counts = np.bincount(q, minlength=n_queries)
        spread = 4 if len(q) <= 4 * _pieces.PIECE_ROWS else 2
        bits = np.ceil(np.log2(np.maximum(spread * counts, 2))).astype(np.uint32)
        sizes = np.left_shift(1, bits.astype(np.int64))
        self.size = int(sizes.sum())
        self.bits = int(bits.max(initial=1))
        if len(bits) << self.bits <= self.size + self.size // 4:
            # one size for every region (as when every query has about as many rows): a
            # row's region is its query shifted, no table of bases and shifts to read
            # (matching 7,000,000 rows: 0.08 s against 0.10 s)
            self.size = len(bits) << self.bits
            return
        self.bits = 0
        index = np.int32 if self.size < 2**31 else np.int64
        self.base = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(index)
        self.shift = (32 - bits).astype(np.uint32)

    def home(self, q, d, multiplier: int) -> np.ndarray:
        # views and ``take``, not copies and fancy indexing: this runs on every run row
        # of every round. Codes are >= 0, so int32 codes read as uint32 are the same;
        # 64-bit keys (:func:`irlib._codes.short_keys`) take a 64-bit multiplier.
        if d.dtype == np.uint64:
            high = d * _wide(multiplier)
            wide = 32
        else:
            d = d.view(np.uint32) if d.dtype == np.int32 else d.astype(np.uint32)
            high = d * np.uint32(multiplier)
            wide = 0
        if self.bits:
            high >>= high.dtype.type(wide + 32 - self.bits)
            slot = np.left_shift(q, self.bits, dtype=np.intp)
        else:
            shift = self.shift.take(q)
            high >>= shift.astype(np.uint64) + np.uint64(wide) if wide else shift
            slot = self.base.take(q).astype(np.intp, copy=False)
        slot += high.view(np.int64 if wide else np.int32)   # < 2**31: shifted by at least 1
        return slot


def match_judged(run_q, run_d, judged_q, judged_d, n_queries: int, counts=None,
                 is_grouped: bool | None = None):
    """Find a duplicated run row and the run rows that are judged, without sorting.

    See :func:`_match_judged_at_once`. A run that lists each query's rows together (codes
    never decrease; ``is_grouped`` when the caller knows) is matched a few queries at a
    time (:mod:`irlib.batch._pieces`: each piece's temporaries stay in the CPU's cache).
    """
    n = len(run_q)
    if is_grouped is None:
        is_grouped = n > 2 * _pieces.PIECE_ROWS and grouped(run_q)
    pieces = query_pieces(run_q, is_grouped)
    if len(pieces) == 1:
        return _match_judged_at_once(run_q, run_d, judged_q, judged_d, n_queries, counts)
    live = _pending(judged_q, judged_d)
    live = live[np.argsort(judged_q[live], kind="stable")]
    live_q = judged_q[live]
    rows, judgments = [], []
    for a, b in pieces:
        first, end = int(run_q[a]), int(run_q[b - 1]) + 1
        lo, hi = np.searchsorted(live_q, [first, end])
        mine = live[lo:hi]
        duplicate, hit_rows, found = _match_judged_at_once(
            run_q[a:b] - first, run_d[a:b], judged_q[mine] - first, judged_d[mine],
            end - first, None if counts is None else counts[first:end])
        if duplicate >= 0:
            return duplicate + a, None, None
        rows.append(hit_rows + a)
        judgments.append(mine[found])
    return -1, np.concatenate(rows), np.concatenate(judgments)


def _pending(judged_q, judged_d) -> np.ndarray:
    """The judgments that may be in the run: their query is (code >= 0) and so is their
    document (a code >= 0; a 64-bit key always may)."""
    if judged_d.dtype == np.uint64:
        return np.flatnonzero(judged_q >= 0)
    return np.flatnonzero((judged_q >= 0) & (judged_d >= 0))


def _match_judged_at_once(run_q, run_d, judged_q, judged_d, n_queries: int, counts=None):
    """Find a duplicated run row and the run rows that are judged, without sorting.

    ``run_q, run_d``: the run's (query, doc) codes, or the docs' 64-bit keys
    (:func:`irlib._codes.short_keys`); ``judged_q, judged_d``: the qrels' in the same
    spaces (``judged_q`` -1 for queries the run lacks; a ``judged_d`` code -1 for documents
    the run never returns);
    ``counts``: the run's rows per query, when the caller has them. Returns
    ``(duplicate, rows, judgments)``: a run row whose (query, doc) another row has too
    (-1 when none; then nothing else is computed), and the run rows that are judged with
    the index of their judgment.

    Each round scatters the rows' positions into their query's region at a hash of
    their doc. A row that lost its slot to a row with the same doc is a duplicate; one
    that lost to another doc (a collision, about a fifth of the rows) is tried again in
    the next round with another multiplier, in the same regions: the fewer rows left
    collide much less (~1 in 20), so three or four rounds do. A judgment looks at its own
    slot in each round: the winner there is its row if the docs agree.
    """
    rows = np.arange(len(run_q), dtype=np.int32)
    q, d = run_q, run_d
    pending = _pending(judged_q, judged_d)
    found_rows, found_judgments = [], []
    multiplier = _GOLDEN
    regions = _Regions(q, n_queries, counts)
    table = np.empty(regions.size, np.int32)    # only slots written in a round are read
    for _ in range(_MAX_ROUNDS):
        if not rows.size:
            break
        slot = regions.home(q, d, multiplier)
        positions = rows if len(rows) == len(run_q) else \
            np.arange(len(rows), dtype=np.int32)
        table[slot] = positions
        winner = table.take(slot)
        lost = winner != positions
        losers = np.flatnonzero(lost)
        same = d.take(winner.take(losers)) == d.take(losers)
        if same.any():
            return int(rows[losers[np.flatnonzero(same)[0]]]), None, None
        if pending.size:
            probe = regions.home(judged_q[pending], judged_d[pending], multiplier)
            candidate = table.take(probe)
            valid = (candidate >= 0) & (candidate < len(rows))
            valid[valid] = slot[candidate[valid]] == probe[valid]   # written, not garbage
            valid[valid] = d[candidate[valid]] == judged_d[pending[valid]]
            found_rows.append(rows[candidate[valid]])
            found_judgments.append(pending[valid])
            pending = pending[~valid]
        rows, q, d = rows.take(losers), q.take(losers), d.take(losers)
        multiplier = _next_multiplier(multiplier)
    else:                                    # never in practice: pandas does the rest
        import pandas as pd
        left = pd.DataFrame({"q": q, "d": d, "row": rows})
        repeated = left.duplicated(["q", "d"]).to_numpy()
        if repeated.any():
            return int(rows[np.flatnonzero(repeated)[0]]), None, None
        right = pd.DataFrame({"q": judged_q[pending], "d": judged_d[pending], "j": pending})
        both = left.merge(right, on=["q", "d"])
        found_rows.append(both["row"].to_numpy())
        found_judgments.append(both["j"].to_numpy())
    hit_rows = np.concatenate(found_rows) if found_rows else np.empty(0, np.int32)
    judgments = np.concatenate(found_judgments) if found_judgments else np.empty(0, np.int64)
    return -1, hit_rows.astype(np.int64), judgments


def _levels(hit_q, hit_score, n_queries: int, width: int):
    """The hits' scores, each query's sorted in a row of ``width`` (a power of two above its
    number of hits; +inf after them), and the levels of a binary search over each row:
    level ``L`` holds, for each of the row's ``2**L`` parts, its left half's last score."""
    order = np.argsort(hit_q, kind="stable")  # then each row sorted: 5 ms, lexsort's 30
    q_sorted = hit_q[order]
    first = np.concatenate([[0], np.cumsum(np.bincount(hit_q, minlength=n_queries))])
    table = np.full((n_queries, width), np.inf)
    table[q_sorted, np.arange(len(order)) - first[q_sorted]] = hit_score[order]
    table.sort(axis=1)
    levels, parts = [], 1
    while parts < width:
        levels.append(table[:, (2 * np.arange(parts) + 1) * width // (2 * parts) - 1].ravel())
        parts *= 2
    return table.ravel(), levels


def _search(table, levels, q, score):
    """Per row: ``q * width +`` how many hits of query ``q`` score below ``score``, and
    whether one scores the same (``-0.0 == 0.0``, as in C).

    A branch-free binary search, one level at a time: a row in part ``j`` of its query's
    row at one level (index ``q * parts + j``) goes to part ``2 * j + (score above the
    split)`` at the next (index ``2 * (q * parts + j) + ...``), ``take`` on small tables:
    four gathers for up to 15 hits a query (7,000,000 rows, loaded machine: 47 ms of CPU
    against 62 ms for a search of one table that added ``step * (score above)`` a level).
    """
    node = q.astype(np.intp)
    for level in levels:
        right = level.take(node) < score
        node += node
        node += right
    return node, table.take(node) == score


def _ranks_by_levels(run_q, score, run_d, doc_names, hits, hit_q, n_queries: int,
                     width: int, is_grouped: bool) -> np.ndarray:
    """:func:`judged_ranks` for queries with few hits: every row placed by :func:`_search`.

    Rows per (query, hits below) are counted piece by piece (a grouped run's pieces own
    their queries' counts; else each piece keeps its rows' places for one count at the
    end); a hit's rank is 1 + the rows of its query placed above it, + the rows tied with
    it that have a larger doc id.
    """
    table, levels = _levels(hit_q, score[hits], n_queries, width)
    if is_grouped:
        pieces = query_pieces(run_q, True)
        counts, places = np.zeros(n_queries * width, np.int64), None
    else:
        step = _pieces.PIECE_ROWS
        pieces = [(a, min(a + step, len(run_q))) for a in range(0, len(run_q), step)]
        counts, places = None, np.empty(len(run_q), np.intp)
    tied_rows, tied_node = [], []            # rows tied with a hit, and their places
    for a, b in pieces:
        q = run_q[a:b]
        node, tied = _search(table, levels, q, score[a:b])
        at = np.flatnonzero(tied)
        tied_rows.append(at + a)
        tied_node.append(node[at])
        if places is not None:
            places[a:b] = node
        else:                                # this piece's queries are its own
            lo, hi = int(q[0]) * width, (int(q[-1]) + 1) * width
            node -= lo
            counts[lo:hi] += np.bincount(node, minlength=hi - lo)
    if places is not None:
        counts = np.bincount(places, minlength=n_queries * width)
    tied_rows, tied_node = np.concatenate(tied_rows), np.concatenate(tied_node)
    hit_node, _ = _search(table, levels, hit_q, score[hits])
    at_or_below = np.cumsum(counts)
    rank = 1 + at_or_below[hit_q.astype(np.int64) * width + width - 1] - at_or_below[hit_node]
    crowded = np.bincount(tied_node, minlength=n_queries * width)[hit_node] > 1
    if crowded.any():                        # tied with another row: order by doc id
        tied_too = np.isin(tied_node, hit_node[crowded])
        rank += _larger_docs_ahead(tied_node[tied_too], tied_rows[tied_too], run_d, doc_names,
                                   hits)
    return rank


def _place_among_hits_sorted(run_q, score, hit_q, hit_score):
    """As :func:`_search`, for queries with many hits: one global search.

    Complex numbers compare lexicographically, real (query) part first, so one
    ``searchsorted`` among the hits' sorted (query, score) pairs places every row.
    """
    hay = np.empty(len(hit_q) + 1, complex)
    hay[:-1].real, hay[:-1].imag = hit_q, hit_score
    hay[:-1].sort()
    hay[-1] = complex(np.inf, np.inf)           # a sentinel: every row is below it
    needle = np.empty(len(run_q), complex)
    needle.real, needle.imag = run_q, score
    at = np.searchsorted(hay[:-1], needle)
    return at, hay[at] == needle                 # -0.0 == 0.0 here, as in C


def judged_ranks(run_q, score, run_d, doc_names, hits: np.ndarray,
                 is_grouped: bool | None = None) -> np.ndarray:
    """1-based rank in its query of each run row in ``hits``, in trec_eval's order.

    Rank = 1 + (rows of the query with a higher score) + (rows with the same score and a
    larger doc id, compared as strings). Each row is placed among its query's hits; counts
    of the rows in each place give, for every hit, the rows above it; only rows tied with
    a hit compare doc ids: ``doc_names`` by ``run_d``'s codes, or by row when ``run_d`` is
    None. ``is_grouped``: whether each query's rows are together, when the caller knows.
    """
    if not hits.size:
        return np.empty(0, np.int64)
    ranked = _ranks_of_sorted_run(run_q, score, run_d, doc_names, hits)
    if ranked is not None:
        return ranked
    hit_q = run_q[hits]
    n_queries = int(run_q.max()) + 1
    n_per_query = np.bincount(hit_q, minlength=n_queries)
    width = 1 << int(n_per_query.max()).bit_length()     # > every query's hits
    if width <= 64:
        return _ranks_by_levels(run_q, score, run_d, doc_names, hits, hit_q, n_queries, width,
                                grouped(run_q) if is_grouped is None else is_grouped)
    # many hits in a query: one global search, slot 2 * (hits below) + tied, per query
    below, tied = _place_among_hits_sorted(run_q, score, hit_q, score[hits])
    first_hit = np.concatenate([[0], np.cumsum(n_per_query)])
    slot = below
    slot *= 2
    slot += tied
    slot += run_q                            # global positions: 2 * hits + 1 per query
    query_end = 2 * first_hit[hit_q + 1] + hit_q
    histogram = np.bincount(slot, minlength=2 * len(hits) + n_queries)
    at_or_below = np.cumsum(histogram)
    hit_slot = slot[hits]
    rank = 1 + at_or_below[query_end] - at_or_below[hit_slot]
    crowded = histogram[hit_slot] > 1            # tied with another row: order by doc id
    if crowded.any():
        crowded_slots = np.unique(hit_slot[crowded])
        tied_rows = np.flatnonzero(tied)
        tied_rows = tied_rows[np.isin(slot[tied_rows], crowded_slots)]
        rank = rank + _larger_docs_ahead(slot[tied_rows], tied_rows, run_d, doc_names, hits)
    return rank


def _larger_docs_ahead(group, rows, run_d, doc_names, hits) -> np.ndarray:
    """Per hit: how many of ``rows`` in its tie ``group`` have a larger doc id (0 if none).

    Rows are distinct, and so are the docs of a group (a repeated pair is refused first).
    """
    docs = _doc_texts(doc_names, rows if run_d is None else run_d[rows])
    doc_order = np.empty(len(docs), np.int64)                # docs compared as text
    doc_order[np.argsort(docs, kind="stable")] = np.arange(len(docs))
    order = np.lexsort((-doc_order, group))                  # by group, larger docs first
    in_group = group[order]
    ahead = np.arange(len(order)) - np.searchsorted(in_group, in_group)
    by_row = np.argsort(rows[order])
    sorted_rows = rows[order][by_row]
    at = np.minimum(np.searchsorted(sorted_rows, hits), max(len(sorted_rows) - 1, 0))
    out = np.zeros(len(hits), np.int64)
    if len(sorted_rows):
        found = sorted_rows[at] == hits
        out[found] = ahead[by_row[at[found]]]
    return out


def _doc_texts(doc_names, codes: np.ndarray) -> np.ndarray:
    """The documents of ``codes`` as an array of Python strings (``doc_names``: a pandas
    Index or an Arrow array)."""
    if hasattr(doc_names, "to_pylist"):                       # Arrow, without pandas
        from irlib._arrow import call_function, int64_array    # not pyarrow.compute

        taken = call_function("take", [doc_names, int64_array(codes)])
        return np.array(taken.to_pylist(), dtype=object)
    taken = doc_names.take(codes)
    return np.asarray(taken.astype(str), dtype=object)


_MAX_TIE_STEPS = 64                   # longer runs of equal scores: the general search


def _ranks_of_sorted_run(run_q, score, run_d, doc_names, hits):
    """:func:`judged_ranks` for a run that lists each query's rows together, best score
    first (as TREC run files do), else None.

    Then the rows above a hit are those before its block of equal scores, so its rank is
    its block's place in the query plus the larger doc ids in its block: two whole-run
    comparisons to check the order, and work on the hits only. Codes are given in
    first-seen order, so "each query's rows together" is "codes never decrease".
    """
    head = _pieces.PIECE_ROWS
    head_q, head_score = run_q[:head], score[:head]    # a quick no first
    head_same = head_q[1:] == head_q[:-1]
    if not ((head_same | (head_q[1:] > head_q[:-1])).all()
            and (~head_same | (head_score[1:] <= head_score[:-1])).all()):
        return None
    later = slice(1, None)
    same_query = run_q[later] == run_q[:-1]
    if not (same_query | (run_q[later] > run_q[:-1])).all() or \
            not (~same_query | (score[later] <= score[:-1])).all():
        return None
    # a row starts a block when its query or its score differs from the row before
    tie_before = np.zeros(len(hits), bool)
    inner = hits > 0
    tie_before[inner] = same_query[hits[inner] - 1] & (score[hits[inner] - 1] == score[hits[inner]])
    tie_after = np.zeros(len(hits), bool)
    inner = hits < len(run_q) - 1
    tie_after[inner] = same_query[hits[inner]] & (score[hits[inner] + 1] == score[hits[inner]])
    query_start = np.searchsorted(run_q, run_q[hits])
    rank = hits - query_start + 1
    tied = np.flatnonzero(tie_before | tie_after)
    if not tied.size:
        return rank
    start, end = hits[tied].copy(), hits[tied].copy()
    for edge, step in ((start, -1), (end, 1)):
        moving = np.arange(len(edge))
        for _ in range(_MAX_TIE_STEPS):
            nxt = edge[moving] + step
            inside = (nxt >= 0) & (nxt < len(run_q))
            moving, nxt = moving[inside], nxt[inside]
            pair = np.minimum(nxt, nxt - step)          # same_query[i]: rows i and i + 1
            keep = same_query[pair] & (score[nxt] == score[edge[moving]])
            moving, nxt = moving[keep], nxt[keep]
            if not moving.size:
                break
            edge[moving] = nxt
        else:
            return None
    rank[tied] = start - query_start[tied] + 1
    blocks, first = np.unique(start, return_index=True)
    lengths = end[first] - blocks + 1
    rows = np.repeat(blocks - (np.cumsum(lengths) - lengths), lengths) + np.arange(lengths.sum())
    rank[tied] += _larger_docs_ahead(np.repeat(blocks, lengths), rows, run_d, doc_names,
                                     hits[tied])
    return rank
