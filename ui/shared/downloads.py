"""CSV downloads that a spreadsheet opens as data, never as formulas (OWASP: CSV injection).

Query names and document ids in an uploaded run are text typed by strangers (search logs).
A cell such as ``=HYPERLINK("http://…","x")`` would run as a formula when a stakeholder
opens the downloaded table in Excel or LibreOffice. Spreadsheets read a cell as a formula
when it starts with ``=``, ``+``, ``-`` or ``@`` (tab and carriage return can hide such a
start), so those cells get a leading ``'``, which the spreadsheet shows as text. Numbers
such as ``-0.25`` or ``+3`` stay numbers.

Use ``csv_bytes(frame)`` as the data of ``st.download_button`` and show ``DOWNLOAD_NOTE``
next to the button.
"""
from __future__ import annotations

import re

import pandas as pd

#: One line for next to a download button.
DOWNLOAD_NOTE = ("Text cells that start with =, +, -, @, a tab or a line break get a leading ' "
                 "so that a spreadsheet shows them as text instead of running them as formulas; "
                 "a plain number such as +1 or -0.5 is left as it is.")

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def formula_safe(value: object) -> object:
    """``value`` with a leading ``'`` if a spreadsheet would read it as a formula.

    Only text is changed; text that is a plain number (``-1.5``, ``+3``, ``-2e-3``) is not.

    >>> formula_safe('=HYPERLINK("http://example.org","x")')
    '\\'=HYPERLINK("http://example.org","x")'
    >>> formula_safe("-0.25"), formula_safe("-1+1"), formula_safe("q-17"), formula_safe(-3)
    ('-0.25', "'-1+1", 'q-17', -3)
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def csv_bytes(frame: pd.DataFrame, *, index: bool = False) -> bytes:
    """UTF-8 CSV of ``frame`` with every text cell and column name made formula-safe.

    Numeric columns are written as they are; text columns (and the header) go through
    :func:`formula_safe`. Lines end in CRLF (RFC 4180), so a cell holding a lone CR is
    quoted instead of breaking its row.

    >>> table = pd.DataFrame({"query": ["cats", "@SUM(A1)"], "AP": [0.5, -0.25]})
    >>> csv_bytes(table).decode().splitlines()
    ['query,AP', 'cats,0.5', "'@SUM(A1),-0.25"]
    """
    safe = frame.copy()
    for column in safe.columns:
        if not pd.api.types.is_numeric_dtype(safe[column]):
            safe[column] = safe[column].map(formula_safe)
    safe.columns = [formula_safe(str(name)) for name in safe.columns]
    if index:
        safe.index = safe.index.map(formula_safe)
    return safe.to_csv(index=index, lineterminator="\r\n").encode("utf-8")
