"""Integer codes for id columns, remembered for the last few Arrow text columns.

Reading a run and evaluating it both encode its query ids (the reader to find repeated
(query, document) pairs, :func:`irlib.evaluate` to group rows). Arrow text columns are
immutable, so the codes of one stay valid as long as its buffers live: the last few
encodings are kept, keyed by the buffers' addresses, while the Arrow column that holds those
buffers lives (a weak reference to the ``pyarrow.ChunkedArray``, which every pandas array and
frame made from the column shares: an entry goes with the last frame, so a session's upload
is freed when the session ends, and the addresses cannot meanwhile be reused by other data).
(The readers only hash document ids: encoding millions of distinct ones costs more than
hashing them.)

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
    if grouped:
        change = np.empty(len(arrow), bool)
        change[0] = True
        change[1:] = pc.not_equal(arrow[1:], arrow[:-1]).to_numpy(zero_copy_only=False)
        starts = np.flatnonzero(change)
        if len(starts) * 8 < len(arrow):
            head_codes, names = _dictionary_encode(_take(arrow, starts))
            return np.repeat(head_codes, np.diff(np.append(starts, len(arrow)))), names
    return _dictionary_encode(arrow)


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


