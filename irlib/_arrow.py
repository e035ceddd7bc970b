"""pyarrow's compute kernels without importing ``pyarrow.compute``, for the command line.

``import pyarrow.compute`` wraps each of its ~300 functions in Python with a parsed
docstring: 0.03 s of CPU and 2 MiB of the command line's ~0.6 s on a 700,000-line run.
:func:`call_function` runs the same kernels by name without that import. Arrays go between
NumPy and Arrow through their buffers: ``pa.array`` and ``to_numpy`` look for pandas and
import it, which the command line does not otherwise need.

Examples
--------
>>> codes = int64_array(np.array([2, 0]))
>>> call_function("take", [int64_array(np.array([10, 11, 12])), codes]).to_pylist()
[12, 10]
>>> booleans(call_function("not_equal", [codes, int64_array(np.array([2, 1]))])).tolist()
[False, True]
"""
from __future__ import annotations

import numpy as np
import pyarrow as pa

try:
    from pyarrow._compute import CastOptions, SetLookupOptions, call_function
except ImportError:                                  # pragma: no cover (pyarrow moved them)
    from pyarrow.compute import CastOptions, SetLookupOptions, call_function

__all__ = ["CastOptions", "SetLookupOptions", "booleans", "call_function", "int64_array"]


def int64_array(values: np.ndarray) -> pa.Array:
    """NumPy integers as an Arrow int64 array (sharing the memory when already int64)."""
    values = np.ascontiguousarray(values, dtype=np.int64)
    return pa.Array.from_buffers(pa.int64(), len(values), [None, pa.py_buffer(values)])


def booleans(array: pa.Array) -> np.ndarray:
    """An Arrow boolean array without nulls as NumPy booleans (its bits unpacked)."""
    bits = np.frombuffer(array.buffers()[1], np.uint8)
    return np.unpackbits(bits, bitorder="little")[array.offset:array.offset + len(array)] \
        .view(bool)
