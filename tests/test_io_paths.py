"""The readers' two paths agree: the fast one (pyarrow, whole-column checks) gives exactly the
frame the careful one (per-line field counts, pandas) gives, and every file the fast path
refuses still gets the careful path's located message.  Also: text decoding and its notes,
and sniffing from the first bytes only.
"""
from __future__ import annotations

import gzip
import io

import numpy as np
import pandas as pd
import pytest

from irlib._common import InputError
from irlib.io import read_qrels, read_ratings, read_run, read_table, sniff_kind
from irlib.io import tables, trec
from irlib.io.decoding import CP1252_NOTE, UTF16_NOTE, decode_text

RUN_LAYOUTS = {6: ([0, 2, 4], "qid Q0 docno rank score tag"), 3: ([0, 1, 2], "qid docno score")}
QRELS_LAYOUTS = {4: ([0, 2, 3], "qid iter docno rel"), 3: ([0, 1, 2], "qid docno rel")}


def raises_exactly(call, message: str) -> InputError:
    """Run ``call()``; it must raise InputError with exactly ``message``."""
    with pytest.raises(InputError) as info:
        call()
    assert str(info.value) == message
    return info.value


def both_paths(data: bytes, layouts=RUN_LAYOUTS, value="score"):
    """(fast frame or None, careful frame) for already-decoded text."""
    fast = trec._read_trec_fast(data, layouts, value)
    careful = trec._read_trec_located(data, "f.txt", layouts=layouts, value=value,
                                      other={4: "qrels"} if value == "score" else {6: "run"})
    return fast, careful


# --------------------------------------------------------------------------- TREC: same frames

@pytest.mark.parametrize("data", [
    b"q1 Q0 d1 1 2.5 t\nq1 Q0 d2 2 1.5 t\n",
    b"q1\tQ0\td1\t1\t2.5\tt\nq1\tQ0\td2\t2\t1.5\tt\n",                # tabs
    b"q1  Q0   d1 1 2.5 t\nq1 Q0 d2\t \t2 1.5 t\n",                   # runs of whitespace
    b"  q1 Q0 d1 1 2.5 t  \n\tq1 Q0 d2 2 1.5 t\t\n",                  # leading / trailing
    b"\n\n  \n\t\nq1 Q0 d1 1 2.5 t\n   \n\nq1 Q0 d2 2 1.5 t",          # blank lines, no final \n
    b"007 Q0 1.0 1 3 t\n007 Q0 1e3 2 2 t\n0.50 Q0 NaN 3 1 t\n",       # ids that look like numbers
    b"-0 Q0 +1 1 -0 t\nnull Q0 NA 2 1e-300 t\nTrue Q0 None 3 .5 t\n",
    b'"q1" Q0 "d 1 2 t\n#q Q0 #d 1 1 #\n',                         # quotes and #, literal
    (b"q" * 5000 + b" Q0 " + b"d" * 5000 + b" 1 1 t\n"),              # huge ids
    b"q\x0b1 Q0 d\x0c1 1 1 t\n",                                       # only space/tab split
    b"q1 d1 0.1\nq1 d2 0.30000000000000004\nq1 d3 1.7976931348623157e308\n",
    b"q1 d1 123456789012345678901234567890\nq1 d2 -1E-5\n",
])
def test_run_fast_path_equals_careful_path(data):
    fast, careful = both_paths(data)
    assert fast is not None, "the fast path should take this well-formed file"
    pd.testing.assert_frame_equal(fast, careful, check_exact=True)
    assert fast["query_id"].tolist() == careful["query_id"].tolist()


def test_ids_stay_exactly_as_written():
    df = read_run(b"007 Q0 1.0 1 3 t\n1e3 Q0 0x10 2 2 t\n", name="r.txt")
    assert df["query_id"].tolist() == ["007", "1e3"]
    assert df["doc_id"].tolist() == ["1.0", "0x10"]
    qrels = read_qrels(b"007 0 1.0 1\n007 0 1.00 2\n", name="q.txt")   # "1.0" != "1.00"
    assert qrels["doc_id"].tolist() == ["1.0", "1.00"]
    assert qrels["relevance"].tolist() == [1, 2]


