"""pyarrow CSV settings the fast paths of the TREC and table readers share.

Text cells are parsed as bytes (``pa.binary()``) and viewed as text afterwards: the
readers get text that :func:`~irlib.io.decoding.decode_text` has made valid UTF-8, and a
one-byte delimiter never splits a UTF-8 character, so pyarrow's own UTF-8 check would
only repeat work (it was a large part of parsing a 7-million-line run).

Examples
--------
>>> as_text(pa.chunked_array([pa.array([b"caf\\xc3\\xa9"], pa.binary())])).to_pylist()
['café']
>>> block_size(b"x" * 10), block_size(b"x" * 2**30) // 2**20
(1048576, 16)
"""
from __future__ import annotations

import pyarrow as pa

_MIN_BLOCK = 1 << 20                            # pyarrow's default
_MAX_BLOCK = 16 << 20


def block_size(data: bytes | int) -> int:
    """Bytes per pyarrow block: about 16 blocks a file (both cores busy), 1 to 16 MB.

    Fewer, larger chunks make the whole-column steps after parsing cheaper (each chunk
    is a Python-level step in some of them).
    """
    size = data if isinstance(data, int) else len(data)      # the bytes, or their number
    return max(_MIN_BLOCK, min(_MAX_BLOCK, size // 16))


def as_text(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """A binary column of valid UTF-8 as a string column, without copying or checking."""
    large = pa.types.is_large_binary(column.type)
    kind = pa.large_string() if large else pa.string()
    return pa.chunked_array([chunk.view(kind) for chunk in column.chunks], type=kind)
