"""Document ids of up to 8 bytes as 64-bit keys (irlib._codes.short_keys) in irlib.evaluate."""
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import irlib
import irlib._codes
import irlib.batch.engine
from irlib._codes import _chunk_keys, name_keys, short_keys

ALPHABET = ["a", "b", "\0", "é", "z", "0"]       # NUL and a 2-byte character too


def _random_ids(rng, n, longest=8):
    out = []
    while len(out) < n:
        text = "".join(rng.choice(ALPHABET, rng.integers(0, longest + 1)))
        if len(text.encode()) <= longest:
            out.append(text)
    return out


def _same_partition(keys, ids):
    """Equal keys exactly where the ids are equal."""
    codes, _ = pd.factorize(pd.Series(ids, dtype=object))
    pairs = pd.DataFrame({"k": keys, "c": codes}).drop_duplicates()
    return pairs["k"].is_unique and pairs["c"].is_unique


@pytest.mark.parametrize("arrow_type", [pa.string(), pa.large_string()])
def test_keys_are_equal_exactly_when_the_ids_are(arrow_type):
    rng = np.random.default_rng(3)
    ids = _random_ids(rng, 30_000)
    chunks = [pa.array(ids[:7], arrow_type), pa.array(ids[7:20_000], arrow_type),
              pa.array(["x"] + ids[20_000:], arrow_type).slice(1)]    # a sliced chunk
    series = pd.Series(pd.arrays.ArrowStringArray(pa.chunked_array(chunks)))
    keys = short_keys(series)
    assert keys is not None and _same_partition(keys, ids)
    assert short_keys(series) is keys                     # remembered, as codes are
    tiny = ["", "a", "a\0", "\0", "é"]                    # data shorter than one word
    tiny_keys = short_keys(pd.Series(tiny, dtype="str"))
    assert _same_partition(tiny_keys, tiny)


def test_longer_ids_have_no_keys():
    assert short_keys(pd.Series(["d1", "abcdefgh", "abcdefghi"], dtype="str")) is None
    assert short_keys(pd.Series(["d1", "d2"], dtype=object)) is None
    keys, fits = name_keys(pd.Index(["d1", "abcdefghi", "abcdefgh"], dtype="str"))
    assert fits.tolist() == [True, False, True]
    assert keys[0] == short_keys(pd.Series(["d1"], dtype="str"))[0]


def test_an_eight_byte_id_ending_in_a_byte_utf8_never_holds_has_no_key():
    # its bytes could read as a shorter id's key with its length: refused, not guessed
    data = b"abcdefg\xf9" + b"abcdefg"
    chunk = pa.Array.from_buffers(pa.binary(), 2, [None, pa.py_buffer(
        np.array([0, 8, 15], np.int32).tobytes()), pa.py_buffer(data)])
    out = np.empty(2, np.uint64)
    assert _chunk_keys(chunk, out, strict=True) is None
    assert _chunk_keys(chunk, out, strict=False).tolist() == [False, True]