@pytest.mark.parametrize("data", [
    b"q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 -1\n",
    b"q1 d1 1.0\nq1 d2 007\n",                                        # whole floats, leading 0
    b"q1 0 d1 9007199254740992\n",                                    # 2**53: still exact
])
def test_qrels_fast_path_equals_careful_path(data):
    fast, careful = both_paths(data, QRELS_LAYOUTS, "relevance")
    assert fast is not None
    pd.testing.assert_frame_equal(fast, careful, check_exact=True)
    assert fast["relevance"].dtype == np.int64


def test_random_whitespace_files_agree():
    rng = np.random.default_rng(7)
    seps = [b" ", b"  ", b"\t", b" \t "]
    for _ in range(30):
        lines = []
        for i in range(int(rng.integers(1, 40))):
            fields = [f"q{rng.integers(3)}".encode(), b"Q0", f"d{i}".encode(),
                      str(i + 1).encode(), f"{rng.normal():.{rng.integers(1, 18)}g}".encode(),
                      b"tag"]
            line = b"".join(f + seps[rng.integers(len(seps))] for f in fields[:-1]) + fields[-1]
            if rng.random() < 0.2:
                line = b" \t"[rng.integers(2):] + line + b" "
            lines.append(line)
            if rng.random() < 0.1:
                lines.append(b" " * int(rng.integers(3)))
        data = b"\n".join(lines) + (b"\n" if rng.random() < 0.5 else b"")
        fast, careful = both_paths(data)
        assert fast is not None
        pd.testing.assert_frame_equal(fast, careful, check_exact=True)


@pytest.mark.parametrize("line", [b"q1  d2 2 1 t", b"q1 Q0 d2 2 1 ", b"q1 Q0 d2  1 t",
                                  b" Q0 d2 2 1 t"])
def test_fast_path_refuses_a_missing_field_it_does_not_keep(line):
    """Q0, rank and tag are not kept, yet a line without one is not read as if it had it."""
    data = b"q1 Q0 d1 1 2 t\n" + line + b"\n"
    assert trec._parse_single_spaced(data, 6, [0, 2, 4]) is None
    raises_exactly(lambda: read_run(data, name="r.txt"),
                   "r.txt, line 2: expected 6 columns (qid Q0 docno rank score tag), found 5")


# --------------------------------------------------------------------------- TREC: same errors

@pytest.mark.parametrize("data, line, message", [
    # a bad line at the very end, with and without a final newline
    (b"q1 Q0 d1 1 2 t\nq1 Q0 d2 2 1 t\nq1 Q0 d3 3 x t\n", 3,
     "run.txt, line 3, column 5: score 'x' is not a number"),
    (b"q1 Q0 d1 1 2 t\nq1 Q0 d2 2 1 t\nq1 Q0 d3 3 x t", 3,
     "run.txt, line 3, column 5: score 'x' is not a number"),
    (b"q1 Q0 d1 1 2 t\nq1 Q0 d2 2 1", 2,
     "run.txt, line 2: expected 6 columns (qid Q0 docno rank score tag), found 5"),
    # 5 / 7 fields on a later line, 5 on the first
    (b"q1 Q0 d1 1 2 t\n\nq1 Q0 d2 2 1\n", 3,
     "run.txt, line 3: expected 6 columns (qid Q0 docno rank score tag), found 5"),
    (b"q1 Q0 d1 1 2 t\nq1 Q0 d2 2 1 t x\nq1 Q0 d3 3 1\n", 3,
     "run.txt, line 3: expected 6 columns (qid Q0 docno rank score tag), found 5"),
    (b"q1 Q0 d1 1 2\n", 1, "run.txt, line 1: expected 6 columns (qid Q0 docno rank score "
                           "tag) or 3 columns (qid docno score), found 5"),
    # a duplicate far from its first occurrence, in a tab-separated file
    (b"q1\tQ0\td1\t1\t2\tt\r\nq2\tQ0\td1\t1\t2\tt\r\nq1\tQ0\td1\t3\t1\tt\r\n", 3,
     "run.txt, line 3, column 3: document 'd1' is listed twice for query 'q1' (first on line 1)"),
    # a value pyarrow reads but the checks refuse
    (b"q1 Q0 d1 1 2 t\nq1 Q0 d2 2 inf t\n", 2,
     "run.txt, line 2, column 5: score 'inf' is not a finite number"),
    (b"q1 Q0 d1 1 2 t\nq1 Q0 d2 2 nan t\n", 2,
     "run.txt, line 2, column 5: score 'nan' is not a finite number"),
    # BOM + CRLF + whitespace runs before the bad line
    (b"\xef\xbb\xbfq1  Q0 d1 1 2 t\r\n \r\nq1 Q0 d2 2 1,5 t\r\n", 3,
     "run.txt, line 3, column 5: score '1,5' is not a number"),
])
def test_run_errors_are_located_as_before(data, line, message):
    assert raises_exactly(lambda: read_run(data, name="run.txt"), message).line == line


