"""The layers hold: irlib is the library, the course uses it, the app uses both.

* irlib never imports ``course``, ``ui``, ``pages`` or Streamlit: it installs and runs alone;
* ``course`` never imports ``ui``, ``pages`` or Streamlit: lessons are data and numbers;
* no circle among irlib's, course's or ui's modules: whichever module is imported first, none
  finds another half-initialised (ui's class-room question kinds register in ``ui.rooms.kinds``,
  which imports none of them).

Read from the source with :mod:`ast` (nothing is imported), every import counted wherever it
stands: a lazy one inside a function, and one under ``if TYPE_CHECKING:`` too (a type checker
follows it). A package's own ``__init__.py``, which Python runs before any of its modules, is
not counted as imported by them; an import that names it is.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {"irlib": ("course", "ui", "pages", "streamlit", "app"),
             "course": ("ui", "pages", "streamlit", "app"),
             "ui": ("pages", "app")}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[tuple[str, int]]:
    """(absolute module or module.name, line) for every import the file runs."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = _module_name(path) if path.name == "__init__.py" else \
        _module_name(path).rpartition(".")[0]
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            found.extend((f"{base}.{alias.name}", node.lineno) for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _sources(top: str) -> dict[str, Path]:
    return {_module_name(p): p for p in sorted((ROOT / top).rglob("*.py"))}


def test_irlib_and_course_stand_below_the_app():
    broken = []
    for top, forbidden in FORBIDDEN.items():
        for path in _sources(top).values():
            for name, line in _imports(path):
                if name.split(".")[0] in forbidden:
                    broken.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    assert not broken, "\n".join(broken)


def _graph(top: str) -> dict[str, set[str]]:
    modules = _sources(top)
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        targets = set()
        for name, _ in _imports(path):
            # ``from a.b import c``: the module a.b.c if there is one, else a.b
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != module:
                targets.add(name)
        graph[module] = targets
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of two modules or more (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []
    for start, targets in graph.items():
        if start in index:
            continue
        work = [(start, iter(sorted(targets)))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    circles.append(sorted(component))
    return circles


@pytest.mark.parametrize("top", ["irlib", "course", "ui"])
def test_no_circle_among_the_modules(top):
    graph = _graph(top)
    circles = _circles(graph)
    assert not circles, "\n".join(
        " <-> ".join(c) + ": " + "; ".join(f"{a} -> {b}" for a in c for b in sorted(graph[a])
                                            if b in c)
        for c in circles)


def test_the_check_sees_a_circle():
    """The cycle finder itself: a circle of three is found, a chain is not."""
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
