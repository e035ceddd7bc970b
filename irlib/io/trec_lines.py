"""Line rules of trec_eval 10's readers, applied to a whole file's bytes at once.

* A line whose first non-blank character is ``#`` is a comment (trec_eval 10 skips them in
  runs and qrels). Its text is removed and its newline kept, so line numbers in messages
  still point at the file's own lines.
* A run line may go on after its 6th field (the tag): trec_eval reads six and ignores the
  rest, so each line is cut after its 6th field.
* The run's name (trec_eval's ``runid``) is the tag of its last line.

Each pass is a few NumPy operations over the bytes, in line-aligned chunks so that memory
stays bounded; files without ``#`` or long lines never pay for them.

Examples
--------
>>> drop_comments(b"# made by bm25\\n1 0 d1 1\\n  # note\\n1 0 d2 0\\n")
b'\\n1 0 d1 1\\n\\n1 0 d2 0\\n'
>>> first_fields(b"1 Q0 d1 1 2.5 bm25 extra words\\n1 Q0 d2 2 1.5 bm25\\n", 6)
b'1 Q0 d1 1 2.5 bm25\\n1 Q0 d2 2 1.5 bm25\\n'
>>> last_tag(b"1 Q0 d1 1 2.5 bm25\\n1 Q0 d2 2 1.5 bm25 x\\n\\n")
'bm25'
"""
from __future__ import annotations

import numpy as np

_CHUNK = 1 << 23                       # bytes per pass: bounded temporaries
_NEWLINE, _SPACE, _TAB, _RETURN, _HASH = 10, 32, 9, 13, 35


def _line_chunks(data: bytes):
    """(start, end) pieces of about ``_CHUNK`` bytes that end just after a newline."""
    start = 0
    while start < len(data):
        end = data.find(b"\n", min(start + _CHUNK, len(data)) - 1)
        end = len(data) if end < 0 else end + 1
        yield start, end
        start = end


def _blank(piece: np.ndarray) -> np.ndarray:
    return (piece == _SPACE) | (piece == _TAB) | (piece == _RETURN)


def _fields(piece: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per byte: whether a field starts there, and how many fields its line has started
    up to and including it."""
    newline = piece == _NEWLINE
    gap = _blank(piece) | newline
    starts = ~gap
    starts[1:] &= gap[:-1]
    started = np.cumsum(starts, dtype=np.int32)
    line_start = np.concatenate([[0], np.flatnonzero(newline) + 1])
    before = np.concatenate([[0], started])[line_start]       # fields started before each line
    line_of = np.cumsum(newline) - newline                    # line index of each byte
    return starts, started - before[line_of]


def drop_comments(data: bytes) -> bytes:
    """``data`` with every comment line's text removed (its newline kept)."""
    if b"#" not in data:
        return data
    out = []
    for start, end in _line_chunks(data):
        piece = np.frombuffer(data, np.uint8, end - start, start)
        starts, fields = _fields(piece)
        hashes = np.flatnonzero(starts & (fields == 1) & (piece == _HASH))
        if not hashes.size:
            out.append(data[start:end])
            continue
        newline = piece == _NEWLINE
        line_of = np.cumsum(newline) - newline
        comment_line = np.zeros(int(line_of[-1]) + 1, bool)
        comment_line[line_of[hashes]] = True
        out.append(piece[~comment_line[line_of] | newline].tobytes())
    return b"".join(out)


def max_fields(data: bytes) -> int:
    """The largest number of fields on any line."""
    most = 0
    for start, end in _line_chunks(data):
        piece = np.frombuffer(data, np.uint8, end - start, start)
        if piece.size:
            most = max(most, int(_fields(piece)[1].max()))
    return most


def first_fields(data: bytes, n: int) -> bytes:
    """Each line cut after its ``n``-th field (trec_eval ignores what follows a run's tag)."""
    out = []
    for start, end in _line_chunks(data):
        piece = np.frombuffer(data, np.uint8, end - start, start)
        fields = _fields(piece)[1]
        if not piece.size or fields.max() <= n:
            out.append(data[start:end])
            continue
        keep = (fields < n) | ((fields == n) & ~_blank(piece)) | (piece == _NEWLINE)
        out.append(piece[keep].tobytes())
    return b"".join(out)


def last_tag(data: bytes) -> str | None:
    """The 6th field of the last line that has one: the run's tag, as trec_eval's runid."""
    end = len(data)
    while end > 0:
        start = data.rfind(b"\n", 0, end - 1) + 1
        fields = data[start:end].split()
        if len(fields) >= 6:
            return fields[5].decode("utf-8", "replace")
        if fields and not fields[0].startswith(b"#"):
            return None
        end = start
    return None
