"""Read qrels, runs, rating sheets and result tables into ir_measures-style DataFrames.

Every reader takes a path (``str`` / ``Path``; gzip is recognised by its magic bytes, so
``run.txt.gz`` just works), raw ``bytes``, or a binary/text file-like object such as
Streamlit's ``UploadedFile``.  Every problem with the *content* raises
:class:`irlib._common.InputError` naming the file, the 1-based line and the column, so the
app can show the message as is.

Column conventions (as in ir_measures): qrels ``query_id, doc_id, relevance``; runs
``query_id, doc_id, score``.  Ids are always strings (``"007"`` stays ``"007"``).
"""
from __future__ import annotations

import csv
import difflib
import gzip
import io
import os
import re
import zlib
from pathlib import Path

import numpy as np
import pandas as pd

from ._common import InputError

__all__ = ["MAX_UPLOAD_MB", "read_qrels", "read_run", "read_ratings", "read_table",
           "to_run_from_positions", "sniff_kind"]

#: Largest accepted upload (file-like objects), in MB (2**20 bytes), before and after gunzip.
MAX_UPLOAD_MB = 200

_MB = 1 << 20
_AGGREGATES = ("median", "mean", "min", "max")
_RATING_RE = re.compile(r"^rating_(\d+)$")
# Common other spellings, only used to suggest the right column name.
_ALIASES = {"query_id": ("qid", "queryid", "query", "topic", "topic_id"),
            "doc_id": ("docid", "docno", "doc", "document", "document_id", "pid"),
            "queryid": ("query_id", "qid", "topic_id"),
            "document": ("doc", "doc_id", "docid", "docno", "document_id"),
            "position": ("rank", "pos", "ranking")}


# --------------------------------------------------------------------------- bytes in

def _fmt_mb(nbytes: int) -> str:
    return f"{nbytes / _MB:.1f}".rstrip("0").rstrip(".")


def _too_big(name: str, nbytes: int | None, what: str = "file") -> InputError:
    size = f"over {MAX_UPLOAD_MB}" if nbytes is None else _fmt_mb(nbytes)
    return InputError(f"{what} is {size} MB; the limit is {MAX_UPLOAD_MB} MB", source=name)


def _source_name(src, name: str | None) -> str:
    if name:
        return str(name)
    if isinstance(src, (str, os.PathLike)):
        return Path(src).name
    obj_name = getattr(src, "name", None)
    if isinstance(obj_name, (str, os.PathLike)) and str(obj_name):
        return Path(obj_name).name
    return "input"


def _read_bytes(src, name: str) -> tuple[bytes, bool]:
    """The raw bytes of ``src`` and whether the upload limit applies (file-likes, bytes)."""
    limit = MAX_UPLOAD_MB * _MB
    if isinstance(src, (str, os.PathLike)):
        try:
            return Path(src).read_bytes(), False
        except FileNotFoundError:
            raise InputError("file not found", source=name) from None
        except IsADirectoryError:
            raise InputError("is a folder, not a file", source=name) from None
        except OSError as exc:
            raise InputError(f"cannot be read ({exc.strerror or exc})", source=name) from None
    if isinstance(src, (bytes, bytearray, memoryview)):
        data = bytes(src)
        if len(data) > limit:
            raise _too_big(name, len(data))
        return data, True
    if not hasattr(src, "read"):
        raise TypeError(f"expected a path, bytes or a file-like object, got {type(src).__name__}")
    size = getattr(src, "size", None)          # Streamlit's UploadedFile has .size
    seekable = bool(getattr(src, "seekable", lambda: False)())
    if not isinstance(size, (int, np.integer)) or isinstance(size, bool):
        size = None
        if seekable:
            try:
                size = src.seek(0, io.SEEK_END)
            except (OSError, ValueError):
                size = None
    if size is not None and size > limit:
        raise _too_big(name, int(size))
    if seekable:
        src.seek(0)                            # re-reading an upload on a rerun must work
    parts, total = [], 0
    while total <= limit:                      # raw streams may return short reads
        part = src.read(limit + 1 - total)
        if not part:
            break
        if isinstance(part, str):
            part = part.encode("utf-8")
        parts.append(bytes(part))
        total += len(parts[-1])
    data = b"".join(parts)
    if len(data) > limit:
        raise _too_big(name, None)
    return data, True


