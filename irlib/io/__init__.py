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
from .ratings import read_ratings
from .sniff import sniff_kind
from .source import MAX_UPLOAD_MB
from .tables import read_table, to_run_from_positions
from .trec import read_qrels, read_run

__all__ = ["MAX_UPLOAD_MB", "read_qrels", "read_run", "read_ratings", "read_table",
           "to_run_from_positions", "sniff_kind"]