def _random_frames(rng, n_queries=80, long_docs=False):
    run, qrels = [], []
    for q in range(n_queries):
        docs = list(dict.fromkeys(_random_ids(rng, 150, longest=12 if long_docs else 8)))
        scores = rng.integers(0, 12, len(docs)) / 4                  # many ties
        run += [(f"q{q}", d, s) for d, s in zip(docs, scores)]
        judged = rng.choice(len(docs), len(docs) // 4, replace=False)
        qrels += [(f"q{q}", docs[j], int(rng.integers(-1, 4))) for j in judged]
        qrels += [(f"q{q}", "not-retrieved-at-all", 1)]              # over 8 bytes
    run = pd.DataFrame(run, columns=["query_id", "doc_id", "score"])
    run = run.sample(frac=1, random_state=int(rng.integers(1000))).reset_index(drop=True)
    return pd.DataFrame(qrels, columns=["query_id", "doc_id", "relevance"]), run


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("options", [{}, {"depth": 20}, {"judged_only": True},
                                     {"complete": True}])
def test_keyed_and_coded_documents_score_the_same(monkeypatch, seed, options):
    """Ties broken by doc id (NUL and non-ASCII bytes too), judged documents longer than
    8 bytes, unjudged ones: the keys give what the dictionary codes give."""
    qrels, run = _random_frames(np.random.default_rng(seed))
    measures = ["P@5", "AP", "nDCG@10", "RR", "R@50", "bpref", "NumRet", "NumRelRet"]
    keyed = irlib.evaluate(qrels, run, measures, **options).per_query
    used = []
    real = irlib.batch.engine.short_keys
    monkeypatch.setattr(irlib.batch.engine, "short_keys",
                        lambda ids: used.append(1) or None)
    coded = irlib.evaluate(qrels, run, measures, **options).per_query
    assert used and real(run["doc_id"]) is not None
    pd.testing.assert_frame_equal(keyed, coded)


def test_a_run_with_longer_documents_is_coded_and_scores_the_same():
    # the same run with each document renamed to a short id in the same byte order
    qrels, run = _random_frames(np.random.default_rng(4), long_docs=True)
    assert short_keys(run["doc_id"]) is None
    docs = sorted(set(run["doc_id"]), key=str.encode)
    alias = {d: f"d{i:06d}" for i, d in enumerate(docs)}
    renamed_run = run.assign(doc_id=run["doc_id"].map(alias))
    renamed_qrels = qrels.assign(doc_id=[alias.get(d, d) for d in qrels["doc_id"]])
    assert short_keys(renamed_run["doc_id"]) is not None
    measures = ["AP", "nDCG@10", "P@5", "RR"]
    pd.testing.assert_frame_equal(irlib.evaluate(qrels, run, measures).per_query,
                                  irlib.evaluate(renamed_qrels, renamed_run, measures).per_query)


def test_a_repeated_keyed_document_is_refused():
    qrels, run = _random_frames(np.random.default_rng(5))
    repeated = pd.concat([run, run.iloc[[17]]], ignore_index=True)
    q, d = run.iloc[17][["query_id", "doc_id"]]
    with pytest.raises(ValueError, match=f"run has duplicate rows 17 and {len(run)}: "
                                         f"query {q!r}, doc {d!r}"):
        irlib.evaluate(qrels, repeated, ["AP"])


def _reference_key(data: bytes) -> int:
    """A key as documented: the bytes little-endian, ``0xF8 | length`` on top when shorter."""
    value = int.from_bytes(data, "little")
    return value if len(data) == 8 else value | (0xF8 | len(data)) << 56


def _chunk_at(ids, arrow_type, shift, slice_from=0):
    """``ids`` as an Arrow array whose data starts ``shift`` bytes past an aligned address
    (and ``slice_from`` rows of padding sliced off): ids read in place and from copies."""
    data = b"".join(i.encode() for i in ids)
    width = np.int64 if arrow_type == pa.large_string() else np.int32
    lengths = [len(i.encode()) for i in ids]
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(width) + shift
    buffer = pa.py_buffer(bytes(64) + bytes(shift) + data)[64:]   # aligned + shift bytes
    assert buffer.address % 8 == 0
    chunk = pa.Array.from_buffers(arrow_type, len(ids), [None, pa.py_buffer(
        offsets.tobytes()), buffer])
    return chunk.slice(slice_from)


@pytest.mark.parametrize("arrow_type", [pa.string(), pa.large_string()])
@pytest.mark.parametrize("shift", [0, 1, 3, 7, 8, 13])
def test_keys_are_the_ids_bytes_at_every_address(arrow_type, shift):
    """Every key equals its definition, wherever the data sits: buffers at each address
    mod 8, ids of each length 0-8 at each byte of a word, the last id ending at the
    buffer's end, empty ids at both ends, sliced arrays, long ids only without ``strict``."""
    rng = np.random.default_rng(shift)
    for longest, strict in ((8, True), (12, False)):
        ids = [""] * 3 + _random_ids(rng, 3000, longest) + ["ÿ"] + [""] * 2
        ids += ["abcdefgh"]                               # the buffer ends with an 8-byte id
        for start in (0, 5):
            chunk = _chunk_at(ids, arrow_type, shift, start)
            out = np.zeros(len(chunk), np.uint64)
            fits = _chunk_keys(chunk, out, strict=strict)
            assert fits is not None
            raws = [i.encode() for i in ids[start:]]
            assert fits.tolist() == [len(r) <= 8 for r in raws]
            expected = [_reference_key(r) if len(r) <= 8 else None for r in raws]
            assert [int(k) if f else None for k, f in zip(out, fits)] == expected


def test_keys_of_a_chunked_column_and_of_names_agree():
    rng = np.random.default_rng(11)
    ids = _random_ids(rng, 40_000)
    column = pa.chunked_array([pa.array(["x"] + ids[:12_345], pa.large_string()).slice(1),
                               pa.array(ids[12_345:], pa.large_string())])
    keys = short_keys(pd.Series(pd.arrays.ArrowStringArray(column)))
    assert keys.tolist() == [_reference_key(i.encode()) for i in ids]
    names, fits = name_keys(pd.Index(ids[:50] + ["a" * 9], dtype="str"))
    assert fits[:50].all() and not fits[50]
    assert names[:50].tolist() == keys[:50].tolist()
