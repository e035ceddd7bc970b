"""Reading one file of the "Your own judgments" page, without Streamlit: its bytes to a frame
with the irlib reader of its slot (:func:`read_upload`), the size limit, the message for a
file that does not read, what a parsed file holds in a line, and file names for downloads.
:mod:`ui.upload.model` re-exports these names.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import pandas as pd

import irlib
from irlib import io as irio
from irlib import recsys


@dataclass(frozen=True)
class LoadedFile:
    """A file that parsed: its bytes (kept so settings such as the aggregate can re-read it)."""
    name: str
    data: bytes
    digest: str
    sample: bool = False

    @property
    def size_text(self) -> str:
        return size_text(len(self.data))


def size_text(nbytes: int) -> str:
    """A file's size as people say it.

    >>> size_text(512), size_text(3 << 20)
    ('512 bytes', '3.0 MB')
    """
    if nbytes < 1024:
        return f"{nbytes} bytes"
    if nbytes < 1 << 20:
        return f"{nbytes / 1024:.0f} KB"
    return f"{nbytes / (1 << 20):.1f} MB"


def read_upload(reader: str, name: str, data: bytes, aggregate: str = "median",
                columns: tuple = ()) -> pd.DataFrame:
    """Parse one file with the irlib reader for ``reader``; raises irlib.InputError.

    ``"judgments"`` is a qrels file or a ratings sheet, whichever the first lines look like.
    ``columns``: for recommender files, the (role, column) pairs the user chose (the rest
    are guessed from the header, :func:`irlib.recsys.guess_columns`).
    """
    if reader in RECSYS_READERS:
        return RECSYS_READERS[reader](data, name=name, columns=dict(columns) or None)
    if reader == "judgments":
        reader = "ratings" if irio.sniff_kind(data, name=name) == "ratings" else "qrels"
    if reader == "ratings":
        return irio.read_ratings(data, name=name, aggregate=aggregate)
    if reader == "qrels":
        return irio.read_qrels(data, name=name)
    if reader == "run":
        return irio.read_run(data, name=name)
    if reader == "table":
        return irio.read_table(data, name=name)
    raise ValueError(f"unknown reader {reader!r}")


RECSYS_READERS = {"recommendations": recsys.read_recommendations,
                  "interactions": recsys.read_interactions,
                  "categories": recsys.read_item_categories,
                  "catalogue": recsys.read_catalogue}
#: Which of irlib.recsys' column roles each recommender reader takes.
READER_ROLES = {"recommendations": "recommendations", "interactions": "interactions",
                "categories": "categories", "catalogue": "catalogue"}


def check_size(name: str, nbytes: int) -> str | None:
    """The message for a file over the upload limit, else None (checked before reading)."""
    limit = irio.MAX_UPLOAD_MB * (1 << 20)
    if nbytes > limit:
        return (f"{name}: the file is {size_text(nbytes)}; the limit is "
                f"{irio.MAX_UPLOAD_MB} MB. Split it (e.g. by query) or gzip it.")
    return None


def error_message(name: str, err: Exception) -> str:
    """What to tell the user about ``err``: irlib's messages already name file and line."""
    if isinstance(err, irlib.InputError):
        return str(err)
    if isinstance(err, ValueError):
        return f"{name}: {err}"
    # Anything else is a reader bug or an exotic file; still a message, never a crash.
    return f"{name}: could not be read ({type(err).__name__}: {err})"


def file_summary(reader: str, frame: pd.DataFrame) -> str:
    """What a parsed file holds, e.g. ``12 judgments, 3 queries``."""
    if reader in RECSYS_READERS:
        mapping = ", ".join(f"{role} = {column}" for role, column in
                            frame.attrs.get("columns", {}).items() if column)
        what = {"recommendations": "recommendations", "interactions": "interactions",
                "categories": "category rows", "catalogue": "catalogue items"}[reader]
        who = (f", {frame['user_id'].nunique():,} users" if "user_id" in frame.columns else
               f", {frame['item_id'].nunique():,} items")
        return f"{len(frame):,} {what}{who} (columns: {mapping})"
    n_queries = frame["query_id"].nunique()
    if "disagreement" in frame.columns:          # read_ratings adds it
        raters = sum(1 for c in frame.columns if re.fullmatch(r"rating_\d+", c.lower()))
        return f"{len(frame):,} rated results, {n_queries:,} queries, {raters} raters"
    if reader in ("qrels", "judgments"):
        return f"{len(frame):,} judgments, {n_queries:,} queries"
    tag = frame.attrs.get("run_id")
    return f"{len(frame):,} results, {n_queries:,} queries" + (f", tag {tag}" if tag else "")


def file_safe(text: str) -> str:
    """``text`` as part of a download's file name.

    >>> file_safe("run B (test)")
    'run_B_test'
    """
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_") or "system"
