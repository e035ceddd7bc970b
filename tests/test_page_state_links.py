"""Every page's own address reads back: a link the app wrote never gets the "could not be
read" notice. (The upload page wrote ``query=`` before a query was chosen and then refused
it: a lecturer who changed ``samples=0`` to ``1`` in that address was told the link was bad.)
"""
from __future__ import annotations

import importlib

import pytest

#: module, the function that builds its page's state
STATES = [("ui.lessons.playground.session", "_page_state"), ("ui.lessons.mrr_map", "mrr_state"),
          ("ui.lessons.ndcg", "ndcg_state"), ("ui.lessons.choosing", "page_state"),
          ("ui.lessons.libraries", "page_state"), ("ui.lessons.beyond", "page_state"),
          ("ui.lessons.online", "page_state"), ("ui.lessons.recommenders", "page_state"),
          ("ui.lessons.judgments", "page_state"), ("ui.lessons.practice.lesson", "page_state"),
          ("ui.lessons.glossary", "page_state"), ("ui.upload.settings", "page_state")]


def build(module: str, name: str):
    make = getattr(importlib.import_module(module), name)
    return make(None) if name == "_page_state" else make()


@pytest.mark.parametrize(("module", "name"), STATES, ids=[m for m, _ in STATES])
def test_the_address_of_a_fresh_page_reads_back_whole(module, name):
    state = build(module, name)
    defaults = {f.name: f.fresh_default() for f in state.fields}
    params = state.query(defaults)
    read = state.from_link(params)
    unread = {f.url_name: params[f.url_name] for f in state.fields if f.name not in read}
    assert unread == {}, f"{module}: its own address has parameters it cannot read: {unread}"
    assert state.query(read) == params           # and gives the same state (re-encoded)


def test_every_page_state_is_listed_here():
    import pathlib
    root = pathlib.Path(__file__).resolve().parents[1] / "ui"
    built = {path.relative_to(root.parent).with_suffix("").as_posix().replace("/", ".")
             .removesuffix(".__init__")
             for path in root.rglob("*.py") if "return ps.PageState(" in path.read_text()}
    assert built == {module for module, _ in STATES}
