"""Integer codes for id columns, remembered for the last few Arrow text columns.

Reading a run and evaluating it both encode its query ids (the reader to find repeated
(query, document) pairs, :func:`irlib.evaluate` to group rows). Arrow text columns are
immutable, so the codes of one stay valid as long as its buffers live: the last few
encodings are kept, keyed by the buffers' addresses, while the Arrow column that holds those
buffers lives (a weak reference to the ``pyarrow.ChunkedArray``, which every pandas array and
frame made from the column shares: an entry goes with the last frame, so a session's upload
is freed when the session ends, and the addresses cannot meanwhile be reused by other data).
(The readers only hash document ids: encoding millions of distinct ones costs more than
hashing them.) Document ids of up to 8 bytes need no codes: :func:`short_keys` turns each
into a 64-bit key that is its bytes (8 bytes a row, remembered the same way).

Examples
--------
>>> ids = pd.Series(["q2", "q2", "q1", "q2"] * 5000, dtype="str")
>>> codes, names = factorize(ids)
>>> codes[:4].tolist(), names.tolist()
([0, 0, 1, 0], ['q2', 'q1'])
>>> factorize(ids)[0] is codes           # the same column again: remembered
True
>>> factorize(ids.copy())[0] is codes    # a copy shares the (immutable) buffers
True
>>> factorize(ids.str.upper())[0] is codes
False
"""
from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from itertools import pairwise

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

_KEEP = 4                       # a few frames' id columns
_MIN_ROWS = 10_000              # below this, encoding is cheaper than remembering
_lock = threading.RLock()       # a weak reference's callback may run inside (garbage collection)
_remembered: OrderedDict = OrderedDict()    # fingerprint -> (weakref to the array, codes, names)


def factorize(ids: pd.Series, *, grouped: bool = False) -> tuple[np.ndarray, pd.Index]:
    """Codes (int32, one per row, read-only) and the distinct ids in first-seen order.

    Arrow strings (pandas' ``str`` dtype) go through ``pyarrow.compute.dictionary_encode``;
    so do integers (numpy, nullable or Arrow), whose distinct values are then named by their
    text, as a file would hold them (``7`` is ``"7"``), without a string for every row.
    ``grouped``: ids usually come in runs (a run file lists each query's rows together);
    then each run is encoded once. Either way the codes are the same.
    """
    values = ids.array
    if isinstance(values, pd.arrays.ArrowStringArray) and len(values):
        arrow = values.__arrow_array__()
        key = _fingerprint(arrow) if len(arrow) >= _MIN_ROWS else None
        if key is not None:
            with _lock:
                known = _remembered.get(key)
                if known is not None and known[0]() is not None:
                    _remembered.move_to_end(key)
                    return known[1], known[2]
        codes, names = _encode(arrow, grouped)
        codes.flags.writeable = False       # shared with later callers
        if key is not None:
            with _lock:
                # the Arrow column, not the pandas array around it: evaluate's frames
                # wrap the caller's columns in new pandas arrays that share it
                _remembered[key] = (weakref.ref(arrow, _forget(key)), codes, names)
                while len(_remembered) > _KEEP:
                    _remembered.popitem(last=False)
        return codes, names
    integers = _integer_arrow(ids)
    if integers is not None:            # the distinct integers become text, not every row
        codes, names = _encode(integers, grouped)
        codes.flags.writeable = False
        return codes, names
    codes, names = pd.factorize(ids)
    return codes.astype(np.int32), pd.Index(np.asarray(names, dtype=object))


def short_keys(ids: pd.Series) -> np.ndarray | None:
    """Each id as a uint64 key that *is* the id, for Arrow text of at most 8 bytes an id
    (read-only; remembered as :func:`factorize`'s codes are), else None.

    A key is the id's bytes, little-endian, with its length in the top byte when shorter
    than 8 (``0xF8 | length``: a byte UTF-8 never holds); an 8-byte id is its bytes, unless
    one ends in such a byte (then None). So two ids are equal exactly when their keys are:
    no dictionary to build, no hash to check, and the run's 7,000,000 document ids take
    two gathers of aligned words and a few shifts (~45 ms of CPU against
    ``dictionary_encode``'s ~125).
    """
    values = ids.array
    if not isinstance(values, pd.arrays.ArrowStringArray) or not len(values):
        return None
    arrow = values.__arrow_array__()
    key = ("keys", *_fingerprint(arrow)) if len(arrow) >= _MIN_ROWS else None
    if key is not None:
        with _lock:
            known = _remembered.get(key)
            if known is not None and known[0]() is not None:
                _remembered.move_to_end(key)
                return known[1]
    out = np.empty(len(arrow), np.uint64)
    at = 0
    for chunk in arrow.chunks:
        if _chunk_keys(chunk, out[at:at + len(chunk)], strict=True) is None:
            return None
        at += len(chunk)
    out.flags.writeable = False
    if key is not None:
        with _lock:
            _remembered[key] = (weakref.ref(arrow, _forget(key)), out, None)
            while len(_remembered) > _KEEP:
                _remembered.popitem(last=False)
    return out


