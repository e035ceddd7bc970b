"""benchmarks/class_floor.py builds its floors from today's playground (issue 48's evidence)."""
import ast
from pathlib import Path

import pytest

from benchmarks.class_floor import FLOOR, PAGE, floor_page, scratch_copy

ROOT = Path(__file__).resolve().parents[1]
PLAYGROUND = (ROOT / PAGE).read_text(encoding="utf-8")


def calls(source: str) -> set[str]:
    """The names of every function called in ``source``."""
    return {node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Call)}


def test_the_page_floor_keeps_the_page_and_drops_only_the_live_element():
    floor = floor_page("page", PLAYGROUND)
    kept = calls(floor)
    # the page around the live part: its heading, buttons, popover, controls and links
    assert {"title", "button", "popover", "toggle", "segmented_control", "slider",
            "show_pros_cons", "lesson_links", "board_page"} <= kept
    # the live part's element, and everything it draws, are gone
    assert not {"mount_parts", "mount_part", "ranking_board_part", "charts_part",
                "formula_part", "neighbour_preview"} & kept
    assert floor.count('key="floor"') == 1 and "live_part()\n" in floor


def test_the_chrome_floor_is_the_navigation_and_the_fragment():
    floor = floor_page("chrome", PLAYGROUND)
    assert calls(floor) == {"through_app_navigation", "container", "toggle", "text",
                            "get", "live_part"}
    assert FLOOR.click.startswith(".st-key-floor ") and FLOOR.shown.startswith(".st-key-floor ")


def test_a_playground_without_one_live_fragment_is_refused_with_its_reason():
    with pytest.raises(SystemExit, match="live part as one fragment"):
        floor_page("page", PLAYGROUND.replace("@st.fragment", "@st.cache_data"))


def test_the_scratch_copy_is_the_checkout_with_the_floor_page(tmp_path):
    root = scratch_copy("page", tmp_path)
    assert (root / "app.py").read_bytes() == (ROOT / "app.py").read_bytes()
    assert (root / ".streamlit/config.toml").is_file()
    assert (root / PAGE).read_text(encoding="utf-8") == floor_page("page", PLAYGROUND)
