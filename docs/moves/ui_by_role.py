"""Move ui/ by role (issue 47): shared components in ui/shared, each lesson's helpers in
ui/lessons, the rooms and the upload page as they are. Run from the checkout's root:

    python move_ui_by_role.py [--dry-run]

It `git mv`s the modules (and the folders of front-end files beside them), then rewrites every
reference in the tracked text files: dotted names (``ui.playground`` → ``ui.lessons.playground
.session``), paths (``ui/board/board.js``), ``from ui import a, b`` statements (split by the
package each name lands in) and the ``Path(__file__)`` climbs to the repository's root of a
moved module. A top-level module of ui/ it has no place for stops it before anything moves.
"""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path.cwd()
SHARED = ["address", "board", "boards", "catalog", "charts", "component_code", "course",
          "downloads", "films", "formula", "layout", "live_chart", "page_state", "phone_tables",
          "print_style", "scroll", "texts", "tiles", "numbers"]
LESSON_MODULES = ["mrr_map", "ndcg", "choosing", "libraries", "beyond", "online", "judgments",
                  "glossary"]
RENAMED = {  # old module -> new dotted module under ui.
    "playground": "lessons.playground.session",
    "state": "lessons.playground.state",
    "predict": "lessons.playground.predict",
    "preview": "lessons.playground.preview",
    "own_example": "lessons.playground.example_editor",
    "own_data": "lessons.playground.example_data",
    "own_goal": "lessons.playground.example_goal",
    "pictures": "lessons.playground.example_pictures",
    "practice": "lessons.practice.lesson",
    "practice_layout": "lessons.practice.layout",
    "practice_links": "lessons.practice.links",
}
PACKAGES = {"recommenders": "lessons.recommenders"}   # whole packages that move
STAY = {"__init__", "rooms", "upload"}
# Folders of front-end files that travel with their module.
ASSET_DIRS = {"board": "shared/board", "address": "shared/address",
              "live_chart": "shared/live_chart"}
NEW_PACKAGES = {
    "ui/shared": "Components every page shares: the ranking board and the live charts, the "
                 "page's state in its link, the\ncourse's navigation, charts, formula, layout "
                 "and print styles, the cats' and films' catalogues.",
    "ui/lessons": "Each lesson's own helpers: one module per lesson, a package where a lesson "
                  "has several parts\n(the playground, Practice, the recommenders' traps).",
    "ui/lessons/playground": "Lesson 1, the playground: its session state and fields, "
                             "Predict first, the browser's preview of\nevery next move, and a "
                             "lecturer's own example (editor, data and files, goal, pictures).",
    "ui/lessons/practice": "Practice: the lesson, its link's codecs and its layout.",
}


def mapping(extra: dict[str, str]) -> dict[str, str]:
    """Old dotted module -> new dotted module, for every module that moves."""
    moves = {f"ui.{m}": f"ui.shared.{m}" for m in SHARED}
    moves |= {f"ui.{m}": f"ui.lessons.{m}" for m in LESSON_MODULES}
    moves |= {f"ui.{old}": f"ui.{new}" for old, new in (RENAMED | extra).items()}
    moves |= {f"ui.{old}": f"ui.{new}" for old, new in PACKAGES.items()}
    return moves


def unplaced(extra: dict[str, str]) -> list[str]:
    known = set(SHARED) | set(LESSON_MODULES) | set(RENAMED) | set(extra) | set(PACKAGES) | STAY
    found = []
    for path in (ROOT / "ui").iterdir():
        name = path.stem if path.suffix == ".py" else path.name
        if path.name in ASSET_DIRS or path.name == "__pycache__":
            continue
        if (path.suffix == ".py" or (path.is_dir() and (path / "__init__.py").exists())) \
                and name not in known:
            found.append(path.name)
    return found


def git(*args: str) -> str:
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def _depth(module: str) -> int:
    return module.count(".")            # ui.x -> 1 folder deep (ui/), ui.a.b.c -> 3


