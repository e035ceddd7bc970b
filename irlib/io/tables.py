"""CSV/TSV/Parquet tables: the shared table loader, and result tables (``read_table``).

The header names the columns (matched case-insensitively; the delimiter is sniffed from it);
rows keep their file line, so every error can name line and column.
"""
from __future__ import annotations

import csv
import difflib
import io
import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pa_compute
import pyarrow.csv as pa_csv

from .._common import InputError
from .background import Soon
from .checks import Where, check_ids, codes, check_no_duplicates, check_numbers, short, with_notes
from .decoding import decode_text
from .keys import column_hash
from .parsing import as_text, block_size
from .source import load

# Common other spellings, only used to suggest the right column name.
_ALIASES = {"query_id": ("qid", "queryid", "query", "topic", "topic_id"),
            "doc_id": ("docid", "docno", "doc", "document", "document_id", "pid"),
            "queryid": ("query_id", "qid", "topic_id"),
            "document": ("doc", "doc_id", "docid", "docno", "document_id"),
            "position": ("rank", "pos", "ranking")}
_NON_BLANK = re.compile(rb"\S")


def is_parquet(data: bytes) -> bool:
    return data[:4] == b"PAR1"


def _sniff_delimiter(header: str, name: str) -> str:
    """The most frequent of , TAB ; in the header line; ties go to the file extension."""
    counts = {d: header.count(d) for d in (",", "\t", ";")}
    by_ext = "\t" if name.lower().removesuffix(".gz").endswith((".tsv", ".tab")) else ","
    return by_ext if counts[by_ext] == max(counts.values()) else max(counts, key=counts.get)


class Table:
    """A parsed CSV/TSV/Parquet table: raw cells, header names and row -> line mapping."""

    def __init__(self, frame: pd.DataFrame, where: Where, header: list[str],
                 data: bytes | None, delimiter: str | None, notes: tuple[str, ...] = ()):
        self.frame = frame
        self.notes = notes
        self.where = where
        self.header = header
        self.data = data
        self.delimiter = delimiter

    def check_row(self, row: int) -> None:
        """Raise 'expected N columns' if the row's line has too few fields (text only)."""
        if self.data is None or self.where.lines is None:
            return
        line = int(self.where.lines[row])
        text = self.data.split(b"\n", line)[line - 1].decode("utf-8")
        try:
            fields = next(csv.reader([text], delimiter=self.delimiter))
        except (csv.Error, StopIteration):
            return
        if len(fields) < len(self.header):
            raise InputError(f"expected {len(self.header)} columns (as in the header), "
                             f"found {len(fields)}", source=self.where.name, line=line)


