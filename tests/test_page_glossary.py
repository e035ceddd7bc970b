"""The glossary through AppTest: every course term is there, measures are defined by irlib's
registry, a link opens the page on one term, the filter finds terms, and the page keeps its
state across a trip to a lesson (app.py's navigation)."""
from __future__ import annotations

import re
from dataclasses import replace

import pytest
from streamlit.testing.v1 import AppTest

from irlib.measures import registry as measures
from tests.apptest import ROOT, address, component_data, run_page
from ui.lessons import glossary as gl

#: What the course says a glossary must explain (issue 25), as a reader would look it up.
COURSE_WORDS = [
    "relevance", "judgment", "qrels", "run", "cut-off", "precision", "recall", "F1",
    "success", "hit rate", "MRR", "MAP", "gain", "DCG", "IDCG", "NDCG", "ideal ranking",
    "R-precision", "bpref", "interpolated precision", "-c", "-l", "paired test", "p-value",
    "confidence interval", "randomization test", "multiple comparisons", "Holm",
    "coverage", "popularity", "novelty", "Pareto", "offline", "online",
    "kappa", "Fleiss", "pooling", "-J", "Judged@K", "power", "unjudged",
]


def term_texts(at: AppTest) -> dict[str, str]:
    """{slug: the term's Markdown} for every term the page shows."""
    found = {}
    for block in at.markdown:
        match = re.match(r'<span id="term-([a-z0-9-]+)"></span>', block.value)
        if match:
            found[match.group(1)] = block.value
    return found


def styles(at: AppTest) -> str:
    return "\n".join(h.proto.body for h in at.get("html"))


@pytest.mark.parametrize("word", COURSE_WORDS)
def test_every_course_word_finds_its_term(word):
    assert gl.matching(word), word


def test_slugs_are_unique_and_fit_a_link_and_a_css_class():
    slugs = [t.slug for t in gl.terms()]
    assert len(slugs) == len(set(slugs))
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", s) for s in slugs)
    assert {t.group for t in gl.terms()} == set(gl.GROUPS)


def test_measure_definitions_come_from_irlibs_registry(monkeypatch):
    """Change every definition in the registry: the glossary says the new ones."""
    changed = {key: replace(info, description=f"REGISTRY SAYS {key}.", title=f"Title {key}")
               for key, info in measures.MEASURES.items()}
    monkeypatch.setattr(gl, "MEASURES", changed)
    gl.terms.cache_clear()
    try:
        texts = {t.slug: t for t in gl.terms()}
        for slug, key in [("precision", "P"), ("recall", "R"), ("ap", "AP"), ("rr", "RR"),
                          ("ndcg", "nDCG"), ("dcg", "DCG"), ("idcg", "IDCG"), ("bpref", "Bpref"),
                          ("r-precision", "Rprec"), ("interpolated-precision", "IPrec")]:
            assert texts[slug].text.startswith(f"REGISTRY SAYS {key}."), slug
        assert texts["ndcg"].name.startswith("Title nDCG")
    finally:
        gl.terms.cache_clear()
        gl.by_slug.cache_clear()


def test_the_page_lists_every_term_with_the_registrys_words():
    at = run_page("glossary")
    shown = term_texts(at)
    assert list(shown) == [t.slug for t in gl.terms()]
    assert "DCG@K divided by the ideal DCG@K" in shown["ndcg"].replace("\\", "")
    assert [s.value for s in at.subheader] == list(gl.GROUPS)
    assert "box-shadow" not in styles(at)                 # no term marked


def test_a_link_to_a_term_marks_it_and_scrolls_to_it_once():
    at = run_page("glossary", query={"term": "ndcg"})
    assert at.selectbox(key="gl_term").value == "ndcg"
    assert ".st-key-gl_term_ndcg {" in styles(at)
    (scroll,) = component_data(at, "irlab_scroll")
    assert scroll["anchor"] == "term-ndcg" and scroll["token"] == 1
    assert address(at) == {"term": "ndcg"}
    at.run()                                    # a rerun does not scroll again
    assert component_data(at, "irlab_scroll")[0]["token"] == 1


def test_term_link_opens_the_glossary_on_that_term():
    link = gl.term_link("p-value")
    assert link == "glossary?term=p-value"
    at = run_page("glossary", query=dict([link.split("?", 1)[1].split("=")]))
    assert ".st-key-gl_term_p-value {" in styles(at)
    with pytest.raises(KeyError):
        gl.term_link("no-such-term")


@pytest.mark.parametrize("bad", ["<script>", "NDCG", "x" * 300])
def test_a_bad_term_in_a_link_says_so_and_marks_nothing(bad):
    at = run_page("glossary", query={"term": bad})
    assert "could not be read" in at.info[0].value
    assert at.selectbox(key="gl_term").value == ""
    assert not component_data(at, "irlab_scroll")
    assert len(term_texts(at)) == len(gl.terms())


def test_the_filter_finds_terms_and_says_when_none_match():
    at = run_page("glossary")
    at.text_input(key="gl_q").input("holm").run()
    assert list(term_texts(at)) == ["multiple-comparisons"]
    assert "1 of" in at.caption[1].value
    assert address(at)["q"] == "holm"
    at.text_input(key="gl_q").input("[x](https://example.com) **z**").run()
    assert not term_texts(at)
    notice = at.info[0].value
    assert "No term holds" in notice and "\\[x\\]\\(https" in notice     # shown as typed


def test_choosing_a_term_shows_every_term_again_and_scrolls_to_it():
    at = run_page("glossary", query={"q": "gain"})
    assert "bpref" not in term_texts(at)
    at.selectbox(key="gl_term").select("bpref").run()
    assert at.text_input(key="gl_q").value == ""
    assert "bpref" in term_texts(at)
    (scroll,) = component_data(at, "irlab_scroll")
    assert scroll == {"anchor": "term-bpref", "token": 1, "key": "gl_scroll"}
    at.selectbox(key="gl_term").select("ap").run()
    assert component_data(at, "irlab_scroll")[0]["token"] == 2


def test_the_glossary_is_in_the_navigation_and_keeps_its_state_across_lessons():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("pages/glossary.py").run()
    assert not at.exception
    at.text_input(key="gl_q").input("p-value").run()
    at.selectbox(key="gl_term").select("p-value").run()
    at.text_input(key="gl_q").input("test").run()
    for other in ("pages/ndcg.py", "pages/home.py"):
        at.switch_page(other).run()
        assert not at.exception, at.exception
    at.switch_page("pages/glossary.py").run()
    assert at.text_input(key="gl_q").value == "test"
    assert at.selectbox(key="gl_term").value == "p-value"
    assert address(at) == {"term": "p-value", "q": "test"}
    assert "@media print" in styles(at)          # app.py's print stylesheet, on every page
