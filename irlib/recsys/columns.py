"""Which column of a recommender file is the user, the item, the rating, the score ...

Recommender data comes with any column names: MovieLens writes ``userId,movieId,rating,
timestamp``, a shop ``customer_id,product_id,purchased_at``, a model's output
``uid,iid,prediction``. Each reader needs a few *roles* (:data:`ROLES`); :func:`guess_columns`
proposes a column for each from the header, and the caller (the page, where the user can fix
it) passes an explicit mapping that wins over the guess.

Header names are compared after lower-casing and dropping everything but letters and
digits, so ``User ID``, ``user_id`` and ``userId`` are one name.

Examples
--------
>>> guess_columns(["uid", "iid", "stars"], "interactions")
{'user': 'uid', 'item': 'iid', 'rating': 'stars', 'timestamp': None}
>>> guess_columns(["customer_id", "product_id", "score", "rank"], "recommendations")
{'user': 'customer_id', 'item': 'product_id', 'score': 'score', 'rank': 'rank'}
"""
from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping, Sequence

import pyarrow.parquet as pq

from .._common import InputError
from ..io.decoding import head_text
from ..io.source import load, load_head
from ..io.tables import _sniff_delimiter, is_parquet

#: What each kind of file needs (required roles first) and may have.
ROLES = {
    "interactions": {"required": ("user", "item"), "optional": ("rating", "timestamp")},
    "recommendations": {"required": ("user", "item"), "optional": ("score", "rank")},
    "categories": {"required": ("item", "category"), "optional": ()},
    "catalogue": {"required": ("item",), "optional": ()},
}
#: What a role means, for messages and the page's column pickers.
ROLE_HELP = {
    "user": "who the interaction or recommendation is for",
    "item": "what was interacted with or recommended",
    "rating": "how much the user liked the item (a number, e.g. 1-5 stars)",
    "timestamp": "when (a number such as Unix seconds, or a date)",
    "score": "the recommender's score (higher = recommended first)",
    "rank": "the position in the list (1 = first)",
    "category": "the item's category or genre; several as 'Action|Comedy'",
}

# Normalised header names each role answers to, best first. Whole-name matches only: a
# column is never guessed from a fragment (``user_rating`` is not a user id).
_ALIASES = {
    "user": ("userid", "user", "uid", "users", "customerid", "customer", "clientid", "client",
             "visitorid", "visitor", "memberid", "member", "accountid", "account", "personid",
             "readerid", "viewerid", "buyerid", "sessionid", "session", "u"),
    "item": ("itemid", "item", "iid", "items", "productid", "product", "movieid", "movie",
             "articleid", "article", "bookid", "book", "isbn", "songid", "song", "trackid",
             "track", "sku", "asin", "contentid", "content", "videoid", "video", "docid",
             "doc", "documentid", "objectid", "i"),
    "rating": ("rating", "ratings", "stars", "star", "score", "rate", "value", "grade",
               "relevance", "label", "feedback", "preference", "r"),
    "timestamp": ("timestamp", "time", "ts", "datetime", "date", "unixtime", "eventtime",
                  "createdat", "time_stamp", "when", "t"),
    "score": ("score", "prediction", "predicted", "pred", "predictedrating", "prob",
              "probability", "relevance", "similarity", "weight", "value", "s"),
    "rank": ("rank", "position", "pos", "ranking", "order", "slot"),
    "category": ("category", "categories", "genre", "genres", "tag", "tags", "topic",
                 "topics", "class", "section", "type", "categoryid", "genreid"),
}


class MissingColumnError(InputError):
    """A file with no column for a required role (``roles``). ``str()`` says what is missing,
    how the columns were read and how to name one in code (``advice``); a page whose column
    pickers show the reading says only ``problem_at`` and points to them.

    >>> err = MissingColumnError(["item"], "no column for the item", "the columns read as: "
    ...                          "user = uid, item = (none)", "Name the column",
    ...                          source="test.csv", line=1)
    >>> print(err)
    test.csv, line 1: no column for the item; the columns read as: user = uid, item = (none). Name the column
    >>> err.problem_at, err.roles
    ('test.csv, line 1: no column for the item', ('item',))
    """

    def __init__(self, roles: Sequence[str], problem: str, reading: str, advice: str, *,
                 source: str | None = None, line: int | None = None):
        super().__init__(f"{problem}; {reading}. {advice}", source=source, line=line)
        self.roles = tuple(roles)
        self.advice = advice
        self.problem_at = str(InputError(problem, source=source, line=line))


def normalise(name: str) -> str:
    """A header name as the guesses compare it: lower case, letters and digits only.

    >>> normalise(" User ID"), normalise("movieId"), normalise("customer_id")
    ('userid', 'movieid', 'customerid')
    """
    return re.sub(r"[^0-9a-z]", "", str(name).lower())


def _check_kind(kind: str) -> dict:
    if kind not in ROLES:
        raise ValueError(f"kind must be one of {', '.join(ROLES)}, got {kind!r}")
    return ROLES[kind]


