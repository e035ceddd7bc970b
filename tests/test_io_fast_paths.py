"""The table readers' fast paths give what the careful (pandas) path gives."""
import numpy as np
import pandas as pd
import pytest

from irlib.io import read_ratings, read_table
from irlib.io.ratings import _aggregate


def test_a_column_whose_type_changes_after_the_first_block():
    """pyarrow types a column from its first block; a decimal in a later block must still
    give the floats pandas gives."""
    n = 120_000                                          # > 1 MB: several blocks
    positions = np.tile(np.arange(1, 101), n // 100)
    scores = np.arange(n, 0, -1).astype(str).astype(object)
    scores[-1] = "0.5"                                   # the last block only
    text = "query_id,doc_id,score,position\n" + "".join(
        f"{i // 100:03d},d{i},{s},{p}\n" for i, (s, p) in enumerate(zip(scores, positions)))
    data = text.encode()
    assert len(data) > 2 << 20
    got = read_table(data, name="r.csv")
    assert got["score"].dtype == np.float64 and got["score"].iloc[-1] == 0.5
    assert got["score"].iloc[0] == n
    assert got["query_id"].iloc[0] == "000"              # ids stay text as written
    assert got["position"].dtype == np.int64
    spaced = read_table(data.replace(b",d", b", d"), name="r.csv")   # the pandas path
    pd.testing.assert_series_equal(got["score"], spaced["score"])


@pytest.mark.parametrize("how", ["median", "mean", "min", "max"])
def test_rater_aggregates_equal_numpy_row_wise(how):
    rng = np.random.default_rng(5)
    for raters in range(1, 20):
        columns = [rng.integers(0, 4, 500).astype(float) if raters % 2 else
                   rng.random(500) * 3 for _ in range(raters)]
        grid = np.column_stack(columns)
        combined, spread = _aggregate(columns, how)
        np.testing.assert_array_equal(combined, getattr(np, how)(grid, axis=1))
        np.testing.assert_array_equal(spread, grid.max(axis=1) - grid.min(axis=1))


def test_ratings_fast_path_matches_quoted_careful_path():
    rows = "".join(f"{q},query {q},doc{q}_{d},{d + 1},{(q + d) % 4},{d % 3},{q % 2}\n"
                   for q in range(300) for d in range(40))
    head = "queryid,query,document,position,rating_1,rating_2,rating_3\n"
    fast = read_ratings((head + rows).encode(), name="r.csv")
    careful = read_ratings((head + rows.replace("query ", '"query ')
                            .replace(",doc", '",doc')).encode(), name="r.csv")
    pd.testing.assert_frame_equal(fast, careful)


@pytest.mark.parametrize("sizes", [(700,) * 300, (5, 150_000, 7) + (300,) * 200])
def test_duplicate_check_piece_by_piece_finds_a_repeat_anywhere(sizes):
    """Grouped rows are checked a few groups at a time; a repeat in any piece, in a group
    larger than a piece, or at a piece's edge is found, and none is invented."""
    from irlib.io.keys import _PIECE_ROWS, _mix, _shares_a_slot
    group = np.repeat(np.arange(len(sizes)), sizes)
    keys = _mix(np.arange(len(group), dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15))
    assert len(group) > 2 * _PIECE_ROWS
    assert not _shares_a_slot(group, keys)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    for row in (1, _PIECE_ROWS, _PIECE_ROWS + 1, len(group) // 2, len(group) - 1):
        first = starts[group[row]]
        if row == first:
            continue
        repeated = keys.copy()
        repeated[row] = repeated[first]                   # same group, same key
        assert _shares_a_slot(group, repeated), row
    across = keys.copy()
    across[starts[1]] = across[0]                          # same key, other group: fine
    assert not _shares_a_slot(group, across)
