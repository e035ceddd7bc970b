"""The README is a front door: at most 200 lines, its links (and docs/'s) lead somewhere, and
the test command stays where .ci/run reads it."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# [text](target) and ![alt](target); a target ends at a space (a title) or the bracket
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def anchors(page: Path) -> set[str]:
    """GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces to
    hyphens, a repeated heading numbered."""
    seen: dict[str, int] = {}
    out = set()
    for line in FENCE.sub("", page.read_text(encoding="utf-8")).splitlines():
        heading = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not heading:
            continue
        slug = re.sub(r"[^\w\- ]", "", heading.group(1).lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        out.add(slug if count == 0 else f"{slug}-{count}")
    return out


def links(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    text = re.sub(r"`[^`\n]*`", "", text)                 # code spans hold no links
    return [t for t in LINK.findall(text)
            if not re.match(r"[a-z][a-z0-9+.-]*:", t)]    # http:, https:, mailto: are not files


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_relative_link_resolves(page):
    broken = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            shown = file.relative_to(ROOT) if file.is_relative_to(ROOT) else file
            broken.append(f"{target}: no file {shown}")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no heading #{anchor} in {file.name}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_readme_is_a_front_door():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    assert "docs/playground.png" in links(ROOT / "README.md")
    for doc in ("classroom", "rooms-security", "irlib", "recommenders", "spark", "benchmarks",
                "libraries-evidence"):
        assert f"docs/{doc}.md" in links(ROOT / "README.md"), doc


def test_the_test_command_is_where_ci_reads_it():
    """.ci/run's own awk program, run on the README: the command between the marker and the
    end of its code block."""
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    program = re.search(r"awk '(.*?)' README\.md", script, re.S).group(1)
    command = subprocess.run(["awk", program, "README.md"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.strip()
    assert command == ('pip install -r requirements-dev.txt && python -m pytest -n 2 --dist '
                       'loadgroup -m "not browser" && python -m pytest -n 2 --dist loadgroup '
                       '--durations=15 -m "browser and not serial" && python -m pytest '
                       '--durations=5 -m "browser and serial"')


def test_the_checker_finds_a_broken_link_and_anchor(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# A title\n\n[ok](#a-title) [bad](#nope) [gone](missing.md) "
                    "![img](pic.png) [web](https://example.org) `[code](x.md)`\n")
    (tmp_path / "pic.png").write_bytes(b"")
    assert links(page) == ["#a-title", "#nope", "missing.md", "pic.png"]
    assert anchors(page) == {"a-title"}