def load_table(src, name, *, ids: tuple[str, ...]) -> Table:
    """Read CSV/TSV (delimiter sniffed from the header) or Parquet; cells stay raw strings
    for the ``ids`` columns (matched case-insensitively), other columns are inferred."""
    data, name = load(src, name)
    if is_parquet(data):
        try:
            frame = pd.read_parquet(io.BytesIO(data))
        except Exception as exc:  # pyarrow raises several types; all mean "unreadable"
            raise InputError(f"not a readable Parquet file ({exc})", source=name) from None
        if frame.index.name is not None or isinstance(frame.index, pd.MultiIndex):
            frame = frame.reset_index()
        frame = frame.reset_index(drop=True)
        if len(frame) == 0:
            raise InputError("the file is empty (no rows)", source=name)
        header = [str(c) for c in frame.columns]
        frame.columns = header
        return Table(frame, Where(name, None), header, None, None)
    if name.lower().removesuffix(".gz").endswith((".parquet", ".pq")):
        raise InputError("not a Parquet file (it does not start with 'PAR1')", source=name)
    data, notes = decode_text(data, name)
    if not data or data.isspace():
        raise InputError("the file is empty" if not data else
                         "the file is empty (only blank lines)", source=name)
    # The header is the first non-blank line, however many blank lines come first.
    start = _NON_BLANK.search(data).start()
    skip = data.count(b"\n", 0, start)
    end = data.find(b"\n", start)
    end = len(data) if end < 0 else end
    header_line = data[start:end].rstrip(b"\r").decode("utf-8")
    delimiter = _sniff_delimiter(header_line, name)
    header = next(csv.reader([header_line], delimiter=delimiter))
    seen: dict[str, int] = {}
    for h in header:
        key = h.strip().lower()
        if key in seen:
            raise InputError(f"column {h.strip()!r} appears twice in the header",
                             source=name, line=skip + 1)
        seen[key] = 1
    id_columns = [i for i, h in enumerate(header) if h.strip().lower() in ids]
    frame = _parse_plain(data, end, skip, delimiter, len(header), id_columns)
    one_row_a_line = frame is not None         # the plain parse refuses blank lines
    if frame is None:
        try:
            frame = pd.read_csv(io.BytesIO(data), sep=delimiter, header=0, skiprows=skip,
                                engine="c", dtype={header[i]: str for i in id_columns},
                                na_filter=False, skip_blank_lines=False, encoding="utf-8")
        except pd.errors.ParserError:
            raise _find_long_row(data, name, delimiter, len(header), skip) from None
        except (ValueError, pd.errors.EmptyDataError) as exc:
            raise InputError(f"cannot be parsed as a table ({exc})", source=name) from None
    frame.columns = [str(c) for c in header]
    # Map rows to physical lines. The common case is one record per line.
    if one_row_a_line or len(frame) == data.count(b"\n") + (
            0 if data.endswith(b"\n") else 1) - skip - 1:
        lines = range(skip + 2, skip + 2 + len(frame))    # looked up only for an error
    else:  # quoted fields spanning lines: ask the csv module where each record starts
        starts = []
        reader = csv.reader(io.StringIO(data.decode("utf-8")), delimiter=delimiter)
        prev = 0
        for _ in reader:
            starts.append(prev + 1)
            prev = reader.line_num
        lines = np.asarray(starts[skip + 1:skip + 1 + len(frame)])
        if len(lines) != len(frame):  # pragma: no cover - defensive
            lines = np.arange(skip + 2, skip + 2 + len(frame))
    # Drop rows whose cells are all empty (blank lines), keeping the line numbers right.
    # A blank line leaves an empty cell in every column, so every column is text then.
    if len(frame) and all(pd.api.types.is_string_dtype(frame[c]) or frame[c].dtype == object
                          for c in frame.columns):
        empty = np.ones(len(frame), dtype=bool)
        for c in frame.columns:                # the first columns rule out most rows
            maybe = np.flatnonzero(empty)
            if not maybe.size:
                break
            col = frame[c] if maybe.size == len(frame) else frame[c].iloc[maybe]
            cells = col.astype("str").str.strip()
            empty[maybe] = (cells == "").to_numpy()
        if empty.any():
            frame = frame.loc[~empty].reset_index(drop=True)
            lines = np.asarray(lines)[~empty]
    if len(frame) == 0:
        raise InputError("has a header line but no data rows", source=name, line=skip + 1)
    return Table(frame, Where(name, lines), header, data, delimiter, notes)


def _parse_plain(data: bytes, header_end: int, skip: int, delimiter: str, ncols: int,
                 id_columns: list[int]) -> pd.DataFrame | None:
    """The cells as the careful ``pd.read_csv`` call gives them, when that is easy to be
    sure of: no quotes, and every line after the header has ``ncols`` fields.  Else None.

    One pyarrow parse (no Python object per cell: the slow part of pandas' reader): id
    columns as bytes viewed as text (:mod:`~irlib.io.parsing`); the other columns typed by
    pyarrow, and kept when it finds whole or finite numbers, which pandas would infer too.
    Any other column (text, empty cells, true/false, dates) comes from pandas, so its type
    is inferred exactly as the careful path does.
    """
    if ncols < 2 or b'"' in data:              # with 1 column, a blank line is a row
        return None
    names = [str(i) for i in range(ncols)]
    # pyarrow reads 0x10 as 16, pandas not (one-byte searches first: far cheaper)
    hexadecimal = (b"x" in data and b"0x" in data) or (b"X" in data and b"0X" in data)
    body = pa.py_buffer(data).slice(min(header_end + 1, len(data)))
    parsed = _parse_body(body, delimiter, names, id_columns, typed=not hexadecimal)
    if parsed is None and not hexadecimal:     # typing refused: every column as bytes
        parsed = _parse_body(body, delimiter, names, id_columns, typed=False)
    if parsed is None or parsed.num_rows == 0:
        return None
    columns, others = {}, []
    for i in range(ncols):
        column = parsed.column(names[i])
        numbers = None if i in id_columns or hexadecimal else _plain_numbers(column)
        if i in id_columns:
            columns[i] = as_text(column).to_pandas()
        elif numbers is not None:
            columns[i] = pd.Series(numbers, copy=False)      # pandas would copy it
        else:
            others.append(i)
    if others:
        try:
            rest = pd.read_csv(io.BytesIO(data), sep=delimiter, header=0, skiprows=skip,
                               engine="c", usecols=others, na_filter=False,
                               skip_blank_lines=False, encoding="utf-8")
        except (ValueError, pd.errors.ParserError, pd.errors.EmptyDataError):
            return None
        if len(rest) != parsed.num_rows:
            return None
        columns.update({i: rest.iloc[:, k] for k, i in enumerate(others)})
    # copy=False: the columns are ours alone, and pandas would copy each to stack them
    return pd.DataFrame({i: columns[i] for i in range(ncols)}, copy=False)


