"""irlib's public surface is its ``__all__``, documented in docs/irlib.md; the app's concerns
(how a number is printed, a measure's colour) live in ui/, not in the library's API."""
from __future__ import annotations

import re
import tomllib
import types
from pathlib import Path

import numpy as np
import pytest

import irlib
from irlib._common import fmt_number
from irlib.measures.registry import MEASURES, MeasureInfo

ROOT = Path(__file__).resolve().parents[1]


def test_all_is_exactly_the_public_names():
    public = {name for name in dir(irlib) if not name.startswith("_")
              and not isinstance(getattr(irlib, name), types.ModuleType)}
    assert public == set(irlib.__all__) - {"__version__"}
    assert len(irlib.__all__) == len(set(irlib.__all__))


def test_every_public_name_is_documented():
    docs = (ROOT / "docs" / "irlib.md").read_text(encoding="utf-8")
    undocumented = [name for name in irlib.__all__ if f"`{name}`" not in docs
                    and f"irlib.{name}" not in docs]
    assert not undocumented, undocumented
    for name in irlib.__all__:
        value = getattr(irlib, name)
        if callable(value):
            assert (value.__doc__ or "").strip(), name


def test_the_apps_concerns_are_not_in_the_library():
    assert not hasattr(irlib, "fmt")
    assert "colour" not in MeasureInfo.__dataclass_fields__
    from ui.shared.charts import METRIC_COLORS
    assert set(METRIC_COLORS) == set(MEASURES)
    assert all(re.fullmatch(r"#[0-9A-F]{6}", c) for c in METRIC_COLORS.values())


def test_the_version_is_one_constant_that_pyproject_reads():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["dynamic"] == ["version"]
    attr = project["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    module, _, name = attr.rpartition(".")
    assert getattr(__import__(module, fromlist=[name]), name) == irlib.__version__
    assert project["project"]["license"] == "MIT" and (ROOT / "LICENSE").exists()


@pytest.mark.parametrize("digits", [0, 1, 2, 3, 4])
def test_the_app_prints_numbers_as_the_explanations_do(digits):
    from ui.shared.numbers import fmt
    rng = np.random.default_rng(digits)
    values = np.concatenate([rng.random(500), rng.integers(0, 1000, 200) / 1000,
                             [0.125, 0.995, -0.004, 1.0, 2.5237, np.nan, np.inf]])
    assert all(fmt(x, digits) == fmt_number(x, digits) for x in values)
