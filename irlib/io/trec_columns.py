"""TREC text files to columns without pandas: the well-formed case, in pyarrow and NumPy.

:mod:`irlib.io.trec` builds its DataFrames on these steps; the command line
(:mod:`irlib.cli.trec_eval`) uses them directly, so that evaluating a run file does not
import pandas. Any file that is not plainly well-formed gives None here, and the caller goes
the careful way (:func:`irlib.io.trec.read_run`), which finds the line and words the message.
"""
from __future__ import annotations

import os

import numpy as np
import pyarrow as pa
import pyarrow.csv as pa_csv

from .._common import InputError
from .decoding import decode_text
from .parsing import as_text, block_size
from .source import load
from .trec_lines import drop_comments, first_fields, last_tag, max_fields

#: Column layouts: column count -> (used columns: id, id, value; the layout as text).
QRELS_LAYOUTS = {4: ([0, 2, 3], "qid iter docno rel"), 3: ([0, 1, 2], "qid docno rel")}
RUN_LAYOUTS = {6: ([0, 2, 4], "qid Q0 docno rank score tag"), 3: ([0, 1, 2], "qid docno score")}
#: A run line goes on after its 6th field (the tag); trec_eval ignores the rest.
RUN_LAST_READ = 6


_PLAIN_CHUNK = 1 << 20
# bytes that need the careful reader; and fields left empty by two separators in a row
_NOT_PLAIN = (b"\r", b"#", b"\t", b"\x00")
_BLANK_FIELD = (b"  ", b"\n ", b" \n")
_SPACE, _NEWLINE = ord(" "), ord("\n")


def _has_blank_field(chunk: bytes) -> bool:
    """Whether ``chunk`` holds two spaces in a row or a space next to a newline.

    Python's search for a two-byte string runs at about 1 GB/s (the file's check took
    0.1 s of the command line's 0.6 s of CPU on a 700,000-line run); NumPy finds any
    space or newline next to another in a 1 MiB chunk ten times faster. That also
    flags blank lines (two newlines), which are allowed: only then are the three
    patterns searched for exactly.
    """
    a = np.frombuffer(chunk, np.uint8)
    blank = a == _SPACE
    blank |= a == _NEWLINE
    if not (blank[1:] & blank[:-1]).any():
        return False
    return any(bad in chunk for bad in _BLANK_FIELD)


def plain_file_columns(path, layouts: dict, value: str, *, last_read: int | None = None,
                       threads: bool = True):
    """``(columns, tag)`` of a file on disk that needs none of the reader's repairs, parsed
    by pyarrow from the file itself (the text is never held whole in memory), else None.

    "Needs no repair": ASCII text, no byte-order mark, not gzip, no carriage return, tab,
    comment sign or NUL, fields separated by single spaces, no space at a line's start or end
    and every line with the first line's number of fields (pyarrow's parser checks the
    last). Such a file gives :func:`load_trec` + :func:`trec_columns` exactly this; anything
    else gives None and the caller reads it that way.
    """
    if not isinstance(path, (str, os.PathLike)):
        return None
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as fh:
            head = fh.read(_PLAIN_CHUNK)
            if not head.strip() or head[:1] == b" " or head.startswith((b"\x1f\x8b", b"PK\x03\x04")):
                return None
            last, chunk, tail = b"", head, b""
            while chunk:
                if not chunk.isascii() or any(bad in chunk for bad in _NOT_PLAIN) \
                        or _has_blank_field(chunk) \
                        or any(bad in last[-1:] + chunk[:1] for bad in _BLANK_FIELD):
                    return None
                following = fh.read(_PLAIN_CHUNK)
                if not following:
                    tail = last + chunk            # the last line is in there whole
                last, chunk = chunk, following
    except OSError:
        return None
    if tail[-1:] == b" ":
        return None
    ncols = _first_fields(head)
    if ncols not in layouts or head.find(b"\n") < 0 and len(head) < size:
        return None
    tag = None
    if last_read:
        lines = tail if len(tail) >= size else tail[tail.find(b"\n") + 1:]
        if lines.isspace() or not lines:
            return None
        tag = last_tag(lines)
    with pa.OSFile(os.fspath(path)) as source:        # not a path: no guess from ".gz"
        table = _parse_checked(source, size, ncols, layouts[ncols][0], threads)
    if table is None:
        return None
    columns = _checked_columns(table, value)
    return None if columns is None else (columns, tag)