def _gunzip(data: bytes, name: str, limited: bool) -> bytes:
    if data[:2] != b"\x1f\x8b":
        return data
    limit = MAX_UPLOAD_MB * _MB
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as fh:
            out = fh.read(limit + 1) if limited else fh.read()
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(f"not a valid gzip file ({exc})", source=name) from None
    if limited and len(out) > limit:
        raise _too_big(name, None, "decompressed file")
    return out


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def _check_text(data: bytes, name: str) -> bytes:
    """UTF-8 text without BOM and with ``\\n`` line ends, or an InputError."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError("not UTF-8 text (it is UTF-16); save the file as UTF-8",
                         source=name, line=1)
    if data.startswith(b"PK\x03\x04"):
        raise InputError("this is a zip or Excel file, not text; export it as CSV "
                         "or plain text (UTF-8)", source=name, line=1)
    nul = data.find(b"\x00")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if nul < 0 or exc.start < nul:
            bad = data[exc.start:exc.start + 1].hex().upper()
            raise InputError(f"not UTF-8 text (byte 0x{bad}); save the file as UTF-8",
                             source=name, line=_line_of(data, exc.start)) from None
    if nul >= 0:
        raise InputError("contains a NUL byte: this is a binary file, not text",
                         source=name, line=_line_of(data, nul))
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return data


def _load(src, name: str | None) -> tuple[bytes, str]:
    name = _source_name(src, name)
    data, limited = _read_bytes(src, name)
    return _gunzip(data, name, limited), name


# --------------------------------------------------------------------------- locations

class _Where:
    """Maps a row of a parsed frame to its place in the file, and builds errors there."""

    def __init__(self, name: str, lines: np.ndarray | None):
        self.name = name
        self.lines = lines            # 1-based line per row; None = Parquet (use row numbers)

    def err(self, problem: str, row: int | None = None, column=None) -> InputError:
        if row is None:
            return InputError(problem, source=self.name, column=column)
        if self.lines is None:
            return InputError(problem, source=f"{self.name}, row {row + 1}", column=column)
        return InputError(problem, source=self.name, line=int(self.lines[row]), column=column)

    def place(self, row: int) -> str:
        return f"row {row + 1}" if self.lines is None else f"line {int(self.lines[row])}"


def _short(value, width: int = 40) -> str:
    text = str(value)
    return repr(text if len(text) <= width else text[:width - 1] + "…")


# --------------------------------------------------------------------------- value checks

def _ids(s: pd.Series, where: _Where, label: str, column) -> pd.Series:
    """Non-empty string ids."""
    if not (pd.api.types.is_string_dtype(s) or s.dtype == object):
        if pd.api.types.is_float_dtype(s):
            whole = s.notna() & np.isfinite(s) & (s == np.floor(s))
            if whole[s.notna()].all():
                s = s.astype("Int64")
        s = s.astype("str").where(s.notna(), "")
    s = s.astype("str")
    bad = (s.isna() | (s.str.strip() == "")).to_numpy()
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise where.err(f"{label} is empty", row, column)
    return s.reset_index(drop=True)


def _numbers(s: pd.Series, where: _Where, label: str, column, *, whole: bool = False,
             minimum: float | None = None, check_row=None) -> np.ndarray:
    """A numeric column as float64 (``whole``: int64), with a located error for bad cells.

    ``check_row(row)`` may raise a better error (e.g. too few columns) for a missing cell.
    """
    kind = "a whole number" if whole else "a number"
    if pd.api.types.is_bool_dtype(s):
        raise where.err(f"{label} must be {kind}, found true/false values", 0, column)
    if pd.api.types.is_numeric_dtype(s):
        num = s.to_numpy(dtype=float, na_value=np.nan)
        texts = None
    else:
        texts = s.astype("str")
        num = pd.to_numeric(texts, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    bad = ~np.isfinite(num)
    if whole:
        with np.errstate(invalid="ignore"):
            bad |= num != np.floor(num)
    if minimum is not None:
        with np.errstate(invalid="ignore"):
            bad |= num < minimum
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raw = s.iloc[row] if texts is None else texts.iloc[row]
        raw_text = "" if pd.isna(raw) else str(raw).strip()
        if raw_text == "":
            if check_row is not None:
                check_row(row)
            raise where.err(f"{label} is missing", row, column)
        value = num[row]
        if np.isnan(value) and raw_text.lower() not in ("nan", "-nan", "+nan"):
            raise where.err(f"{label} {_short(raw_text)} is not a number", row, column)
        if not np.isfinite(value):
            raise where.err(f"{label} {_short(raw_text)} is not a finite number", row, column)
        if whole and value != np.floor(value):
            raise where.err(f"{label} {_short(raw_text)} is not a whole number", row, column)
        raise where.err(f"{label} {_short(raw_text)} is negative; it must be >= {minimum:g}"
                        if minimum == 0 else
                        f"{label} {_short(raw_text)} must be >= {minimum:g}", row, column)
    if whole:
        if np.abs(num).max(initial=0) > 2**53:
            row = int(np.argmax(np.abs(num)))
            raise where.err(f"{label} {num[row]:.0f} is too large", row, column)
        return num.astype(np.int64)
    return num


def _no_duplicates(frame: pd.DataFrame, keys: list[str], where: _Where, describe) -> None:
    """Raise at the second occurrence of a repeated key, naming the first one's line too."""
    dup = frame.duplicated(keys, keep="first").to_numpy()
    if not dup.any():
        return
    second = int(np.flatnonzero(dup)[0])
    same = np.ones(len(frame), dtype=bool)
    for key in keys:
        same &= (frame[key] == frame[key].iloc[second]).to_numpy()
    first = int(np.flatnonzero(same)[0])
    raise where.err(f"{describe(frame.iloc[second])} (first on {where.place(first)})", second)


