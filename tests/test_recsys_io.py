"""irlib.recsys readers: recommender files as engineers export them, with their own column names.

The shop's files (tests/recsys_data.py) are written the way its users hold them (held-out
``uid,iid,stars`` CSV, the baseline as TSV ``customer,product,rank``, training as MovieLens
Parquet) and read back with guessed columns; every bad file is a located InputError.
"""
import functools
import io

import numpy as np
import pandas as pd
import pytest

from irlib import InputError
from irlib.recsys import (MissingColumnError, guess_columns, read_header, read_interactions,
                          read_item_categories, read_recommendations)
from tests.recsys_data import make_shop, write_shop

shop = functools.cache(make_shop)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    return write_shop(shop(), tmp_path_factory.mktemp("shop"))


def test_the_shops_files_read_with_their_own_column_names(files):
    held = read_interactions(files["heldout"])
    train = read_interactions(files["train"])
    mf = read_recommendations(files["mf"])
    popular = read_recommendations(files["popular"])
    genres = read_item_categories(files["genres"])
    assert held.attrs["columns"] == {"user": "uid", "item": "iid", "rating": "stars"}
    assert train.attrs["columns"] == {"user": "userId", "item": "movieId", "rating": "rating",
                                      "timestamp": "timestamp"}
    assert mf.attrs["columns"] == {"user": "user_id", "item": "item_id", "score": "score"}
    assert popular.attrs["columns"] == {"user": "customer", "item": "product", "rank": "rank"}
    assert list(held.columns) == ["user_id", "item_id", "rating"]
    assert held["rating"].dtype == float and set(held["rating"]) <= {1.0, 2.0, 3.0, 4.0, 5.0}
    assert len(held) == len(shop().heldout) and len(train) == len(shop().train)
    assert list(popular.columns) == ["user_id", "item_id", "score", "rank"]
    np.testing.assert_array_equal(popular["score"], -popular["rank"])
    assert genres["category"].str.contains("|", regex=False).sum() == 0
    assert len(genres) == shop().genres["genres"].str.count(r"\|").add(1).sum()


def test_guesses_cover_the_usual_spellings():
    assert guess_columns(["userId", "movieId", "rating", "timestamp"], "interactions") == \
        {"user": "userId", "item": "movieId", "rating": "rating", "timestamp": "timestamp"}
    assert guess_columns(["Customer ID", "SKU", "Stars", "Date"], "interactions") == \
        {"user": "Customer ID", "item": "SKU", "rating": "Stars", "timestamp": "Date"}
    assert guess_columns(["visitor", "article", "prediction"], "recommendations") == \
        {"user": "visitor", "item": "article", "score": "prediction", "rank": None}
    # a column serves one role: in an interactions file "score" is the rating
    assert guess_columns(["user", "item", "score"], "interactions")["rating"] == "score"
    assert guess_columns(["user_rating", "x"], "interactions")["user"] is None


def test_the_callers_mapping_wins_and_can_drop_a_column():
    data = b"uid,iid,stars,score,ts\nann,hat,2,5,1\n"
    assert read_interactions(data)["rating"].tolist() == [2.0]
    frame = read_interactions(data, columns={"rating": "SCORE", "timestamp": None})
    assert frame["rating"].tolist() == [5.0] and "timestamp" not in frame.columns
    frame = read_interactions(b"a;b\n1;2\n", columns={"user": "b", "item": "a"})
    assert frame[["user_id", "item_id"]].values.tolist() == [["2", "1"]]


def test_a_missing_column_lists_the_header_and_the_guess():
    with pytest.raises(InputError) as err:
        read_interactions(b"uid,thing,stars\n1,2,3\n", name="test.csv")
    assert err.value.line == 1
    message = str(err.value)
    assert message.startswith("test.csv, line 1: no column for the item")
    assert "the header has: uid, thing, stars" in message
    assert "user = uid, item = (none), rating = stars, timestamp = (none)" in message
    assert message.endswith("Name the column, e.g. columns={'item': ...}")   # for code
    assert err.value.roles == ("item",) and isinstance(err.value, MissingColumnError)
    assert err.value.problem_at == ("test.csv, line 1: no column for the item (what was "
                                    "interacted with or recommended); the header has: uid, "
                                    "thing, stars")
    with pytest.raises(InputError, match=r"there is no column 'product' for the item "
                                         r"\(the header has: uid, iid\)"):
        read_interactions(b"uid,iid\n1,2\n", columns={"item": "product"})
    with pytest.raises(InputError, match="mapped to both the user and the item"):
        read_interactions(b"uid,iid\n1,2\n", columns={"user": "uid", "item": "uid"})


