"""Every package the code imports is one the requirements files install.

CI installs ``requirements-dev.txt`` into a fresh virtual environment (``.ci/run``), so a
package that is only on a developer's machine fails there. This test says *which* import is
missing and where, before pytest stops at collection with a bare ``ModuleNotFoundError``.

A module is allowed when it is in the standard library, is one of this project's own
packages, or belongs to a distribution that a requirements file names, directly or as a
dependency that such a distribution declares (``importlib.metadata``).
"""
from __future__ import annotations

import ast
import re
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ["tests", "irlib", "course", "ui", "pages", "benchmarks", "deploy", "app.py"]
REQUIREMENTS = "requirements-dev.txt"   # it includes the others with -r


def _project_modules() -> set[str]:
    """The repository's own top-level packages and modules (``irlib``, ``ui``, ``app``, …).

    The samples' generators (``assets/samples/shop.py``) count too: tests put their folder
    on ``sys.path``.
    """
    names = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    names |= {p.stem for p in [*ROOT.glob("*.py"), *ROOT.glob("assets/**/*.py")]}
    return names | {"pages"}


def _requirement_names(path: Path) -> set[str]:
    """Distribution names in a requirements file, following ``-r`` includes."""
    names: set[str] = set()
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("-r"):
            names |= _requirement_names(path.parent / line[2:].strip())
        elif not line.startswith("-"):
            names.add(_canonical(re.split(r"[\s\[<>=!~;]", line, maxsplit=1)[0]))
    return names


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _with_dependencies(names: set[str]) -> set[str]:
    """The named distributions and every distribution they declare, transitively.

    A declared dependency whose marker asks for an extra is left out: installing the
    distribution does not install it.
    """
    seen, todo = set(), list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        for requirement in requires:
            if re.search(r"\bextra\s*==", requirement):
                continue
            todo.append(_canonical(re.split(r"[\s\[<>=!~;(]", requirement, maxsplit=1)[0]))
    return seen


def _imports(path: Path) -> list[tuple[str, int]]:
    """Top-level package names of a file's absolute imports, with their line numbers."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name.split(".")[0], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.module.split(".")[0], node.lineno))
    return found


def _python_files() -> list[Path]:
    files = []
    for name in SCANNED:
        path = ROOT / name
        files += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return files


def missing_imports() -> list[str]:
    """``file:line: module`` for each import that no requirement provides."""
    allowed_distributions = _with_dependencies(_requirement_names(ROOT / REQUIREMENTS))
    providers = metadata.packages_distributions()
    own = _project_modules()
    problems = []
    for path in _python_files():
        for module, line in _imports(path):
            if module in sys.stdlib_module_names or module in own or module == "__future__":
                continue
            distributions = {_canonical(d) for d in providers.get(module, [])}
            if not distributions & allowed_distributions:
                where = f"{path.relative_to(ROOT)}:{line}"
                given = (f"installed here from {', '.join(sorted(distributions))}"
                         if distributions else "not installed here")
                problems.append(f"{where}: imports '{module}', which no requirements file "
                                f"names ({given})")
    return problems


def test_every_import_is_installed_by_the_requirements_files():
    problems = missing_imports()
    assert not problems, ("Add these to requirements.txt (the app) or requirements-dev.txt "
                          "(tests, benchmarks):\n" + "\n".join(problems))


def test_the_check_names_a_missing_package_and_where_it_is_imported(tmp_path, monkeypatch):
    """The guard itself can fail: a file importing a package nobody requires is reported."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import json\nimport pytest\nimport pandas\n"
        "def f():\n    import no_such_package_anywhere.api\n")
    (tmp_path / "requirements-dev.txt").write_text("pytest>=8\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "SCANNED", ["tests"])
    assert missing_imports() == [
        "tests/test_x.py:3: imports 'pandas', which no requirements file names "
        "(installed here from pandas)",
        "tests/test_x.py:5: imports 'no_such_package_anywhere', which no requirements file "
        "names (not installed here)"]