def load_trec(src, name, *, last_read: int | None = None):
    """``(data, name, notes, tag)``: the file's bytes as UTF-8 with comment lines emptied,
    the name for messages, notes on how it was decoded, and (with ``last_read``) the run's
    tag. Raises :class:`~irlib._common.InputError` for an empty file."""
    data, name = load(src, name)
    data, notes = decode_text(data, name)
    if data and not data.isspace():
        data = drop_comments(data)
        if data.isspace():                     # not strip(): that copies the file
            raise InputError("the file holds only comment lines (starting with #), no data",
                             source=name)
    if not data or data.isspace():
        raise InputError("the file is empty" if not data else
                         "the file is empty (only blank lines)", source=name)
    tag = last_tag(data) if last_read else None
    return data, name, notes, tag


def trec_columns(data: bytes, layouts: dict, value: str, last_read: int | None = None, *,
                 threads: bool = True):
    """``(columns, data)``: columns are (query ids, doc ids, values) if every line is
    well-formed, else None; ``data`` is the text the careful path should read (a run's lines
    cut after the tag when some go on). ``threads``: pyarrow parses on every core (the
    command line parses on one: on a busy machine the threads cost more CPU time, and they
    hold more blocks in memory at once)."""
    columns = columns_fast(data, layouts, value, threads=threads)
    if columns is None and last_read and _first_fields(data) >= last_read \
            and max_fields(data) > last_read:
        data = first_fields(data, last_read)             # the rest of a line is ignored
        columns = columns_fast(data, layouts, value, threads=threads)
    return columns, data


def columns_fast(data: bytes, layouts: dict, value: str, *, threads: bool = True):
    """(query ids, doc ids: Arrow text; values: float64, or int64 grades for
    ``value == "relevance"``) if every line is well-formed, else None.

    Anything unusual (a line with another field count, a value that is not a finite number
    or not whole) gives None rather than an error: the careful path finds the line and words
    the message, so there is one source of messages. Repeated (query, document) pairs are
    not looked for here.
    """
    ncols = _first_fields(data)
    if ncols not in layouts:
        return None
    if b"\t" in data:                          # tabs and spaces both separate fields
        data = data.replace(b"\t", b" ")
    table = _parse_single_spaced(data, ncols, layouts[ncols][0], threads=threads)
    if table is None:                          # maybe runs of spaces: squeeze and retry
        squeezed = _single_spaced(data)
        if len(squeezed) == len(data):
            return None
        table = _parse_single_spaced(squeezed, ncols, layouts[ncols][0], threads=threads)
        if table is None:
            return None
    return _checked_columns(table, value)


def _checked_columns(table: pa.Table, value: str):
    """The parsed columns, or None when a value is not finite (or a grade not whole)."""
    queries, docs, nums = table.column(0), table.column(1), numpy_of(table.column(2))
    if not np.isfinite(nums).all():
        return None
    if value == "relevance":
        if (nums != np.floor(nums)).any() or np.abs(nums).max(initial=0) > 2**53:
            return None
        nums = nums.astype(np.int64)
    return queries, docs, nums


def _single_spaced(data: bytes) -> bytes:
    """The same lines with fields separated by exactly one space, no space at either end.

    Splitting on runs of spaces and tabs (as the careful path does) and splitting this on
    single spaces give the same fields; a line of only whitespace becomes empty.
    """
    while b"  " in data:                       # each pass halves the longest run
        data = data.replace(b"  ", b" ")
    if b"\n " in data:
        data = data.replace(b"\n ", b"\n")
    if b" \n" in data:
        data = data.replace(b" \n", b"\n")
    return data.strip(b" ")