# --------------------------------------------------------------------------- TREC text

def _fields_per_line(data: bytes) -> np.ndarray:
    """Number of whitespace-separated fields on each line (chunked: bounded memory)."""
    n_lines = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
    counts = np.zeros(max(n_lines, 1), dtype=np.int64)
    arr = np.frombuffer(data, dtype=np.uint8)
    chunk = 1 << 23
    prev_ws = True
    line0 = 0
    for a in range(0, len(arr), chunk):
        part = arr[a:a + chunk]
        nl = part == 10
        ws = (part == 32) | (part == 9) | nl
        start = ~ws
        start[0] &= prev_ws
        start[1:] &= ws[:-1]
        lid = np.cumsum(nl)
        hit = lid[start]
        if hit.size:
            top = int(hit[-1]) + 1
            counts[line0:line0 + top] += np.bincount(hit, minlength=top)
        line0 += int(lid[-1])
        prev_ws = bool(ws[-1])
    return counts


def _layout_text(ncols: int, spec: str) -> str:
    return f"{ncols} columns ({spec})"


def _read_trec(src, name, *, layouts: dict, value: str, other: dict):
    """Shared reader for whitespace-separated TREC files.

    ``layouts``: column count -> (usecols, spec text); the value column is the last used one.
    """
    data, name = _load(src, name)
    data = _check_text(data, name)
    if not data.strip():
        raise InputError("the file is empty" if not data else
                         "the file is empty (only blank lines)", source=name)
    counts = _fields_per_line(data)
    used = np.flatnonzero(counts > 0)
    first = int(used[0])
    ncols = int(counts[first])
    expected = " or ".join(_layout_text(n, spec) for n, (_, spec) in layouts.items())
    if ncols not in layouts:
        hint = f"; this looks like a {other[ncols]} file" if ncols in other else ""
        raise InputError(f"expected {expected}, found {ncols}{hint}", source=name, line=first + 1)
    wrong = counts[used] != ncols
    if wrong.any():
        bad = int(used[np.flatnonzero(wrong)[0]])
        raise InputError(f"expected {_layout_text(ncols, layouts[ncols][1])}, "
                         f"found {int(counts[bad])}", source=name, line=bad + 1)
    usecols, _spec = layouts[ncols]
    names = ["query_id", "doc_id", value]
    try:
        raw = pd.read_csv(io.BytesIO(data), sep=r"\s+", header=None, engine="c",
                          names=list(range(ncols)), usecols=usecols,
                          dtype={usecols[0]: str, usecols[1]: str}, na_filter=False,
                          quoting=csv.QUOTE_NONE, skip_blank_lines=True, encoding="utf-8")
    except (ValueError, pd.errors.ParserError) as exc:  # pragma: no cover - guarded above
        raise InputError(f"cannot be parsed ({exc})", source=name) from None
    raw.columns = names
    if len(raw) != len(used):  # pragma: no cover - the counts above should make this impossible
        raise InputError("cannot be parsed: unexpected line structure", source=name)
    where = _Where(name, used + 1)
    col = usecols[2] + 1
    if value == "score":
        vals = _numbers(raw[value], where, "score", col)
    else:
        vals = _numbers(raw[value], where, "relevance", col, whole=True)
    out = pd.DataFrame({"query_id": raw["query_id"].astype("str"),
                        "doc_id": raw["doc_id"].astype("str"), value: vals})
    _no_duplicates(out, ["query_id", "doc_id"], where,
                   lambda r: f"document {_short(r['doc_id'])} is listed twice for query "
                             f"{_short(r['query_id'])}")
    return out


