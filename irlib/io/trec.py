"""TREC text files: qrels (``qid iter docno rel``) and runs (``qid Q0 docno rank score tag``).

A file that is fine is parsed once by pyarrow's CSV reader (multi-threaded, no Python
objects per cell) and checked with whole-column operations.  Only when something is off
does the careful path run: it counts the fields of every line and re-parses with pandas,
so that the message names the first bad line and column (``_read_trec_located``).
"""
from __future__ import annotations

import csv
import io

import numpy as np
import pandas as pd

from .._common import InputError
from .checks import (Where, check_no_duplicates, check_numbers, codes, repeated_rows, short,
                     with_notes)
from .keys import maybe_repeated
from .trec_columns import (QRELS_LAYOUTS, RUN_LAST_READ, RUN_LAYOUTS, _parse_single_spaced,  # noqa: F401
                           columns_fast, load_trec, trec_columns)


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


def _read_trec(src, name, *, layouts: dict, value: str, other: dict,
               last_read: int | None = None) -> pd.DataFrame:
    """Shared reader for whitespace-separated TREC files.

    ``layouts``: column count -> (usecols, spec text); the value column is the last used one.
    Comment lines (``#``) are skipped; with ``last_read`` (a run's 6), a line whose first
    layout has that many fields may go on, and what follows that field is ignored, as
    trec_eval does. ``attrs["run_id"]``: the tag of the last line (runs).
    """
    data, name, notes, tag = load_trec(src, name, last_read=last_read)
    columns, data = trec_columns(data, layouts, value, last_read)
    out = None if columns is None else _frame(columns, value)
    if out is None:
        out = _read_trec_located(data, name, layouts=layouts, value=value, other=other)
    if tag is not None:
        out.attrs["run_id"] = tag
    return with_notes(out, notes)


def _read_trec_fast(data: bytes, layouts: dict, value: str) -> pd.DataFrame | None:
    """The frame if every line is well-formed, else None (then the careful path explains).

    Anything unusual (a line with another field count, a value that is not a finite number
    or not whole, a repeated pair) returns None rather than an error: the careful path
    finds the line and words the message, so there is one source of messages.
    """
    columns = columns_fast(data, layouts, value)
    return None if columns is None else _frame(columns, value)


def _frame(columns, value: str) -> pd.DataFrame | None:
    """The columns as a frame, or None when a (query, document) pair is repeated."""
    queries, docs, nums = columns
    out = pd.DataFrame({"query_id": queries.to_pandas(), "doc_id": docs.to_pandas(),
                        value: nums})
    # Query codes are remembered (irlib._codes: evaluating this frame reuses them); the
    # documents are only hashed: encoding millions of distinct ids costs more.
    query_codes = codes(out["query_id"])
    if maybe_repeated(query_codes[0], [out["doc_id"]]) and repeated_rows(
            out, ["query_id", "doc_id"], {"query_id": query_codes}).any():
        return None
    return out


def _read_trec_located(data: bytes, name: str, *, layouts: dict, value: str,
                       other: dict) -> pd.DataFrame:
    """The careful path: counts every line's fields, so errors name line and column."""
    counts = _fields_per_line(data)
    used = np.flatnonzero(counts > 0)
    first = int(used[0])
    ncols = int(counts[first])
    expected = " or ".join(_layout_text(n, spec) for n, (_, spec) in layouts.items())
    if ncols not in layouts:
        hint = f"; this looks like a {other[ncols]} file" if ncols in other else ""
        if not hint and b"," in data.split(b"\n", first + 1)[first]:
            hint = ("; its fields are separated by commas, as in a CSV table: TREC files "
                    "separate them by spaces or tabs")
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
    where = Where(name, used + 1)
    col = usecols[2] + 1
    if value == "score":
        vals = check_numbers(raw[value], where, "score", col)
    else:
        vals = check_numbers(raw[value], where, "relevance", col, whole=True)
    out = pd.DataFrame({"query_id": raw["query_id"].astype("str"),
                        "doc_id": raw["doc_id"].astype("str"), value: vals})
    check_no_duplicates(out, ["query_id", "doc_id"], where,
                        lambda r: f"document {short(r['doc_id'])} is listed twice for query "
                                  f"{short(r['query_id'])}", column=usecols[1] + 1)
    return out


def read_qrels(src, *, name: str | None = None) -> pd.DataFrame:
    """Read TREC relevance judgements.

    Lines are ``qid iter docno rel`` (4 columns; ``iter`` is ignored) or ``qid docno rel``;
    lines starting with ``#`` are comments (trec_eval 10). Relevance must be a whole
    number; negative values are kept (trec_eval counts them as judged "unjudged": never
    relevant, ignored by bpref).  A (query, document) pair may appear only once.

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
                      layouts=QRELS_LAYOUTS,
                      other={6: "run"})


def read_run(src, *, name: str | None = None) -> pd.DataFrame:
    """Read a TREC run.

    Lines are ``qid Q0 docno rank score tag`` (6 columns; ``Q0``, ``rank`` and ``tag`` are
    not used: like trec_eval, order comes from the score; anything after the tag is
    ignored, as trec_eval 10 does) or ``qid docno score``. Lines starting with ``#`` are
    comments. Scores must be finite numbers; a (query, document) pair may appear only once.
    ``frame.attrs["run_id"]`` holds the tag of the last line (trec_eval's ``runid``).

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
                      layouts=RUN_LAYOUTS,
                      other={4: "qrels"}, last_read=RUN_LAST_READ)
