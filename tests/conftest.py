import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# The browser tests' apps are Streamlit scripts, not test modules: --doctest-modules must not
# import (and so run) them.
collect_ignore_glob = ["browser/apps/*.py"]
