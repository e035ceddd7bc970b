"""The entry point and the course map: every lesson exists, is navigable and runs clean."""
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.apptest import run_page
from ui.shared.course import HOME, LESSONS

ROOT = Path(__file__).resolve().parents[1]


def test_every_lesson_file_exists_and_url_paths_are_unique():
    paths = [HOME.path] + [lesson.path for lesson in LESSONS]
    assert all((ROOT / p).is_file() for p in paths)
    url_paths = [lesson.url_path for lesson in LESSONS]
    assert len(set(url_paths)) == len(url_paths)
    # a deep link on a fresh server resolves by file name first (ui.shared.course.through_app_navigation)
    assert all(lesson.url_path == Path(lesson.path).stem for lesson in LESSONS)


def test_home_page_runs_and_links_every_lesson():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30).run()
    assert not at.exception
    assert at.title[0].value == "How do we know a search engine is good?"
    links = [el.proto.label for el in at.get("page_link")]
    assert [label.split("**")[1] for label in links] == [lesson.title for lesson in LESSONS]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.url_path)
def test_each_lesson_runs_without_an_exception(lesson):
    at = run_page(Path(lesson.path).stem, timeout=60)
    assert at.title, "every lesson starts with a title"


@pytest.mark.parametrize("path", sorted(p.name for p in (ROOT / "pages").glob("*.py")))
def test_every_page_first_runs_through_the_app_navigation(path):
    """A shared link on a fresh server runs the page file itself (Streamlit's legacy pages/
    mode, app.py skipped): each page must switch that off before drawing anything."""
    source = (ROOT / "pages" / path).read_text()
    body = source.split("through_app_navigation()", 1)
    assert len(body) == 2, f"{path} does not call through_app_navigation()"
    assert "st." not in "".join(line for line in body[0].splitlines()
                                if not line.startswith(("import", "from", '"""', "#"))), \
        f"{path} draws something before through_app_navigation()"
