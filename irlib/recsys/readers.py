"""Read recommender files: interactions, recommendation lists and item categories.

Each reader takes what :mod:`irlib.io` readers take (a path, bytes or a file-like; CSV, TSV
or Parquet; gzip; UTF-8, Windows-1252 or UTF-16) and any column names: the columns are
guessed from the header (:func:`~irlib.recsys.columns.guess_columns`) unless the caller
names them (``columns={"user": "uid", "rating": "stars"}``). Every bad cell raises
:class:`irlib.InputError` naming the file, line (Parquet: row) and column.

Rules, as a recommender engineer expects them:

* **Interactions** (``user, item[, rating][, timestamp]``): a (user, item) pair that occurs
  more than once (a re-rating, a second play) is kept **once, its latest row**: the
  latest timestamp when the file has one, else the last row in the file. How many rows were
  merged is said in ``frame.attrs["notes"]``.
* **Recommendations** (``user, item`` and ``score`` or ``rank``): the same item twice in one
  user's list is a bug in the export and is refused, as is one rank used twice. The order is
  the ``rank`` when the file has one (the order the user saw; ``score`` is kept beside it),
  else the ``score`` (higher first; ties as trec_eval: item id descending), else the file's
  order within each user (a note says so).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .._common import InputError
from ..io.checks import (Where, check_ids, check_no_duplicates, check_numbers, codes, short,
                         with_notes)
from ..io.keys import maybe_repeated
from ..io.source import load_head, source_name
from ..io.tables import Table, header_line, is_parquet, load_table
from .columns import _HEAD_BYTES, read_header, resolve_columns

__all__ = ["read_interactions", "read_recommendations", "read_item_categories",
           "read_catalogue"]


def _load(src, name, kind: str, columns) -> tuple[Table, dict[str, str]]:
    """The parsed table and the role -> header mapping, checked against the header first
    (a wrong mapping is reported before the whole file is parsed)."""
    name = source_name(src, name)
    header = read_header(src, name=name)
    head, _ = load_head(src, name, _HEAD_BYTES)
    line = None if is_parquet(head) else _first_line(head)
    mapping = resolve_columns(header, kind, columns, source=name, line=line)
    ids = tuple(mapping[r].strip().lower() for r in ("user", "item") if r in mapping)
    table = load_table(src, name, ids=ids)
    spelled = {h.strip().lower(): h for h in table.header}
    mapping = {role: spelled[column.strip().lower()] for role, column in mapping.items()}
    return table, mapping


def _first_line(head: bytes) -> int:
    """The 1-based line of the header: the first non-blank line."""
    for number, raw in enumerate(head.split(b"\n"), start=1):
        if raw.strip():
            return number
    return 1


def _ids(table: Table, mapping, role: str) -> pd.Series:
    column = mapping[role]
    return check_ids(table.frame[column], table.where, role, column.strip())


def _numbers(table: Table, mapping, role: str, **options) -> np.ndarray:
    column = mapping[role]
    return check_numbers(table.frame[column], table.where, role, column.strip(),
                         check_row=table.check_row, **options)


def _timestamps(table: Table, mapping) -> pd.Series:
    """Numbers (e.g. Unix seconds) as they are, or dates and times as datetime64."""
    column = mapping["timestamp"]
    raw = table.frame[column].reset_index(drop=True)
    if pd.api.types.is_numeric_dtype(raw) and not pd.api.types.is_bool_dtype(raw):
        return pd.Series(_numbers(table, mapping, "timestamp"))
    text = raw.astype("str").str.strip()
    numbers = pd.to_numeric(text, errors="coerce")
    if numbers.notna().all():
        return pd.Series(_numbers(table, mapping, "timestamp"))
    try:
        parsed = pd.to_datetime(text, errors="coerce", format="ISO8601")
    except (ValueError, TypeError):
        parsed = pd.Series(pd.NaT, index=text.index)
    if parsed.isna().any():
        parsed = pd.to_datetime(text, errors="coerce", format="mixed")
    bad = parsed.isna().to_numpy()
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        cell = text.iloc[row]
        problem = "timestamp is missing" if cell == "" else \
            f"timestamp {short(cell)} is not a number or a date"
        raise table.where.err(problem, row, column.strip())
    return parsed


def _keep_latest(out: pd.DataFrame, where: Where) -> tuple[pd.DataFrame, str | None]:
    """One row per (user, item): the latest (timestamp, then file order), and a note."""
    users, _ = codes(out["user_id"])
    if not maybe_repeated(users, [out["item_id"]]):
        return out, None
    items, n_items = codes(out["item_id"])
    key = users.astype(np.int64) * n_items + items
    row = np.arange(len(out))
    if "timestamp" in out.columns:
        time = out["timestamp"].to_numpy()
        order = np.lexsort((row, time, key))
    else:
        order = np.lexsort((row, key))
    sorted_key = key[order]
    last = np.ones(len(order), bool)
    last[:-1] = sorted_key[1:] != sorted_key[:-1]
    if last.all():                             # a hash collision: nothing repeated
        return out, None
    keep = np.sort(order[last])
    first_dropped = int(np.sort(order[~last])[0])
    same = np.flatnonzero(key == key[first_dropped])
    n_merged = len(out) - len(keep)
    places = " and ".join(where.place(int(r)) for r in same[:2])
    how = "the latest timestamp, then the last row" if "timestamp" in out.columns \
        else "the last row in the file"
    note = (f"{n_merged:,} repeated (user, item) row{'s' if n_merged != 1 else ''} merged "
            f"(first: user {short(out['user_id'].iloc[first_dropped])}, item "
            f"{short(out['item_id'].iloc[first_dropped])} on {places}): each pair is kept "
            f"once, as its latest row ({how}).")
    return out.iloc[keep].reset_index(drop=True), note


def read_interactions(src, *, name: str | None = None, columns=None) -> pd.DataFrame:
    """Read user-item interactions (held-out or training): ``user, item[, rating][, time]``.

    Parameters
    ----------
    src : str, Path, bytes or file-like
        CSV, TSV (delimiter sniffed from the header) or Parquet; gzip is recognised.
    name : str, optional
        The file name in messages (default: the path's or the object's name).
    columns : mapping, optional
        role -> column name, for roles ``user``, ``item``, ``rating``, ``timestamp``;
        a role set to None is not read. Roles not named are guessed from the header.

    Returns
    -------
    DataFrame
        ``user_id`` (str), ``item_id`` (str), then ``rating`` (float64) and ``timestamp``
        (the file's numbers, or datetime64 for dates) when the file has them; one row per
        (user, item) pair (see the module for repeats). ``attrs["columns"]`` is the mapping
        used (role -> file column); ``attrs["notes"]`` says what was merged or how the text
        was decoded.

    Raises
    ------
    InputError
        E.g. ``"test.csv, line 4, column stars: rating 'five' is not a number"``, or
        ``"test.csv, line 1: no column for the item (...); the header has: uid, sku, stars;
        the columns read as: user = uid, item = (none), rating = stars, timestamp = (none)
        ..."``.

    Examples
    --------
    A held-out set in a shop's own words, with one rating given twice:

    >>> data = b"customer,product,stars\\nann,boots,5\\nann,hat,1\\nann,boots,4\\n"
    >>> frame = read_interactions(data, name="test.csv")
    >>> frame
      user_id item_id  rating
    0     ann     hat     1.0
    1     ann   boots     4.0
    >>> frame.attrs["columns"]
    {'user': 'customer', 'item': 'product', 'rating': 'stars'}
    """
    table, mapping = _load(src, name, "interactions", columns)
    data = {"user_id": _ids(table, mapping, "user"), "item_id": _ids(table, mapping, "item")}
    if "rating" in mapping:
        data["rating"] = _numbers(table, mapping, "rating")
    if "timestamp" in mapping:
        data["timestamp"] = _timestamps(table, mapping)
    out = pd.DataFrame(data, copy=False)
    out, note = _keep_latest(out, table.where)
    out = with_notes(out, [*table.notes, *([note] if note else [])])
    out.attrs["columns"] = {role: column.strip() for role, column in mapping.items()}
    _keep_source(out, table)
    return out


def _keep_source(out: pd.DataFrame, table: Table) -> None:
    """``attrs["source"]`` (the file's name) and ``attrs["header"]`` (every column it has):
    what :func:`~irlib.recsys.roles.check_roles` names a file by and reads its unread
    columns from."""
    out.attrs["source"] = table.where.name
    out.attrs["header"] = [str(h).strip() for h in table.header]


def read_recommendations(src, *, name: str | None = None, columns=None) -> pd.DataFrame:
    """Read recommendation lists: ``user, item`` and ``score`` (higher first) or ``rank``.

    Parameters
    ----------
    src : str, Path, bytes or file-like
        CSV, TSV or Parquet; gzip is recognised.
    name : str, optional
        The file name in messages.
    columns : mapping, optional
        role -> column name for ``user``, ``item``, ``score``, ``rank``; unnamed roles are
        guessed. With neither a score nor a rank, each user's rows are in list order.

    Returns
    -------
    DataFrame
        ``user_id`` (str), ``item_id`` (str), ``score`` (float64; ``-rank`` when the file has
        no score, so that sorting by score gives the list's order), and ``rank`` (int64) when
        the file has one or gives the order by its rows. ``attrs["columns"]``, ``attrs["notes"]``
        as :func:`read_interactions`.

    Raises
    ------
    InputError
        An item listed twice for a user, a rank used twice, a score that is not a number,
        a rank that is not a whole number >= 1, or a column that is missing.

    Examples
    --------
    >>> read_recommendations(b"uid,iid,prediction\\n7,i3,0.9\\n7,i1,0.4\\n")
      user_id item_id  score
    0       7      i3    0.9
    1       7      i1    0.4
    >>> read_recommendations(b"uid,iid,prediction\\n7,i3,0.9\\n7,i3,0.4\\n", name="recs.csv")
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    irlib._common.InputError: recs.csv, line 3, column iid: item 'i3' is listed twice for ...
    """
    table, mapping = _load(src, name, "recommendations", columns)
    w = table.where
    data = {"user_id": _ids(table, mapping, "user"), "item_id": _ids(table, mapping, "item")}
    notes = list(table.notes)
    rank = None
    if "rank" in mapping:
        rank = _numbers(table, mapping, "rank", whole=True, minimum=1)
    if "score" in mapping:
        data["score"] = _numbers(table, mapping, "score")
    out = pd.DataFrame(data, copy=False)
    user_codes = {"user_id": codes(out["user_id"])}
    if "score" not in mapping and rank is None:
        users, _ = user_codes["user_id"]
        rank = _position_in_group(users)
        notes.append("no score or rank column: each user's list is in the order of its "
                     "rows (the first row is rank 1)")
    if "score" not in mapping:
        out["score"] = -rank.astype(float)
    if rank is not None:
        out["rank"] = rank
    item_column = mapping["item"].strip()
    check_no_duplicates(out, ["user_id", "item_id"], w,
                        lambda r: f"item {short(r['item_id'])} is listed twice for user "
                                  f"{short(r['user_id'])}", user_codes, column=item_column)
    if "rank" in mapping:
        check_no_duplicates(out, ["user_id", "rank"], w,
                            lambda r: f"rank {r['rank']} is used twice for user "
                                      f"{short(r['user_id'])}", user_codes,
                            column=mapping["rank"].strip())
    out = with_notes(out, notes)
    out.attrs["columns"] = {role: column.strip() for role, column in mapping.items()}
    _keep_source(out, table)
    return out


def _position_in_group(group: np.ndarray) -> np.ndarray:
    """1, 2, 3 ... within each group, in row order (groups need not be contiguous)."""
    order = np.argsort(group, kind="stable")
    sorted_group = group[order]
    starts = np.searchsorted(sorted_group, sorted_group)
    position = np.empty(len(group), np.int64)
    position[order] = np.arange(len(group)) - starts + 1
    return position


def read_item_categories(src, *, name: str | None = None, columns=None,
                         separator: str = "|") -> pd.DataFrame:
    """Read the categories (genres, departments ...) of items, for intra-list diversity.

    One row per item with its categories joined by ``separator`` (MovieLens'
    ``Action|Comedy``), or one row per (item, category) pair, or a mix of both.

    Returns
    -------
    DataFrame
        ``item_id`` (str), ``category`` (str): one row per distinct (item, category) pair,
        empty categories dropped. ``attrs["columns"]`` as the other readers.

    Examples
    --------
    >>> read_item_categories(b"movieId,genres\\n1,Comedy|Drama\\n2,Drama\\n")
      item_id category
    0       1   Comedy
    1       1    Drama
    2       2    Drama
    """
    table, mapping = _load(src, name, "categories", columns)
    items = _ids(table, mapping, "item")
    raw = table.frame[mapping["category"]].reset_index(drop=True).astype("str").str.strip()
    lists = raw.str.split(separator, regex=False) if separator else raw.map(lambda c: [c])
    pairs = pd.DataFrame({"item_id": items, "category": lists}).explode("category")
    pairs["category"] = pairs["category"].astype("str").str.strip()
    pairs = pairs.loc[pairs["category"] != ""].drop_duplicates()
    if pairs.empty:
        raise InputError(f"no categories: column {mapping['category'].strip()!r} is empty "
                         "on every row", source=table.where.name,
                         line=None if table.where.lines is None else header_line(table))
    out = with_notes(pairs.reset_index(drop=True), table.notes)
    out.attrs["columns"] = {role: column.strip() for role, column in mapping.items()}
    return out


def read_catalogue(src, *, name: str | None = None, columns=None) -> pd.DataFrame:
    """Read a catalogue: the items that could be recommended, one per row (an item column;
    other columns are ignored). Coverage and Gini then divide by its size for every system.

    Returns
    -------
    DataFrame
        ``item_id`` (str), each item once; ``attrs["columns"]``, ``attrs["notes"]`` as the
        other readers.

    >>> read_catalogue(b"sku,title\\nm1,Boots\\nm2,Hat\\nm1,Boots\\n")["item_id"].tolist()
    ['m1', 'm2']
    """
    table, mapping = _load(src, name, "catalogue", columns)
    items = _ids(table, mapping, "item")
    out = with_notes(pd.DataFrame({"item_id": pd.Series(pd.unique(items), dtype="str")}),
                     table.notes)
    out.attrs["columns"] = {role: column.strip() for role, column in mapping.items()}
    return out
