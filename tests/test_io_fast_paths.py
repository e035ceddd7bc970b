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


def test_string_hash_is_the_strings_own_and_tells_near_ids_apart(monkeypatch):
    """Equal ids hash equal however the column is cut into chunks and pieces, and ids one
    byte apart (every length up to 40, every position) never share a hash: a shared hash
    inside a query would send a file that is fine to the slow exact check."""
    import pyarrow as pa
    from irlib.io import keys
    ids = {""}
    for length in range(1, 41):
        base = "".join(chr(97 + (i * 7) % 26) for i in range(length))
        ids.update(base[:pos] + c + base[pos + 1:] for pos in range(length) for c in "0aZé~")
    ids = sorted(ids)
    hashes = keys.column_hash(pd.Series(ids, dtype="str"))
    assert len(set(hashes.tolist())) == len(ids)
    by_id = dict(zip(ids, hashes.tolist()))
    rng = np.random.default_rng(3)
    monkeypatch.setattr(keys, "_PIECE_ROWS", 97)
    for _ in range(5):
        shuffled = [ids[i] for i in rng.permutation(len(ids))]
        cuts = np.sort(rng.integers(0, len(ids), 3))
        column = pa.chunked_array([pa.array(part, pa.large_string()) for part in
                                   np.split(np.array(shuffled, dtype=object), cuts)])
        got = np.concatenate([keys._hash_strings(chunk) for chunk in column.chunks])
        assert got.tolist() == [by_id[i] for i in shuffled]


def test_blank_id_search_agrees_with_pyarrow_on_every_kind_of_space():
    import pyarrow as pa
    import pyarrow.compute as pc
    from irlib.io.checks import _first_blank
    rng = np.random.default_rng(4)
    pool = ["a", "", " ", "\t", "\u00a0", "\u3000 ", "é", " x", "x ", "\u2003", "\x00", "\x7f"]
    for trial in range(500):
        kind = pa.large_string() if trial % 2 else pa.string()
        cells = list(rng.choice(pool, int(rng.integers(1, 12))))
        cuts = np.sort(rng.integers(0, len(cells), 2))
        column = pa.chunked_array([pa.array(list(part), kind)
                                   for part in np.split(np.array(cells, dtype=object), cuts)],
                                  type=kind)
        if trial % 3 == 0 and len(cells) > 2:
            column = column.slice(1)                     # chunks that start at an offset
        blank = pc.or_(pc.equal(pc.binary_length(column), 0),
                       pc.utf8_is_space(column)).to_numpy(zero_copy_only=False)
        expected = int(np.flatnonzero(blank)[0]) if blank.any() else None
        assert _first_blank(column) == expected, cells


def test_query_text_clash_is_the_first_row_unlike_its_querys_first():
    from irlib.io.ratings import _first_text_clash
    rng = np.random.default_rng(6)
    for _ in range(300):
        n = int(rng.integers(2, 30))
        group = np.sort(rng.integers(0, 4, n)) if rng.random() < 0.5 else rng.integers(0, 4, n)
        group = pd.factorize(group)[0].astype(np.int64)
        texts = np.array([f"query {g}" for g in group], dtype=object)
        for row in rng.integers(0, n, int(rng.integers(0, 3))):
            texts[row] = "other"
        first = {g: int(np.flatnonzero(group == g)[0]) for g in set(group.tolist())}
        clashes = [r for r in range(n) if texts[r] != texts[first[group[r]]]]
        expected = (clashes[0], first[group[clashes[0]]]) if clashes else None
        assert _first_text_clash(group, pd.Series(texts, dtype="str")) == expected


@pytest.mark.parametrize("cell, message", [
    ("-1", "r.csv, line 3, column rating_2: rating '-1' is negative; it must be >= 0"),
    ("9007199254740993", "r.csv, line 3, column rating_2: rating 9007199254740993 is too "
                         "large"),
])
def test_whole_ratings_read_as_integers_keep_their_messages(cell, message):
    data = ("queryid,query,document,position,rating_1,rating_2\n"
            f"1,boots,d1,1,2,3\n1,boots,d2,2,1,{cell}\n").encode()
    with pytest.raises(Exception) as caught:
        read_ratings(data, name="r.csv")
    assert str(caught.value) == message


def test_repeated_position_is_found_in_any_piece_of_groups():
    from irlib.io.keys import _PIECE_ROWS, maybe_repeated
    sizes = (5, 150_000) + (300,) * 200
    group = np.repeat(np.arange(len(sizes)), sizes)
    positions = np.concatenate([np.arange(1, size + 1) for size in sizes])
    assert len(group) > 2 * _PIECE_ROWS
    assert not maybe_repeated(group, [pd.Series(positions)])
    for row in (3, 100_000, len(group) - 1):
        repeated = positions.copy()
        repeated[row] = repeated[row - 1]
        assert maybe_repeated(group, [pd.Series(repeated)]), row


def test_a_large_table_hashed_on_the_other_core_reports_what_a_small_one_would():
    """Over 65,536 rows the documents are hashed on another thread while the cells are
    checked; the messages, and which of two problems is reported, stay the same."""
    from irlib.io.background import _MIN_ROWS
    rows = [f"q{i // 100},d{i},{i % 100 + 1}" for i in range(_MIN_ROWS + 5000)]
    rows[-1] = rows[-2].rsplit(",", 1)[0] + ",100"        # d repeated in the last query
    data = ("query_id,doc_id,position\n" + "\n".join(rows) + "\n").encode()
    with pytest.raises(Exception) as caught:
        read_table(data, name="t.csv")
    last = len(rows) + 1
    assert str(caught.value) == (f"t.csv, line {last}, column doc_id: document "
                                 f"'d{len(rows) - 2}' is listed "
                                 f"twice for query 'q{(len(rows) - 1) // 100}' "
                                 f"(first on line {last - 1})")
    rows[7] = "q0, ,8"                                    # an empty id comes first
    with pytest.raises(Exception) as caught:
        read_table(("query_id,doc_id,position\n" + "\n".join(rows)).encode(), name="t.csv")
    assert str(caught.value) == "t.csv, line 9, column doc_id: doc_id is empty"
