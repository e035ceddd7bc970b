"""What the readers share: where a row is in the file, and checks of ids and numbers.

Every check raises :class:`irlib.InputError` at the first bad cell, naming file, line (or
row, for Parquet) and column, so that a reader's message points at one place to fix.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pa_compute

from .._codes import factorize
from .._common import InputError
from .keys import maybe_repeated, string_buffers


class Where:
    """Maps a row of a parsed frame to its place in the file, and builds errors there."""

    def __init__(self, name: str, lines: np.ndarray | None):
        self.name = name
        self.lines = lines            # 1-based line per row (array or range); None = Parquet

    def err(self, problem: str, row: int | None = None, column=None) -> InputError:
        if row is None:
            return InputError(problem, source=self.name, column=column)
        if self.lines is None:
            return InputError(problem, source=f"{self.name}, row {row + 1}", column=column)
        return InputError(problem, source=self.name, line=int(self.lines[row]), column=column)

    def place(self, row: int) -> str:
        return f"row {row + 1}" if self.lines is None else f"line {int(self.lines[row])}"


def short(value, width: int = 40) -> str:
    text = str(value)
    return repr(text if len(text) <= width else text[:width - 1] + "…")


def check_ids(s: pd.Series, where: Where, label: str, column) -> pd.Series:
    """Non-empty string ids."""
    if not (pd.api.types.is_string_dtype(s) or s.dtype == object):
        if pd.api.types.is_float_dtype(s):
            whole = s.notna() & np.isfinite(s) & (s == np.floor(s))
            if whole[s.notna()].all():
                s = s.astype("Int64")
        s = s.astype("str").where(s.notna(), "")
    s = s.astype("str")
    arrow = getattr(s.array, "_pa_array", None)
    if isinstance(arrow, pa.ChunkedArray) and not arrow.null_count and (
            pa.types.is_string(arrow.type) or pa.types.is_large_string(arrow.type)):
        row = _first_blank(arrow)              # whole-column: no Python string per cell
    else:
        bad = (s.isna() | (s.str.strip() == "")).to_numpy()
        row = int(np.flatnonzero(bad)[0]) if bad.any() else None
    if row is not None:
        raise where.err(f"{label} is empty", row, column)
    return s.reset_index(drop=True)


def _maybe_blank(first: np.ndarray) -> np.ndarray:
    """Whether a cell with this first byte may be only white space: a control character,
    a space, or the start of a non-ASCII character (Unicode has spaces outside ASCII).
    Whatever is not in 0x21..0x7E wraps to 0x5E or more."""
    return (first - np.uint8(0x21)) >= np.uint8(0x5E)


def _first_blank(arrow: pa.ChunkedArray) -> int | None:
    """The first row that is empty or only white space, or None.

    Each cell's length and first byte come from the Arrow buffers; only the few cells that
    could be blank go through pyarrow's Unicode white-space test.
    """
    seen = 0
    for chunk in arrow.chunks:
        n = len(chunk)
        if not n:
            continue
        offsets, raw = string_buffers(chunk)
        if not raw.size:
            raw = np.zeros(1, np.uint8)        # every cell empty: something to index
        starts = offsets[:-1]
        if (offsets[1:] > starts).all():       # no empty cell: each has a first byte
            maybe = _maybe_blank(raw.take(starts))
        else:
            maybe = offsets[1:] == starts
            maybe |= _maybe_blank(raw.take(np.minimum(starts, len(raw) - 1)))
        if maybe.any():
            rows = np.flatnonzero(maybe)
            blank = (offsets[rows + 1] == offsets[rows]) | pa_compute.utf8_is_space(
                chunk.take(pa.array(rows))).to_numpy(zero_copy_only=False)
            if blank.any():
                return seen + int(rows[np.argmax(blank)])
        seen += n
    return None


def check_numbers(s: pd.Series, where: Where, label: str, column, *, whole: bool = False,
             minimum: float | None = None, check_row=None) -> np.ndarray:
    """A numeric column as float64 (``whole``: int64), with a located error for bad cells.

    ``check_row(row)`` may raise a better error (e.g. too few columns) for a missing cell.
    """
    kind = "a whole number" if whole else "a number"
    if s.dtype == np.int64 and whole:          # parsed as integers: only the range to check
        return _check_integers(s.to_numpy(), where, label, column, minimum)
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
            raise where.err(f"{label} {short(raw_text)} is not a number", row, column)
        if not np.isfinite(value):
            raise where.err(f"{label} {short(raw_text)} is not a finite number", row, column)
        if whole and value != np.floor(value):
            raise where.err(f"{label} {short(raw_text)} is not a whole number", row, column)
        raise where.err(f"{label} {short(raw_text)} is negative; it must be >= {minimum:g}"
                        if minimum == 0 else
                        f"{label} {short(raw_text)} must be >= {minimum:g}", row, column)
    if whole:
        if np.abs(num).max(initial=0) > 2**53:
            row = int(np.argmax(np.abs(num)))
            raise where.err(f"{label} {num[row]:.0f} is too large", row, column)
        return num.astype(np.int64)
    return num


def _check_integers(num: np.ndarray, where: Where, label: str, column,
                    minimum: float | None) -> np.ndarray:
    """:func:`check_numbers` for a column the parser already read as int64."""
    if minimum is not None and len(num) and num.min() < minimum:
        row = int(np.argmax(num < minimum))
        raise where.err(f"{label} '{num[row]}' is negative; it must be >= {minimum:g}"
                        if minimum == 0 else
                        f"{label} '{num[row]}' must be >= {minimum:g}", row, column)
    huge = (num > 2**53) | (num < -2**53)
    if huge.any():
        row = int(np.argmax(huge))
        raise where.err(f"{label} {num[row]} is too large", row, column)
    return num


def codes(s: pd.Series) -> tuple[np.ndarray, int]:
    """An integer code per value (equal values, equal codes; int32 or int64, read-only) and
    how many distinct values."""
    if isinstance(s.array, pd.arrays.ArrowStringArray) and not s.hasnans:
        # a file lists each query's rows together: each run of equal ids is encoded once
        found, uniques = factorize(s, grouped=True)
        return found, len(uniques)
    found, uniques = pd.factorize(s, use_na_sentinel=False)
    return found.astype(np.int64), len(uniques)


def repeated_rows(frame: pd.DataFrame, keys: list[str], known: dict | None = None) -> np.ndarray:
    """Like ``frame.duplicated(keys)``, but on integer codes (hashing strings once).

    ``known``: column -> :func:`codes` already computed, to hash a column only once.
    """
    known = known or {}
    key, _ = known.get(keys[0]) or codes(frame[keys[0]])
    key = key.astype(np.int64)
    for name in keys[1:]:
        more, n_more = known.get(name) or codes(frame[name])
        key = key * n_more + more              # < rows**2: no overflow for < 3e9 rows
    return pd.Series(key).duplicated(keep="first").to_numpy()


def check_no_duplicates(frame: pd.DataFrame, keys: list[str], where: Where, describe,
                        known: dict | None = None, hashing=None, *, column=None) -> None:
    """Raise at the second occurrence of a repeated key, naming the first one's line too,
    and ``column`` (the file's name or number of the repeated key's column).

    ``known``: column -> :func:`codes` already computed. The first key column is encoded,
    the others hashed (:func:`~irlib.io.keys.maybe_repeated`); only a "maybe" runs the
    exact check that names the lines. ``hashing``: the second key column's hashes, when
    started earlier (:class:`~irlib.io.background.Soon`).
    """
    known = known or {}
    group, _ = known.get(keys[0]) or codes(frame[keys[0]])
    if not maybe_repeated(group, [frame[k] for k in keys[1:]], hashing):
        return
    known = {**known, keys[0]: known.get(keys[0]) or (group, int(group.max()) + 1)}
    dup = repeated_rows(frame, keys, known)
    if not dup.any():
        return
    second = int(np.flatnonzero(dup)[0])
    same = np.ones(len(frame), dtype=bool)
    for key in keys:
        same &= (frame[key] == frame[key].iloc[second]).to_numpy()
    first = int(np.flatnonzero(same)[0])
    raise where.err(f"{describe(frame.iloc[second])} (first on {where.place(first)})", second,
                    column)


def with_notes(frame: pd.DataFrame, notes) -> pd.DataFrame:
    """``frame`` with ``attrs["notes"]``: how the file was read, when the app should say so."""
    if notes:
        frame.attrs["notes"] = list(notes)
    return frame
