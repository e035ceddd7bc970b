"""The picture catalog: eight small illustrations and the example queries.

The data lives in ``assets/cats.json``; the pictures are hand-drawn SVGs in
``assets/cats/``. This module is plain Python (no Streamlit) so it can be
tested and reused anywhere.
"""

from __future__ import annotations

import base64
import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ASSETS = Path(__file__).resolve().parents[2] / "assets"
DEFAULT_PATH = ASSETS / "cats.json"

SCALES = {"binary": (0, 1), "graded": (0, 4)}


@dataclass(frozen=True)
class Item:
    """One picture in the catalog.

    Attributes
    ----------
    id : str
        Stable identifier, e.g. ``"white-cat-box"``.
    title : str
        Short human-readable title.
    image_path : pathlib.Path
        Absolute path of the SVG file.
    alt : str
        Alternative text describing the picture.
    """

    id: str
    title: str
    image_path: Path
    alt: str


@dataclass(frozen=True)
class Query:
    """An example query with a default ranking and relevance judgments.

    Attributes
    ----------
    id : str
        Stable identifier, e.g. ``"cat-in-a-box"``.
    text : str
        The query as a user would type it.
    scale : str
        ``"binary"`` (grades 0/1) or ``"graded"`` (grades 0..4).
    order : tuple of str
        Default ranking: a permutation of all item ids, best first.
    grades : dict of str to int
        Relevance grade for every item id.
    source : str
        Where the example comes from.
    """

    id: str
    text: str
    scale: str
    order: tuple[str, ...]
    grades: dict[str, int]
    source: str


@dataclass(frozen=True)
class Catalog:
    """All items (in file order) and all queries (in file order)."""

    items: dict[str, Item]
    queries: dict[str, Query]

    def grades_in_order(
        self, query_id: str, order: Sequence[str] | None = None
    ) -> list[int]:
        """Relevance grades of a ranking, rank 1 first.

        Parameters
        ----------
        query_id : str
            Id of the query whose judgments are used.
        order : sequence of str, optional
            Item ids in ranked order; defaults to the query's own order.
            It may be shorter than the catalog (a top-k list).

        Returns
        -------
        list of int
            ``grades[i]`` is the grade of the item at rank ``i + 1``.

        Raises
        ------
        KeyError
            If ``query_id`` is unknown.
        ValueError
            If ``order`` names an unknown item.
        """
        query = self.queries[query_id]
        ids = query.order if order is None else tuple(order)
        unknown = [i for i in ids if i not in query.grades]
        if unknown:
            raise ValueError(f"query {query_id!r}: unknown item ids {unknown}")
        return [query.grades[i] for i in ids]


def _fail(where: str, problem: str) -> ValueError:
    return ValueError(f"{where}: {problem}")


def _parse_items(raw: object, base: Path) -> dict[str, Item]:
    if not isinstance(raw, list) or not raw:
        raise _fail("catalog", "'items' must be a non-empty list")
    items: dict[str, Item] = {}
    for n, entry in enumerate(raw):
        where = f"item #{n}"
        if not isinstance(entry, dict):
            raise _fail(where, "must be an object")
        for key in ("id", "title", "image", "alt"):
            if not isinstance(entry.get(key), str) or not entry[key]:
                raise _fail(where, f"missing or empty string field {key!r}")
        item_id = entry["id"]
        where = f"item {item_id!r}"
        if item_id in items:
            raise _fail(where, "duplicate id")
        image_path = (base / entry["image"]).resolve()
        if not image_path.is_file():
            raise _fail(where, f"image file not found: {image_path}")
        items[item_id] = Item(item_id, entry["title"], image_path, entry["alt"])
    return items


