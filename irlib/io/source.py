"""Bytes in: a path, raw bytes or a file-like object, gunzipped, within the upload limit.

Only the bytes are handled here; what they mean (text encoding, columns) is decided by the
readers.  :func:`load_head` gives the first bytes only, for :func:`irlib.io.sniff_kind`.
"""
from __future__ import annotations

import gzip
import io
import os
import zlib
from pathlib import Path

import numpy as np

from .._common import InputError

#: Largest accepted upload (file-likes, bytes), in MB (2**20 bytes), before and after gunzip.
MAX_UPLOAD_MB = 200

_MB = 1 << 20
_GZIP_MAGIC = b"\x1f\x8b"


def _fmt_mb(nbytes: int) -> str:
    return f"{nbytes / _MB:.1f}".rstrip("0").rstrip(".")


def _too_big(name: str, nbytes: int | None, what: str = "file") -> InputError:
    size = f"over {MAX_UPLOAD_MB}" if nbytes is None else _fmt_mb(nbytes)
    return InputError(f"{what} is {size} MB; the limit is {MAX_UPLOAD_MB} MB", source=name)


def source_name(src, name: str | None) -> str:
    """The name used in messages: ``name``, else the path's or the object's file name."""
    if name:
        return str(name)
    if isinstance(src, (str, os.PathLike)):
        return Path(src).name
    obj_name = getattr(src, "name", None)
    if isinstance(obj_name, (str, os.PathLike)) and str(obj_name):
        return Path(obj_name).name
    return "input"


def _open_error(exc: OSError, name: str) -> InputError:
    if isinstance(exc, FileNotFoundError):
        return InputError("file not found", source=name)
    if isinstance(exc, IsADirectoryError):
        return InputError("is a folder, not a file", source=name)
    return InputError(f"cannot be read ({exc.strerror or exc})", source=name)


def _check_size(src, name: str) -> bool:
    """Refuse a file-like over the limit from its ``.size`` or seek/tell; whether seekable."""
    size = getattr(src, "size", None)          # Streamlit's UploadedFile has .size
    seekable = bool(getattr(src, "seekable", lambda: False)())
    if not isinstance(size, (int, np.integer)) or isinstance(size, bool):
        size = None
        if seekable:
            try:
                size = src.seek(0, io.SEEK_END)
            except (OSError, ValueError):
                size = None
    if size is not None and size > MAX_UPLOAD_MB * _MB:
        raise _too_big(name, int(size))
    if seekable:
        src.seek(0)                            # re-reading an upload on a rerun must work
    return seekable


def _read_stream(src, want: int) -> bytes:
    parts, total = [], 0
    while total < want:                        # raw streams may return short reads
        part = src.read(want - total)
        if not part:
            break
        if isinstance(part, str):
            part = part.encode("utf-8")
        parts.append(bytes(part))
        total += len(parts[-1])
    return b"".join(parts)


def _read_bytes(src, name: str) -> tuple[bytes, bool]:
    """The raw bytes of ``src`` and whether the upload limit applies (file-likes, bytes)."""
    limit = MAX_UPLOAD_MB * _MB
    if isinstance(src, (str, os.PathLike)):
        try:
            return Path(src).read_bytes(), False
        except OSError as exc:
            raise _open_error(exc, name) from None
    if isinstance(src, (bytes, bytearray, memoryview)):
        data = bytes(src)
        if len(data) > limit:
            raise _too_big(name, len(data))
        return data, True
    if not hasattr(src, "read"):
        raise TypeError(f"expected a path, bytes or a file-like object, got {type(src).__name__}")
    _check_size(src, name)
    data = _read_stream(src, limit + 1)
    if len(data) > limit:
        raise _too_big(name, None)
    return data, True


def _gunzip(data: bytes, name: str, limited: bool) -> bytes:
    if data[:2] != _GZIP_MAGIC:
        return data
    limit = MAX_UPLOAD_MB * _MB
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as fh:
            out = fh.read(limit + 1) if limited else fh.read()
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(f"not a valid gzip file ({exc})", source=name) from None
    if limited and len(out) > limit:
        raise _too_big(name, None, "decompressed file")
    return out


def load(src, name: str | None) -> tuple[bytes, str]:
    """All the (gunzipped) bytes of ``src`` and the name for messages."""
    name = source_name(src, name)
    data, limited = _read_bytes(src, name)
    return _gunzip(data, name, limited), name


def load_head(src, name: str | None, nbytes: int) -> tuple[bytes, str]:
    """The first ``nbytes`` (gunzipped) bytes of ``src``, reading no more than needed.

    File-like objects are rewound afterwards, so a reader can read them again.
    """
    name = source_name(src, name)
    if isinstance(src, (str, os.PathLike)):
        try:
            with open(src, "rb") as fh:
                raw = fh.read(nbytes)
                if raw[:2] == _GZIP_MAGIC:      # the compressed head may be longer
                    fh.seek(0)
                    return _gunzip_head(fh, name, nbytes), name
        except OSError as exc:
            raise _open_error(exc, name) from None
        return raw, name
    if isinstance(src, (bytes, bytearray, memoryview)):
        data = bytes(src[:nbytes]) if bytes(src[:2]) != _GZIP_MAGIC else bytes(src)
        if len(src) > MAX_UPLOAD_MB * _MB:
            raise _too_big(name, len(src))
        if data[:2] == _GZIP_MAGIC:
            return _gunzip_head(io.BytesIO(data), name, nbytes), name
        return data, name
    if not hasattr(src, "read"):
        raise TypeError(f"expected a path, bytes or a file-like object, got {type(src).__name__}")
    seekable = _check_size(src, name)
    raw = _read_stream(src, nbytes)
    if raw[:2] == _GZIP_MAGIC:
        if seekable:
            src.seek(0)
            head = _gunzip_head(src, name, nbytes)
        else:                                  # cannot go back: read the rest once
            head = _gunzip_head(io.BytesIO(raw + _read_stream(src, MAX_UPLOAD_MB * _MB)),
                                name, nbytes)
    else:
        head = raw
    if seekable:
        src.seek(0)
    return head, name


def _gunzip_head(fileobj, name: str, nbytes: int) -> bytes:
    try:
        with gzip.GzipFile(fileobj=fileobj) as fh:
            return fh.read(nbytes)
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(f"not a valid gzip file ({exc})", source=name) from None