def _parse_body(body, delimiter: str, names: list[str], id_columns: list[int], *,
                typed: bool) -> pa.Table | None:
    """pyarrow's parse of the lines after the header: id columns as bytes, the others
    typed by pyarrow (``typed``) or as bytes; None if a line does not fit."""
    types = dict.fromkeys(names if not typed else [names[i] for i in id_columns], pa.binary())
    try:
        return pa_csv.read_csv(
            body,
            read_options=pa_csv.ReadOptions(column_names=names, block_size=block_size(body)),
            parse_options=pa_csv.ParseOptions(delimiter=delimiter, quote_char=False,
                                              ignore_empty_lines=False),
            convert_options=pa_csv.ConvertOptions(
                strings_can_be_null=False, null_values=[], true_values=[], false_values=[],
                column_types=types))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None


def _plain_numbers(column) -> np.ndarray | None:
    """The column's numbers when pandas would infer the same: all whole numbers (int64),
    or finite floats with one not whole (pandas reads ``+5`` as an integer, a huge whole
    number as text); else None (pandas infers the column)."""
    if pa.types.is_integer(column.type):
        return column.to_numpy()
    if pa.types.is_floating(column.type):
        values = column.to_numpy()
    else:
        try:
            return pa_compute.cast(column, pa.int64()).to_numpy()
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            pass
        try:
            values = pa_compute.cast(column, pa.float64()).to_numpy()
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            return None
    head = values[:4096]                       # a score with decimals is usually early
    fraction = (head != np.floor(head)).any() or (values != np.floor(values)).any()
    return values if fraction and np.isfinite(values).all() else None


def _find_long_row(data: bytes, name: str, delimiter: str, ncols: int, skip: int) -> InputError:
    reader = csv.reader(io.StringIO(data.decode("utf-8")), delimiter=delimiter)
    prev = 0
    for i, rec in enumerate(reader):
        start = prev + 1
        prev = reader.line_num
        if i > skip and len(rec) > ncols:
            return InputError(f"expected {ncols} columns (as in the header), found {len(rec)}",
                              source=name, line=start)
    return InputError("cannot be parsed as a table (inconsistent columns)", source=name)


def resolve_columns(table: Table, required: list[str], *, optional=(), one_of=(),
                     expected_text: str) -> dict[str, str]:
    """Map canonical lower-case names to the header's spelling, or explain what is missing."""
    lookup = {h.strip().lower(): h for h in table.header}
    found = ", ".join(h.strip() for h in table.header) or "nothing"
    missing = [c for c in required if c not in lookup]
    if one_of and not any(c in lookup for c in one_of):
        missing.append(" or ".join(repr(c) for c in one_of))
    if missing:
        first = missing[0]
        label = f"missing column {first!r}" if " or " not in first else f"missing column {first}"
        if len(missing) > 1:
            label = "missing columns " + ", ".join(
                m if " or " in m else repr(m) for m in missing)
        hints, offered = [], set()      # a header column is offered for one missing name only
        for m in missing:
            if " or " in m:
                continue
            free = [h for h in lookup if h not in offered]
            close = [a for a in _ALIASES.get(m, ()) if a in free] or \
                difflib.get_close_matches(m, free, n=1, cutoff=0.6)
            if close:
                offered.add(close[0])
                hints.append(f"{lookup[close[0]].strip()!r} for {m!r}")
        hint = f"; did you mean {', '.join(hints)}?" if hints else ""
        if "query_id" in missing and any(w in h for h in lookup for w in ("user", "item")):
            # not "did you mean 'user_id' for 'query_id'": a renamed column would score
            # recommendations without the held-out items they missed (inflated recall)
            hint = ("; users and items are recommender data: irlib.recsys reads them with "
                    "any column names, with the held-out interactions as the judgments "
                    "(read_recommendations, read_interactions; python -m irlib.recsys "
                    "HELDOUT RECS)")
        line = None if table.where.lines is None else header_line(table)
        raise InputError(f"{label} (expected: {expected_text}; found: {found}){hint}",
                         source=table.where.name, line=line)
    return {c: lookup[c] for c in (*required, *optional, *one_of) if c in lookup}


