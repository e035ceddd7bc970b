"""Id codes remembered between reading a run and evaluating it (irlib/_codes.py)."""
import gc
import itertools

import numpy as np
import pandas as pd
import pytest

import irlib
import irlib._codes
from irlib.io import read_qrels, read_run


def _files(n_queries=30, n_docs=500):
    rng = np.random.default_rng(21)
    run_lines, qrels_lines = [], []
    for q in range(n_queries):
        docs = rng.permutation(5000)[:n_docs]
        scores = np.sort(rng.integers(0, 200, n_docs))[::-1] / 8    # ties
        run_lines += [f"q{q} Q0 d{d} {i + 1} {s} t\n" for i, (d, s) in
                      enumerate(zip(docs, scores))]
        qrels_lines += [f"q{q} 0 d{d} {rng.integers(0, 3)}\n" for d in docs[::7]]
    return "".join(qrels_lines).encode(), "".join(run_lines).encode()


def test_evaluating_a_read_run_reuses_the_readers_query_codes(monkeypatch):
    qrels_bytes, run_bytes = _files()
    qrels, run = read_qrels(qrels_bytes), read_run(run_bytes)
    encoded = []
    real = irlib._codes._encode
    monkeypatch.setattr(irlib._codes, "_encode", lambda arrow, grouped: encoded.append(
        irlib._codes._fingerprint(arrow)) or real(arrow, grouped))
    measures = ["AP", "nDCG@10", "RR"]
    reused = irlib.evaluate(qrels, run, measures).per_query

    def fingerprint(column):
        return irlib._codes._fingerprint(column.array.__arrow_array__())
    assert fingerprint(run["query_id"]) not in encoded     # the reader's codes
    assert fingerprint(run["doc_id"]) not in encoded       # ids of <= 8 bytes: keys
    assert ("keys", *fingerprint(run["doc_id"])) in irlib._codes._remembered
    copied = run.astype({"query_id": object}).astype({"query_id": "str"})
    assert fingerprint(copied["query_id"]) != fingerprint(run["query_id"])
    fresh = irlib.evaluate(qrels, copied, measures).per_query
    assert fingerprint(copied["query_id"]) in encoded      # new buffers: encoded
    pd.testing.assert_frame_equal(reused, fresh)


def test_evaluating_the_same_frames_again_encodes_nothing(monkeypatch):
    # evaluate wraps the caller's columns in new pandas arrays (its canonical frames): the
    # codes must live with the Arrow column they share, not with the wrapper of one call
    qrels_bytes, run_bytes = _files()
    qrels, run = read_qrels(qrels_bytes), read_run(run_bytes)
    first = irlib.evaluate(qrels, run, ["AP", "nDCG@10"]).per_query
    encoded = []
    real = irlib._codes._encode
    monkeypatch.setattr(irlib._codes, "_encode", lambda arrow, grouped: encoded.append(
        len(arrow)) or real(arrow, grouped))
    again = irlib.evaluate(qrels, run, ["AP", "nDCG@10"]).per_query
    assert len(run) not in encoded                     # neither the run's queries nor docs
    pd.testing.assert_frame_equal(first, again)


def test_a_changed_column_is_encoded_afresh():
    qrels_bytes, run_bytes = _files()
    qrels, run = read_qrels(qrels_bytes), read_run(run_bytes)
    before = irlib.evaluate(qrels, run, ["P@5"]).per_query["P@5"]
    top = run.groupby("query_id").head(1).index
    changed = run.copy()
    changed.loc[top, "doc_id"] = "not-judged"          # every query loses its top document
    after = irlib.evaluate(qrels, changed, ["P@5"]).per_query["P@5"]
    codes, names = irlib._codes.factorize(changed["doc_id"])
    assert names[codes[top[0]]] == "not-judged"
    relevant_top = run.loc[top].merge(qrels[qrels["relevance"] > 0])["query_id"]
    assert len(relevant_top) > 0
    assert (after[relevant_top] < before[relevant_top]).all()
    assert (after.drop(relevant_top) <= before.drop(relevant_top)).all()


def test_remembered_codes_go_with_their_frame():
    # A session's upload is freed when the session ends: the cache keeps no column alive.
    ids = pd.Series([f"q{i % 7}" for i in range(20_000)], dtype="str")
    irlib._codes.factorize(ids)
    key = irlib._codes._fingerprint(ids.array.__arrow_array__())
    assert key in irlib._codes._remembered
    del ids
    gc.collect()
    assert key not in irlib._codes._remembered


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint64", "Int64", "int64[pyarrow]",
                                   "Sparse[int64]"])