def test_ratings_that_are_not_numbers_are_located():
    with pytest.raises(InputError) as err:
        read_interactions(b"uid,iid,stars\nann,hat,5\nann,cap,five\n", name="test.csv")
    assert str(err.value) == "test.csv, line 3, column stars: rating 'five' is not a number"
    buffer = io.BytesIO()
    pd.DataFrame({"uid": ["a", "b"], "iid": ["x", "y"], "stars": ["4", "n/a"]}).to_parquet(buffer)
    with pytest.raises(InputError, match=r"^held\.parquet, row 2, column stars: rating 'n/a' "
                                         "is not a number$"):
        read_interactions(buffer.getvalue(), name="held.parquet")
    with pytest.raises(InputError, match=r"line 2, column score: score 'high' is not a number"):
        read_recommendations(b"uid\tiid\tscore\n1\ta\thigh\n", name="recs.tsv")
    with pytest.raises(InputError, match=r"line 2, column ts: timestamp 'yesterday' is not a "
                                         "number or a date"):
        read_interactions(b"uid,iid,ts\n1,a,yesterday\n")


def test_a_repeated_interaction_keeps_its_latest_row_and_says_so():
    # by timestamp, whatever the row order: the re-rating of 2020-03 wins
    data = (b"uid,iid,stars,date\nann,hat,5,2020-03-01\nann,cap,4,2020-01-01\n"
            b"ann,hat,1,2020-02-01\n")
    frame = read_interactions(data, name="log.csv")
    assert frame.sort_values("item_id")["rating"].tolist() == [4.0, 5.0]
    assert frame.attrs["notes"] == [
        "1 repeated (user, item) row merged (first: user 'ann', item 'hat' on line 2 and "
        "line 4): each pair is kept once, as its latest row (the latest timestamp, then the "
        "last row)."]
    # without timestamps: the last row in the file
    frame = read_interactions(b"uid,iid,stars\nann,hat,5\nann,hat,1\nbob,hat,2\n")
    assert frame[["user_id", "rating"]].values.tolist() == [["ann", 1.0], ["bob", 2.0]]
    assert "the last row in the file" in frame.attrs["notes"][0]


def test_a_list_with_an_item_or_a_rank_twice_is_refused():
    with pytest.raises(InputError) as err:
        read_recommendations(b"uid,iid,score\n7,i3,0.9\n7,i1,0.5\n7,i3,0.4\n", name="recs.csv")
    assert str(err.value) == ("recs.csv, line 4, column iid: item 'i3' is listed twice for user "
                              "'7' (first on line 2)")
    with pytest.raises(InputError, match=r"line 3, column pos: rank 1 is used twice for user "
                                         r"'7' \(first on line 2\)"):
        read_recommendations(b"uid,iid,pos\n7,a,1\n7,b,1\n")
    with pytest.raises(InputError, match=r"rank '0' must be >= 1"):
        read_recommendations(b"uid,iid,rank\n7,a,0\n")


def test_a_list_without_score_or_rank_is_in_row_order():
    frame = read_recommendations(b"user,item\n1,a\n2,c\n1,b\n")
    assert frame["rank"].tolist() == [1, 1, 2]
    assert "in the order of its rows" in frame.attrs["notes"][0]


@pytest.mark.parametrize("data, message", [
    (b"", "the file is empty"),
    (b"\n\n", "the file is empty"),
    (b"uid,iid,stars\n", "has a header line but no data rows"),
])
def test_empty_files(data, message):
    with pytest.raises(InputError, match=message):
        read_interactions(data, name="test.csv")


def test_an_empty_parquet_file_and_a_file_like():
    buffer = io.BytesIO()
    pd.DataFrame({"uid": pd.Series([], dtype=str), "iid": pd.Series([], dtype=str)}) \
        .to_parquet(buffer)
    with pytest.raises(InputError, match=r"the file is empty \(no rows\)"):
        read_interactions(buffer.getvalue(), name="empty.parquet")
    upload = io.BytesIO(b"uid,iid\nann,hat\n")
    upload.name = "upload.csv"
    assert read_header(upload) == ["uid", "iid"]
    assert upload.tell() == 0                    # rewound: the reader can read it now
    assert read_interactions(upload)["item_id"].tolist() == ["hat"]


def test_excel_text_and_ids_kept_as_text():
    frame = read_interactions("uid;iid;stars\n007;café;4\n".encode("cp1252"))
    assert frame[["user_id", "item_id"]].values.tolist() == [["007", "café"]]
    assert "Windows-1252" in frame.attrs["notes"][0]


def test_categories_one_per_row_or_joined():
    frame = read_item_categories(b"item,genre\n1,Drama\n1,Comedy\n2, Drama | Kids \n2,\n")
    assert frame.values.tolist() == [["1", "Drama"], ["1", "Comedy"], ["2", "Drama"],
                                     ["2", "Kids"]]
    with pytest.raises(InputError, match="no categories"):
        read_item_categories(b"item,genre\n1,\n")