@pytest.mark.parametrize("data, message", [
    (b"q1 0 d1 1\nq1 0 d2 2.5\n", "q.txt, line 2, column 4: relevance '2.5' is not a whole number"),
    (b"q1 0 d1 1\nq1 0 d2 1e300\n", f"q.txt, line 2, column 4: relevance {1e300:.0f} is too large"),
])
def test_qrels_errors_are_located_as_before(data, message):
    raises_exactly(lambda: read_qrels(data, name="q.txt"), message)


# --------------------------------------------------------------------------- tables: same frames

TABLES = [
    b"query_id,doc_id,score\n007,1.0,3\n007,1.00,2\n",
    b"Query_ID;Doc_ID;Position;note\n1;a;1;x\n1;b;2;\n",               # empty extra cell
    b"query_id\tdoc_id\tscore\tflag\tn\n1\ta\t0.5\tTrue\t1\n1\tb\t0.25\tFalse\t2.5\n",
    b"\n\nquery_id,doc_id,score,relevance\n1,a,1,0\n,,,\n1,b,2,1\n",    # all-empty row dropped
    b"query_id,doc_id,score,big\n1,a,1,123456789012345678901234567890\n1,b,2,1\n",
    b"query_id,doc_id,position,title\n1,a,1,\"quoted, with comma\"\n1,b,2,plain\n",
]


@pytest.mark.parametrize("data", TABLES)
def test_table_plain_path_equals_pandas_path(data, monkeypatch):
    fast = read_table(data, name="t.csv")
    monkeypatch.setattr(tables, "_parse_plain", lambda *a, **k: None)
    careful = read_table(data, name="t.csv")
    pd.testing.assert_frame_equal(fast, careful, check_exact=True)


NUMBER_CELLS = ["+5", "-0", "007", ".5", "1e3", "1.5E-2", "inf", "-inf", "nan", "NaN", "",
                "9223372036854775807", "9223372036854775808", "1e19", "True", "x", " 5",
                "2024-01-01", "0x10", "1_000"]


@pytest.mark.parametrize("cell", NUMBER_CELLS)
@pytest.mark.parametrize("column", ["score", "position", "relevance", "extra"])
def test_table_number_columns_agree_or_fail_alike(cell, column, monkeypatch):
    """pyarrow reads the number columns on the fast path: same frame or same message."""
    values = {"score": "1", "position": "1", "relevance": "0", "extra": "1", column: cell}
    header = "query_id,doc_id,score,position,relevance,extra\n"
    data = (header + "q,a,{score},{position},{relevance},{extra}\nq,b,0.5,2,1,2\n"
            .format(**values)).encode()

    def outcome():
        try:
            return read_table(data, name="t.csv")
        except InputError as exc:
            return str(exc)

    fast = outcome()
    monkeypatch.setattr(tables, "_parse_plain", lambda *a, **k: None)
    careful = outcome()
    assert type(fast) is type(careful), (fast, careful)
    if isinstance(careful, str):
        assert fast == careful
    else:
        pd.testing.assert_frame_equal(fast, careful, check_exact=True)