def guess_columns(header: Sequence[str], kind: str) -> dict[str, str | None]:
    """The header's column for each role of ``kind`` (None: no column looks like it).

    Each role takes the best-ranked alias present in the header (see the module), and a
    column serves one role only, required roles first: in ``user,item,score`` read as
    interactions, ``score`` becomes the rating.

    Parameters
    ----------
    header : sequence of str
        The column names as the file has them.
    kind : {"interactions", "recommendations", "categories"}

    Returns
    -------
    dict
        role -> the header's spelling of the column, or None; every role of ``kind``.

    Examples
    --------
    >>> guess_columns(["userId", "movieId", "rating", "timestamp"], "interactions")
    {'user': 'userId', 'item': 'movieId', 'rating': 'rating', 'timestamp': 'timestamp'}
    >>> guess_columns(["a", "b"], "interactions")        # nothing to go on
    {'user': None, 'item': None, 'rating': None, 'timestamp': None}
    """
    roles = _check_kind(kind)
    by_name: dict[str, str] = {}
    for column in header:
        by_name.setdefault(normalise(column), column)
    taken: set[str] = set()
    guess: dict[str, str | None] = {}
    for role in (*roles["required"], *roles["optional"]):
        found = next((by_name[a] for a in _ALIASES[role]
                      if a in by_name and by_name[a] not in taken), None)
        guess[role] = found
        if found is not None:
            taken.add(found)
    return guess


def describe_mapping(mapping: Mapping[str, str | None]) -> str:
    """``user = uid, item = iid, rating = (none)``: a mapping as messages show it."""
    return ", ".join(f"{role} = {column if column is not None else '(none)'}"
                     for role, column in mapping.items())


def resolve_columns(header: Sequence[str], kind: str, columns: Mapping[str, str | None] | None,
                    *, source: str, line: int | None) -> dict[str, str]:
    """The mapping a reader uses: the caller's ``columns`` over the guess from ``header``.

    ``columns`` maps roles to header names (any case); a role set to None has no column
    (e.g. ``{"timestamp": None}`` to ignore a date column). Roles it leaves out are guessed.

    Returns
    -------
    dict
        role -> header spelling, for the roles that have a column.

    Raises
    ------
    InputError
        A named column the header does not have, one column for two roles, an unknown
        role, or a required role without a column; each message lists the header and the
        mapping the reader would use, so the page can show what to fix.
    """
    roles = _check_kind(kind)
    known = (*roles["required"], *roles["optional"])
    found = ", ".join(str(h).strip() for h in header) or "nothing"
    exact = {str(h).strip().lower(): h for h in header}
    mapping = guess_columns(header, kind)
    for role, column in (columns or {}).items():
        if role not in known:
            raise ValueError(f"unknown role {role!r} for {kind}; roles: {', '.join(known)}")
        if column is None:
            mapping[role] = None
            continue
        key = str(column).strip().lower()
        if key not in exact:
            raise InputError(f"there is no column {str(column)!r} for the {role} "
                             f"(the header has: {found})", source=source, line=line)
        mapping[role] = exact[key]
    # A column named explicitly is that role's alone: a guess that took it steps aside.
    chosen = {role: c for role, c in (columns or {}).items() if c is not None}
    for role, column in mapping.items():
        if column is not None and role not in chosen and column in \
                {mapping[r] for r in chosen}:
            mapping[role] = None
    used: dict[str, str] = {}
    for role, column in mapping.items():
        if column is None:
            continue
        if column in used:
            raise InputError(f"column {str(column).strip()!r} is mapped to both the "
                             f"{used[column]} and the {role}; each role needs its own column",
                             source=source, line=line)
        used[column] = role
    missing = [r for r in roles["required"] if mapping.get(r) is None]
    if missing:
        what = " and ".join(f"the {r} ({ROLE_HELP[r]})" for r in missing)
        raise MissingColumnError(
            missing, f"no column for {what}; the header has: {found}",
            f"the columns read as: {describe_mapping(mapping)}",
            f"Name the column, e.g. columns={{{', '.join(repr(r) + ': ...' for r in missing)}}}",
            source=source, line=line)
    return {role: column for role, column in mapping.items() if column is not None}


_HEAD_BYTES = 65536


def read_header(src, *, name: str | None = None) -> list[str]:
    """The column names of a CSV/TSV/Parquet file, reading as little of it as it can.

    For a text file only the first 64 KB are read (the header is its first non-blank line,
    the delimiter sniffed as the readers do); a Parquet file's names come from its schema.
    File-like objects are rewound, so a reader can be called afterwards.

    Examples
    --------
    >>> read_header(b"uid;iid;stars\\n7;12;5\\n")
    ['uid', 'iid', 'stars']
    """
    head, name = load_head(src, name, _HEAD_BYTES)
    if is_parquet(head):
        data, _ = load(src, name)
        if hasattr(src, "seek"):
            src.seek(0)
        try:
            return [str(n) for n in pq.read_schema(io.BytesIO(data)).names
                    if not str(n).startswith("__index_level_")]
        except Exception as exc:  # pyarrow raises several types; all mean "unreadable"
            raise InputError(f"not a readable Parquet file ({exc})", source=name) from None
    first = next((ln for ln in head_text(head).split("\n") if ln.strip()), None)
    if first is None:
        raise InputError("the file is empty", source=name)
    delimiter = _sniff_delimiter(first, name)
    return [h.strip() for h in next(csv.reader([first], delimiter=delimiter))]
