"""A lecturer's own example for the playground: a query and 3-12 results with grades 0-4.

Plain Python (no Streamlit, no irlib): the example's rules, the CSV and JSON files it is loaded
from and saved to, and the compact text that carries a text-only example in the page's link.
Every reader raises :class:`ExampleError` with one line per problem (row, column); the page
shows it and keeps the board it had.

Formats (documented for lecturers in ``docs/own_example.md``):

- **CSV**: a header, then one result per line in the system's order (rank 1 first):
  ``title,grade`` and optionally ``picture`` (the name of a picture uploaded with it) and
  ``query`` (read from the first line that has one).
- **JSON**: ``{"format": "irlab-own-example/1", "query": "...", "results": [{"title": "...",
  "grade": 3, "picture": "data:image/png;base64,..."}]}``: one file, pictures inside.
- **Link**: ``ex=1.<base64url of deflated JSON>`` holding the query, titles and grades
  (no pictures), at most :data:`LINK_LIMIT` characters.
"""
from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import math
import re
import zlib
from dataclasses import dataclass, field

MIN_ITEMS, MAX_ITEMS = 3, 12
MAX_TITLE = 120            # characters: two lines of a card, a line of the formula
MAX_QUERY = 80
TOP_GRADE = 4
#: Item ids on the board and symbols in the link's ``order``: rank-free, one character each.
SYMBOLS = "123456789abc"
#: The longest ``ex=`` value a link carries: links past ~2,000 characters get cut by mail
#: clients, chat apps and some proxies. A longer example is shared as a file.
LINK_LIMIT = 2000
FORMAT = "irlab-own-example/1"
#: A loaded file's size limit (a JSON with twelve pictures re-encoded stays far below).
MAX_FILE_BYTES = 8 * 1024 * 1024
_LINK_VERSION = "1."
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]")


class ExampleError(ValueError):
    """An example that cannot be used; ``problems`` holds one readable line each."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


@dataclass(frozen=True)
class OwnItem:
    """One result: its title (text), its grade 0-4 and, optionally, a checked picture.

    ``picture`` is a ``data:image/webp;base64,...`` URI made by :mod:`ui.lessons.playground.example_pictures` (re-encoded,
    never the uploaded bytes); ``picture_name`` the file name the table refers to it by.
    """
    title: str
    grade: int
    picture: str = ""
    picture_name: str = ""


@dataclass(frozen=True)
class OwnExample:
    """A query and its results in the system's order (rank 1 first)."""
    query: str
    items: tuple[OwnItem, ...]
    key: str = field(init=False, compare=False)
    _link: str | None = field(init=False, compare=False, repr=False, default=None)

    def __post_init__(self):
        text = json.dumps([self.query, [(i.title, i.grade, i.picture) for i in self.items]])
        object.__setattr__(self, "key", hashlib.sha256(text.encode()).hexdigest()[:16])

    def __hash__(self) -> int:
        return hash(self.key)

    @property
    def ids(self) -> list[str]:
        """The board's item ids, one symbol each: ``["1", "2", ..., "c"]``."""
        return list(SYMBOLS[:len(self.items)])

    @property
    def grades(self) -> dict[str, int]:
        return {i: item.grade for i, item in zip(self.ids, self.items)}

    @property
    def has_pictures(self) -> bool:
        return any(item.picture for item in self.items)

    def text_only(self) -> "OwnExample":
        return OwnExample(self.query, tuple(OwnItem(i.title, i.grade) for i in self.items))