def move_files(moves: dict[str, str], dry: bool) -> dict[Path, tuple[int, int]]:
    """git mv every module; returns new path -> (old depth, new depth) of moved files."""
    depths: dict[Path, tuple[int, int]] = {}
    for package in sorted({str(Path(*new.split(".")[:-1])) for new in moves.values()}
                          | set(NEW_PACKAGES)):
        folder = ROOT / package
        init = folder / "__init__.py"
        if not dry and not init.exists():
            folder.mkdir(parents=True, exist_ok=True)
            doc = NEW_PACKAGES.get(package)
            if doc is None:
                continue
            init.write_text(f'"""{doc}\n"""\n')
            git("add", str(init))
    for old, new in moves.items():
        old_path = ROOT / Path(*old.split("."))
        new_path = ROOT / Path(*new.split("."))
        if old_path.with_suffix(".py").exists() is False and old_path.is_dir():
            src, dst = old_path, new_path
            for f in old_path.rglob("*.py"):
                rel = f.relative_to(old_path)
                depths[dst / rel] = (len(rel.parts) + _depth(old) , len(rel.parts) + _depth(new))
        else:
            src, dst = old_path.with_suffix(".py"), new_path.with_suffix(".py")
            depths[dst] = (_depth(old), _depth(new))
        print(f"git mv {src.relative_to(ROOT)} {dst.relative_to(ROOT)}")
        if not dry:
            dst.parent.mkdir(parents=True, exist_ok=True)
            git("mv", str(src), str(dst))
    for old, new in ASSET_DIRS.items():
        print(f"git mv ui/{old} ui/{new}")
        if not dry:
            git("mv", f"ui/{old}", f"ui/{new}")
    return depths