def numpy_of(column) -> np.ndarray:
    """A fixed-width Arrow column (or array) without nulls as a NumPy array (a copy).

    Not pyarrow's ``to_numpy``: that imports pandas (0.3 to 1 s), which the command line
    does not otherwise need. The values buffer is read as it lies, after each chunk's offset.
    """
    chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
    dtype = np.dtype(column.type.bit_width == 64 and (
        np.float64 if pa.types.is_floating(column.type) else np.int64) or np.int32)
    if not (pa.types.is_floating(column.type) or pa.types.is_integer(column.type)) \
            or column.type.bit_width not in (32, 64) or column.null_count \
            or (pa.types.is_floating(column.type) and column.type.bit_width != 64) \
            or (pa.types.is_integer(column.type) and pa.types.is_unsigned_integer(column.type)):
        raise TypeError(f"numpy_of takes int32, int64 or float64 without nulls, "
                        f"got {column.type}")
    parts = [np.frombuffer(chunk.buffers()[1], dtype=dtype, count=chunk.offset + len(chunk))
             [chunk.offset:] for chunk in chunks if len(chunk)]
    return np.concatenate(parts) if parts else np.empty(0, dtype)


def valid_of(array: pa.Array) -> np.ndarray:
    """Which entries of an Arrow array are not null, as NumPy booleans (no pandas)."""
    if array.null_count == 0:
        return np.ones(len(array), bool)
    bits = np.unpackbits(np.frombuffer(array.buffers()[0], np.uint8), bitorder="little")
    return bits[array.offset:array.offset + len(array)].astype(bool)


def _first_fields(data: bytes) -> int:
    """How many fields (split on spaces and tabs) the first line with any has, else 0."""
    start = 0
    while start <= len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        count = sum(1 for field in data[start:end].replace(b"\t", b" ").split(b" ") if field)
        if count:
            return count
        start = end + 1
    return 0


def _parse_single_spaced(data: bytes, ncols: int, usecols: list[int], *,
                         threads: bool = True) -> pa.Table | None:
    """Columns ``usecols`` (id, id, value) if every non-empty line has ``ncols`` non-empty
    fields separated by single spaces, else None.

    An empty field means two spaces in a row, or a space at a line's start or end: those are
    looked for in the bytes, so the columns not kept (``Q0``, rank, tag) are counted by
    pyarrow's parser (a line with another number of fields fails) but never converted.
    Every text column is parsed as bytes: the text is valid UTF-8 already
    (:func:`~irlib.io.decoding.decode_text`) and a space never splits a UTF-8 character, so
    pyarrow's UTF-8 check would only cost time; the id columns are then viewed as text.
    Large blocks: fewer, larger chunks for the whole-column steps that follow.
    """
    if data[:1] == b" " or data[-1:] == b" " or b"  " in data or b"\n " in data \
            or b" \n" in data:
        return None
    return _parse_checked(pa.BufferReader(data), len(data), ncols, usecols, threads)


def _parse_checked(source, size: int, ncols: int, usecols: list[int], threads: bool):
    """:func:`_parse_single_spaced` after its byte checks; ``source`` a pyarrow
    BufferReader or a file's path."""
    names = [str(i) for i in range(ncols)]
    ids, val = [names[usecols[0]], names[usecols[1]]], names[usecols[2]]
    try:
        table = pa_csv.read_csv(
            source,
            read_options=pa_csv.ReadOptions(column_names=names, block_size=block_size(size),
                                            use_threads=threads),
            parse_options=pa_csv.ParseOptions(delimiter=" ", quote_char=False,
                                              ignore_empty_lines=True),
            convert_options=pa_csv.ConvertOptions(
                strings_can_be_null=False, null_values=[], include_columns=[*ids, val],
                column_types={**dict.fromkeys(ids, pa.binary()), val: pa.float64()}))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    return pa.table([as_text(table[ids[0]]), as_text(table[ids[1]]), table[val]],
                    names=[*ids, val])
