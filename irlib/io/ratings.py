"""Rating sheets: one row per shown result, one column per rater (the DCG notebook's layout)."""
from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pa_compute

from .._common import InputError
from .background import Soon
from .checks import check_ids, codes, check_no_duplicates, check_numbers, short, with_notes
from .keys import column_hash
from .tables import header_line, load_table, resolve_columns

_AGGREGATES = ("median", "mean", "min", "max")
RATING_RE = re.compile(r"^rating_(\d+)$")


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
    table = load_table(src, name, ids=("queryid", "query", "document"))
    base = ["queryid", "query", "document", "position"]
    expected = "queryid, query, document, position, rating_1..rating_n"
    cols = resolve_columns(table, base, expected_text=expected)
    rating_cols = sorted(((int(m.group(1)), h) for h in table.header
                          if (m := RATING_RE.match(h.strip().lower()))), key=lambda t: t[0])
    if not rating_cols:
        found = ", ".join(h.strip() for h in table.header)
        raise InputError(f"no rater columns: expected at least one column named rating_1, "
                         f"rating_2, ... (expected: {expected}; found: {found})",
                         source=table.where.name,
                         line=None if table.where.lines is None else header_line(table))
    f, w = table.frame, table.where
    doc_hashes = Soon(column_hash, f[cols["document"]])   # meanwhile, on the other core
    columns = {
        "query_id": check_ids(f[cols["queryid"]], w, "queryid", "queryid"),
        "query": check_ids(f[cols["query"]], w, "query", "query"),
        "doc_id": check_ids(f[cols["document"]], w, "document", "document"),
        "position": check_numbers(f[cols["position"]], w, "position", "position", whole=True,
                                  minimum=1, check_row=table.check_row),
    }
    ratings = {}
    for _, h in rating_cols:
        label = h.strip()
        parsed_whole = f[h].dtype == np.int64      # then no float round trip
        vals = check_numbers(f[h], w, "rating", label, whole=parsed_whole, minimum=0,
                             check_row=table.check_row)
        if not parsed_whole and np.all(vals == np.floor(vals)):
            vals = vals.astype(np.int64)
        ratings[label] = vals
    columns.update(ratings)
    all_int = all(v.dtype == np.int64 for v in ratings.values())
    columns["relevance"], columns["disagreement"] = _combine(
        list(ratings.values()), aggregate, np.int64 if all_int else float)
    known = {cols[c] for c in base} | {h for _, h in rating_cols}
    for h in table.header:
        if h not in known:
            columns[h.strip()] = f[h].reset_index(drop=True)
    out = pd.DataFrame(columns, copy=False)    # fresh columns: no copy to stack them
    id_codes = {"query_id": codes(out["query_id"])}      # hashed once, used three times
    clash = _first_text_clash(id_codes["query_id"][0], out["query"])
    if clash is not None:
        row, first = clash
        raise w.err(f"queryid {short(out['query_id'].iloc[row])} has query "
                    f"{short(out['query'].iloc[row])} here but {short(out['query'].iloc[first])} "
                    f"on {w.place(first)}", row, "query")
    check_no_duplicates(out, ["query_id", "doc_id"], w,
                        lambda r: f"document {short(r['doc_id'])} is rated twice for query "
                                  f"{short(r['query'])}", id_codes, doc_hashes,
                        column=cols["document"].strip())
    check_no_duplicates(out, ["query_id", "position"], w,
                        lambda r: f"position {r['position']} is used twice for query "
                                  f"{short(r['query'])}", id_codes,
                        column=cols["position"].strip())
    return with_notes(out, table.notes)


def _first_text_clash(group: np.ndarray, texts: pd.Series) -> tuple[int, int] | None:
    """The first row whose text differs from its group's first row's, and that first row.

    Exact, without hashing every text: a file lists a query's rows together, so each row
    is compared with the row above it when both are in the same group, and only a group's
    first row of each stretch with the group's very first row.  The first row that differs
    from the row above (or a stretch's start that differs from the group's first row) is
    the first row that differs from its group's first row.
    """
    n = len(group)
    if n < 2:
        return None
    arrow = getattr(texts.array, "_pa_array", None)
    values = arrow if isinstance(arrow, pa.ChunkedArray) and not arrow.null_count else \
        pa.chunked_array([pa.array(texts.astype("str").to_numpy(dtype=object))])
    same_group = group[1:] == group[:-1]
    differs = ~pa_compute.equal(values.slice(1), values.slice(0, n - 1)).to_numpy(
        zero_copy_only=False)
    inside = np.flatnonzero(same_group & differs) + 1        # rows unlike the row above
    starts = np.concatenate([[0], np.flatnonzero(~same_group) + 1])
    first_row = np.full(int(group.max()) + 1, n, dtype=np.int64)
    np.minimum.at(first_row, group[starts], starts)          # a group begins a stretch
    firsts = first_row[group[starts]]
    again = starts[starts != firsts]                         # a group seen before
    if again.size:
        unlike = ~pa_compute.equal(values.take(pa.array(again)),
                                   values.take(pa.array(first_row[group[again]]))).to_numpy(
            zero_copy_only=False)
        inside = np.concatenate([inside, again[unlike]])
    if not inside.size:
        return None
    row = int(inside.min())
    return row, int(first_row[group[row]])


_PIECE_ROWS = 1 << 14                   # rows combined together: in the CPU's cache


def _combine(ratings: list[np.ndarray], how: str, spread_type) -> tuple[np.ndarray, np.ndarray]:
    """The relevance (:func:`_aggregate` of the rater columns, truncated to int64) and the
    raters' spread (as ``spread_type``), a piece of rows at a time: the pieces' temporaries
    stay in the CPU's cache, and only the two results take fresh memory."""
    n = len(ratings[0])
    relevance, spread = np.empty(n, np.int64), np.empty(n, spread_type)
    for a in range(0, n, _PIECE_ROWS):
        piece = slice(a, a + _PIECE_ROWS)
        combined, spread[piece] = _aggregate([r[piece].astype(float) for r in ratings], how)
        relevance[piece] = combined            # float to int truncates, as np.trunc
    return relevance, spread


def _aggregate(columns: list[np.ndarray], how: str) -> tuple[np.ndarray, np.ndarray]:
    """Row-wise median, mean, min or max of the rater columns (as NumPy's ``axis=1``), and
    max - min. Sorts ``columns`` in place, row by row.

    Across a few columns a row-wise reduction over a (rows, raters) grid costs a NumPy
    call per row; here an odd-even transposition sort runs column against column, in
    place (fresh temporaries of this size cost page faults).
    """
    if len(columns) > 16:
        grid = np.column_stack(columns)
        spread = grid.max(axis=1) - grid.min(axis=1)
        combined = {"median": np.median, "mean": np.mean, "min": np.min, "max": np.max}[how]
        return combined(grid, axis=1), spread
    # the mean adds in the file's column order (a sum's rounding depends on its order)
    mean = np.mean(np.column_stack(columns), axis=1) if how == "mean" else None
    scratch = np.empty_like(columns[0])
    for rnd in range(len(columns)):
        for i in range(rnd % 2, len(columns) - 1, 2):
            low, high = columns[i], columns[i + 1]
            np.minimum(low, high, out=scratch)
            np.maximum(low, high, out=high)
            columns[i], scratch = scratch, low
    spread = columns[-1] - columns[0]
    if mean is not None:
        return mean, spread
    if how in ("min", "max"):
        return columns[0 if how == "min" else -1], spread
    middle = len(columns) // 2
    if len(columns) % 2:
        return columns[middle], spread
    return (columns[middle - 1] + columns[middle]) / 2, spread