def header_line(table: Table) -> int:
    data = table.data or b""
    skip = 0
    for raw in data.split(b"\n", 64):
        if raw.strip():
            break
        skip += 1
    return skip + 1


def read_table(src, *, name: str | None = None) -> pd.DataFrame:
    """Read a result table (CSV, TSV or Parquet) with ``query_id, doc_id`` and a ranking.

    The ranking is a ``score`` column (higher = better) or a ``position`` column (1 = top);
    with only ``position``, ``score = -position`` so that sorting by score descending
    reproduces the positions.  An optional ``relevance`` column (whole numbers) is kept.
    Header names are matched case-insensitively; the delimiter is sniffed from the header.

    Parameters
    ----------
    src : str, Path, bytes or file-like
        The file; gzip is decompressed transparently.
    name : str, optional
        File name used in error messages (default: the path's or the object's name).

    Returns
    -------
    DataFrame
        ``query_id`` (str), ``doc_id`` (str), ``score`` (float64), then ``position`` (int64)
        and ``relevance`` (int64) when present, then any extra columns of the file.

    Raises
    ------
    InputError
        E.g. ``"results.csv, line 5, column position: position '0' must be >= 1"``.

    Examples
    --------
    >>> read_table(b"query_id,doc_id,position\\nq1,d7,1\\nq1,d3,2\\n", name="results.csv")
      query_id doc_id  score  position
    0       q1     d7   -1.0         1
    1       q1     d3   -2.0         2
    """
    table = load_table(src, name, ids=("query_id", "doc_id"))
    cols = resolve_columns(table, ["query_id", "doc_id"], optional=("relevance",),
                            one_of=("score", "position"),
                            expected_text="query_id, doc_id, and score or position; "
                                          "optional: relevance")
    f, w = table.frame, table.where
    doc_hashes = Soon(column_hash, f[cols["doc_id"]])   # meanwhile, on the other core
    columns = {"query_id": check_ids(f[cols["query_id"]], w, "query_id", "query_id"),
               "doc_id": check_ids(f[cols["doc_id"]], w, "doc_id", "doc_id")}
    if "position" in cols:
        position = check_numbers(f[cols["position"]], w, "position", cols["position"].strip(),
                                 whole=True, minimum=1, check_row=table.check_row)
    if "score" in cols:
        columns["score"] = check_numbers(f[cols["score"]], w, "score", cols["score"].strip(),
                                         check_row=table.check_row)
    else:
        columns["score"] = -position.astype(float)
    if "position" in cols:
        columns["position"] = position
    if "relevance" in cols:
        columns["relevance"] = check_numbers(f[cols["relevance"]], w, "relevance",
                                             cols["relevance"].strip(), whole=True,
                                             check_row=table.check_row)
    known = set(cols.values())
    for h in table.header:
        if h not in known and h.strip() not in columns:
            columns[h.strip()] = f[h].reset_index(drop=True)
    out = pd.DataFrame(columns, copy=False)    # fresh columns: no copy to stack them
    id_codes = {"query_id": codes(out["query_id"])}      # hashed once, used twice
    check_no_duplicates(out, ["query_id", "doc_id"], w,
                        lambda r: f"document {short(r['doc_id'])} is listed twice for query "
                                  f"{short(r['query_id'])}", id_codes, doc_hashes,
                        column=cols["doc_id"].strip())
    if "position" in cols:
        check_no_duplicates(out, ["query_id", "position"], w,
                            lambda r: f"position {r['position']} is used twice for query "
                                      f"{short(r['query_id'])}", id_codes,
                            column=cols["position"].strip())
    return with_notes(out, table.notes)


def to_run_from_positions(df: pd.DataFrame) -> pd.DataFrame:
    """A run (``query_id, doc_id, score``) from a frame with ``position`` (1 = top).

    ``score = -position``, so sorting by score descending gives the positions back.

    Examples
    --------
    >>> to_run_from_positions(pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"],
    ...                                     "position": [2, 1]}))
      query_id doc_id  score
    0        1      a   -2.0
    1        1      b   -1.0
    """
    missing = [c for c in ("query_id", "doc_id", "position") if c not in df.columns]
    if missing:
        raise ValueError(f"to_run_from_positions needs columns query_id, doc_id, position; "
                         f"missing {', '.join(missing)}")
    return pd.DataFrame({"query_id": df["query_id"].astype("str").to_numpy(),
                         "doc_id": df["doc_id"].astype("str").to_numpy(),
                         "score": -df["position"].to_numpy(dtype=float)},
                        index=df.index).reset_index(drop=True)


