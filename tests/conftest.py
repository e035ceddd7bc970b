import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# The browser tests' apps are Streamlit scripts, not test modules: --doctest-modules must not
# import (and so run) them.
collect_ignore_glob = ["browser/apps/*.py"]


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