def test_integer_ids_are_the_text_a_file_would_hold(dtype):
    # Docs 9 and 10 tie on score: trec_eval breaks ties by doc id descending *as text*, and
    # "9" > "10", so doc 9 (not relevant) ranks first. Compared as numbers, 10 would.
    qrels = pd.DataFrame({"query_id": [1, 1, 2, 2], "doc_id": [10, 9, 3, 30],
                          "relevance": [1, 0, 1, 2]})
    run = pd.DataFrame({"query_id": [1, 1, 1, 2, 2, 7], "doc_id": [10, 9, 100, 30, 3, 5],
                        "score": [1.0, 1.0, 0.5, 2.0, 2.0, 1.0]})
    as_type = {"query_id": dtype, "doc_id": dtype}
    measures = ["P@1", "RR", "AP", "nDCG@2"]
    numbers = irlib.evaluate(qrels.astype(as_type), run.astype(as_type), measures)
    as_text = {"query_id": str, "doc_id": str}
    text = irlib.evaluate(qrels.astype(as_text), run.astype(as_text), measures)
    pd.testing.assert_frame_equal(numbers.per_query, text.per_query)
    assert numbers.per_query.loc["1", "P@1"] == 0.0
    assert numbers.ignored_queries == ("7",) and numbers.per_query.index.tolist() == ["1", "2"]


def test_integer_ids_score_as_their_text_on_random_runs():
    rng = np.random.default_rng(5)
    n = 20_000                                  # above the remembered-codes threshold
    run = pd.DataFrame({"query_id": rng.integers(0, 300, n), "doc_id": rng.integers(0, 2_000, n),
                        "score": rng.integers(0, 40, n) / 4}).drop_duplicates(["query_id", "doc_id"])
    qrels = run.sample(frac=0.2, random_state=1)[["query_id", "doc_id"]].assign(
        relevance=lambda f: rng.integers(0, 4, len(f)))
    qrels = pd.concat([qrels, pd.DataFrame({"query_id": [999], "doc_id": [1], "relevance": [1]})])
    measures = ["P@10", "R@100", "AP", "nDCG@10", "RR", "bpref", "NumRet"]
    numbers = irlib.evaluate(qrels, run, measures)
    text = irlib.evaluate(qrels.astype({"query_id": str, "doc_id": str}),
                          run.astype({"query_id": str, "doc_id": str}), measures)
    pd.testing.assert_frame_equal(numbers.per_query, text.per_query)
    assert numbers.missing_queries == text.missing_queries == ("999",)


def test_a_repeated_integer_id_is_named_as_text():
    qrels = pd.DataFrame({"query_id": [7, 7], "doc_id": [9, 9], "relevance": [1, 0]})
    with pytest.raises(ValueError, match=r"qrels has duplicate rows 0 and 1: query '7', doc '9' "):
        irlib.evaluate(qrels, qrels.rename(columns={"relevance": "score"}), ["P@1"])


def _reference_changes(values: list) -> list[int]:
    return [i for i in range(1, len(values)) if values[i] != values[i - 1]]


@pytest.mark.parametrize("piece", [1 << 16, 7, 64])
@pytest.mark.parametrize("arrow_type", ["string", "large_string"])
def test_the_rows_where_a_grouped_id_changes(monkeypatch, piece, arrow_type):
    """Runs of ids compared byte by byte in blocks of equal length, or by pyarrow where a
    piece has many lengths: the same rows as comparing each id with the one before, with
    empty ids, ids that repeat later, non-ASCII, chunk edges with and without a change."""
    import pyarrow as pa
    monkeypatch.setattr(irlib._codes, "_KEY_PIECE", piece)
    rng = np.random.default_rng(piece)
    names = ["q1", "q2", "q10", "", "é", "qé", "q2 ", "abcdefghijkl", "q1\0", "Q1"]
    for mixed in (False, True):      # few lengths (blocks) or many (pyarrow's comparison)
        pool = names if mixed else ["q1", "q2", "q3", "qq"]
        runs = rng.choice(len(pool), 400)
        values = [pool[r] for r in runs for _ in range(rng.integers(1, 20))]
        cut = [0, 1, 150, 151, 2000, len(values)]
        chunks = [pa.array(["pad"] + values[a:b], arrow_type).slice(1)
                  for a, b in itertools.pairwise(cut)]
        column = pa.chunked_array(chunks, arrow_type)
        assert irlib._codes._changes(column).tolist() == _reference_changes(values)
        grouped, grouped_names = irlib._codes._encode(column, grouped=True)
        codes, code_names = irlib._codes._encode(column, grouped=False)
        np.testing.assert_array_equal(grouped, codes)
        assert list(grouped_names) == list(code_names)
    ints = pa.chunked_array([pa.array([3, 3, 4]), pa.array([4, 4, 3, 3])])
    assert irlib._codes._changes(ints).tolist() == [2, 5]
