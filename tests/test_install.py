"""irlib as an engineer installs it: a wheel built from this checkout, installed with its
dependencies into a fresh virtual environment outside the repository, holds irlib alone
(no app, no tests, no Streamlit), and its two commands print what the library prints here.

One wheel and one venv for the module (pip's download cache makes the install quick).
"""
from __future__ import annotations

import importlib.util
import io
import os
import re
import shutil
import subprocess
import sys
import zipfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "assets" / "samples"
TREC_EVAL = [SAMPLES / "qrels.txt", SAMPLES / "run_test.txt"]
RECSYS = [SAMPLES / "shop_test.csv", SAMPLES / "shop_recs_popular.tsv",
          SAMPLES / "shop_recs_mf.csv", "-k", "10", "--relevant-from", "4",
          "--train", SAMPLES / "shop_train.csv"]
#: One worker builds the wheel and the venv: split over both (xdist's loadgroup), each built
#: its own, 20-25 s more of the test run.
pytestmark = pytest.mark.xdist_group("install")


def _pip(*args, cwd: Path | None = None) -> None:
    """This Python's pip (``--python`` points it at the venv: no pip inside it needed)."""
    done = subprocess.run([sys.executable, "-m", "pip", "-q", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel, built from a copy of the checkout (a build leaves build/ and *.egg-info
    behind in its source folder; the copy keeps them out of the checkout). With setuptools
    and wheel at hand (a Python 3.11 venv has setuptools) no build venv is made: 6 s, not 25."""
    source = tmp_path_factory.mktemp("source") / "repo"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", "__pycache__", "build", "*.egg-info", ".pytest_cache", ".hypothesis"))
    out = tmp_path_factory.mktemp("wheel")
    have = all(importlib.util.find_spec(name) for name in ("setuptools", "wheel")) \
        and _at_least("setuptools", 77)          # pyproject's build requirement (PEP 639)
    _pip("wheel", "--no-deps", *(["--no-build-isolation"] if have else []), "-w", out, ".",
         cwd=source)
    (built,) = out.glob("irlib-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    """A fresh venv (none of this Python's packages) with the wheel and its dependencies,
    installed by this Python's pip without compiling them (the commands run once)."""
    folder = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True,
                   timeout=300)
    _pip("--python", folder / "bin" / "python", "install", "--no-compile", wheel)
    return folder / "bin"


def _at_least(distribution: str, major: int) -> bool:
    from importlib.metadata import version
    return int(version(distribution).split(".")[0]) >= major


def _in_venv(bin_folder: Path, *command) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PATH"] = f"{bin_folder}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run([str(c) for c in command], capture_output=True, text=True,
                          timeout=300, cwd=bin_folder.parent, env=env, check=False)


def _requirement(text: str) -> tuple:
    from packaging.requirements import Requirement
    requirement = Requirement(text)
    return requirement.name, requirement.specifier, str(requirement.marker)


def _in_process(main, argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


def test_the_wheel_holds_irlib_alone_with_its_dependencies(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names}
    assert tops == {"irlib", wheel.name.split("-")[0] + "-" + wheel.name.split("-")[1]
                    + ".dist-info"}, tops
    assert "irlib/py.typed" in names and "irlib/io/trec.py" in names
    assert not [n for n in names if re.match(r"(ui|pages|tests|static|app\.py)\b", n)]
    metadata = zipfile.ZipFile(wheel).read(
        next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    requires = {_requirement(line.split(": ", 1)[1])
                for line in metadata.splitlines() if line.startswith("Requires-Dist: ")}

    def ranges(file: str, names: set[str], extra: str = "") -> set[tuple]:
        lines = [line.split("#", 1)[0].strip()
                 for line in (ROOT / file).read_text().splitlines()]
        return {_requirement(line + extra) for line in lines
                if re.split(r"[<>=]", line)[0] in names}
    runtime = ranges("requirements.txt", {"numpy", "pandas", "scipy", "pyarrow"})
    spark = ranges("requirements-spark.txt", {"pyspark"}, '; extra == "spark"')
    judgments = ranges("requirements.txt", {"statsmodels", "krippendorff"},
                       '; extra == "judgments"')
    assert len(runtime) == 4 and len(spark) == 1 and len(judgments) == 2
    # the same ranges as the requirements files
    assert runtime | spark | judgments == requires
    scripts = zipfile.ZipFile(wheel).read(
        next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
    assert "irlib-trec-eval = irlib.cli.trec_eval:run" in scripts
    assert "irlib-recsys = irlib.cli.recsys:run" in scripts


def test_the_commands_print_what_irlib_prints_here(venv):
    from irlib.cli.trec_eval import main as trec_eval_main
    from irlib.cli.recsys import main as recsys_main
    for command, main, argv in (("irlib-trec-eval", trec_eval_main, TREC_EVAL),
                                ("irlib-recsys", recsys_main, RECSYS)):
        code, out, err = _in_process(main, argv)
        assert code == 0 and out
        got = _in_venv(venv, venv / command, *argv)
        assert (got.returncode, got.stdout, got.stderr) == (code, out, err), command
    module = _in_venv(venv, venv / "python", "-m", "irlib", *TREC_EVAL)
    assert module.stdout == _in_process(trec_eval_main, TREC_EVAL)[1]


def test_irlib_imports_without_the_apps_packages(venv):
    code = ("import importlib.util, irlib, irlib.recsys; "
            "assert irlib.__file__.startswith(sys.prefix), irlib.__file__; "
            "print(irlib.evaluate.__name__, importlib.util.find_spec('streamlit'), "
            "importlib.util.find_spec('plotly'), importlib.util.find_spec('ui'))")
    got = _in_venv(venv, venv / "python", "-c", "import sys; " + code)
    assert got.returncode == 0, got.stderr
    assert got.stdout.split() == ["evaluate", "None", "None", "None"]


def _metadata(wheel: Path) -> str:
    archive = zipfile.ZipFile(wheel)
    return archive.read(next(n for n in archive.namelist()
                             if n.endswith(".dist-info/METADATA"))).decode()


def test_the_wheel_carries_the_licence_and_the_version(wheel):
    import irlib
    names = zipfile.ZipFile(wheel).namelist()
    metadata = _metadata(wheel)
    assert "License-Expression: MIT" in metadata.splitlines()
    licence = [n for n in names if n.endswith("LICENSE") and ".dist-info/" in n]
    assert licence and b"MIT License" in zipfile.ZipFile(wheel).read(licence[0])
    assert f"Version: {irlib.__version__}" in metadata.splitlines()
    assert re.fullmatch(r"\d+\.\d+\.\d+", irlib.__version__)
    # the long description renders on a package index: no link relative to the checkout
    description = metadata.split("\n\n", 1)[1]
    assert "# irlib" in description
    relative = re.findall(r"\]\((?!https?://|#)([^)]*)\)", description)
    assert not relative, relative


def test_help_names_the_installed_commands_and_the_version_is_installed(venv):
    for command in ("irlib-trec-eval", "irlib-recsys"):
        got = _in_venv(venv, venv / command, "--help")
        assert got.returncode == 0, got.stderr
        text = " ".join(got.stdout.split())
        assert text.startswith(f"usage: {command} "), text[:80]
        assert "python -m" not in text
        assert not re.search(r"\.[;.:,](?!\.)|;\.", text.replace("...", "")), \
            re.search(r".{30}\.[;.:,].{10}", text.replace("...", ""))
    import irlib
    got = _in_venv(venv, venv / "python", "-c",
                   "import irlib, importlib.metadata as m; "
                   "print(irlib.__version__, m.version('irlib'))")
    assert got.stdout.split() == [irlib.__version__] * 2, got.stderr
