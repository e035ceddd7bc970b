"""The docs cannot drift from the course: the README's table, docs/course.md and Home's lines
say what the one course registry (ui/shared/course.py) and the code say.

* both tables list the sidebar's pages in the sidebar's order, with its titles and numbers;
* docs/course.md counts Practice's challenges and names their lessons as course.challenges has them;
* Home's one-liners are the registry's promises, and the promises that count things count right;
* a page that cites "the notebook" or "the article" names it once (SOURCES);
* the README's screenshot was taken of today's navigation (docs/make_screenshot.py writes the
  sidebar it saw into the PNG).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from ui.shared.course import CLASS, LESSONS, SOURCES, sections

ROOT = Path(__file__).resolve().parents[1]


def _table_pages(markdown: str, heading: str) -> list[str]:
    """The first column of the first table after ``heading``."""
    table = []
    for line in markdown.split(heading, 1)[1].lstrip("\n").splitlines():
        if not line.startswith("|"):
            if table:
                break
            continue
        table.append(line)
    return [line.split("|")[1].strip() for line in table[2:]]


def expected_pages() -> list[str]:
    start, lessons = sections()["Start"], sections()["Lessons"]
    return ([p.title for p in start] + [p.title for p in lessons]
            + ["Class: " + " / ".join(p.title for p in CLASS)])


@pytest.mark.parametrize("document, heading", [("README.md", "## The course"),
                                               ("docs/course.md", "# The course, page by page")])
def test_the_tables_list_the_sidebar(document, heading):
    pages = _table_pages((ROOT / document).read_text(), heading)
    assert pages == expected_pages(), (
        f"{document}: the course table's pages differ from ui/shared/course.py's navigation")


def test_the_lessons_are_numbered_in_order():
    numbers = [int(lesson.title.split(".")[0]) for lesson in LESSONS]
    assert numbers == list(range(1, len(LESSONS) + 1))


def _lessons_phrase(numbers: list[int]) -> str:
    """[1, 2, 3, 4, 5, 7, 8] -> '1–5, 7 and 8'."""
    runs, start = [], numbers[0]
    for a, b in zip(numbers, numbers[1:] + [None]):
        if b != a + 1:
            runs.append(f"{start}–{a}" if a - start >= 2 else
                        f"{start}, {a}" if a != start else f"{a}")
            start = b
    parts = ", ".join(runs).split(", ")
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def test_the_challenge_count_is_practices():
    from course.challenges import challenges
    from ui.lessons.practice.lesson import sources
    every = challenges(sources()).values()
    numbers = sorted({c.lesson for c in every})
    said = f"{len(every)} challenges across lessons {_lessons_phrase(numbers)}"
    assert said in (ROOT / "docs" / "course.md").read_text(), f"docs/course.md should say: {said}"


def test_lessons_phrase():
    assert _lessons_phrase([1, 2, 3, 4, 5, 7, 8]) == "1–5, 7 and 8"
    assert _lessons_phrase([2, 3]) == "2 and 3"
    assert _lessons_phrase([4]) == "4"


def test_home_counts_what_it_names():
    from irlib.measures.libraries import CONVENTIONS
    from ui.upload.slots import MAX_SYSTEMS
    words = {"trec_eval": "trec_eval", "ranx": "ranx", "sklearn": "scikit-learn",
             "torchmetrics": "torchmetrics", "apk": "apk", "spark": "Spark",
             "recommenders": "Recommenders", "recbole": "RecBole"}
    libraries = next(x for x in LESSONS if x.url_path == "libraries").promise
    assert all(words[key] in libraries for key in CONVENTIONS), libraries
    upload = next(x for x in LESSONS if x.url_path == "upload").promise
    number = {10: "ten"}.get(MAX_SYSTEMS, str(MAX_SYSTEMS))
    assert f"up to {number} systems" in upload


def test_a_cited_source_is_named():
    short = {"notebook": re.compile(r"\bthe notebook\b", re.I),
             "article": re.compile(r"\bthe article\b", re.I)}
    unnamed = []
    for path in sorted((ROOT / "pages").glob("*.py")):
        text = path.read_text()
        for key, pattern in short.items():
            if pattern.search(text) and SOURCES[key] not in text and f"SOURCES['{key}']" \
                    not in text and f'SOURCES["{key}"]' not in text:
                unnamed.append(f"{path.relative_to(ROOT)} cites {key} without naming it")
    assert not unnamed, "\n".join(unnamed)


def test_the_screenshot_shows_todays_navigation():
    from PIL import Image
    shot = Image.open(ROOT / "docs" / "playground.png")
    shown = shot.text.get("navigation", "")
    titles = [p.title for pages in sections().values() for p in pages]
    assert shown.split("\n") == titles, (
        "docs/playground.png shows another navigation: remake it with "
        "`python docs/make_screenshot.py`")
