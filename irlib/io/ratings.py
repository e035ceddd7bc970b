"""Rating sheets: one row per shown result, one column per rater (the DCG notebook's layout)."""
from __future__ import annotations

import re

import numpy as np
import pandas as pd

from .._common import InputError
from .checks import check_ids, codes, check_no_duplicates, check_numbers, short, with_notes
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
    out = pd.DataFrame({
        "query_id": check_ids(f[cols["queryid"]], w, "queryid", "queryid"),
        "query": check_ids(f[cols["query"]], w, "query", "query"),
        "doc_id": check_ids(f[cols["document"]], w, "document", "document"),
        "position": check_numbers(f[cols["position"]], w, "position", "position", whole=True,
                             minimum=1, check_row=table.check_row),
    })
    ratings = {}
    for _, h in rating_cols:
        label = h.strip()
        vals = check_numbers(f[h], w, "rating", label, minimum=0, check_row=table.check_row)
        ratings[label] = vals.astype(np.int64) if np.all(vals == np.floor(vals)) else vals
    for label, vals in ratings.items():
        out[label] = vals
    columns = [v.astype(float) for v in ratings.values()]
    out["relevance"] = np.trunc(_aggregate(columns, aggregate)).astype(np.int64)
    spread = np.maximum.reduce(columns) - np.minimum.reduce(columns)
    all_int = all(v.dtype == np.int64 for v in ratings.values())
    out["disagreement"] = spread.astype(np.int64) if all_int else spread
    # One text per queryid: each row's query text against its queryid's first row's.
    id_codes = {"query_id": codes(out["query_id"])}      # hashed once, used three times
    query_codes, n_queries = id_codes["query_id"]
    text_codes, _ = codes(out["query"])
    first_row = np.full(n_queries, len(out), dtype=np.int64)
    np.minimum.at(first_row, query_codes, np.arange(len(out)))
    clash = text_codes != text_codes[first_row[query_codes]]
    if clash.any():
        row = int(np.flatnonzero(clash)[0])
        first = int(np.flatnonzero((out["query_id"] == out["query_id"].iloc[row]).to_numpy())[0])
        raise w.err(f"queryid {short(out['query_id'].iloc[row])} has query "
                    f"{short(out['query'].iloc[row])} here but {short(out['query'].iloc[first])} "
                    f"on {w.place(first)}", row, "query")
    check_no_duplicates(out, ["query_id", "doc_id"], w,
                        lambda r: f"document {short(r['doc_id'])} is rated twice for query "
                                  f"{short(r['query'])}", id_codes)
    check_no_duplicates(out, ["query_id", "position"], w,
                        lambda r: f"position {r['position']} is used twice for query "
                                  f"{short(r['query'])}", id_codes)
    known = {cols[c] for c in base} | {h for _, h in rating_cols}
    for h in table.header:
        if h not in known:
            out[h.strip()] = f[h].reset_index(drop=True)
    return with_notes(out, table.notes)




def _aggregate(columns: list[np.ndarray], how: str) -> np.ndarray:
    """Row-wise median, mean, min or max of the rater columns, as NumPy's ``axis=1``.

    Across a few columns: a row-wise reduction over a (rows, raters) grid costs a NumPy
    call per row; these run column against column.
    """
    if how == "min":
        return np.minimum.reduce(columns)
    if how == "max":
        return np.maximum.reduce(columns)
    if how == "mean" or len(columns) > 16:
        grid = np.column_stack(columns)
        return np.mean(grid, axis=1) if how == "mean" else np.median(grid, axis=1)
    ordered = list(columns)                    # odd-even transposition sort, row-wise
    for rnd in range(len(ordered)):
        for i in range(rnd % 2, len(ordered) - 1, 2):
            low = np.minimum(ordered[i], ordered[i + 1])
            ordered[i + 1] = np.maximum(ordered[i], ordered[i + 1])
            ordered[i] = low
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2