@pytest.mark.parametrize("reader, data, message", [
    (read_run, b"q1 Q0 d1 1 2 t\nq2 Q0 d1 1 2 t\nq1 Q0 d2 2 1 t\nq1 Q0 d1 3 0 t\n",
     "r.txt, line 4, column 3: document 'd1' is listed twice for query 'q1' (first on line 1)"),
    (read_qrels, b"1 0 a 1\n2 0 a 1\n1 0 abcdefghijklmnopq 0\n1 0 abcdefghijklmnopq 1\n",
     "r.txt, line 4, column 3: document 'abcdefghijklmnopq' is listed twice for query '1' "
     "(first on line 3)"),
    (read_table, b"query_id,doc_id,position\n1,a,1\n2,a,1\n1,b,2\n1,c,2\n",
     "r.txt, line 5, column position: position 2 is used twice for query '1' (first on line 4)"),
    (read_ratings, b"queryid,query,document,position,rating_1\n1,x,a,1,0\n1,x,b,2,1\n"
     b"2,y,a,1,2\n1,x,a,3,1\n",
     "r.txt, line 5, column document: document 'a' is rated twice for query 'x' (first on line 2)"),
])
def test_duplicates_found_by_the_hash_check_are_named(reader, data, message):
    raises_exactly(lambda: reader(data, name="r.txt"), message)


def test_hash_check_agrees_with_pandas_on_random_keys():
    """Ids that differ only after 8 bytes, in length, or by a NUL-free suffix."""
    from irlib.io.checks import codes
    from irlib.io.keys import maybe_repeated
    rng = np.random.default_rng(5)
    for _ in range(200):
        n = int(rng.integers(2, 80))
        queries = pd.Series(rng.choice(["q", "q1", "query-long-name"], n), dtype="str")
        docs = pd.Series(["abcdefgh" * int(rng.integers(0, 3)) + str(rng.integers(0, 9))
                          for _ in range(n)], dtype="str")
        expected = pd.DataFrame({"q": queries, "d": docs}).duplicated().any()
        assert maybe_repeated(codes(queries)[0], [docs]) == expected


def test_ratings_plain_path_equals_pandas_path(monkeypatch):
    data = (b"queryid,query,document,position,rating_1,rating_2,comment\n"
            b"007,boots,1.0,1,0,1.5,ok\n007,boots,d2,2,3,2,\n8,caf\xc3\xa9,d2,1,1,1,x\n")
    fast = read_ratings(data, name="r.csv")
    monkeypatch.setattr(tables, "_parse_plain", lambda *a, **k: None)
    careful = read_ratings(data, name="r.csv")
    pd.testing.assert_frame_equal(fast, careful, check_exact=True)
    assert fast["query_id"].tolist() == ["007", "007", "8"]
    assert fast["doc_id"].tolist() == ["1.0", "d2", "d2"]


@pytest.mark.parametrize("data, message", [
    (b"query_id,doc_id,score\n1,a,1\n1,b\n", "t.csv, line 3: expected 3 columns (as in the "
                                             "header), found 2"),
    (b"query_id,doc_id,score\n1,a,1\n1,b,2,9", "t.csv, line 3: expected 3 columns (as in the "
                                               "header), found 4"),
    (b"query_id,doc_id,score\n1,a,1\n\n1,b,x\n", "t.csv, line 4, column score: score 'x' is "
                                                 "not a number"),
    (b"query_id,doc_id,score\r\n1,a,1\r\n1,a,2\r\n", "t.csv, line 3, column doc_id: document 'a' is listed "
                                                     "twice for query '1' (first on line 2)"),
])
def test_table_errors_are_located_as_before(data, message):
    raises_exactly(lambda: read_table(data, name="t.csv"), message)


# --------------------------------------------------------------------------- decoding

