"""Read qrels, runs, rating sheets and result tables into ir_measures-style DataFrames.

Every reader takes a path (``str`` / ``Path``; gzip is recognised by its magic bytes, so
``run.txt.gz`` just works), raw ``bytes``, or a binary/text file-like object such as
Streamlit's ``UploadedFile``.  Every problem with the *content* raises
:class:`irlib._common.InputError` naming the file, the 1-based line and the column, so the
app can show the message as is.

Column conventions (as in ir_measures): qrels ``query_id, doc_id, relevance``; runs
``query_id, doc_id, score``.  Ids are always strings (``"007"`` stays ``"007"``).

Text is UTF-8; a file that is not (Excel's Windows-1252 CSV, UTF-16 with a byte-order mark)
is still read, and the frame says how in ``frame.attrs["notes"]`` (a list of sentences,
absent when there is nothing to say) so that the app can show it.

Modules: :mod:`~irlib.io.source` (bytes in, size limit, gzip), :mod:`~irlib.io.decoding`
(text encodings), :mod:`~irlib.io.checks` (located errors), :mod:`~irlib.io.keys`
(repeated keys, hashed), :mod:`~irlib.io.trec`,
:mod:`~irlib.io.tables`, :mod:`~irlib.io.ratings`, :mod:`~irlib.io.sniff`.
"""
from __future__ import annotations

import importlib

# Imported on first use (PEP 562): the command line's TREC path (irlib.io.trec_columns)
# needs neither pandas nor the table readers.
_MODULE_OF = {"read_ratings": ".ratings", "sniff_kind": ".sniff", "MAX_UPLOAD_MB": ".source",
              "read_table": ".tables", "to_run_from_positions": ".tables",
              "read_qrels": ".trec", "read_run": ".trec"}

__all__ = ["MAX_UPLOAD_MB", "read_qrels", "read_run", "read_ratings", "read_table",
           "to_run_from_positions", "sniff_kind"]


def __getattr__(name: str):
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'irlib.io' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
