"""Bytes to text: UTF-8 (with or without BOM), else UTF-16 with a BOM, else Windows-1252.

Excel on Windows saves "CSV" as Windows-1252 (cp1252) and "Unicode text" as UTF-16 with a
byte-order mark, so both are read, with a note saying so (the readers put the notes in
``frame.attrs["notes"]``).  Binary files (a NUL byte, control characters, a zip/xlsx
container) are refused with a message naming the line.

Examples
--------
>>> text, notes = decode_text("café 1\\r\\n".encode("cp1252"), "r.txt")
>>> text.decode("utf-8"), notes == (CP1252_NOTE,)
('café 1\\n', True)
>>> decode_text(b"\\xef\\xbb\\xbfq1 0 d1 1\\n", "q.txt")
(b'q1 0 d1 1\\n', ())
"""
from __future__ import annotations

import re

from .._common import InputError

CP1252_NOTE = ("not UTF-8: read as Windows-1252 (cp1252), as Excel saves CSV files on "
               "Windows; if letters look wrong, save the file as UTF-8")
UTF16_NOTE = "read as UTF-16 text (it starts with a UTF-16 byte-order mark)"

_UTF8_BOM = b"\xef\xbb\xbf"
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
# C0 controls that do not occur in text (TAB, LF, VT, FF, CR and DOS's end-of-file ^Z do).
_CONTROL = re.compile(rb"[\x00-\x08\x0e-\x19\x1b-\x1f]")


def line_of(data: bytes, offset: int) -> int:
    """The 1-based line of byte ``offset``."""
    return data.count(b"\n", 0, offset) + 1


def _binary(data: bytes, offset: int, name: str, what: str) -> InputError:
    return InputError(f"contains {what}: this is a binary file, not text",
                      source=name, line=line_of(data, offset))


def _from_utf16(data: bytes, name: str) -> bytes:
    try:
        text = data.decode("utf-16")           # the BOM says which byte order
    except UnicodeDecodeError as exc:
        line = data[:exc.start].decode("utf-16", errors="ignore").count("\n") + 1
        raise InputError(f"not valid UTF-16 text ({exc.reason}); save the file as UTF-8",
                         source=name, line=line) from None
    return text.encode("utf-8")


def decode_text(data: bytes, name: str) -> tuple[bytes, tuple[str, ...]]:
    """UTF-8 bytes without BOM and with ``\\n`` line ends, and notes on how they were read.

    Raises
    ------
    InputError
        For a zip/Excel file, a binary file, or bytes that are neither UTF-8 nor cp1252.
    """
    notes: tuple[str, ...] = ()
    if data.startswith(_UTF8_BOM):
        data = data[3:]
    elif data.startswith(_UTF16_BOMS):
        data, notes = _from_utf16(data, name), (UTF16_NOTE,)
    if data.startswith(b"PK\x03\x04"):
        raise InputError("this is a zip or Excel file, not text; export it as CSV "
                         "or plain text (UTF-8)", source=name, line=1)
    nul = data.find(b"\x00")
    if nul >= 0:
        raise _binary(data, nul, name, "a NUL byte")
    if not data.isascii():                     # isascii is much cheaper than a decode
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            data, notes = _from_cp1252(data, name), notes + (CP1252_NOTE,)
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return data, notes


def head_text(head: bytes) -> str:
    """The first bytes of a file as text for a guess (the readers decode for real): the
    byte-order mark dropped, UTF-16 or UTF-8 with bad bytes replaced, ``\\n`` line ends.

    >>> head_text(b"\\xef\\xbb\\xbfuid,iid\\r\\n7,")
    'uid,iid\\n7,'
    """
    if head.startswith(_UTF8_BOM):
        head = head[3:]
    if head.startswith(_UTF16_BOMS):
        text = head[:len(head) // 2 * 2].decode("utf-16", errors="replace")
    else:
        text = head.decode("utf-8", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _from_cp1252(data: bytes, name: str) -> bytes:
    control = _CONTROL.search(data)
    if control is not None:                    # not UTF-8 and not text either
        raise _binary(data, control.start(), name, "control characters")
    try:
        return data.decode("cp1252").encode("utf-8")
    except UnicodeDecodeError as exc:          # 0x81, 0x8D, 0x8F, 0x90, 0x9D are unused
        bad = data[exc.start:exc.start + 1].hex().upper()
        raise InputError(f"not UTF-8 or Windows-1252 text (byte 0x{bad}); save the file "
                         "as UTF-8", source=name, line=line_of(data, exc.start)) from None