def name_keys(names: pd.Index) -> tuple[np.ndarray, np.ndarray]:
    """:func:`short_keys` of a few distinct ids (e.g. the qrels' documents), and which have
    one (at most 8 bytes): an id without a key equals none of a keyed column's."""
    arrow = _arrow_of(names)
    if arrow is None:
        arrow = pa.array(np.asarray(names.astype(str), dtype=object), type=pa.string())
    keys = np.zeros(len(arrow), np.uint64)
    fits = _chunk_keys(arrow, keys, strict=False) if len(arrow) else np.ones(0, bool)
    return keys, fits


_TAGGED = np.uint64(0xF8 << 56)     # a key at or above this has a length tag (or no key)
_U3, _U53, _U64, _U800 = np.uint64(3), np.uint64(53), np.uint64(64), np.uint64(0x800)
_KEY_PIECE = 1 << 16                # rows keyed together: their temporaries in the cache


def _chunk_keys(chunk: pa.Array, out: np.ndarray, *, strict: bool) -> np.ndarray | None:
    """:func:`short_keys` of one Arrow (large_)string array without nulls, into ``out``.
    Returns which rows have a key (True everywhere), or None as soon as a row has none
    when ``strict`` (a longer id: the caller codes the column another way).

    Each id's key comes from the 8 bytes that end it, read as two aligned 64-bit words
    of the data shifted together (NumPy gathers aligned words several times faster than
    8 bytes at any address: the 7,000,000 ids of the benchmark's run ~35 ms against ~50).
    Rows whose two words are not both among the data's aligned words (the first and last
    few bytes, a buffer at an odd address) are read from a padded copy of their bytes.
    """
    offsets, raw = string_buffers(chunk)
    n = len(chunk)
    fits = np.ones(n, bool)
    base = -raw.ctypes.data % 8 if len(raw) else 0      # the data's first aligned byte
    count = (len(raw) - base) // 8 if len(raw) > base else 0
    words = raw[base:base + 8 * count].view("<u8")
    # in place: rows whose 8 bytes before their end (their first 8 when longer: a start
    # at or after ``base``) are in ``words`` with a word after them
    first = max(int(np.searchsorted(offsets[:n], base)),
                int(np.searchsorted(offsets[1:], base + 8)))
    last = max(int(np.searchsorted(offsets[1:], base + 8 * count)), first) if count >= 2 \
        else first
    for a, b, data, begin in ((0, first, None, 0), (first, last, words, base),
                              (last, n, None, 0)):
        if a >= b:
            continue
        if data is None:          # a copy of these rows' bytes, aligned, 8 zero bytes first
            begin, stop = int(offsets[a]) - 8, int(offsets[b])
            data = np.zeros((stop - begin) // 8 + 2, np.uint64)
            data.view(np.uint8)[8:stop - begin] = raw[begin + 8:stop]
        for c in range(a, b, _KEY_PIECE):
            d = min(c + _KEY_PIECE, b)
            if not _piece_keys(data, offsets[c:d], offsets[c + 1:d + 1], begin, out[c:d],
                               fits[c:d], strict):
                return None
    return fits


def string_buffers(chunk: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """An Arrow (large_)string array's offsets (``n + 1``, into the data) and its data bytes,
    as NumPy views, without copying."""
    offset_type = np.int64 if pa.types.is_large_string(chunk.type) else np.int32
    _validity, offsets_buf, data_buf = chunk.buffers()[:3]
    offsets = np.frombuffer(offsets_buf, dtype=offset_type, count=len(chunk) + 1,
                            offset=chunk.offset * np.dtype(offset_type).itemsize)
    raw = np.frombuffer(data_buf, np.uint8) if data_buf is not None and data_buf.size else \
        np.empty(0, np.uint8)
    return offsets, raw


def _piece_keys(words, starts, ends, begin: int, out, fits, strict: bool) -> bool:
    """Keys of the ids from ``starts`` to ``ends`` (byte ``begin`` of the data is the first
    of ``words``), into ``out``. NumPy's shifts by 64 or more give 0 (defined, not C's)."""
    length = ends - starts
    if length.max() > 8:
        if strict:
            return False
        fits &= length <= 8
        length = np.minimum(length, 8)
        ends = starts + length                  # a longer id: its first 8 bytes
    at = np.subtract(ends, begin + 8, dtype=np.int64)   # the 8 bytes that end the id
    shift = (at & 7).view(np.uint64)            # bytes into the word at ``at >> 3``
    at >>= 3
    shift <<= _U3
    low = words.take(at)                        # bounds checked: a wrong row raises
    low >>= shift
    np.subtract(_U64, shift, out=shift)
    high = words[1:].take(at)
    high <<= shift                              # nothing when the bytes start a word
    low |= high
    keep = length.view(np.uint64) if length.dtype == np.int64 else length.astype(np.uint64)
    keep <<= _U3                                # (``length`` is not read again)
    np.subtract(_U64, keep, out=keep)           # 64 - 8 * length: the bytes before the id
    low >>= keep
    if low.max() >= _TAGGED:                    # an 8-byte id ending in 0xF8-0xFF (not UTF-8)
        if strict:
            return False
        fits &= low < _TAGGED
    np.subtract(_U800, keep, out=keep)          # (0xF8 + length) << 56, 0 for 8 bytes
    keep <<= _U53
    np.bitwise_or(low, keep, out=out)
    return True


def integer_ids(dtype) -> bool:
    """Whether a column of this dtype is integers that :func:`factorize` encodes as such:
    numpy, nullable (``Int64``) or Arrow-backed; not sparse or categorical ones."""
    return (pd.api.types.is_integer_dtype(dtype)
            and not isinstance(dtype, (pd.SparseDtype, pd.CategoricalDtype)))


def _integer_arrow(ids: pd.Series) -> pa.ChunkedArray | None:
    """An integer id column (numpy, nullable or Arrow-backed, no missing value) as Arrow."""
    if not len(ids) or not integer_ids(ids.dtype) or ids.hasnans:
        return None
    if isinstance(ids.dtype, pd.ArrowDtype):
        return ids.array.__arrow_array__()
    return pa.chunked_array([pa.array(ids.to_numpy(dtype=getattr(ids.dtype, "numpy_dtype",
                                                                 ids.dtype)))])


def _forget(key: tuple):
    """The callback of an entry's weak reference: its array is gone, and so is the entry."""
    def drop(ref: weakref.ref) -> None:
        with _lock:
            entry = _remembered.get(key)
            if entry is not None and entry[0] is ref:
                del _remembered[key]
    return drop


def _fingerprint(arrow: pa.ChunkedArray) -> tuple:
    """Where the column's bytes are: equal for the same immutable buffers, in the same slices."""
    return (arrow.type, len(arrow), *((chunk.offset, len(chunk),
                                       *(b.address if b is not None else 0
                                         for b in chunk.buffers()))
                                      for chunk in arrow.chunks))


def _encode(arrow: pa.ChunkedArray, grouped: bool) -> tuple[np.ndarray, pd.Index]:
    if grouped and len(arrow) > 1:
        starts = np.concatenate([[0], _changes(arrow)])
        if len(starts) * 8 < len(arrow):
            head_codes, names = _dictionary_encode(_take(arrow, starts))
            return np.repeat(head_codes, np.diff(np.append(starts, len(arrow)))), names
    return _dictionary_encode(arrow)


_FEW_LENGTHS = 8            # length changes in a piece of text ids compared in blocks


def _changes(arrow: pa.ChunkedArray) -> np.ndarray:
    """The rows (from 1 on, in order, int64) whose id differs from the row before's."""
    found, at, last = [], 0, None
    for chunk in arrow.chunks:
        if not len(chunk):
            continue
        if last is not None and last != chunk[0].as_py():
            found.append(np.array([at]))
        found.append(_chunk_changes(chunk) + at)
        last, at = chunk[len(chunk) - 1].as_py(), at + len(chunk)
    return np.concatenate(found).astype(np.int64, copy=False)


def _chunk_changes(chunk: pa.Array) -> np.ndarray:
    """:func:`_changes` of one array. Text ids a piece at a time: where the lengths of
    consecutive ids differ, and in each block of equal lengths ``L`` (contiguous bytes)
    where a byte differs from the byte ``L`` before it (the run's 7,000,000 query ids,
    four lengths: ~13 ms of CPU against ~19.5 for pyarrow's comparison and its indices).
    A piece with many lengths (or text with nulls, or other ids): pyarrow's comparison."""
    text = pa.types.is_string(chunk.type) or pa.types.is_large_string(chunk.type)
    if not text or chunk.null_count:
        return _arrow_changes(chunk, 1)
    offsets, raw = string_buffers(chunk)
    found = [np.empty(0, np.int64)]
    for a in range(1, len(chunk), _KEY_PIECE):
        b = min(a + _KEY_PIECE, len(chunk))
        length = offsets[a:b + 1] - offsets[a - 1:b]        # of rows a - 1 to b - 1
        cuts = np.flatnonzero(length[1:] != length[:-1])
        if len(cuts) > _FEW_LENGTHS:
            found.append(_arrow_changes(chunk.slice(a - 1, b - a + 1), a))
            continue
        found.append(cuts + a)
        edges = [0, *(cuts + 1).tolist(), b - a + 1]
        for lo, hi in pairwise(edges):                      # rows a - 1 + lo ... all L long
            size = int(length[lo])
            if hi - lo > 1 and size:
                data = raw[offsets[a - 1 + lo]:offsets[a - 1 + hi]]
                found.append(np.flatnonzero(data[size:] != data[:-size]) // size + (a + lo))
    return np.unique(np.concatenate(found))


def _arrow_changes(values, first: int) -> np.ndarray:
    """Rows of ``values`` (from 1 on) that differ from the row before, plus ``first - 1``."""
    changed = pc.indices_nonzero(pc.not_equal(values[1:], values[:-1])).to_numpy()
    return changed.astype(np.int64) + first


def _take(arrow: pa.ChunkedArray, rows: np.ndarray) -> pa.ChunkedArray:
    """``arrow.take(rows)`` (sorted rows), chunk by chunk: a reader's table has hundreds
    of chunks, and a take across all of them was the slowest step of grouped encoding."""
    bounds = np.cumsum([0] + [len(chunk) for chunk in arrow.chunks])
    which = np.searchsorted(bounds, rows, side="right") - 1
    cuts = np.searchsorted(which, np.arange(arrow.num_chunks + 1))
    pieces = [arrow.chunk(i).take(pa.array(rows[a:b] - bounds[i]))
              for i, (a, b) in enumerate(pairwise(cuts)) if b > a]
    return pa.chunked_array([pa.concat_arrays(pieces)])


def _dictionary_encode(arrow) -> tuple[np.ndarray, pd.Index]:
    """Codes and the distinct ids as an Arrow-backed ``str`` Index (no Python string per
    id: a run may hold millions of distinct documents)."""
    if isinstance(arrow, pa.ChunkedArray):   # one dictionary, not one per chunk to unify;
        # one chunk as it is: combining copies it (7,000,000 ids: ~9 ms and their bytes)
        arrow = arrow.chunk(0) if arrow.num_chunks == 1 else arrow.combine_chunks()
    encoded = pc.dictionary_encode(arrow)
    codes = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int32, copy=False)
    names = encoded.dictionary
    if pa.types.is_integer(names.type):     # ids are text, as a file holds them: 7 -> "7"
        names = pc.cast(names, pa.string())
    return codes, pd.Index(names.to_pandas())


def positions_in(names: pd.Index, wanted: pd.Index) -> np.ndarray:
    """Where each of ``wanted`` is among ``names`` (-1: absent); both hold distinct ids.

    ``names`` may be a run's millions of documents and ``wanted`` a few thousand judged
    ones: with Arrow text on both sides only ``wanted`` is put in a hash table.
    """
    have, want = _arrow_of(names), _arrow_of(wanted)
    if have is None or want is None:
        return names.get_indexer(wanted)
    at = pc.index_in(have, value_set=want.cast(have.type))
    found = np.flatnonzero(at.is_valid().to_numpy(zero_copy_only=False))
    out = np.full(len(wanted), -1, np.int64)
    out[at.to_numpy(zero_copy_only=False)[found].astype(np.int64)] = found
    return out


def _arrow_of(index: pd.Index):
    values = index.array
    if isinstance(values, pd.arrays.ArrowStringArray):
        return values.__arrow_array__().combine_chunks()
    return None