def read_qrels(src, *, name: str | None = None) -> pd.DataFrame:
    """Read TREC relevance judgements.

    Lines are ``qid iter docno rel`` (4 columns; ``iter`` is ignored) or ``qid docno rel``.
    Relevance must be a whole number; negative values are kept (trec_eval counts them as
    not relevant).  A (query, document) pair may appear only once.

    Parameters
    ----------
    src : str, Path, bytes or file-like
        The file; gzip is decompressed transparently.
    name : str, optional
        File name used in error messages (default: the path's or the object's name).

    Returns
    -------
    DataFrame
        ``query_id`` (str), ``doc_id`` (str), ``relevance`` (int64), in file order.

    Raises
    ------
    InputError
        With file, line and column, e.g. ``"qrels.txt, line 3, column 4: relevance '1.5'
        is not a whole number"``.

    Examples
    --------
    >>> read_qrels(b"q1 0 d1 2\\nq1 0 d2 0\\n", name="qrels.txt")
      query_id doc_id  relevance
    0       q1     d1          2
    1       q1     d2          0
    """
    return _read_trec(src, name, value="relevance",
                      layouts={4: ([0, 2, 3], "qid iter docno rel"),
                               3: ([0, 1, 2], "qid docno rel")},
                      other={6: "run"})


def read_run(src, *, name: str | None = None) -> pd.DataFrame:
    """Read a TREC run.

    Lines are ``qid Q0 docno rank score tag`` (6 columns; ``Q0``, ``rank`` and ``tag`` are
    not used: like trec_eval, order comes from the score) or ``qid docno score``.  Scores
    must be finite numbers; a (query, document) pair may appear only once.

    Parameters
    ----------
    src : str, Path, bytes or file-like
        The file; gzip is decompressed transparently.
    name : str, optional
        File name used in error messages (default: the path's or the object's name).

    Returns
    -------
    DataFrame
        ``query_id`` (str), ``doc_id`` (str), ``score`` (float64), in file order.

    Raises
    ------
    InputError
        E.g. ``"run.txt, line 7: expected 6 columns (qid Q0 docno rank score tag), found 4"``.

    Examples
    --------
    >>> read_run(b"q1 Q0 d1 1 2.5 bm25\\nq1 Q0 d2 2 1.0 bm25\\n", name="run.txt")
      query_id doc_id  score
    0       q1     d1    2.5
    1       q1     d2    1.0
    """
    return _read_trec(src, name, value="score",
                      layouts={6: ([0, 2, 4], "qid Q0 docno rank score tag"),
                               3: ([0, 1, 2], "qid docno score")},
                      other={4: "qrels"})


# --------------------------------------------------------------------------- tables

def _is_parquet(data: bytes) -> bool:
    return data[:4] == b"PAR1"


def _sniff_delimiter(header: str, name: str) -> str:
    """The most frequent of , TAB ; in the header line; ties go to the file extension."""
    counts = {d: header.count(d) for d in (",", "\t", ";")}
    by_ext = "\t" if name.lower().removesuffix(".gz").endswith((".tsv", ".tab")) else ","
    return by_ext if counts[by_ext] == max(counts.values()) else max(counts, key=counts.get)


