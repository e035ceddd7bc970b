"""Every module of the app and the library fits in a newcomer's head: at most 450 lines.

The developers' guide asks for modules "a newcomer can hold in their head (a few hundred
lines)"; this test keeps the rule from drifting. Tests are not counted: a test file is read one
test at a time.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 450
TOPS = ("irlib", "course", "ui", "pages", "benchmarks")


def _sources() -> list[Path]:
    found = [ROOT / "app.py"]
    for top in TOPS:
        found += sorted((ROOT / top).rglob("*.py"))
    return found


def test_the_sources_are_found():
    names = {p.relative_to(ROOT).as_posix() for p in _sources()}
    assert {"app.py", "irlib/__init__.py", "ui/rooms/store.py"} <= names


def test_no_module_is_longer_than_a_newcomer_can_hold():
    long = [f"{p.relative_to(ROOT)}: {n} lines"
            for p in _sources() if (n := len(p.read_text().splitlines())) > MAX_LINES]
    assert not long, f"split these by responsibility (at most {MAX_LINES} lines):\n" \
                     + "\n".join(long)
