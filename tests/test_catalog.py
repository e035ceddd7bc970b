"""Tests for the picture catalog (assets/cats.json + assets/cats/*.svg)."""

import base64
import json
import shutil
import xml.etree.ElementTree as ET

import pytest

from ui.shared.catalog import ASSETS, Catalog, image_data_uri, load_catalog

SVG_NS = "{http://www.w3.org/2000/svg}"
EXPECTED_IDS = [
    "dog",
    "white-cat-box",
    "empty-box",
    "ginger-cat-box",
    "white-cat-box-2",
    "two-cats",
    "dark-cat-box",
    "dog-box",
]


def relevant_ranks(catalog: Catalog, query_id: str) -> list[int]:
    grades = catalog.grades_in_order(query_id)
    return [rank for rank, grade in enumerate(grades, start=1) if grade > 0]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def test_loads_items_in_file_order(catalog):
    assert list(catalog.items) == EXPECTED_IDS
    assert list(catalog.queries) == [
        "cat-in-a-box",
        "white-cat-in-a-box",
        "white-animal",
        "dark-cats",
    ]
    titles = [item.title for item in catalog.items.values()]
    assert len(set(titles)) == len(titles)


def test_load_is_cached():
    assert load_catalog() is load_catalog()


@pytest.mark.parametrize(
    ("query_id", "ranks"),
    [
        ("cat-in-a-box", [2, 4, 5, 7]),
        ("white-animal", [1, 4, 5, 7]),
        ("dark-cats", [5, 8]),
    ],
)
def test_binary_queries_relevant_ranks(catalog, query_id, ranks):
    assert catalog.queries[query_id].scale == "binary"
    assert relevant_ranks(catalog, query_id) == ranks


def test_default_order_for_cat_in_a_box(catalog):
    assert list(catalog.queries["cat-in-a-box"].order) == EXPECTED_IDS


def test_graded_query_in_default_order(catalog):
    query = catalog.queries["white-cat-in-a-box"]
    assert query.scale == "graded"
    assert list(query.order) == EXPECTED_IDS
    assert catalog.grades_in_order("white-cat-in-a-box") == [0, 4, 1, 3, 4, 1, 3, 2]


def test_grades_in_custom_order(catalog):
    order = list(reversed(EXPECTED_IDS))
    assert catalog.grades_in_order("white-cat-in-a-box", order) == [
        2, 3, 1, 4, 3, 1, 4, 0,
    ]
    with pytest.raises(ValueError, match="cat-in-a-box"):
        catalog.grades_in_order("cat-in-a-box", ["dog", "no-such-item"])


@pytest.mark.parametrize("item_id", EXPECTED_IDS)
def test_svg_is_safe_and_small(catalog, item_id):
    path = catalog.items[item_id].image_path
    assert path == (ASSETS / "cats" / f"{item_id}.svg").resolve()
    assert path.is_file()
    data = path.read_bytes()
    assert len(data) < 8 * 1024
    text = data.decode("utf-8")
    assert "<script" not in text.lower()
    assert 'href="http' not in text
    root = ET.fromstring(data)
    assert root.tag == f"{SVG_NS}svg"
    vb = root.get("viewBox").split()
    assert vb[2] == vb[3], "viewBox must be square"
    title = root.find(f"{SVG_NS}title")
    assert title is not None and title.text and title.text.strip()


@pytest.mark.parametrize("item_id", EXPECTED_IDS)
def test_image_data_uri(catalog, item_id):
    uri = image_data_uri(item_id)
    prefix = "data:image/svg+xml;base64,"
    assert uri.startswith(prefix)
    decoded = base64.b64decode(uri[len(prefix):])
    assert decoded == catalog.items[item_id].image_path.read_bytes()


def _broken_copy(tmp_path, mutate):
    raw = json.loads((ASSETS / "cats.json").read_text(encoding="utf-8"))
    mutate(raw)
    shutil.copytree(ASSETS / "cats", tmp_path / "cats")
    path = tmp_path / "cats.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return path


def test_bad_order_raises_with_query_id(tmp_path):
    def mutate(raw):
        raw["queries"][3]["order"][0] = raw["queries"][3]["order"][1]  # duplicate

    path = _broken_copy(tmp_path, mutate)
    with pytest.raises(ValueError, match="dark-cats") as info:
        load_catalog(path)
    assert "permutation" in str(info.value)


def test_bad_binary_grade_raises_with_query_id(tmp_path):
    def mutate(raw):
        raw["queries"][2]["grades"]["dog"] = 3

    path = _broken_copy(tmp_path, mutate)
    with pytest.raises(ValueError, match="white-animal"):
        load_catalog(path)


def test_out_of_range_grade_raises_with_query_id(tmp_path):
    def mutate(raw):
        raw["queries"][1]["grades"]["dog"] = 7

    path = _broken_copy(tmp_path, mutate)
    with pytest.raises(ValueError, match="white-cat-in-a-box"):
        load_catalog(path)
