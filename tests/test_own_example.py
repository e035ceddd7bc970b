"""A lecturer's own example on the playground (issue 36): the table, the files, the link, the
pictures, and every refused input keeping the board it had."""
from __future__ import annotations

import base64
import io
import struct
import zlib

import pytest
from PIL import Image

from tests.apptest import address, component_data, run_page, trigger
from ui.lessons.playground import example_data as own_data
from ui.lessons.playground.example_pictures import check_picture

BOARD = "irlab_ranking_board"
CATS_TITLE = "Rank the cats: “cat in a box”"
TABLE = "irlab_own_table"


def _png(width: int, height: int, colour="red") -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(buffer, "PNG")
    return buffer.getvalue()


def _declared_png(width: int, height: int) -> bytes:
    """A few bytes whose header claims ``width`` x ``height`` pixels (a decompression bomb)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2,
                                                             0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))


def _open(at):
    """The page with the "Own example" popover opened (its content is drawn only then)."""
    at.session_state["pg_own_open"] = True
    at.run()
    assert not at.exception, at.exception
    return at


def _board(at) -> dict:
    (data,) = component_data(at, BOARD)
    return data


def _edit(at, edits: dict | None = None, added=(), deleted=()):
    """(query, rows): the table as a lecturer leaves it, rows changed, added at the end,
    deleted (for :func:`_show`)."""
    (data,) = component_data(at, TABLE)
    rows = [dict(row) for row in data["rows"]]
    for index, change in (edits or {}).items():
        rows[index].update({name: str(value) for name, value in change.items()})
    rows = [row for i, row in enumerate(rows) if i not in set(deleted)]
    rows += [{"title": row["title"], "grade": str(row["grade"]), "picture": ""} for row in added]
    return data["query"], rows


def _show(at, table: tuple[str, list[dict]] | None = None):
    """ "Show on the board": the table's query and rows sent at once (its JavaScript reads
    every input at the click: ui/lessons/playground/own_table/table.js)."""
    if table is None:
        (data,) = component_data(at, TABLE)
        table = data["query"], data["rows"]
    query, rows = table
    return trigger(at, TABLE, "apply", {"query": query, "rows": rows, "sent": 1})


# --------------------------------------------------------------------------- the rules

@pytest.mark.parametrize("rows, expected", [
    ([{"title": "A", "grade": 1}] * 1, "1 result: an example needs 3 to 12."),
    ([{"title": f"T{i}", "grade": 1} for i in range(13)], "13 results: an example needs 3 to 12."),
    ([{"title": " ", "grade": 1}, {"title": "B", "grade": 0}, {"title": "C", "grade": 0}],
     "row 1, title: is empty."),
    ([{"title": "x" * 500, "grade": 1}, {"title": "B", "grade": 0}, {"title": "C", "grade": 0}],
     "row 1, title: has 500 characters; at most 120."),
    ([{"title": "Shoe", "grade": 1}, {"title": "shoe ", "grade": 0}, {"title": "C", "grade": 0}],
     "row 2, title: “shoe” is already on row 1; titles must differ."),
    ([{"title": "A", "grade": 5}, {"title": "B", "grade": 0}, {"title": "C", "grade": 0}],
     "row 1, grade: is 5, outside 0 to 4"),
    ([{"title": "A", "grade": "high"}, {"title": "B", "grade": 0}, {"title": "C", "grade": 0}],
     "row 1, grade: is “high”, not a whole number from 0 to 4"),
    ([{"title": "A", "grade": 2.5}, {"title": "B", "grade": 0}, {"title": "C", "grade": 0}],
     "row 1, grade: is 2.5, not a whole number from 0 to 4"),
])
def test_bad_rows_are_named(rows, expected):
    with pytest.raises(own_data.ExampleError) as caught:
        own_data.build_example("q", rows)
    assert expected in caught.value.problems


def test_csv_lines_count_the_header_and_json_errors_say_where():
    with pytest.raises(own_data.ExampleError) as caught:
        own_data.build_example(*own_data.read_csv(b"title,grade\nA,1\nB,x\nC,0\n"), where="line")
    assert caught.value.problems == ["line 3, grade: is “x”, not a whole number from 0 to 4"]
    with pytest.raises(own_data.ExampleError) as caught:
        own_data.read_json(b'{"query": "q",\n "results": [}', check_picture)
    assert caught.value.problems[0].startswith("line 2, column 14: not valid JSON")


def test_a_link_holds_a_text_example_and_refuses_a_cut_one():
    text = own_data.to_link(own_data.TEMPLATE)
    assert own_data.from_link(text) == own_data.TEMPLATE
    with pytest.raises(own_data.ExampleError):
        own_data.from_link(text[:len(text) // 2])
    # twelve long titles in Chinese: 3 bytes a character, little to compress: past the limit
    longest = own_data.build_example("q", [
        {"title": "".join(chr(0x4E00 + (i * 7919 + j * 104729) % 20000) for j in range(100)),
         "grade": 4} for i in range(12)])
    assert not own_data.fits_link(longest)


def test_pictures_are_checked_by_content_and_re_encoded():
    uri = check_picture(_png(1200, 800))
    out = Image.open(io.BytesIO(base64.b64decode(uri.split(",", 1)[1])))
    assert (out.format, max(out.size)) == ("WEBP", 320)
    with pytest.raises(ValueError, match="not a picture"):
        check_picture(b"<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>")
    with pytest.raises(ValueError, match="400 million pixels"):
        check_picture(_declared_png(20_000, 20_000))       # refused from its header alone
    with pytest.raises(ValueError, match="MB"):
        check_picture(b"\x89PNG" + b"\0" * (6 * 1024 * 1024))


# --------------------------------------------------------------------------- the page

def test_the_table_puts_the_example_on_the_board_and_in_the_link():
    at = _open(run_page("playground"))
    assert at.title[0].value == CATS_TITLE
    _show(at, _edit(at, {0: {"grade": 0}, 2: {"title": "=HYPERLINK(\"x\") <b>red</b>"}}))
    assert at.title[0].value == "Rank the results: “red running shoes”"
    board = _board(at)
    assert [i["title"] for i in board["items"]][:3] == [
        "Men's trail running shoe, red", "Red leather ballet flats",
        "=HYPERLINK(\"x\") <b>red</b>"]
    assert board["order"] == ["1", "2", "3", "4", "5", "6"]
    assert board["grades"]["1"] == 0                   # binary mode: grade 0 is not relevant
    link = address(at)
    assert link["order"] == "123456" and "ex" in link
    assert own_data.from_link(link["ex"]).items[2].title == "=HYPERLINK(\"x\") <b>red</b>"
    # the link opens the same board in a new session
    again = _open(run_page("playground", query=link))
    assert again.title[0].value == "Rank the results: “red running shoes”"
    assert _board(again)["items"] == board["items"]
    # and back to the cats, as they were left
    again.button(key="pg_own_cats").click().run()
    assert again.title[0].value == CATS_TITLE and len(_board(again)["items"]) == 8


@pytest.mark.parametrize("edit, message", [
    (dict(deleted=[0, 1, 2, 3]), "2 results: an example needs 3 to 12."),
    (dict(edits={1: {"title": ""}}), "row 2, title: is empty."),
    (dict(edits={1: {"title": "y" * 500}}), "row 2, title: has 500 characters; at most 120."),
    (dict(edits={1: {"title": "Blue running shoe"}}),
     "row 5, title: “Blue running shoe” is already on row 2; titles must differ."),
    (dict(added=[{"title": f"Extra {i}", "grade": 1} for i in range(7)]),
     "13 results: an example needs 3 to 12."),
])
def test_a_bad_table_keeps_the_board_and_says_why(edit, message):
    at = _open(run_page("playground"))
    _show(at, _edit(at, **edit))
    assert at.title[0].value == CATS_TITLE
    assert len(_board(at)["items"]) == 8
    assert message in at.error[0].value.replace("\\", "")      # Markdown-escaped on the page


def test_files_round_trip_and_broken_files_keep_the_board():
    at = _open(run_page("playground"))
    picture = ("shoe.png", _png(640, 480), "image/png")
    at.file_uploader(key="pg_own_picture_files").set_value([picture]).run()
    csv = "query,title,grade,picture\r\nGDPR fines for banks,Fine A,4,shoe.png\r\n,Fine B,0,\r\n" \
          ",Fine C,2,\r\n"
    at.file_uploader(key="pg_own_file").set_value(("fines.csv", csv.encode(), "text/csv")).run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Rank the results: “GDPR fines for banks”"
    items = _board(at)["items"]
    assert items[0]["image"].startswith("data:image/webp;base64,") and items[1]["image"] == ""
    example = own_data.read_json(own_data.to_json(_own(at)), check_picture)
    assert example.query == "GDPR fines for banks" and example.items[0].picture

    # a fresh session opens the saved file: same cards, the picture re-checked and re-encoded
    other = _open(run_page("playground"))
    other.file_uploader(key="pg_own_file").set_value(
        ("own-example.json", own_data.to_json(example), "application/json")).run()
    items = _board(other)["items"]
    assert [i["title"] for i in items] == ["Fine A", "Fine B", "Fine C"]
    assert items[0]["image"].startswith("data:image/webp;base64,") and items[1]["image"] == ""
    # a good file closes the popover on the board it changed; a refused one keeps it open
    assert other.session_state["pg_own_open"] is False and not other.file_uploader
    _open(other)

    # broken inputs: the board keeps the fines
    for name, data, kind, expected in [
            ("broken.json", b'{"query": "x", "results": [', "application/json", "not valid JSON"),
            ("few.csv", b"title,grade\nA,1\nB,2\n", "text/csv", "2 results"),
            ("grades.csv", b"title,grade\nA,1\nB,7\nC,0\n", "text/csv", "line 3, grade: is 7")]:
        other.file_uploader(key="pg_own_file").set_value((name, data, kind)).run()
        assert not other.exception
        assert expected in other.error[0].value.replace("\\", ""), other.error[0].value
        assert other.session_state["pg_own_open"] is True
        assert _board(other)["items"] == items
    for name, data in [("notes.png", b"just some text"),
                       ("huge.png", _declared_png(20_000, 20_000))]:
        other.file_uploader(key="pg_own_picture_files").set_value([(name, data, "image/png")])
        other.run()
        assert name.replace(".", "\\.") in other.error[0].value
        assert _board(other)["items"] == items


def test_the_table_is_replaced_only_by_a_loaded_file():
    """The browser keeps what is typed in the table while its ``version`` stays (issue 44):
    a picture uploaded, a table shown or refused, any rerun, send the same version and rows;
    a loaded file sends a new version with the file's rows; what the browser sends that is
    not a table is ignored."""
    at = _open(run_page("playground"))
    (start,) = component_data(at, TABLE)
    assert (start["version"], len(start["rows"]), start["pictures"]) == (0, 6, [])
    at.file_uploader(key="pg_own_picture_files").set_value(
        [("shoe.png", _png(64, 48), "image/png")]).run()
    (after,) = component_data(at, TABLE)
    assert (after["version"], after["rows"], after["pictures"]) == (0, start["rows"],
                                                                    ["shoe.png"])
    query, rows = _edit(at, {1: {"title": ""}})
    _show(at, (query, rows))                                     # refused: row 2's title
    assert component_data(at, TABLE)[0]["version"] == 0
    rows[1]["title"], rows[1]["picture"] = "Red shoe", "shoe.png"
    _show(at, (query, rows))
    _open(at)                                   # shown: the popover closed on the board
    (shown,) = component_data(at, TABLE)
    assert shown["version"] == 0 and shown["rows"][1] == {
        "title": "Red shoe", "grade": "1", "picture": "shoe.png"}
    assert _board(at)["items"][1]["image"].startswith("data:image/webp;base64,")
    for junk in (None, "rows", {"rows": "no"}, {"query": 3}):
        trigger(at, TABLE, "apply", junk)
        assert _board(at)["items"][1]["title"] == "Red shoe"
    at.file_uploader(key="pg_own_file").set_value(
        ("three.csv", b"title,grade\nA,1\nB,2\nC,0\n", "text/csv")).run()
    _open(at)
    (loaded,) = component_data(at, TABLE)
    assert loaded["version"] == 1 and [r["title"] for r in loaded["rows"]] == ["A", "B", "C"]


def _own(at):
    return at.session_state["pg_ex"]


def test_an_example_too_long_for_a_link_says_so_and_the_address_keeps_the_cats():
    at = _open(run_page("playground"))
    titles = ["".join(chr(0x4E00 + (i * 7919 + j * 104729) % 20000) for j in range(100))
              for i in range(12)]
    csv = "title,grade\r\n" + "".join(f"{t},{i % 5}\r\n" for i, t in enumerate(titles))
    at.file_uploader(key="pg_own_file").set_value(("long.csv", csv.encode(), "text/csv")).run()
    assert not at.exception, at.exception
    assert [i["title"] for i in _board(at)["items"]] == titles
    assert "Too long for a link" in at.caption[-1].value or any(
        "Too long for a link" in c.value for c in at.caption)
    # the page's own sentence about sharing says so too, not that the address holds it all
    (share,) = [c.value for c in at.caption if c.value.startswith(":material/link:")]
    assert "Too long for a link" in share and "whole state" not in share, share
    link = address(at)
    assert "ex" not in link and len(link["order"]) == 8      # the cats' board, as left


def test_sources_ideal_and_predict_first_work_on_an_own_example():
    at = _open(run_page("playground"))
    _show(at)
    at.button(key="pg_ideal").click().run()
    assert _board(at)["order"] == ["3", "1", "6", "2", "5", "4"]   # graded: 4, 3, 3, 1, 1, 0
    at.segmented_control(key="pg_mode").set_value("binary").run()
    at.button(key="pg_ideal").click().run()
    assert _board(at)["order"] == ["1", "2", "3", "5", "6", "4"]   # binary: grade 0 is last
    at.button(key="pg_reset").click().run()
    assert _board(at)["order"] == ["1", "2", "3", "4", "5", "6"]
    at.toggle(key="pg_predict").set_value(True).run()
    assert not at.exception, at.exception
    assert len(_board(at)["items"]) == 6 and address(at)["predict"] == "on"


def test_an_example_graded_beyond_one_opens_in_graded_mode():
    """Grades 0-4 typed by a lecturer show as grades at once, not as ✓/✗ until "Grades 0–4" is
    chosen (a lecturer's walk); an example of 0s and 1s stays binary; the cats come back in
    the mode they were left in; a link keeps the mode it names, and without one the example's."""
    at = _open(run_page("playground"))
    assert at.segmented_control(key="pg_mode").value == "binary"
    _show(at)                                                  # the template: grades 0-4
    assert at.segmented_control(key="pg_mode").value == "graded"
    assert _board(at)["mode"] == "graded" and address(at)["mode"] == "graded"
    _open(at)
    query, rows = _edit(at, {0: {"title": "Trail shoe, red"}})
    _show(at, (query, rows))                  # an edit keeps the mode chosen
    assert at.segmented_control(key="pg_mode").value == "graded"
    _open(at)
    _show(at, (query, [{**row, "grade": str(min(int(row["grade"]), 1))} for row in rows]))
    assert at.segmented_control(key="pg_mode").value == "binary"      # 0s and 1s only
    _open(at)
    at.button(key="pg_own_cats").click().run()
    assert at.title[0].value == CATS_TITLE
    assert at.segmented_control(key="pg_mode").value == "binary"      # as the cats were left
    at.segmented_control(key="pg_mode").set_value("graded").run()
    _open(at)
    _show(at, (query, rows))
    at.segmented_control(key="pg_mode").set_value("binary").run()
    _open(at)
    at.button(key="pg_own_cats").click().run()
    assert at.segmented_control(key="pg_mode").value == "graded"      # as the cats were left
    assert at.title[0].value == "Rank the cats: “white cat in a box”"
    text = own_data.to_link(own_data.TEMPLATE)
    linked = run_page("playground", query={"ex": text, "order": "123456"})
    assert linked.segmented_control(key="pg_mode").value == "graded"
    assert _board(linked)["mode"] == "graded"
    kept = run_page("playground", query={"ex": text, "order": "123456", "mode": "binary"})
    assert kept.segmented_control(key="pg_mode").value == "binary"


def test_a_cut_link_shows_the_cats_and_says_why():
    text = own_data.to_link(own_data.TEMPLATE)
    at = run_page("playground", query={"ex": text[:30], "order": "123456"})
    assert at.title[0].value == CATS_TITLE and len(_board(at)["items"]) == 8
    assert any("own example could not be read" in i.value for i in at.info)


def test_a_goal_on_the_own_example_is_checked_by_irlib_and_kept_in_the_link():
    at = _open(run_page("playground", query={"mode": "graded"}))
    _show(at)
    _open(at)                                   # the goal is set in the popover
    assert "highest one move can reach from your order: NDCG@3 = 0.86." in "\n".join(
        c.value for c in at.caption)
    at.button(key="pg_goal_set").click().run()          # the default: NDCG@3 above 0.8, 1 move
    assert not at.exception, at.exception
    assert goal_line(at).startswith(":material/flag: **Goal:** Get NDCG@3 above 0.8 in one move")
    assert "Not yet: NDCG@3 = 0.762, not above 0.8" in goal_line(at)
    assert address(at)["goal"] == "nDCG.3.0.8.1"
    # the best one move: the grade-4 result (rank 3) to the top
    at.session_state["pg_order"] = ["3", "1", "2", "4", "5", "6"]
    at.run()
    assert goal_line(at).startswith(":green[:material/check_circle: **Goal:**")
    assert "Solved: NDCG@3 = 0.865, above 0.8 as asked; 1 move from the start" in goal_line(at)


def goal_line(at) -> str:
    (line,) = [c.value.replace("\\", "") for c in at.caption if "**Goal:**" in c.value]
    return line


def test_k_follows_a_shorter_example_and_back():
    at = _open(run_page("playground", query={"k": "8"}))
    at.file_uploader(key="pg_own_file").set_value(
        ("three.csv", b"title,grade\nA,1\nB,0\nC,2\n", "text/csv")).run()
    assert not at.exception, at.exception
    assert at.slider(key="pg_k").value == 3 and at.slider(key="pg_k").max == 3
    at.slider(key="pg_k").set_value(2).run()
    _open(at)
    at.button(key="pg_own_cats").click().run()
    assert not at.exception and at.slider(key="pg_k").value == 2
    assert at.slider(key="pg_k").max == 8