def _split_from_ui(source: str, moves: dict[str, str]) -> str:
    """``from ui import a, b as c`` -> one statement per package the names land in."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    edits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "ui" and node.level == 0:
            groups: dict[str, list[str]] = {}
            for alias in node.names:
                target = moves.get(f"ui.{alias.name}", f"ui.{alias.name}")
                package, _, name = target.rpartition(".")
                text = name if alias.asname is None and name == alias.name else \
                    f"{name} as {alias.asname or alias.name}"
                groups.setdefault(package, []).append(text)
            indent = re.match(r"\s*", lines[node.lineno - 1]).group(0)
            first = lines[node.lineno - 1]
            comment = first[first.index("#"):].rstrip("\n") if "#" in first else ""
            new = "".join(f"{indent}from {package} import {', '.join(names)}"
                          f"{'  ' + comment if comment else ''}\n"
                          for package, names in groups.items())
            edits.append((node.lineno - 1, node.end_lineno, new))
    for start, end, new in sorted(edits, reverse=True):
        lines[start:end] = [new]
    return "".join(lines)


def _climbs(source: str, old_depth: int, new_depth: int) -> str:
    """Path(__file__) climbs to the repository's root follow the module's new depth."""
    if old_depth == new_depth:
        return source
    up_old = old_depth + 1          # .parent count from the file to the root
    chain = "Path(__file__).resolve()" + ".parent" * up_old
    source = source.replace(chain, f"Path(__file__).resolve().parents[{new_depth}]")

    def fix(m: re.Match) -> str:
        k = int(m.group(1))
        return f"Path(__file__).resolve().parents[{new_depth}]" if k == old_depth else m.group(0)
    source = re.sub(r"Path\(__file__\)\.resolve\(\)\.parents\[(\d+)\]", fix, source)
    # ui/board.py reaches the root's static/ through its folder: _HERE.parent
    return source.replace('_HERE.parent / "static"', f'_HERE.parents[{new_depth - 1}] / "static"')


def _outside_code(source: str, pattern: re.Pattern, moves: dict[str, str]) -> str:
    import io
    import tokenize
    starts = [0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    spans = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.STRING, tokenize.COMMENT):
            spans.append((starts[tok.start[0] - 1] + tok.start[1],
                          starts[tok.end[0] - 1] + tok.end[1]))
    for i, line in enumerate(source.splitlines(keepends=True)):
        if line.lstrip().startswith(("from ", "import ")):
            spans.append((starts[i], starts[i + 1]))

    def sub(m: re.Match) -> str:
        inside = any(a <= m.start() < b for a, b in spans)
        return moves[m.group(1)] if inside else m.group(0)
    return pattern.sub(sub, source)


def rewrite(moves: dict[str, str], depths: dict[Path, tuple[int, int]], dry: bool) -> None:
    dotted = sorted(moves, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w.])(" + "|".join(re.escape(m) for m in dotted) + r")(?!\w)")
    slashed = {old.replace(".", "/"): new.replace(".", "/") for old, new in moves.items()}
    slashed |= {f"ui/{old}/": f"ui/{new}/" for old, new in ASSET_DIRS.items()}
    path_pattern = re.compile(r"(?<![\w/])(" + "|".join(
        re.escape(m) for m in sorted(slashed, key=len, reverse=True)) + r")(?=\.py\b|/|\b)")
    files = [ROOT / f for f in git("ls-files").split("\n") if f and Path(f).suffix in
             {".py", ".md", ".toml", ".txt", ".js", ".css", ".cfg", ".yml", ".yaml", ""}]
    files = [f for f in files if f.exists() and f.is_file()]
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        new = text
        if path.suffix == ".py":
            new = _split_from_ui(new, moves)
        if path.suffix == ".py" and re.search(r"\bas ui\b", new):
            # ``ui`` names another module here (``from ui import upload as ui``): the package
            # is named only in import statements, strings and comments.
            new = _outside_code(new, pattern, moves)
        else:
            new = pattern.sub(lambda m: moves[m.group(1)], new)
        new = path_pattern.sub(lambda m: slashed[m.group(1)], new)
        if path in depths:
            new = _climbs(new, *depths[path])
        if new != text:
            print(f"rewrote {path.relative_to(ROOT)}")
            if not dry:
                path.write_text(new, encoding="utf-8")


FIRST = ("from ui.shared.course import through_app_navigation\n\n"
         "through_app_navigation()   # first, before the slow imports "
         "(ui/shared/course.py)\n")


def navigation_first(dry: bool) -> None:
    """Each page calls through_app_navigation() before its imports: on a fresh server's first
    visit Streamlit shows the pages/ folder's raw list until app.py's navigation replaces it,
    and a page's imports (pandas, plotly, scipy) took seconds there."""
    for path in sorted((ROOT / "pages").glob("*.py")):
        lines = path.read_text().splitlines(keepends=True)
        kept = []
        for line in lines:
            if line.startswith("through_app_navigation()"):
                continue
            m = re.match(r"from ui\.shared\.course import (.*)\n", line)
            if m and "through_app_navigation" in m.group(1):
                names = [n.strip() for n in m.group(1).split("#")[0].split(",")
                         if n.strip() and n.strip() != "through_app_navigation"]
                if not names:
                    continue
                line = f"from ui.shared.course import {', '.join(names)}\n"
            kept.append(line)
        tree = ast.parse("".join(kept))
        at = 0
        for node in tree.body:
            is_doc = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
                and isinstance(node.value.value, str)
            is_future = isinstance(node, ast.ImportFrom) and node.module == "__future__"
            if node is tree.body[0] and is_doc or is_future:
                at = node.end_lineno
            else:
                break
        kept[at:at] = [FIRST, "\n"] if at == 0 else ["\n", FIRST]
        # one blank line between the call and what follows
        text = "".join(kept).replace(FIRST + "\n\n", FIRST + "\n")
        if not text.split(FIRST, 1)[1].startswith("\n"):
            text = text.replace(FIRST, FIRST + "\n", 1)
        print(f"navigation first in {path.relative_to(ROOT)}")
        if not dry:
            path.write_text(text)


#: Texts that name the layout in a way no rule can rewrite: (file, old, new).
FIXUPS = [
    # the model's import list now includes the shared package itself
    ("tests/test_page_upload.py", '["ui.shared.texts,ui.upload,', '["ui.shared,ui.shared.texts,ui.upload,'),
]


def fixups(dry: bool) -> None:
    for name, old, new in FIXUPS:
        path = ROOT / name
        text = path.read_text()
        if old not in text:
            print(f"fixup not applied (text not found): {name}", file=sys.stderr)
            continue
        print(f"fixup in {name}")
        if not dry:
            path.write_text(text.replace(old, new))


def main() -> int:
    dry = "--dry-run" in sys.argv
    extra: dict[str, str] = {}
    left = unplaced(extra)
    if left:
        print("no place for: " + ", ".join(left) + " (add them to the mapping)", file=sys.stderr)
        return 1
    moves = mapping(extra)
    depths = move_files(moves, dry)
    rewrite(moves, depths, dry)
    navigation_first(dry)
    fixups(dry)
    return 0


if __name__ == "__main__":
    sys.exit(main())
