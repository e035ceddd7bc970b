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

_M1 = np.uint64(0xFF51AFD7ED558CCD)            # MurmurHash3's 64-bit finaliser
_M2 = np.uint64(0xC4CEB9FE1A85EC53)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)        # 2^64 / golden ratio: Fibonacci hashing
_MAX_ROUNDS = 8                                # each round keeps ~1/5 of the rows
_PIECE_ROWS = 1 << 16                          # rows checked together: in the CPU's cache


def _mix(h: np.ndarray) -> np.ndarray:
    """MurmurHash3's finaliser, in place: every input bit moves every output bit."""
    h ^= h >> np.uint64(33)
    h *= _M1
    h ^= h >> np.uint64(33)
    h *= _M2
    h ^= h >> np.uint64(33)
    return h


def _hash_strings(chunk: pa.Array) -> np.ndarray:
    """One uint64 per string of an Arrow (large_)string array, no nulls, 8 bytes a pass."""
    offset_type = np.int64 if pa.types.is_large_string(chunk.type) else np.int32
    n = len(chunk)
    _validity, offsets_buf, data_buf = chunk.buffers()[:3]
    offsets = np.frombuffer(offsets_buf, dtype=offset_type, count=n + 1,
                            offset=chunk.offset * np.dtype(offset_type).itemsize)
    start = offsets[:-1].astype(np.int64)
    length = np.diff(offsets).astype(np.int64)
    raw = np.frombuffer(data_buf, np.uint8) if data_buf is not None and data_buf.size else \
        np.empty(0, np.uint8)
    padded = np.zeros(len(raw) + 8, np.uint8)      # every 8-byte read stays inside
    padded[:len(raw)] = raw
    # an unaligned view: words[i] is the 8 bytes from byte i on (little-endian)
    words = np.ndarray((len(padded) - 7,), dtype="<u8", buffer=padded, strides=(1,))
    h = length.astype(np.uint64) * _GOLDEN
    live = np.arange(n)
    k = 0
    while live.size:
        everyone = live.size == n
        left = (length if everyone else length[live]) - k
        word = words[(start if everyone else start[live]) + k]
        short = left < 8                           # the last word: keep only its bytes
        if short.any():
            word[short] &= (np.uint64(1) << (left[short] * 8).astype(np.uint64)) - np.uint64(1)
        if everyone:
            h ^= word
            _mix(h)
        else:
            h[live] = _mix(h[live] ^ word)
        live = live[left > 8]
        k += 8
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
    if len(group) <= 2 * _PIECE_ROWS or not (group[1:] >= group[:-1]).all():
        return _shares_a_slot_at_once(group, keys)
    cuts = np.searchsorted(group, group[_PIECE_ROWS::_PIECE_ROWS])   # at group starts
    cuts = np.unique(np.concatenate([[0], cuts, [len(group)]]))
    return any(_shares_a_slot_at_once(group[a:b] - group[a], keys[a:b])
               for a, b in pairwise(cuts))


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


def maybe_repeated(group: np.ndarray, columns: list[pd.Series]) -> bool:
    """Whether some row's (group, values in ``columns``) may equal another row's.

    ``group``: integer codes of the first key column (the query), ``0 .. n - 1``. False is
    certain; True may (very rarely) be a hash collision: check exactly then.
    """
    if len(group) < 2:
        return False
    group = np.asarray(group, np.int64)
    if len(columns) == 1 and pd.api.types.is_integer_dtype(columns[0].dtype):
        repeated = _dense_repeated(group, columns[0].to_numpy())
        if repeated is not None:
            return repeated
    key = column_hash(columns[0])
    for s in columns[1:]:
        key = _mix(key * _GOLDEN ^ column_hash(s))
    return _shares_a_slot(group, key)


def _dense_repeated(group: np.ndarray, values: np.ndarray) -> bool | None:
    """Exactly, for small whole numbers (positions): one count per (group, value) pair.

    None when the pairs would need more than 8 counts per row.
    """
    low, high = int(values.min()), int(values.max())
    span = high - low + 1
    if (int(group.max()) + 1) * span > 8 * len(values):
        return None
    return bool((np.bincount(group * span + (values - low)) > 1).any())