class _Table:
    """A parsed CSV/TSV/Parquet table: raw cells, header names and row -> line mapping."""

    def __init__(self, frame: pd.DataFrame, where: _Where, header: list[str],
                 data: bytes | None, delimiter: str | None):
        self.frame = frame
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


def _load_table(src, name, *, ids: tuple[str, ...]) -> _Table:
    """Read CSV/TSV (delimiter sniffed from the header) or Parquet; cells stay raw strings
    for the ``ids`` columns (matched case-insensitively), other columns are inferred."""
    data, name = _load(src, name)
    if _is_parquet(data):
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
        return _Table(frame, _Where(name, None), header, None, None)
    if name.lower().removesuffix(".gz").endswith((".parquet", ".pq")):
        raise InputError("not a Parquet file (it does not start with 'PAR1')", source=name)
    data = _check_text(data, name)
    if not data.strip():
        raise InputError("the file is empty" if not data else
                         "the file is empty (only blank lines)", source=name)
    # The header is the first non-blank line, however many blank lines come first.
    body = data.lstrip()
    skip = data[:len(data) - len(body)].count(b"\n")
    header_line = body.split(b"\n", 1)[0].rstrip(b"\r").decode("utf-8")
    delimiter = _sniff_delimiter(header_line, name)
    header = next(csv.reader([header_line], delimiter=delimiter))
    seen: dict[str, int] = {}
    for h in header:
        key = h.strip().lower()
        if key in seen:
            raise InputError(f"column {h.strip()!r} appears twice in the header",
                             source=name, line=skip + 1)
        seen[key] = 1
    dtype = {h: str for h in header if h.strip().lower() in ids}
    try:
        frame = pd.read_csv(io.BytesIO(data), sep=delimiter, header=0, skiprows=skip,
                            engine="c", dtype=dtype, na_filter=False,
                            skip_blank_lines=False, encoding="utf-8")
    except pd.errors.ParserError:
        raise _find_long_row(data, name, delimiter, len(header), skip) from None
    except (ValueError, pd.errors.EmptyDataError) as exc:
        raise InputError(f"cannot be parsed as a table ({exc})", source=name) from None
    frame.columns = [str(c) for c in header]
    # Map rows to physical lines. The common case is one record per line.
    n_phys = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
    if len(frame) == n_phys - skip - 1:
        lines = np.arange(skip + 2, skip + 2 + len(frame))
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
    if len(frame):
        empty = np.ones(len(frame), dtype=bool)
        for c in frame.columns:
            col = frame[c]
            if pd.api.types.is_string_dtype(col) or col.dtype == object:
                empty &= (col.astype("str").str.strip() == "").to_numpy()
            else:
                empty &= False
        if empty.any():
            frame = frame.loc[~empty].reset_index(drop=True)
            lines = lines[~empty]
    if len(frame) == 0:
        raise InputError("has a header line but no data rows", source=name, line=skip + 1)
    return _Table(frame, _Where(name, lines), header, data, delimiter)


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


