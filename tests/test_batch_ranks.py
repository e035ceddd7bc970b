"""irlib.evaluate's rank finding (irlib/batch/_judged.py): both search paths, ties, duplicates."""
import numpy as np
import pandas as pd
import pytest
import pytrec_eval

import irlib
from irlib.batch._judged import _levels, _place_among_hits_sorted, _search, match_judged


def test_both_placements_agree_with_ties_and_signed_zeros():
    rng = np.random.default_rng(11)
    run_q = np.repeat(np.arange(300, dtype=np.int32), 40)
    score = rng.integers(-3, 4, len(run_q)) / 2.0            # many exact ties
    score[rng.random(len(score)) < 0.05] = -0.0              # -0.0 ties with 0.0, as in C
    hits = np.flatnonzero(rng.random(len(run_q)) < 0.3)
    hit_q, hit_score = run_q[hits], np.where(score[hits] == 0, 0.0, score[hits])
    width = 1 << int(np.bincount(hit_q).max()).bit_length()
    node, tied = _search(*_levels(hit_q, hit_score, 300, width), run_q, score)
    below = node - run_q * width
    at, tied_sorted = _place_among_hits_sorted(run_q, score, hit_q, hit_score)
    first = np.concatenate([[0], np.cumsum(np.bincount(hit_q, minlength=300))])
    np.testing.assert_array_equal(below, at - first[run_q])
    np.testing.assert_array_equal(tied, tied_sorted)
    expected_below = [(hit_score[hit_q == q] < s).sum() for q, s in zip(run_q, score)]
    np.testing.assert_array_equal(below, expected_below)
    assert tied.any() and (~tied).any()


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("piece_rows", [1 << 16, 997, 64])
def test_ranks_in_pieces_are_the_same(monkeypatch, shuffle, piece_rows):
    """Pieces of whole queries (a grouped run) or of rows (a shuffled one) give trec_eval's
    ranks, ties by doc id descending, as one piece does; so does the matching."""
    import irlib.batch._pieces
    from irlib._codes import factorize
    from irlib.batch._judged import judged_ranks
    monkeypatch.setattr(irlib.batch._pieces, "PIECE_ROWS", piece_rows)
    pieces = []
    cut = irlib.batch._pieces.query_pieces
    monkeypatch.setattr(irlib.batch._judged, "query_pieces",
                        lambda *args: pieces.append(cut(*args)) or pieces[-1])
    rng = np.random.default_rng(16)
    sizes = rng.integers(1, 120, 150)
    run = pd.DataFrame({"query_id": np.repeat([f"q{i}" for i in range(150)], sizes),
                        "doc_id": [f"d{j}" for n in sizes for j in rng.permutation(500)[:n]],
                        "score": rng.integers(-4, 5, sizes.sum()) / 2.0})   # many ties
    run.loc[rng.random(len(run)) < 0.05, "score"] = -0.0
    if shuffle:
        run = run.sample(frac=1, random_state=5).reset_index(drop=True)
    run_q, _ = factorize(run["query_id"], grouped=True)
    run_d, names = factorize(run["doc_id"])
    hits = np.sort(rng.choice(len(run), len(run) // 10, replace=False))
    got = judged_ranks(run_q, run["score"].to_numpy(), run_d, names, hits)
    ranked = run.sort_values(["query_id", "score", "doc_id"], ascending=[True, False, False])
    expected = ranked.groupby("query_id").cumcount().add(1).reindex(run.index).to_numpy()
    np.testing.assert_array_equal(got, expected[hits])
    duplicate, rows, judgments = match_judged(run_q, run_d, run_q[hits].astype(np.int64),
                                              run_d[hits].astype(np.int64), 150)
    assert duplicate == -1 and dict(zip(rows, judgments)) == dict(zip(hits, range(len(hits))))
    many = piece_rows < len(run) // 2      # grouped: cut for the search and the matching
    assert [len(p) > 1 for p in pieces] == ([False] if shuffle else [many, many])


def test_queries_with_many_judged_hits_match_trec_eval():
    """More than 63 judged documents retrieved for a query: the global-search path."""
    rng = np.random.default_rng(12)
    qrels, run = [], []
    for qi in range(12):
        docs = [f"d{j}" for j in range(400)]
        for d in rng.choice(docs, 200, replace=False):
            qrels.append((f"q{qi}", d, int(rng.integers(0, 4))))
        for d in rng.choice(docs, 300, replace=False):
            run.append((f"q{qi}", d, float(rng.integers(0, 40)) / 4))   # ties
    qrels = pd.DataFrame(qrels, columns=["query_id", "doc_id", "relevance"])
    run = pd.DataFrame(run, columns=["query_id", "doc_id", "score"])
    ours = irlib.evaluate(qrels, run, ["AP", "nDCG@10", "P@20", "RR"]).per_query
    qd, rd = {}, {}
    for q, d, r in qrels.itertuples(index=False):
        qd.setdefault(q, {})[d] = r
    for q, d, s in run.itertuples(index=False):
        rd.setdefault(q, {})[d] = s
    theirs = pytrec_eval.RelevanceEvaluator(qd, {"map", "ndcg_cut.10", "P.20", "recip_rank"}
                                            ).evaluate(rd)
    assert run.merge(qrels).groupby("query_id").size().min() > 63
    for q in theirs:
        for ours_name, key in (("AP", "map"), ("nDCG@10", "ndcg_cut_10"), ("P@20", "P_20"),
                               ("RR", "recip_rank")):
            assert ours.at[q, ours_name] == pytest.approx(theirs[q][key], abs=1e-9)


def test_interleaved_run_ranks_like_a_sorted_one():
    """Rows of one query need not be together: shuffling the run changes nothing."""
    rng = np.random.default_rng(13)
    n = 4000
    run = pd.DataFrame({"query_id": rng.integers(0, 50, n).astype(str),
                        "doc_id": [f"d{i}" for i in range(n)],
                        "score": rng.integers(0, 30, n) / 2.0})
    qrels = run.sample(600, random_state=2)[["query_id", "doc_id"]].assign(
        relevance=rng.integers(0, 3, 600))
    measures = ["AP", "nDCG@5", "RR"]
    grouped = irlib.evaluate(qrels, run.sort_values("query_id", kind="stable"), measures)
    shuffled = irlib.evaluate(qrels, run.sample(frac=1, random_state=3), measures)
    pd.testing.assert_frame_equal(grouped.per_query, shuffled.per_query)


@pytest.mark.parametrize("shuffle", [False, True])
def test_duplicates_found_among_many_rows(shuffle):
    rng = np.random.default_rng(14)
    n = 200_000
    run_q = np.repeat(np.arange(200, dtype=np.int32), n // 200)
    run_d = np.tile(np.arange(n // 200, dtype=np.int32), 200)       # unique per query
    order = rng.permutation(n) if shuffle else np.arange(n)
    run_q, run_d = run_q[order], run_d[order]
    assert match_judged(run_q, run_d, run_q[:0], run_d[:0], 200)[0] == -1
    run_d = run_d.copy()
    same_query = np.flatnonzero(run_q == run_q[123_456])
    row = same_query[same_query != 123_456][0]
    run_d[row] = run_d[123_456]
    assert match_judged(run_q, run_d, run_q[:0], run_d[:0], 200)[0] in (row, 123_456)


def test_duplicate_run_row_is_named():
    qrels = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "relevance": [1]})
    run = pd.DataFrame({"query_id": ["1", "1", "2", "1"], "doc_id": ["a", "b", "a", "b"],
                        "score": [1.0, 2.0, 3.0, 4.0]})
    with pytest.raises(ValueError, match=r"run has duplicate rows 1 and 3: query '1', doc 'b'"):
        irlib.evaluate(qrels, run, ["AP"])


@pytest.mark.parametrize("rounds", [0, 1])
def test_fallback_after_the_last_round_agrees(monkeypatch, rounds):
    """If hashing left rows over (it never does in practice), pandas finishes the job."""
    import irlib.batch._judged
    run_q = np.repeat(np.arange(30, dtype=np.int32), 50)
    run_d = np.tile(np.arange(50, dtype=np.int32), 30)
    judged_q, judged_d = run_q[::7].astype(np.int64), run_d[::7].copy()
    judged_d[::3] = -1                                       # never returned
    expected = match_judged(run_q, run_d, judged_q, judged_d, 30)
    monkeypatch.setattr(irlib.batch._judged, "_MAX_ROUNDS", rounds)
    got = match_judged(run_q, run_d, judged_q, judged_d, 30)
    assert got[0] == expected[0] == -1
    assert dict(zip(got[1], got[2])) == dict(zip(expected[1], expected[2]))
    assert len(expected[1]) == (judged_d >= 0).sum()
    dup = run_d.copy()
    dup[1] = dup[0]
    assert match_judged(run_q, dup, judged_q, judged_d, 30)[0] in (0, 1)


@pytest.mark.parametrize("longest_tie", [3, 200])
def test_run_in_file_order_ranks_like_the_general_search(monkeypatch, longest_tie):
    """A run listed query by query, best first (a TREC file's order), takes the sorted-run
    path; its ranks equal the general search's, with ties inside and across query edges,
    and a tie longer than the walk allows falls back to the general search."""
    import irlib.batch._judged
    from irlib._codes import factorize
    from irlib.batch._judged import _ranks_of_sorted_run, judged_ranks
    rng = np.random.default_rng(15)
    rows = []
    for qi in range(40):
        n = int(rng.integers(1, 300))
        scores = np.sort(rng.integers(0, 12, n) / 4.0)[::-1]     # many ties
        if qi == 7:
            scores = np.full(longest_tie, 1.0)                    # one long tie
        docs = rng.permutation(1000)[:len(scores)]
        rows += [(f"q{qi}", f"d{d}", s) for d, s in zip(docs, scores)]
    run = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])
    run_q, _ = factorize(run["query_id"], grouped=True)
    run_d, names = factorize(run["doc_id"])
    score = run["score"].to_numpy()
    hits = np.sort(rng.choice(len(run), len(run) // 3, replace=False))
    sorted_path = _ranks_of_sorted_run(run_q, score, run_d, names, hits)
    assert (sorted_path is None) == (longest_tie > irlib.batch._judged._MAX_TIE_STEPS)
    monkeypatch.setattr(irlib.batch._judged, "_ranks_of_sorted_run", lambda *args: None)
    general = judged_ranks(run_q, score, run_d, names, hits)
    if sorted_path is not None:
        np.testing.assert_array_equal(sorted_path, general)
    # trec_eval's order by hand: score descending, then doc id descending
    ranked = run.assign(doc=run["doc_id"]).sort_values(
        ["query_id", "score", "doc"], ascending=[True, False, False])
    expected = ranked.groupby("query_id").cumcount().add(1).reindex(run.index).to_numpy()
    np.testing.assert_array_equal(general, expected[hits])
    shuffled = run.sample(frac=1, random_state=4).reset_index(drop=True)
    assert _ranks_of_sorted_run(*factorize(shuffled["query_id"], grouped=True)[:1],
                                shuffled["score"].to_numpy(), run_d, names, hits) is None
