"""TREC text files to columns without pandas: the well-formed case, in pyarrow and NumPy.

:mod:`irlib.io.trec` builds its DataFrames on these steps; the command line
(:mod:`irlib.cli.trec_eval`) uses them directly, so that evaluating a run file does not
import pandas. Any file that is not plainly well-formed gives None here, and the caller goes
the careful way (:func:`irlib.io.trec.read_run`), which finds the line and words the message.
"""
from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pa_compute
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


def load_trec(src, name, *, last_read: int | None = None):
    """``(data, name, notes, tag)``: the file's bytes as UTF-8 with comment lines emptied,
    the name for messages, notes on how it was decoded, and (with ``last_read``) the run's
    tag. Raises :class:`~irlib._common.InputError` for an empty file."""
    data, name = load(src, name)
    data, notes = decode_text(data, name)
    if data and not data.isspace():
        data = drop_comments(data)
        if not data.strip():
            raise InputError("the file holds only comment lines (starting with #), no data",
                             source=name)
    if not data or data.isspace():
        raise InputError("the file is empty" if not data else
                         "the file is empty (only blank lines)", source=name)
    tag = last_tag(data) if last_read else None
    return data, name, notes, tag


def trec_columns(data: bytes, layouts: dict, value: str, last_read: int | None = None):
    """``(columns, data)``: columns are (query ids, doc ids, values) if every line is
    well-formed, else None; ``data`` is the text the careful path should read (a run's lines
    cut after the tag when some go on)."""
    columns = columns_fast(data, layouts, value)
    if columns is None and last_read and _first_fields(data) >= last_read \
            and max_fields(data) > last_read:
        data = first_fields(data, last_read)             # the rest of a line is ignored
        columns = columns_fast(data, layouts, value)
    return columns, data


def columns_fast(data: bytes, layouts: dict, value: str):
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
    table = _parse_single_spaced(data, ncols, layouts[ncols][0])
    if table is None:                          # maybe runs of spaces: squeeze and retry
        squeezed = _single_spaced(data)
        if len(squeezed) == len(data):
            return None
        table = _parse_single_spaced(squeezed, ncols, layouts[ncols][0])
        if table is None:
            return None
    queries, docs, nums = table.column(0), table.column(1), table.column(2).to_numpy()
    if not np.isfinite(nums).all():
        return None
    if value == "relevance":
        if (nums != np.floor(nums)).any() or np.abs(nums).max(initial=0) > 2**53:
            return None
        nums = nums.astype(np.int64)
    return queries, docs, nums


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


def _parse_single_spaced(data: bytes, ncols: int, usecols: list[int]) -> pa.Table | None:
    """Columns ``usecols`` (id, id, value) if every non-empty line has ``ncols`` non-empty
    fields separated by single spaces, else None.

    The columns not kept (``Q0``, rank, tag) are parsed too, to see that none is empty.
    Every text column is parsed as bytes: the text is valid UTF-8 already
    (:func:`~irlib.io.decoding.decode_text`) and a space never splits a UTF-8 character, so
    pyarrow's UTF-8 check would only cost time; the id columns are then viewed as text.
    Large blocks: fewer, larger chunks for the whole-column steps that follow.
    """
    names = [str(i) for i in range(ncols)]
    ids, val = [names[usecols[0]], names[usecols[1]]], names[usecols[2]]
    try:
        table = pa_csv.read_csv(
            pa.BufferReader(data),
            read_options=pa_csv.ReadOptions(column_names=names, block_size=block_size(data)),
            parse_options=pa_csv.ParseOptions(delimiter=" ", quote_char=False,
                                              ignore_empty_lines=True),
            convert_options=pa_csv.ConvertOptions(
                strings_can_be_null=False, null_values=[],
                column_types={**dict.fromkeys(names, pa.binary()), val: pa.float64()}))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    # An empty field means two spaces in a row, or one at a line's end: whitespace runs.
    for col in names:
        if col != val and pa_compute.min(pa_compute.binary_length(table[col])).as_py() == 0:
            return None
    return pa.table([as_text(table[ids[0]]), as_text(table[ids[1]]), table[val]],
                    names=[*ids, val])