def _resolve_columns(table: _Table, required: list[str], *, optional=(), one_of=(),
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
        hints = []
        for m in missing:
            if " or " in m:
                continue
            close = [a for a in _ALIASES.get(m, ()) if a in lookup] or \
                difflib.get_close_matches(m, list(lookup), n=1, cutoff=0.6)
            if close:
                hints.append(f"{lookup[close[0]].strip()!r} for {m!r}")
        hint = f"; did you mean {', '.join(hints)}?" if hints else ""
        line = None if table.where.lines is None else _header_line(table)
        raise InputError(f"{label} (expected: {expected_text}; found: {found}){hint}",
                         source=table.where.name, line=line)
    return {c: lookup[c] for c in (*required, *optional, *one_of) if c in lookup}


def _header_line(table: _Table) -> int:
    data = table.data or b""
    skip = 0
    for raw in data.split(b"\n", 64):
        if raw.strip():
            break
        skip += 1
    return skip + 1


def read_ratings(src, *, name: str | None = None, aggregate: str = "median") -> pd.DataFrame:
    """Read a rating sheet: ``queryid, query, document, position, rating_1..rating_n``.

    This is the layout of the "Search Metrics" DCG notebook: one row per shown result and one
    column per rater (any number >= 1).  ``relevance`` aggregates the raters like the
    notebook does (``.median(axis=1).astype(int)``: the aggregate, truncated to an integer);
    ``disagreement`` is max - min of the raters.  CSV, TSV (header sniffed) or Parquet.

    Parameters
    ----------
    src : str, Path, bytes or file-like
        The file; gzip is decompressed transparently.
    name : str, optional
        File name used in error messages (default: the path's or the object's name).
    aggregate : {"median", "mean", "min", "max"}
        How to combine the raters into one grade (then truncated to int).

    Returns
    -------
    DataFrame
        ``query_id`` (str), ``query`` (str), ``doc_id`` (str), ``position`` (int64 >= 1),
        ``rating_1..n`` (int64, or float64 if a rating has decimals), ``relevance`` (int64),
        ``disagreement`` (same type as the ratings), then any extra columns of the file.

    Raises
    ------
    InputError
        E.g. ``"r.csv, line 1: missing column 'position' (expected: ...; found: ...)"`` or
        ``"r.csv, line 4, column rating_2: rating_2 'x' is not a number"``.

    Examples
    --------
    >>> csv_text = b"queryid,query,document,position,rating_1,rating_2,rating_3\\n" \\
    ...            b"1,boots,doc9,1,0,1,3\\n"
    >>> read_ratings(csv_text, name="ratings.csv")[["query_id", "doc_id", "relevance",
    ...                                             "disagreement"]]
      query_id doc_id  relevance  disagreement
    0        1   doc9          1             3
    """
    if aggregate not in _AGGREGATES:
        raise ValueError(f"aggregate must be one of {', '.join(_AGGREGATES)}, got {aggregate!r}")
    table = _load_table(src, name, ids=("queryid", "query", "document"))
    base = ["queryid", "query", "document", "position"]
    expected = "queryid, query, document, position, rating_1..rating_n"
    cols = _resolve_columns(table, base, expected_text=expected)
    rating_cols = sorted(((int(m.group(1)), h) for h in table.header
                          if (m := _RATING_RE.match(h.strip().lower()))), key=lambda t: t[0])
    if not rating_cols:
        found = ", ".join(h.strip() for h in table.header)
        raise InputError(f"no rater columns: expected at least one column named rating_1, "
                         f"rating_2, ... (expected: {expected}; found: {found})",
                         source=table.where.name,
                         line=None if table.where.lines is None else _header_line(table))
    f, w = table.frame, table.where
    out = pd.DataFrame({
        "query_id": _ids(f[cols["queryid"]], w, "queryid", "queryid"),
        "query": _ids(f[cols["query"]], w, "query", "query"),
        "doc_id": _ids(f[cols["document"]], w, "document", "document"),
        "position": _numbers(f[cols["position"]], w, "position", "position", whole=True,
                             minimum=1, check_row=table.check_row),
    })
    ratings = {}
    for _, h in rating_cols:
        label = h.strip()
        vals = _numbers(f[h], w, "rating", label, minimum=0, check_row=table.check_row)
        ratings[label] = vals.astype(np.int64) if np.all(vals == np.floor(vals)) else vals
    for label, vals in ratings.items():
        out[label] = vals
    grid = np.column_stack(list(ratings.values())).astype(float)
    agg = {"median": np.median, "mean": np.mean, "min": np.min, "max": np.max}[aggregate]
    out["relevance"] = np.trunc(agg(grid, axis=1)).astype(np.int64)
    spread = grid.max(axis=1) - grid.min(axis=1)
    all_int = all(v.dtype == np.int64 for v in ratings.values())
    out["disagreement"] = spread.astype(np.int64) if all_int else spread
    # One text per queryid.
    pairs = out[["query_id", "query"]].drop_duplicates("query_id")
    texts = out["query_id"].map(pd.Series(pairs["query"].to_numpy(), index=pairs["query_id"]))
    clash = (texts != out["query"]).to_numpy()
    if clash.any():
        row = int(np.flatnonzero(clash)[0])
        first = int(np.flatnonzero((out["query_id"] == out["query_id"].iloc[row]).to_numpy())[0])
        raise w.err(f"queryid {_short(out['query_id'].iloc[row])} has query "
                    f"{_short(out['query'].iloc[row])} here but {_short(out['query'].iloc[first])} "
                    f"on {w.place(first)}", row, "query")
    _no_duplicates(out, ["query_id", "doc_id"], w,
                   lambda r: f"document {_short(r['doc_id'])} is rated twice for query "
                             f"{_short(r['query'])}")
    _no_duplicates(out, ["query_id", "position"], w,
                   lambda r: f"position {r['position']} is used twice for query "
                             f"{_short(r['query'])}")
    known = {cols[c] for c in base} | {h for _, h in rating_cols}
    for h in table.header:
        if h not in known:
            out[h.strip()] = f[h].reset_index(drop=True)
    return out


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
    table = _load_table(src, name, ids=("query_id", "doc_id"))
    cols = _resolve_columns(table, ["query_id", "doc_id"], optional=("relevance",),
                            one_of=("score", "position"),
                            expected_text="query_id, doc_id, and score or position; "
                                          "optional: relevance")
    f, w = table.frame, table.where
    out = pd.DataFrame({"query_id": _ids(f[cols["query_id"]], w, "query_id", "query_id"),
                        "doc_id": _ids(f[cols["doc_id"]], w, "doc_id", "doc_id")})
    if "position" in cols:
        position = _numbers(f[cols["position"]], w, "position", cols["position"].strip(),
                            whole=True, minimum=1, check_row=table.check_row)
    if "score" in cols:
        out["score"] = _numbers(f[cols["score"]], w, "score", cols["score"].strip(),
                                check_row=table.check_row)
    else:
        out["score"] = -position.astype(float)
    if "position" in cols:
        out["position"] = position
    if "relevance" in cols:
        out["relevance"] = _numbers(f[cols["relevance"]], w, "relevance",
                                    cols["relevance"].strip(), whole=True,
                                    check_row=table.check_row)
    _no_duplicates(out, ["query_id", "doc_id"], w,
                   lambda r: f"document {_short(r['doc_id'])} is listed twice for query "
                             f"{_short(r['query_id'])}")
    if "position" in cols:
        _no_duplicates(out, ["query_id", "position"], w,
                       lambda r: f"position {r['position']} is used twice for query "
                                 f"{_short(r['query_id'])}")
    known = set(cols.values())
    for h in table.header:
        if h not in known and h.strip() not in out.columns:
            out[h.strip()] = f[h].reset_index(drop=True)
    return out


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


# --------------------------------------------------------------------------- sniffing

def sniff_kind(src, *, name: str | None = None) -> str:
    """Guess what a file is: ``"qrels"``, ``"run"``, ``"ratings"`` or ``"table"``.

    Best effort, from the first lines only; the matching reader does the real validation.
    File-like objects are rewound, so the reader can be called afterwards.

    Examples
    --------
    >>> sniff_kind(b"q1 Q0 d1 1 2.5 bm25\\n")
    'run'
    >>> sniff_kind(b"queryid,query,document,position,rating_1\\n1,a,d,1,2\\n")
    'ratings'
    """
    data, name = _load(src, name)
    if hasattr(src, "seek") and getattr(src, "seekable", lambda: False)():
        src.seek(0)
    if _is_parquet(data):
        return "table"
    head = data[:65536]
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    text = head.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")
    lines = [ln for ln in text.split("\n")[:200] if ln.strip()]
    if len(text.split("\n")) > 1 and not text.endswith("\n"):
        lines = lines[:-1] or lines            # last line may be cut off
    if not lines:
        raise InputError("the file is empty", source=name)
    first = lines[0]
    delimiter = max((",", "\t", ";"), key=first.count)
    if first.count(delimiter):
        cells = [c.strip().strip('"').lower() for c in first.split(delimiter)]
        if any(_RATING_RE.match(c) for c in cells) or "queryid" in cells:
            return "ratings"
        if "query_id" in cells or "doc_id" in cells:
            return "table"
        if delimiter != "\t":
            return "table"
    fields = [ln.split() for ln in lines]
    width = len(fields[0])
    if width == 6:
        return "run"
    if width == 4:
        return "qrels"
    if width == 3:
        last = [f[-1] for f in fields if len(f) == 3]
        if all(re.fullmatch(r"-?\d+", v) for v in last) and \
                len({int(v) for v in last}) <= 10:
            return "qrels"
        return "run"
    return "table"
