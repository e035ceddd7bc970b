import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# The browser tests' apps are Streamlit scripts, not test modules: --doctest-modules must not
# import (and so run) them.
collect_ignore_glob = ["browser/apps/*.py"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With pytest-xdist's ``--dist loadgroup`` (the README's command), the tests of one
    session-wide service run on one worker: one Spark JVM, one shared rooms server; and the
    modules that cross-check against ranx, whose numba kernels each worker would compile
    again (15-22 s a kernel set on this machine)."""
    for item in items:
        for fixture in ("spark", "rooms"):
            if fixture in getattr(item, "fixturenames", ()):
                item.add_marker(pytest.mark.xdist_group(fixture))
        module = getattr(item, "module", None)
        if module is not None and getattr(module, "ranx", None) is not None \
                and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group("ranx"))


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