def clean_title(value: object) -> str:
    """A title as the board shows it: text, whitespace (line breaks too) folded to one space.

    >>> clean_title("  Red\\nrunning   shoes ")
    'Red running shoes'
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return " ".join(_CONTROL.sub(" ", str(value)).split())


def parse_grade(value: object) -> int:
    """A grade 0-4 from a cell: ``3``, ``"3"``, ``3.0``; ValueError with the reason otherwise.

    >>> parse_grade("4"), parse_grade(2.0)
    (4, 2)
    """
    if value is None or (isinstance(value, float) and math.isnan(value)) or \
            (isinstance(value, str) and not value.strip()):
        raise ValueError("is missing (a whole number from 0 to 4)")
    if isinstance(value, bool):
        raise ValueError(f"is {value!r}, not a number from 0 to 4")
    if isinstance(value, str):
        text = value.strip()
        if not re.fullmatch(r"[+-]?\d+(\.0*)?", text):
            shown = text if len(text) <= 20 else text[:20] + "…"
            raise ValueError(f"is “{shown}”, not a whole number from 0 to 4")
        value = float(text)
    if isinstance(value, float):
        if not value.is_integer():
            raise ValueError(f"is {value:g}, not a whole number from 0 to 4")
        value = int(value)
    if not isinstance(value, int):
        raise ValueError("is not a number from 0 to 4")
    if not 0 <= value <= TOP_GRADE:
        raise ValueError(f"is {value}, outside 0 to {TOP_GRADE}")
    return value


def build_example(query: object, rows: list[dict], *, where: str = "row",
                  pictures: dict[str, str] | None = None) -> OwnExample:
    """Check ``rows`` (``{"title", "grade", "picture"?}``, rank 1 first) and make the example.

    ``where`` names a row in messages (``"row"``, ``"line"``: the CSV's line numbers count
    the header, so line = row + 1); ``pictures`` maps a picture name to a checked data URI.
    Every problem is reported at once.

    >>> ex = build_example("red shoes", [{"title": "A", "grade": 3}, {"title": "B", "grade": 0},
    ...                                  {"title": "C", "grade": "1"}])
    >>> ex.ids, ex.grades["3"]
    (['1', '2', '3'], 1)
    >>> try:
    ...     build_example("q", [{"title": "A", "grade": 9}])
    ... except ExampleError as exc:
    ...     print(exc)
    1 result: an example needs 3 to 12.
    row 1, grade: is 9, outside 0 to 4
    """
    problems: list[str] = []
    offset = 1 if where == "line" else 0
    n = len(rows)
    if not MIN_ITEMS <= n <= MAX_ITEMS:
        problems.append(f"{n} result{'' if n == 1 else 's'}: an example needs "
                        f"{MIN_ITEMS} to {MAX_ITEMS}.")
    text = clean_title(query)
    if len(text) > MAX_QUERY:
        problems.append(f"The query has {len(text)} characters; at most {MAX_QUERY}.")
    items, seen = [], {}
    for number, row in enumerate(rows, start=1 + offset):
        title = clean_title(row.get("title"))
        if not title:
            problems.append(f"{where} {number}, title: is empty.")
        elif len(title) > MAX_TITLE:
            problems.append(f"{where} {number}, title: has {len(title)} characters; "
                            f"at most {MAX_TITLE}.")
        elif title.casefold() in seen:
            problems.append(f"{where} {number}, title: “{_short(title)}” is already on "
                            f"{where} {seen[title.casefold()]}; titles must differ.")
        else:
            seen[title.casefold()] = number
        try:
            grade = parse_grade(row.get("grade"))
        except ValueError as exc:
            problems.append(f"{where} {number}, grade: {exc}")
            grade = 0
        name = clean_title(row.get("picture"))
        picture = ""
        if name:
            picture = (pictures or {}).get(name, "")
            if not picture:
                problems.append(f"{where} {number}, picture: no picture named “{_short(name)}” "
                                "was uploaded.")
        items.append(OwnItem(title, grade, picture, name))
    if problems:
        raise ExampleError(problems)
    return OwnExample(text or "your query", tuple(items))


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


# --------------------------------------------------------------------------- files

def read_csv(data: bytes) -> tuple[str, list[dict]]:
    """(query, rows) of a CSV file: a ``title`` and a ``grade`` column, optional ``picture``
    and ``query``. Raises ExampleError naming the line.

    >>> read_csv(b"title,grade\\r\\nShoe A,3\\r\\nShoe B,0\\r\\n")
    ('', [{'title': 'Shoe A', 'grade': '3', 'picture': ''}, {'title': 'Shoe B', 'grade': '0', 'picture': ''}])
    """
    text = _decode(data)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        lines = list(reader)
    except csv.Error as exc:
        raise ExampleError([f"line {reader.line_num}: not readable as CSV ({exc})."]) from None
    lines = [line for line in lines if any(cell.strip() for cell in line)]
    if not lines:
        raise ExampleError(["The file is empty: expected a header line “title,grade”."])
    header = [cell.strip().lower().lstrip("\ufeff'") for cell in lines[0]]
    missing = [name for name in ("title", "grade") if name not in header]
    if missing:
        raise ExampleError([f"line 1: the header has no {' and no '.join(missing)} column "
                            f"(found: {', '.join(header)[:80]}); expected “title,grade”."])
    col = {name: header.index(name) for name in ("title", "grade", "picture", "query")
           if name in header}
    query, rows = "", []
    for line in lines[1:]:
        cells = {name: line[i] if i < len(line) else "" for name, i in col.items()}
        query = query or cells.pop("query", "").strip()
        cells.pop("query", None)
        # a downloaded template marks formula-like text with a leading ' (ui/shared/downloads.py)
        rows.append({"title": _unquote(cells["title"]), "grade": cells["grade"],
                     "picture": cells.get("picture", "")})
    return query, rows


def _unquote(text: str) -> str:
    return text[1:] if text.startswith("'") and text[1:2] in ("=", "+", "-", "@") else text


def read_json(data: bytes, check_picture) -> OwnExample:
    """An example from a JSON file (pictures inside as data URIs, each re-checked by
    ``check_picture(bytes) -> data URI``, which raises ValueError)."""
    try:
        raw = json.loads(_decode(data))
    except json.JSONDecodeError as exc:
        raise ExampleError([f"line {exc.lineno}, column {exc.colno}: not valid JSON "
                            f"({exc.msg})."]) from None
    if not isinstance(raw, dict) or not isinstance(raw.get("results"), list):
        raise ExampleError(['Expected an object with a "results" list '
                            '(see the template: {"query": ..., "results": [...]}).'])
    rows, pictures, problems = [], {}, []
    for n, entry in enumerate(raw["results"], start=1):
        if not isinstance(entry, dict):
            problems.append(f"result {n}: must be an object with a title and a grade.")
            continue
        row = {"title": entry.get("title"), "grade": entry.get("grade")}
        picture = entry.get("picture")
        if isinstance(picture, str) and picture:
            name = clean_title(entry.get("picture_name")) or f"picture {n}"
            try:
                pictures[name] = check_picture(_data_uri_bytes(picture))
                row["picture"] = name
            except ValueError as exc:
                problems.append(f"result {n}, picture: {exc}")
        elif picture not in (None, ""):
            problems.append(f"result {n}, picture: must be a data: URI text.")
        if not isinstance(row["title"], (str, type(None))):
            problems.append(f"result {n}, title: must be text.")
            row["title"] = ""
        rows.append(row)
    query = raw.get("query", "")
    if not isinstance(query, str):
        problems.append("query: must be text.")
        query = ""
    try:
        example = build_example(query, rows, where="result", pictures=pictures)
    except ExampleError as exc:
        problems += exc.problems
    if problems:
        raise ExampleError(problems)
    return example


def _data_uri_bytes(uri: str) -> bytes:
    match = re.fullmatch(r"data:[\w/+.-]*;base64,([A-Za-z0-9+/=\s]*)", uri.strip())
    if not match:
        raise ValueError("must be a data:…;base64,… URI.")
    try:
        return base64.b64decode(match[1], validate=False)
    except ValueError:
        raise ValueError("its base64 text is broken.") from None


def _decode(data: bytes) -> str:
    if len(data) > MAX_FILE_BYTES:
        raise ExampleError([f"The file has {len(data) / 1e6:.1f} MB; at most "
                            f"{MAX_FILE_BYTES // 1024 // 1024} MB."])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ExampleError([f"byte {exc.start}: the file is not UTF-8 text."]) from None


def to_json(example: OwnExample) -> bytes:
    """The example as one JSON file, pictures inside: what :func:`read_json` reads back."""
    results = []
    for item in example.items:
        entry = {"title": item.title, "grade": item.grade}
        if item.picture:
            entry["picture"] = item.picture
            entry["picture_name"] = item.picture_name
        results.append(entry)
    return json.dumps({"format": FORMAT, "query": example.query, "results": results},
                      ensure_ascii=False, indent=1).encode("utf-8")


def table_rows(example: OwnExample) -> list[dict]:
    """The example as the editable table's rows."""
    return [{"title": i.title, "grade": i.grade, "picture": i.picture_name}
            for i in example.items]


