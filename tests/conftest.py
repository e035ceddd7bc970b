import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# The browser tests' apps are Streamlit scripts, not test modules: --doctest-modules must not
# import (and so run) them.
collect_ignore_glob = ["browser/apps/*.py"]


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]):
    """With pytest-xdist's ``--dist loadgroup`` (the README's command), the tests of one
    session-wide service run on one worker: one Spark JVM, one shared rooms server; and the
    modules that cross-check against ranx, whose numba kernels each worker would compile
    again (15-22 s a kernel set on this machine).

    A wrapper, so the marks are added before xdist's worker reads them (it appends the group
    to each test's id in its own hook of this name) and checked after it: twice the groups
    were silently split over both workers (two Spark JVMs, two ranx compilations), once
    because the marks came after xdist's hook, once because pytest 9.2 stopped letting xdist
    change a test's id (requirements-dev.txt pins pytest below it)."""
    for item in items:
        for fixture in ("spark", "rooms"):
            if fixture in getattr(item, "fixturenames", ()):
                item.add_marker(pytest.mark.xdist_group(fixture))
        module = getattr(item, "module", None)
        if module is not None and getattr(module, "ranx", None) is not None \
                and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group("ranx"))
    yield
    if getattr(config.option, "loadgroup", False):      # set on xdist's workers only
        split = [item.nodeid for item in items
                 if item.get_closest_marker("xdist_group") and "@" not in item.nodeid]
        if split:       # xdist's controller shows a worker's error only as a crash: say it
            message = (f"--dist loadgroup did not group {len(split)} tests (e.g. {split[0]}): "
                       "this pytest and pytest-xdist do not work together")
            print(message, file=sys.stderr, flush=True)
            raise pytest.UsageError(message)


@pytest.fixture(scope="session")
def spark():
    """The one local Spark session of the test run (tests/spark_session.py)."""
    from tests.spark_session import REQUIRED, java_missing_reason, start_session
    reason = java_missing_reason()
    if reason:
        if REQUIRED:
            pytest.fail(f"{reason} (IRLAB_SPARK_TESTS=required)", pytrace=False)
        pytest.skip(reason)
    session = start_session()
    yield session
    session.stop()
