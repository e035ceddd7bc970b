"""Is any (query, document) key repeated? A quick answer for files that are fine.

Hashing every id into a dictionary (``dictionary_encode``, ``pd.factorize``) and then
hashing the pairs again (``duplicated``) was most of a reader's time. Here each id becomes
a 64-bit hash in a few whole-column NumPy passes over pyarrow's string buffers (8 bytes
at a time), a row's key mixes its columns' hashes, and one scatter into a table of
``>= 2 * rows`` slots finds the rows that share a slot. Equal hashes do not prove equal
ids, so a "maybe" sends the caller to the exact check, which names the lines (or, after a
1-in-10^12 collision, finds nothing).

Examples
--------
>>> import pandas as pd
>>> maybe_repeated(np.array([0, 0, 1]), [pd.Series(["d1", "d2", "d1"])])
False
>>> maybe_repeated(np.array([0, 0]), [pd.Series([3, 3])])
True
"""
from __future__ import annotations

from itertools import pairwise

import numpy as np
import pandas as pd
import pyarrow as pa

from irlib._codes import string_buffers

_M1 = np.uint64(0xFF51AFD7ED558CCD)            # MurmurHash3's 64-bit finaliser
_M2 = np.uint64(0xC4CEB9FE1A85EC53)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)        # 2^64 / golden ratio: Fibonacci hashing
_MAX_ROUNDS = 8                                # each round keeps ~1/5 of the rows
_PIECE_ROWS = 1 << 16                          # rows checked together: in the CPU's cache
# For a string of min(b, 9) bytes: _KEEP[b] keeps its own bytes of the first word (the rest
# is the next string's), _LAST[b] the last word, needed only past 8 bytes.
_KEEP = np.array([(1 << (8 * min(b, 8))) - 1 for b in range(10)], dtype=np.uint64)
_LAST = np.array([0] * 9 + [(1 << 64) - 1], dtype=np.uint64)


def _mix(h: np.ndarray) -> np.ndarray:
    """MurmurHash3's finaliser, in place: every input bit moves every output bit."""
    h ^= h >> np.uint64(33)
    h *= _M1
    h ^= h >> np.uint64(33)
    h *= _M2
    h ^= h >> np.uint64(33)
    return h


def _hash_strings(chunk: pa.Array) -> np.ndarray:
    """One uint64 per string of an Arrow (large_)string array without nulls."""
    n = len(chunk)
    if n == 0:
        return np.empty(0, np.uint64)
    offsets, raw = string_buffers(chunk)
    padded = np.zeros(len(raw) + 8, np.uint8)      # every 8-byte read stays inside
    padded[:len(raw)] = raw
    # an unaligned view: words[i] is the 8 bytes from byte i on (little-endian)
    words = np.ndarray((len(padded) - 7,), dtype="<u8", buffer=padded, strides=(1,))
    out = np.empty(n, np.uint64)
    for a in range(0, n, _PIECE_ROWS):         # a piece's temporaries stay in the cache
        piece = offsets[a:a + _PIECE_ROWS + 1].astype(np.int64)
        out[a:a + len(piece) - 1] = _hash_piece(words, piece[:-1], np.diff(piece))
    return out


def _hash_piece(words: np.ndarray, start: np.ndarray, length: np.ndarray) -> np.ndarray:
    """The hashes of the strings at ``start`` (byte offsets into ``words``) of ``length``.

    A string's length and first 8 bytes (fewer: padded with zeros) are mixed, then its
    last 8 bytes (past 8 bytes; they overlap the first below 16): two mixes for the short
    ids of most files, and only strings over 16 bytes read their middle words too.  A
    hash depends on the string alone, never on its neighbours, so equal strings hash
    equal in any chunk or piece.
    """
    size = np.minimum(length, 9)
    first = words[start]
    first &= _KEEP[size]                       # below 8 bytes: only the string's own
    last = words[start + np.maximum(length - 8, 0)]
    last &= _LAST[size]                        # up to 8 bytes: the first word says it all
    h = length.astype(np.uint64)
    h *= _GOLDEN
    h ^= first
    _mix(h)
    h ^= last                                  # after a mix: no byte of it can cancel one
    _mix(h)                                    # of the first word's
    long = np.flatnonzero(length > 16)         # middle words: bytes 8 .. length - 8
    k = 8
    while long.size:
        h[long] = _mix(h[long] ^ words[start[long] + k])
        k += 8
        long = long[length[long] - 8 > k]
    return h


def column_hash(s: pd.Series) -> np.ndarray:
    """A uint64 per value; equal values hash equal (strings by their UTF-8 bytes)."""
    values = s.array
    if pd.api.types.is_integer_dtype(s.dtype) and not s.hasnans:
        return _mix(s.to_numpy(dtype=np.int64).view(np.uint64) * _GOLDEN)
    arrow = getattr(values, "_pa_array", None)
    if not isinstance(arrow, pa.ChunkedArray) or arrow.null_count or not (
            pa.types.is_string(arrow.type) or pa.types.is_large_string(arrow.type)):
        arrow = pa.chunked_array([pa.array(s.astype("str").to_numpy(dtype=object),
                                           type=pa.large_string())])
    if arrow.num_chunks == 0:
        return np.empty(0, np.uint64)
    return np.concatenate([_hash_strings(chunk) for chunk in arrow.chunks])