TEMPLATE = OwnExample("red running shoes", (
    OwnItem("Men's trail running shoe, red", 3),
    OwnItem("Red leather ballet flats", 1),
    OwnItem("Red running shoe, road, women's", 4),
    OwnItem("Running socks, 3-pack", 0),
    OwnItem("Blue running shoe", 1),
    OwnItem("Red running shoe, kids' size", 3),
))


# --------------------------------------------------------------------------- link

def to_link(example: OwnExample) -> str:
    """The text-only example as the ``ex`` parameter of a link (pictures stay out).

    >>> from_link(to_link(TEMPLATE)) == TEMPLATE
    True
    """
    body = json.dumps({"q": example.query, "t": [i.title for i in example.items],
                       "g": "".join(str(i.grade) for i in example.items)},
                      ensure_ascii=False, separators=(",", ":"))
    packed = base64.urlsafe_b64encode(zlib.compress(body.encode(), 9)).decode().rstrip("=")
    return _LINK_VERSION + packed


def link_text(example: OwnExample) -> str:
    """:func:`to_link`, made once per example object (every rerun writes the address); kept
    on the example, so it lives as long as the session that holds it."""
    if example._link is None:
        object.__setattr__(example, "_link", to_link(example))
    return example._link


def fits_link(example: OwnExample) -> bool:
    """Whether the example travels in a link (:data:`LINK_LIMIT`)."""
    return len(link_text(example)) <= LINK_LIMIT


def from_link(text: str) -> OwnExample:
    """The example a link's ``ex`` parameter holds; ExampleError if it cannot be read."""
    if len(text) > LINK_LIMIT or not text.startswith(_LINK_VERSION):
        raise ExampleError(["The link's example could not be read (cut or not from this app)."])
    packed = text[len(_LINK_VERSION):]
    try:
        raw = base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))
        inflate = zlib.decompressobj()
        body = inflate.decompress(raw, 64 * 1024)      # bounded: a link cannot bomb the server
        if inflate.unconsumed_tail:
            raise ValueError("too long")
        value = json.loads(body.decode())
        titles, grades = value["t"], value["g"]
        if not isinstance(titles, list) or not isinstance(grades, str) or \
                len(titles) != len(grades):
            raise ValueError("shape")
    except (ValueError, KeyError, TypeError, zlib.error, UnicodeDecodeError):
        raise ExampleError(["The link's example could not be read (cut or not from this app)."]
                           ) from None
    return build_example(value.get("q", ""), [{"title": t, "grade": g}
                                              for t, g in zip(titles, grades)])
