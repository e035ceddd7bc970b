"""Column work a reader starts early and collects later, on the machine's other core.

A reader checks a file's cells one column after another on one core while pyarrow has
already finished parsing on two.  The id columns' hashes and codes do not depend on those
checks, and NumPy and pyarrow let go of the GIL in their loops, so they can run meanwhile
on another thread.  Only Arrow text columns are started early: their checked copy (see
:func:`~irlib.io.checks.check_ids`) has the very same bytes, so the early result is the
result for the checked column.  Any other column is worked on when the result is asked for.

Examples
--------
>>> import pandas as pd
>>> ids = pd.Series(["q1", "q2"], dtype="str")
>>> Soon(len, ids).result(ids)       # small: simply computed when asked for
2
"""
from __future__ import annotations

import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor

import pandas as pd
import pyarrow as pa

_MIN_ROWS = 1 << 16            # below this a thread costs more than it saves
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:                      # made on first use, not at import
            _pool = ThreadPoolExecutor(max_workers=max(1, (os.cpu_count() or 2) - 1),
                                       thread_name_prefix="irlib-reader")
        return _pool


class Soon:
    """``fn(column)``, started now on another thread when that pays (see the module)."""

    def __init__(self, fn, column: pd.Series):
        self._fn = fn
        arrow = getattr(column.array, "_pa_array", None)
        early = (isinstance(arrow, pa.ChunkedArray) and not arrow.null_count
                 and (pa.types.is_string(arrow.type) or pa.types.is_large_string(arrow.type))
                 and len(column) >= _MIN_ROWS)
        self._future: Future | None = _executor().submit(fn, column) if early else None

    def result(self, checked: pd.Series):
        """The result for ``checked``, the column as the reader's checks returned it."""
        return self._future.result() if self._future is not None else self._fn(checked)