def _shares_a_slot(group: np.ndarray, keys: np.ndarray) -> bool:
    """Whether two rows have the same (group, key), a few groups at a time when each
    group's rows are together (codes never decrease): each piece's temporaries then stay
    in the CPU's cache, instead of a dozen passes over all rows through memory."""
    return any(_shares_a_slot_at_once(piece, keys[a:b])
               for a, b, piece in _group_pieces(group))


def _group_pieces(group: np.ndarray):
    """``(start, end, group codes from 0)`` for ranges of about ``_PIECE_ROWS`` rows that
    split no group, when each group's rows are together (codes never decrease); else for
    the one range of all rows."""
    if len(group) <= 2 * _PIECE_ROWS or not (group[1:] >= group[:-1]).all():
        yield 0, len(group), group.astype(np.int64)
        return
    cuts = np.searchsorted(group, group[_PIECE_ROWS::_PIECE_ROWS])   # at group starts
    for a, b in pairwise(np.unique(np.concatenate([[0], cuts, [len(group)]])).tolist()):
        yield a, b, (group[a:b] - group[a]).astype(np.int64)


def _shares_a_slot_at_once(group: np.ndarray, keys: np.ndarray) -> bool:
    """Whether two rows have the same (group, key): rows scatter into slots, the losers retry.

    Each group (a query) has a region of ``2^bits >= 2 * rows`` slots of its own, so a
    file that lists each query's rows together touches one small region at a time.
    """
    counts = np.bincount(group)
    bits = np.ceil(np.log2(np.maximum(2 * counts, 2))).astype(np.int64)
    base = np.concatenate([[0], np.cumsum(np.left_shift(1, bits))])
    shift = (64 - bits).astype(np.uint64)
    # Groups of similar sizes (a run's queries): one region size for all, so a slot is
    # group << bits | hash bits, without looking up each row's region.
    same_bits = int(bits.max())
    uniform = len(counts) << same_bits <= 2 * int(base[-1])
    table = np.empty(len(counts) << same_bits if uniform else int(base[-1]), np.int32)
    multiplier = int(_GOLDEN)
    for _ in range(_MAX_ROUNDS):
        if len(keys) < 2:
            return False
        slot = keys * np.uint64(multiplier)
        if uniform:
            slot >>= np.uint64(64 - same_bits)
            slot = slot.view(np.int64)
            slot |= group << same_bits
        else:
            slot >>= shift[group]
            slot = slot.view(np.int64)
            slot += base[group]
        positions = np.arange(len(keys), dtype=np.int32)
        table[slot] = positions
        winner = table[slot]
        lost = np.flatnonzero(winner != positions)
        if (keys[winner[lost]] == keys[lost]).any():       # same slot, same group
            return True
        group, keys = group[lost], keys[lost]              # lost to another key: retry
        multiplier = (multiplier * 6364136223846793005 + 1442695040888963407) % 2**64 | 1
    return bool(pd.DataFrame({"g": group, "k": keys}).duplicated().any())


def maybe_repeated(group: np.ndarray, columns: list[pd.Series], first_hash=None) -> bool:
    """Whether some row's (group, values in ``columns``) may equal another row's.

    ``group``: integer codes of the first key column (the query), ``0 .. n - 1``. False is
    certain; True may (very rarely) be a hash collision: check exactly then.
    ``first_hash``: a :class:`~irlib.io.background.Soon` of :func:`column_hash` of
    ``columns[0]``, when started earlier.
    """
    if len(group) < 2:
        return False
    group = np.asarray(group)
    if len(columns) == 1 and pd.api.types.is_integer_dtype(columns[0].dtype):
        repeated = _dense_repeated(group, columns[0].to_numpy())
        if repeated is not None:
            return repeated
    key = column_hash(columns[0]) if first_hash is None else first_hash.result(columns[0])
    for s in columns[1:]:
        key = _mix(key * _GOLDEN ^ column_hash(s))
    return _shares_a_slot(group, key)


def _dense_repeated(group: np.ndarray, values: np.ndarray) -> bool | None:
    """Exactly, for small whole numbers (positions): one count per (group, value) pair,
    a few groups at a time.

    None when the pairs would need more than 8 counts per row.
    """
    low, high = int(values.min()), int(values.max())
    span = high - low + 1
    if (int(group.max()) + 1) * span > 8 * len(values):
        return None
    return any((np.bincount(piece * span + (values[a:b] - low)) > 1).any()
               for a, b, piece in _group_pieces(group))