def _parse_query(entry: object, n: int, item_ids: set[str]) -> Query:
    if not isinstance(entry, dict):
        raise _fail(f"query #{n}", "must be an object")
    qid = entry.get("id")
    if not isinstance(qid, str) or not qid:
        raise _fail(f"query #{n}", "missing or empty string field 'id'")
    where = f"query {qid!r}"
    for key in ("text", "scale", "source"):
        if not isinstance(entry.get(key), str):
            raise _fail(where, f"missing string field {key!r}")
    scale = entry["scale"]
    if scale not in SCALES:
        raise _fail(where, f"scale must be one of {sorted(SCALES)}, got {scale!r}")

    order = entry.get("order")
    if not isinstance(order, list) or not all(isinstance(i, str) for i in order):
        raise _fail(where, "'order' must be a list of item ids")
    if len(order) != len(item_ids) or set(order) != item_ids:
        missing = sorted(item_ids - set(order))
        unknown = sorted(set(order) - item_ids)
        dupes = sorted({i for i in order if order.count(i) > 1})
        raise _fail(
            where,
            "order is not a permutation of the item ids "
            f"(missing {missing}, unknown {unknown}, duplicated {dupes})",
        )

    grades = entry.get("grades")
    if not isinstance(grades, dict) or set(grades) != item_ids:
        got = set(grades) if isinstance(grades, dict) else set()
        raise _fail(
            where,
            "grades must give exactly one grade per item "
            f"(missing {sorted(item_ids - got)}, unknown {sorted(got - item_ids)})",
        )
    lo, hi = SCALES[scale]
    for item_id, grade in grades.items():
        if isinstance(grade, bool) or not isinstance(grade, int):
            raise _fail(where, f"grade of {item_id!r} must be an int, got {grade!r}")
        if not 0 <= grade <= 4:
            raise _fail(where, f"grade of {item_id!r} must be in 0..4, got {grade}")
        if not lo <= grade <= hi:
            raise _fail(
                where, f"{scale} grade of {item_id!r} must be in {lo}..{hi}, got {grade}"
            )
    return Query(qid, entry["text"], scale, tuple(order), dict(grades), entry["source"])


@functools.lru_cache(maxsize=8)
def load_catalog(path: Path | str = DEFAULT_PATH) -> Catalog:
    """Load and validate the catalog JSON.

    Parameters
    ----------
    path : pathlib.Path or str, optional
        JSON file; image paths in it are relative to its folder.
        Defaults to ``assets/cats.json``.

    Returns
    -------
    Catalog
        Cached per ``path``; treat it as read-only.

    Raises
    ------
    ValueError
        If the file is not valid JSON or breaks the schema; the message
        names the offending item or query.
    """
    path = Path(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: invalid JSON: {exc}") from exc
    if not isinstance(raw, dict):
        raise _fail("catalog", "top level must be an object")
    items = _parse_items(raw.get("items"), path.parent)
    item_ids = set(items)
    raw_queries = raw.get("queries")
    if not isinstance(raw_queries, list):
        raise _fail("catalog", "'queries' must be a list")
    queries: dict[str, Query] = {}
    for n, entry in enumerate(raw_queries):
        query = _parse_query(entry, n, item_ids)
        if query.id in queries:
            raise _fail(f"query {query.id!r}", "duplicate id")
        queries[query.id] = query
    return Catalog(items, queries)


@functools.lru_cache(maxsize=64)
def image_data_uri(item_id: str) -> str:
    """Inline an item's picture for HTML ``<img src=...>``.

    Parameters
    ----------
    item_id : str
        Id of an item in the default catalog.

    Returns
    -------
    str
        ``data:image/svg+xml;base64,...``

    Raises
    ------
    KeyError
        If ``item_id`` is unknown.
    """
    item = load_catalog().items[item_id]
    payload = base64.b64encode(item.image_path.read_bytes()).decode("ascii")
    return f"data:image/svg+xml;base64,{payload}"


def board_items() -> list[dict]:
    """The eight pictures as the ranking board wants them: id, title, image data URI, alt."""
    catalog = load_catalog()
    return [{"id": item.id, "title": item.title, "image": image_data_uri(item.id), "alt": item.alt}
            for item in catalog.items.values()]
