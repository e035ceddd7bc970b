"""The course's terms in plain words, for the glossary page (pages/glossary.py).

A measure's name and definition are irlib's registry's (``irlib.measures.registry.MEASURES``: title,
label, description; ``PARAMS`` for trec_eval's ``-l``), never a second copy; a term adds at
most one plain sentence of its own. Every term has a stable ``slug``: the glossary's link
``glossary?term=<slug>`` opens the page on it (:func:`term_link`, for help texts elsewhere).
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import streamlit as st
from streamlit.errors import StreamlitAPIException

from irlib.stats.compare_many import CORRECTIONS
from irlib.measures.registry import MEASURES, PARAMS
from ui.shared import page_state as ps
from ui.shared.course import GLOSSARY, HOME, LESSONS
from ui.shared.texts import md_escape

#: The page's address (app.py's ``url_path``) and its prefix in the session.
URL_PATH = GLOSSARY.url_path
PREFIX = "gl_"


@dataclass(frozen=True)
class Term:
    slug: str                 # in links: glossary?term=<slug>
    name: str
    group: str
    text: str                 # one or two plain sentences
    also: tuple[str, ...] = ()   # other names it goes by (found by the filter)
    lesson: str | None = None    # the page that teaches it (pages/<name>.py)

    def searchable(self) -> str:
        return " ".join((self.name, *self.also, self.text)).casefold()


GROUPS = ("Judgments and runs", "Measures", "Settings", "Comparing systems",
          "Beyond accuracy")


def _measure(slug: str, key: str, *, plain: str = "", also: tuple[str, ...] = (),
             lesson: str | None = None, name: str | None = None) -> Term:
    """A measure's term: its registry title and label, its registry definition, then
    ``plain`` (one sentence of this glossary's own, or nothing)."""
    info = MEASURES[key]
    label = info.label if info.cutoff == "level" else info.label_at("K")
    title = name or (info.title if info.title == label else f"{info.title} ({label})")
    text = info.description + (" " + plain if plain else "")
    return Term(slug, title, GROUPS[1], text, (info.label, *also), lesson)


@functools.cache
def terms() -> tuple[Term, ...]:
    """Every term, in the order the page lists them (by group)."""
    judged, measured, settings, compare, beyond = GROUPS
    return (
        Term("offline-online", "Offline and online evaluation", judged,
             "Offline: score a system on queries whose results people have already judged, "
             "before any user sees it: cheap, fast and repeatable. Online: watch what real "
             "users do (clicks, purchases, A/B tests): the final word, but slow and costly.",
             ("A/B test", "click-through rate", "CTR"), "pages/home.py"),
        Term("query", "Query", judged,
             "One search in the test set (for a recommender: one user). Every measure is "
             "computed per query, then averaged over all of them.",
             ("topic", "user"), "pages/mrr_map.py"),
        Term("relevance", "Relevance", judged,
             "Whether a result is what the person searching needed. People decide it (the "
             "judges), not the system.", ("relevant",), "pages/playground.py"),
        Term("graded-relevance", "Binary and graded relevance", judged,
             "Binary: a result is relevant or not. Graded: a scale such as 0–4, so a perfect "
             "result can count more than a so-so one.", ("grade", "grades"), "pages/ndcg.py"),
        Term("judgment", "Judgment (qrels)", judged,
             "One person's verdict on one result for one query. A qrels file (TREC's name) "
             "lists them all: query, document, grade.",
             ("qrels", "relevance judgment", "label", "ground truth"), "pages/upload.py"),
        Term("unjudged", "Unjudged result", judged,
             "A result nobody judged. Most measures count it as not relevant; bpref leaves "
             "it out.", ("unjudged document", "incomplete judgments"), "pages/judgments.py"),
        Term("rater-agreement", "Rater agreement (Cohen's and Fleiss' κ)", judged,
             "How often raters give the same grade, beyond what chance alone would give: "
             "κ = 1 is complete agreement, 0 exactly chance, below 0 less than chance "
             "(Landis & Koch call up to 0.20 “slight”, below 0 “poor”). Cohen's κ compares "
             "two raters, Fleiss' κ three or more. Chance agreement grows when most documents "
             "get one grade, so the same raw agreement gives a lower κ on skewed grades "
             "(prevalence); and a κ from a few documents is very uncertain.",
             ("kappa", "κ", "inter-rater agreement", "inter-annotator agreement",
              "disagreement", "median of raters", "prevalence"),
             "pages/judgments.py"),
        Term("ordinal-agreement", "Weighted κ and Krippendorff's α", judged,
             "Agreement for ordered grades: a 2 against a 3 counts as a smaller disagreement "
             "than a 0 against a 3. Weighted κ does this for two raters (linear or quadratic "
             "weights); Krippendorff's α for any number of raters and missing grades, with a "
             "distance chosen for the scale (nominal, ordinal, interval).",
             ("weighted kappa", "Krippendorff's alpha", "Krippendorff's α", "ordinal agreement"),
             "pages/judgments.py"),
        Term("assessor-effect", "Raters and the ranking of systems (Kendall's τ)", judged,
             "Raters who disagree move every system's score, but much less the order of the "
             "systems: Voorhees (2000) found system rankings under different assessors "
             "correlated at Kendall's τ of about 0.9 and above. τ counts the pairs of "
             "systems two rankings put in the same order against those they swap.",
             ("Kendall's tau", "τ", "system ranking", "assessor disagreement"),
             "pages/judgments.py"),
        Term("pooling", "Pooling (pool depth, pool bias)", judged,
             "How test collections are judged: the top k results of every participating "
             "system are pooled and judged, the rest stay unjudged. A later system that finds "
             "other documents meets unjudged ones and is underrated; and R, the number of "
             "relevant documents, is what the pool found, so a shallow pool raises AP and "
             "recall for every system. Zobel's leave-one-out check drops one system's own "
             "contributions and rescores it.",
             ("pool", "pool depth", "TREC pool", "pool bias", "leave-one-out"),
             "pages/judgments.py"),
        Term("condensed-list", "Judged-only (condensed) list (trec_eval's -J)", judged,
             "Drop the unjudged results from a ranking before scoring, so the judged ones move "
             "up. Not neutral: moved up, judged relevant results count at better ranks, so "
             "condensed-list scores tend to be higher than complete judgments would give "
             "(Sakai & Kando 2008). trec_eval's P@k still divides by k.",
             ("-J", "condensed list", "judged only"), "pages/judgments.py"),
        Term("run", "Run", judged,
             "One system's ranked results for every test query, as a file (TREC's format: "
             "query, document, rank, score, tag). One run per system or version.",
             ("ranking", "TREC run", "tag"), "pages/upload.py"),
        Term("cutoff", "Cut-off K (@K)", judged,
             "How many top results count: P@10 looks only at the first ten, like a user "
             "who never scrolls further.", ("K", "@K", "depth", "top K"),
             "pages/playground.py"),
        Term("order-aware", "Order-aware and order-unaware", judged,
             "An order-aware measure changes when the same results are put in another order "
             "(RR, AP, NDCG); an order-unaware one only asks what is in the top K "
             "(precision, recall).", ("rank-aware", "set measure"), "pages/home.py"),
        Term("ideal-ranking", "Ideal ranking", judged,
             "The best possible order of a query's judged results, best grades first: what "
             "NDCG compares a ranking with. Libraries disagree on whether it comes from all "
             "judged documents or only the ones shown.", ("ideal order",), "pages/ndcg.py"),
        Term("trec-eval", "trec_eval", judged,
             "The reference program from NIST's TREC evaluations: it computes these "
             "measures from a qrels file and a run. Other tools, this app's included, are "
             "checked against it.", ("TREC", "NIST"), "pages/libraries.py"),
        Term("heldout", "Held-out interactions", judged,
             "What users did after the data a recommender learned from: the films they went "
             "on to watch, the items they bought. They are a recommender's relevant items, "
             "including the ones no system recommended, so recall and NDCG are not inflated.",
             ("test split", "held out", "leave-last-out", "temporal split"),
             "pages/recommenders.py"),
        _measure("precision", "P", plain="Of what we showed, how much was useful?",
                 lesson="pages/playground.py"),
        _measure("recall", "R", plain="Of everything useful, how much did we show?",
                 lesson="pages/playground.py"),
        _measure("f1", "F1", plain="High only when both are high.",
                 lesson="pages/playground.py"),
        _measure("success", "Success", name=f"Success ({MEASURES['Success'].label_at('K')}, "
                 "hit rate)", plain="Did the user find anything useful at all?",
                 also=("hit rate", "HR@K", "hits"), lesson="pages/choosing.py"),
        _measure("rr", "RR", name="Reciprocal rank (RR) and MRR",
                 plain="1 when the first result is relevant, 0.5 when the first relevant one is "
                       "second, 0 when none is in the top K. MRR is the mean of these over "
                       "queries: a mean of reciprocals, so an MRR of 0.5 does not put the first "
                       "hit at rank 2 on average.",
                 also=("MRR", "mean reciprocal rank"), lesson="pages/mrr_map.py"),
        _measure("ap", "AP", name="Average precision (AP) and MAP",
                 plain="High when all the relevant results come first; one never "
                       "retrieved counts as a precision of 0.",
                 also=("MAP", "mean average precision"), lesson="pages/mrr_map.py"),
        _measure("gmap", "GMAP", lesson="pages/upload.py"),
        _measure("cg", "CG", lesson="pages/ndcg.py"),
        _measure("dcg", "DCG", plain="A result's gain counts less the lower it is ranked.",
                 also=("discount",), lesson="pages/ndcg.py"),
        _measure("idcg", "IDCG", plain="The best score any order could reach.",
                 lesson="pages/ndcg.py"),
        _measure("ndcg", "nDCG", also=("nDCG", "normalized DCG"), lesson="pages/ndcg.py"),
        _measure("r-precision", "Rprec", also=("Rprec", "R-precision"),
                 lesson="pages/upload.py"),
        _measure("bpref", "Bpref", lesson="pages/judgments.py"),
        _measure("judged-at-k", "Judged", also=("judged share", "Judged@K", "judgment rate"),
                 lesson="pages/judgments.py"),
        _measure("interpolated-precision", "IPrec",
                 also=("iprec_at_recall", "precision-recall curve", "PR curve"),
                 lesson="pages/upload.py"),
        _measure("eleven-point", "IPrecAvg", also=("11pt_avg", "11-point"),
                 lesson="pages/upload.py"),
        _measure("rbp", "RBP", plain="Its user reads on with the same chance p after every "
                 "result: p = 0.5 is impatient, 0.95 reads far.",
                 also=("rank-biased precision", "persistence", "patience"),
                 lesson="pages/online.py"),
        _measure("inst", "INST", plain="Its user came for T units of gain and reads on longer "
                 "while that goal is unmet.", also=("target", "adaptive"),
                 lesson="pages/online.py"),
        _measure("err", "ERR", plain="A cascade: its user stops when satisfied, so where they "
                 "stop depends on the grades seen, which is why it is not a C/W/L measure.",
                 also=("expected reciprocal rank", "cascade"), lesson="pages/online.py"),
        Term("cwl", "C/W/L: a metric as a user", measured,
             "A metric read as a user who scans down the ranking: C(i) is the chance they go "
             "on from rank i, W(i) the share of their attention rank i gets, L(i) the chance "
             "they stop there. The score is the gain they expect per result read.",
             ("C/W/L", "cwl_eval", "user model", "continuation", "weight", "stopping",
              "expected utility"), "pages/online.py"),
        Term("mean", "Mean over queries", measured,
             "A test set's score is the average of one measure over its queries: MRR is "
             "the mean of RR, MAP the mean of AP. One bad query moves it little; many do.",
             ("average", "macro average"), "pages/mrr_map.py"),

        Term("gain", "Gain (linear or exponential)", settings,
             "What a result of a given grade adds to DCG: the grade itself (linear, as "
             "trec_eval), or 2^grade − 1 (exponential), which rewards the top grades much "
             "more. Scores made with different gains cannot be compared.",
             ("exponential gain", "exp-log2", "dcg="), "pages/ndcg.py"),
        Term("threshold", "Relevance threshold (trec_eval's -l)", settings,
             f"The {PARAMS['rel'].description}: with grades 0–4 and -l 2, a result graded "
             "1 counts as not relevant for precision, recall, RR and AP.",
             ("-l", "rel", "relevant if"), "pages/playground.py"),
        Term("complete", "Every judged query counts (trec_eval's -c)", settings,
             "Average over every query in the judgments, a query the run did not answer "
             "scoring 0. Without -c such queries are left out, so a system that skips hard "
             "queries looks better than it is.", ("-c", "complete", "missing queries"),
             "pages/upload.py"),

        Term("click-model", "Click model", compare,
             "A model of how users turn a ranking into clicks: the cascade model reads from "
             "the top and clicks the first attractive result; the position-based model "
             "reads each rank with a chance that falls with the rank.",
             ("cascade model", "position-based model", "PBM", "clicks", "CTR",
              "click-through rate", "attractiveness"), "pages/online.py"),
        Term("position-bias", "Position bias", compare,
             "Users click what is on top more, whatever it is. Read as judgments, clicks "
             "therefore favour the results a system already ranks high.",
             ("presentation bias", "implicit feedback"), "pages/online.py"),
        Term("ab-test", "A/B test", compare,
             "An online experiment: half the users see one ranking, half the other, and a "
             "test compares a rate such as click-through between the two groups.",
             ("online experiment", "split test", "controlled experiment"), "pages/online.py"),
        Term("interleaving", "Interleaving (team draft, balanced)", compare,
             "Every user sees one list mixed from both rankings; each click counts for the "
             "ranking that placed the result, so each user votes. It needs far fewer users "
             "than an A/B test for the same decision.",
             ("team draft", "team-draft", "balanced interleaving", "sign test"),
             "pages/online.py"),
        Term("baseline", "Baseline", compare,
             "The system the others are compared with, usually the one in production.",
             ("control",), "pages/upload.py"),
        Term("win-tie-loss", "Wins, ties and losses", compare,
             "The number of queries on which a system scores higher than, the same as, or "
             "lower than the baseline: it shows whether a gain is broad or carried by a "
             "few queries.", ("win/loss", "per-query"), "pages/upload.py"),
        Term("paired-test", "Paired test", compare,
             "Compares two systems query by query on the same queries, so each query's own "
             "difficulty cancels out; it sees smaller real differences than comparing two "
             "averages.", ("paired comparison", "significance test"), "pages/upload.py"),
        Term("t-test", "Paired t-test", compare,
             "The classic paired test: the mean of the per-query differences against their "
             "spread. It assumes roughly bell-shaped differences, so it can mislead with "
             "few queries, many ties or one extreme query.", ("Student's t",),
             "pages/upload.py"),
        Term("randomization-test", "Randomization test", compare,
             "Swaps which system each query's two scores belong to, in every possible way "
             "(or many random ways), and counts how often the swapped difference is as "
             "large as the real one. It assumes nothing about the shape of the differences.",
             ("permutation test", "sign-flip test", "Fisher"), "pages/upload.py"),
        Term("p-value", "p-value", compare,
             "How often a difference at least this large would turn up by chance if both "
             "systems were equally good. Small (below 0.05 by convention) makes chance an "
             "unlikely explanation; it says nothing about how large or important the "
             "difference is.", ("p", "significance", "statistically significant"),
             "pages/upload.py"),
        Term("power", "Power and the number of queries", compare,
             "The chance that a test finds a difference that is really there. It grows with "
             "the number of queries and with the effect size: the difference against the "
             "spread (SD) of the per-query differences. Plan it before the study, from the "
             "smallest difference that matters and a pilot's SD; “observed power” computed "
             "afterwards from the measured difference only restates the p-value.",
             ("statistical power", "sample size", "how many queries", "effect size",
              "topic set size", "observed power", "post-hoc power"),
             "pages/judgments.py"),
        Term("confidence-interval", "Confidence interval", compare,
             "A range of plausible values for the true mean difference (95 %: the method "
             "catches the true value 95 times out of 100). If it includes 0, the data cannot "
             "rule out “no difference”.", ("CI", "margin of error"), "pages/upload.py"),
        Term("multiple-comparisons", f"Multiple comparisons ({CORRECTIONS['holm']})", compare,
             "Test many systems or measures at once and some will look significant by "
             f"luck alone. {CORRECTIONS['holm']} raises the p-values so that the chance of "
             "even one false alarm stays at or below 5 %.",
             ("Holm", "Bonferroni", "correction", "family-wise error"), "pages/upload.py"),
        Term("sampled", "Sampled metrics", compare,
             "Ranking a user's held-out item among a hundred random items instead of the whole "
             "catalogue: cheaper, but the numbers change and can reverse the order of two "
             "systems (Krichene and Rendle, 2020).", ("sampled evaluation", "negative sampling"),
             "pages/recommenders.py"),
        Term("latency", "Latency and cost", beyond,
             "How long a system takes to answer one query, and what it costs to run "
             "(hardware, memory, money). A more accurate system that is too slow or too "
             "expensive is not better.", ("throughput", "cost", "FLOPs", "memory"),
             "pages/beyond.py"),
        Term("pareto", "Pareto frontier", beyond,
             "The systems that no other beats on cost and quality at once. A system off the "
             "frontier is dominated: another costs no more, scores at least as well, and is "
             "better on one of the two.",
             ("dominated", "frontier", "trade-off"), "pages/beyond.py"),
        Term("coverage", "Coverage", beyond,
             "The share of the whole catalogue in at least one evaluated user's top K. Low "
             "coverage means much of the catalogue is never recommended.",
             ("catalogue coverage", "catalog coverage", "exposure", "Gini"),
             "pages/recommenders.py"),
        Term("novelty", "Popularity bias and novelty", beyond,
             "A recommender that shows mostly popular items often scores well offline; it tells "
             "users little they did not know. Novelty measures how unfamiliar (less "
             "popular) the recommended items are.", ("popularity", "long tail", "diversity"),
             "pages/recommenders.py"),
    )


@functools.cache
def by_slug() -> dict[str, Term]:
    return {t.slug: t for t in terms()}


def term_link(slug: str) -> str:
    """A relative link that opens the glossary on one term (``glossary?term=ndcg``), for
    Markdown and help texts on any page: every page's address sits beside the glossary's."""
    if slug not in by_slug():
        raise KeyError(slug)
    return f"{URL_PATH}?term={slug}"


def matching(query: str) -> list[Term]:
    """The terms holding every word of ``query`` (case-insensitive) in their name, other
    names or text; all of them for an empty query.

    >>> [t.slug for t in matching("holm")]
    ['multiple-comparisons']
    """
    words = re.findall(r"\w[\w@/.+-]*", query.casefold())
    return [t for t in terms() if all(w in t.searchable() for w in words)]


# --------------------------------------------------------------------------- the page

SCROLL_TOKEN = PREFIX + "scroll"     # raised by each choice of a term: scroll to it once
SEARCH_MAX = 80


def _term_codec():
    def parse(text: str) -> str:
        if text and text not in by_slug():
            raise ValueError(text)
        return text
    return ps.Codec(parse, str, "the name of a term in the glossary, e.g. ndcg")


def _search_codec():
    def parse(text: str) -> str:
        if len(text) > SEARCH_MAX or not text.isprintable():
            raise ValueError(text)
        return text
    return ps.Codec(parse, str, f"a text of at most {SEARCH_MAX} characters")


@functools.cache
def page_state():
    """The chosen term (``term=``) and the filter's text (``q=``)."""
    return ps.PageState(PREFIX, [ps.Field("term", "", _term_codec()),
                                 ps.Field("q", "", _search_codec())])


def start() -> None:
    """Seed the page's state; a link to a term scrolls to it once (ui/shared/scroll.py)."""
    state = page_state()
    linked = state.key("term") not in st.session_state
    state.start()
    if linked and state["term"]:
        st.session_state[SCROLL_TOKEN] = 1


def choose_term() -> None:
    """The "Go to a term" box's ``on_change``: show every term again, scroll to the new one."""
    page_state().set("q", "")
    st.session_state[SCROLL_TOKEN] = st.session_state.get(SCROLL_TOKEN, 0) + 1


def term_key(slug: str) -> str:
    """The key of a term's container, so also its CSS class (``st-key-gl_term_ndcg``)."""
    return f"{PREFIX}term_{slug}"


def anchor(slug: str) -> str:
    return f"term-{slug}"


def draw_term(term: Term) -> None:
    """A term's name, its sentences and the lesson that teaches it."""
    with st.container(key=term_key(term.slug)):
        st.markdown(f'<span id="{anchor(term.slug)}"></span>**{md_escape(term.name)}**  \n'
                    f"{md_escape(term.text)}", unsafe_allow_html=True)
        if term.lesson:
            _lesson_link(term.lesson)


def _lesson_link(path: str) -> None:
    page = next((p for p in (HOME, *LESSONS) if p.path == path), None)
    if page is None:
        return
    try:
        st.page_link(page.path, label=f"See it in {page.title}", icon=page.icon)
    except StreamlitAPIException:         # the page run on its own (tests): no navigation
        st.caption(f"See it in {page.title}")


#: Lines a reader can follow on a wide screen; each term's lesson link as small as a caption.
PAGE_CSS = """<style>
.st-key-gl_body { max-width: 50rem; }
[class*="st-key-gl_term_"] { gap: 0; }
[class*="st-key-gl_term_"] [data-testid="stPageLink"] a { padding: 0.1rem 0; }
[class*="st-key-gl_term_"] [data-testid="stPageLink"] p { font-size: 0.875rem; opacity: 0.8; }
@media print {     /* Streamlit spaces a block's elements with margins on paper */
  .st-key-gl_body { max-width: none; }
  [class*="st-key-gl_term_"] > * { margin-bottom: 0 !important; }
}
</style>"""


def style() -> None:
    st.html(PAGE_CSS)


def highlight(slug: str) -> None:
    """Mark the chosen term with the theme's primary colour (style only)."""
    if not slug:
        return
    dark = getattr(st.context.theme, "type", "light") == "dark"
    colour = _primary_colour(dark)
    st.html(f"""<style>
.st-key-{term_key(slug)} {{
  box-shadow: inset 4px 0 0 {colour}; border-radius: 0.5rem; padding: 0.5rem 0.75rem;
  background: color-mix(in srgb, {colour} 10%, transparent);
}}</style>""")


def _primary_colour(dark: bool) -> str:
    """The primary colour of .streamlit/config.toml's theme (Streamlit's red without one)."""
    try:
        colour = st.get_option(f"theme.{'dark' if dark else 'light'}.primaryColor")
    except RuntimeError:       # an older Streamlit without per-theme options
        colour = None
    return colour if isinstance(colour, str) and re.fullmatch(r"#[0-9a-fA-F]{3,8}", colour) \
        else "#ff4b4b"