def test_cp1252_is_read_with_a_note():
    text = "query_id,doc_id,score,title\nq1,a,1,Café – “quoted”\n"
    df = read_table(text.encode("cp1252"), name="excel.csv")
    assert df.loc[0, "title"] == "Café – “quoted”"
    assert df.attrs["notes"] == [CP1252_NOTE]
    assert "notes" not in read_table(text.encode("utf-8"), name="u.csv").attrs
    run = read_run("q1 Q0 caf\xe9 1 1 t\n".encode("cp1252"), name="r.txt")
    assert run.loc[0, "doc_id"] == "café" and run.attrs["notes"] == [CP1252_NOTE]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_needs_its_bom(encoding):
    text = "queryid,query,document,position,rating_1\r\n1,café,d1,1,2\r\n"
    data = text.encode(encoding)
    if encoding == "utf-16":                   # with a BOM: read, with a note
        df = read_ratings(data, name="r.csv")
        assert df.loc[0, "query"] == "café" and df.attrs["notes"] == [UTF16_NOTE]
    else:                                      # without: NUL bytes, so binary
        with pytest.raises(InputError, match=r"^r\.csv, line 1: contains a NUL byte"):
            read_ratings(data, name="r.csv")


def test_utf16_with_a_cut_off_character_is_located():
    data = "q1 0 d1 1\nq1 0 d2 1\n".encode("utf-16")[:-1]
    with pytest.raises(InputError, match=r"^q\.txt, line 2: not valid UTF-16 text"):
        read_qrels(data, name="q.txt")


@pytest.mark.parametrize("data, message", [
    (b"q1 0 d1 1\nq1 0 \x9d 1\n", "f, line 2: not UTF-8 or Windows-1252 text (byte 0x9D); "
                                  "save the file as UTF-8"),
    (b"q1 0 d1 1\n\xff\xd8\xff\xe0\x10JFIF\x01\n", "f, line 2: contains control characters: "
                                                  "this is a binary file, not text"),
    (b"q1 0 d1 1\nq1\x00 0 d2 1\n", "f, line 2: contains a NUL byte: this is a binary file, "
                                    "not text"),
    (b"PK\x03\x04\x14\x00", "f, line 1: this is a zip or Excel file, not text; export it as "
                            "CSV or plain text (UTF-8)"),
])
def test_binary_and_undecodable_files(data, message):
    raises_exactly(lambda: decode_text(data, "f"), message)


def test_utf8_with_control_characters_stays_accepted():
    # valid UTF-8 is read as before, even with odd control characters inside an id
    assert decode_text(b"q\x01 0 d 1\n", "f") == (b"q\x01 0 d 1\n", ())


def test_bom_then_cp1252():
    assert decode_text(b"\xef\xbb\xbfcaf\xe9\r\n", "f") == ("café\n".encode(), (CP1252_NOTE,))


# --------------------------------------------------------------------------- sniffing

class CountingReader(io.BytesIO):
    def __init__(self, data: bytes, name: str):
        super().__init__(data)
        self.name = name
        self.bytes_read = 0

    def read(self, n=-1):
        out = super().read(n)
        self.bytes_read += len(out)
        return out


@pytest.mark.parametrize("compress", [False, True])
def test_sniff_reads_only_the_head(compress):
    lines = b"".join(f"q{i // 100} Q0 d{i} {i % 100 + 1} {1 / (i + 1):.6f} t\n".encode()
                     for i in range(200_000))
    data = gzip.compress(lines) if compress else lines
    up = CountingReader(data, "run.txt.gz" if compress else "run.txt")
    assert sniff_kind(up) == "run"
    # gzip reads its input in blocks of up to 128 KiB; the file is much larger
    assert up.bytes_read <= 200_000 and len(data) > 500_000
    assert up.tell() == 0                     # rewound for the reader
    assert len(read_run(up)) == 200_000


def test_sniff_paths_bytes_and_utf16(tmp_path):
    p = tmp_path / "q.txt.gz"
    p.write_bytes(gzip.compress(b"q1 0 d1 1\nq1 0 d2 0\n"))
    assert sniff_kind(p) == "qrels"
    assert sniff_kind("queryid,query,document,position,rating_1\n".encode("utf-16")) == "ratings"
    with pytest.raises(InputError, match="file not found"):
        sniff_kind(tmp_path / "missing.txt")
    with pytest.raises(InputError, match="gzip"):
        sniff_kind(b"\x1f\x8b\x08\x00garbage", name="bad.gz")
