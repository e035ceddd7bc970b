"""The claims layer: every evaluative word the course, the report and the command lines print.

A sentence or mark that says a system (a ranking, a split, a metric's choice) *wins*, *beats*,
*falls behind*, *is best* (★), *ties*, *is real* or *could be chance* (▲/▼ too) is a claim. A
claim is made here, from a tested result, and nowhere else: ``ui/``, ``course/``, ``pages/``
and ``irlib/cli`` call these functions and print what they return
(``tests/test_claims_words.py`` fails on a hand-made one, with its file and line).

The tested result is a :class:`~irlib.stats.compare_many.Finding` (one comparison of a
systems table: its test, raw and corrected p, family, tie and mark), made by
:func:`~irlib.stats.compare_many.compare_many` or, for two systems alone,
:func:`~irlib.stats.verdict.single_finding`. Untested numbers (one query's scores) may only be
*ordered*, never called a win: :func:`highest_on_one`.

API
---
Marks (one rule for page, report, CSV and command line)
    :func:`mark` ▲/▼ of a finding; :func:`leaders` who shares ★ (tied leaders share it, none
    when all tie; re-exported from :mod:`irlib.stats.ties`); :func:`star`;
    :func:`table_cell` "0.4123 ▲ ★"; :func:`pair_cell` a cell of the every-pair grid with its
    direction; :func:`legend` the caption that explains the marks;
    :func:`is_quality_measure` (Judged@K gets no mark at all); :func:`pair_grid_caption`.
Words
    :func:`finding_word` ("better", "worse", "tie", "no clear difference", "not a quality
    measure"): the CSV/JSON ``finding``; :func:`finding_words` the same with its p, in a line;
    :func:`headline` a whole table in a paragraph; :func:`verdict` two systems in sentences
    (engineer's and plain words); :func:`highest_on_one`, :func:`leaders_named` and
    :func:`one_query_caption` an untested order of one query's scores;
    :func:`interval_label` the t-interval's label, "uncorrected" beside a corrected p;
    :func:`report_question` a report's title and question; :func:`chance_floor_words` why few
    differing rows cannot be told from chance.
Constants
    :data:`TIE_TOLERANCE`, :data:`STAR`, :data:`UP`, :data:`DOWN`, :data:`DAGGER`,
    :data:`BEST_COLUMN`.

Typical use, for a page or a command line (recommenders: rows are users, ``unit="user"``)::

    table = compare_many(per_query, baseline, all_pairs=pairs)   # the tested result
    cells = [claims.table_cell(table, m, s) for m in measures]   # "0.4123 ▲ ★"
    st.caption(claims.legend(table))                              # what the marks mean
    st.info(claims.headline(table, labels, unit="user"))          # the whole table in words
    said = claims.verdict(comparison, label, a, b, finding=table.finding(m, b, a))

A string that must carry one of the words without being a claim (a definition in the glossary,
"the ideal order puts the best grades first") is listed, with why, in the lint test's
``NOT_A_CLAIM``; see that test's docstring.
"""
from __future__ import annotations

from irlib.stats.compare_many import (CORRECTIONS, TESTS, Finding, ManyComparison, headline,
                                      is_quality_measure)
from irlib.stats.p_values import format_p
from irlib.stats.ties import TIE_TOLERANCE, leaders
from irlib.stats.verdict import Verdict, single_finding, verdict

__all__ = ["BEST_COLUMN", "DAGGER", "DOWN", "STAR", "TIE_TOLERANCE", "UP", "Finding", "Verdict",
           "chance_floor_words", "common_units_note", "finding_word", "finding_words", "headline", "highest_on_one",
           "interval_label", "is_quality_measure", "leaders", "leaders_named", "legend", "mark",
           "one_query_caption", "pair_cell", "pair_grid_caption", "report_question",
           "single_finding", "star", "table_cell", "verdict"]

STAR, UP, DOWN, DAGGER = "★", "▲", "▼", "†"
#: The column of a summary CSV that says who shares ★ (:func:`leaders`).
BEST_COLUMN = "best"


def mark(found: Finding | None) -> str:
    """▲ when the table marks ``found.system`` better than ``found.against``, ▼ worse, else "".

    >>> f = Finding("AP", "b", "a", .5, .4, .1, 30, "t-test", .01, .02, "holm", 2, False,
    ...             .05, True, False)
    >>> mark(f), mark(None)
    ('▲', '')
    """
    if found is None or not found.direction:
        return ""
    return UP if found.direction > 0 else DOWN


def star(name: str, shared: tuple) -> str:
    """★ for a name among the leaders (:func:`leaders`), else "".

    >>> star("a", leaders({"a": .7, "b": .6995, "c": .5})), star("c", ("a",))
    ('★', '')
    """
    return STAR if name in shared else ""


def table_cell(result: ManyComparison, measure: str, system: str) -> str:
    """A systems table's cell: the mean to 4 decimals, ▲/▼ against the baseline, ★, and †
    when this mean and the baseline's were taken over different queries (the mark then
    compares only the queries both answer, and the two means need not differ as it says).

    >>> import pandas as pd
    >>> a = pd.DataFrame({"AP": [.2, .4, .1, .5, .3, .6, .2, .1]})
    >>> r = _table_for_examples({"base": a, "up": a + .1, "tie": a + .0002})
    >>> [table_cell(r, "AP", s) for s in ("base", "up", "tie")]
    ['0.3000', '0.4000 ▲ ★', '0.3002']
    """
    mean = result.means.at[system, measure]
    if mean != mean:
        return "–"
    found = result.finding(measure, system) if system != result.baseline else None
    apart = found is not None and not _same_queries(result, measure, system)
    return " ".join(x for x in (f"{mean:.4f}", mark(found), star(system, result.best[measure]),
                                DAGGER if apart else "") if x)


def _same_queries(result: ManyComparison, measure: str, system: str) -> bool:
    row = result.cell(measure, system)
    return row is None or "same_queries" not in row or bool(row["same_queries"])


def pair_cell(found: Finding | None) -> str:
    """A cell of the every-pair grid, read as "the row's system against the column's": the
    corrected p, and ▲/▼ when the table marks the row's system better/worse.

    >>> f = Finding("AP", "b", "a", .3, .5, -.2, 30, "t-test", .001, .003, "holm", 3, True,
    ...             .05, True, False)
    >>> pair_cell(f)
    '0.003 ▼'
    """
    if found is None:
        return ""
    return " ".join(x for x in (format_p(found.p_adjusted), mark(found)) if x)


def legend(result: ManyComparison) -> str:
    """What the marks of a systems table mean, in one caption for page, report and CLI.

    >>> import pandas as pd
    >>> a = pd.DataFrame({"AP": [.2, .4, .1, .5]})
    >>> print(legend(_table_for_examples({"base": a, "up": a + .1, "b": a})))
    ... # doctest: +NORMALIZE_WHITESPACE
    ▲ / ▼: better / worse than base by the randomization test, Holm–Bonferroni over the 2
    comparisons of each measure, at 0.05. Means within 0.0005 of each other are a tie (they may
    still print apart): never marked. ★: the highest mean, shared by every mean within 0.0005
    of it; none when all tie. Judged@K is not a quality measure and is never marked.
    """
    n = result.family_size
    how = (f"{CORRECTIONS[result.correction]} over the {n} comparisons of each measure"
           if n > 1 and result.correction != "none" else
           "one comparison per measure, nothing to correct for" if n == 1 else
           f"{n} comparisons per measure, uncorrected")
    pairs = " (every pair of systems)" if result.all_pairs and n > 1 else ""
    return (f"{UP} / {DOWN}: better / worse than {result.baseline} by the "
            f"{TESTS[result.test]}, {how}{pairs}, at {result.alpha:g}. Means within "
            f"{TIE_TOLERANCE:g} of each other are a tie (they may still print apart): never "
            f"marked. {STAR}: the highest mean, shared by every mean within "
            f"{TIE_TOLERANCE:g} of it; none when all tie. Judged@K is not a quality measure "
            "and is never marked." + (
                f" {DAGGER}: this mean and the baseline's were taken over different queries; "
                "the mark compares only the queries both answer."
                if "same_queries" in result.tests and not result.tests["same_queries"].all()
                else ""))


def common_units_note(n: int, left_out: int, unit: str, units: str) -> str:
    """Why a paired mean difference is not the difference of the systems table's two means,
    for the mark :data:`DAGGER` beside it: the tests pair only the ``n`` queries (users) both
    systems answer, while each table mean is over its own system's.

    >>> common_units_note(23, 1, "query", "queries")[:72]
    '† Over the 23 queries both systems answer, as the tests are: 1 query tha'
    """
    left = f"{left_out} {unit if left_out == 1 else units}"
    return (f"{DAGGER} Over the {n} {units} both systems answer, as the tests are: {left} "
            f"that only one of them answers {'is' if left_out == 1 else 'are'} left out. The "
            f"systems table's means are each over its own system's {units}, so their "
            "difference need not be this one.")


def pair_grid_caption(result: ManyComparison) -> str:
    """How to read the every-pair grid (:func:`pair_cell`).

    >>> import pandas as pd
    >>> a = pd.DataFrame({"AP": [.2, .4, .1, .5]})
    >>> print(pair_grid_caption(_table_for_examples({"a": a, "b": a + .1, "c": a},
    ...                                             all_pairs=True)))
    ... # doctest: +NORMALIZE_WHITESPACE
    p-values corrected over the 3 comparisons between every pair of systems. Read a cell as
    the row's system against the column's: ▲ marked better, ▼ marked worse (significant after
    correction, and no tie); no mark, no clear difference.
    """
    return (f"p-values corrected over the {result.family_size} comparisons between every pair "
            f"of systems. Read a cell as the row's system against the column's: {UP} marked "
            f"better, {DOWN} marked worse (significant after correction, and no tie); no "
            "mark, no clear difference.")


def report_question(result: ManyComparison | None, systems: list[str], units: str,
                    measure: str = "", pair: tuple[str, str] | None = None,
                    n_compared: int | None = None) -> tuple[str, str]:
    """The report's title and question. With a systems table the title counts the systems
    *compared* with the baseline (the baseline itself is not one of them).

    >>> import pandas as pd
    >>> a = pd.DataFrame({"AP": [.2, .4, .1, .5]})
    >>> report_question(_table_for_examples({"bm25": a, "b": a, "c": a}), ["bm25", "b", "c"],
    ...                 "queries")[0]
    '2 systems compared with bm25'
    """
    if result is not None and len(systems) > 2:
        n = len(systems) - 1
        return (f"{n} systems compared with {result.baseline}",
                f"Which of these systems beat {result.baseline} or fall behind it on the "
                f"judged {units}, on each measure, once chance is counted?")
    if pair is not None:
        a, b = pair
        return (f"Does {b} rank better than {a}?",
                f"On the {'' if n_compared is None else f'{n_compared:,} '}judged {units}, "
                f"does {b} give better results than {a}, as measured "
                f"by {measure}, and could the difference be chance?")
    if len(systems) > 1:
        return (f"{len(systems)} systems on {measure}",
                f"How do these systems rank the judged {units} on {measure}?")
    return (f"{systems[0]} on {measure}",
            f"How well does {systems[0]} rank the judged {units}?")


def chance_floor_words(n_differing: int, floor_text: str, unit: str, more: str) -> str:
    """Why a randomization test on few differing rows cannot call anything real.

    >>> print(chance_floor_words(3, "0.25", "query", "judge more queries"))
    ... # doctest: +NORMALIZE_WHITESPACE
    With 3 queries that differ the randomization test cannot give a p below 2/2^3 = 0.25:
    only the observed signs and their mirror image are that extreme, so even a system better
    for every query could be chance: judge more queries.
    """
    plural = {"query": "queries", "user": "users"}.get(unit, unit + "s")
    rows = f"1 {unit}" if n_differing == 1 else f"{n_differing:,} {plural}"
    differ = "differs" if n_differing == 1 else "differ"
    return (f"With {rows} that {differ} the randomization test cannot give a p below "
            f"2/2^{n_differing} = {floor_text}: only the observed signs and their mirror image "
            f"are that extreme, so even a system better for every {unit} could be chance: "
            f"{more}.")


def finding_word(found: Finding) -> str:
    """The finding in a word or two (the ``finding`` of the CSV and JSON).

    >>> f = Finding("Judged@10", "b", "a", .9, .5, .4, 30, "t-test", .001, .001, "none", 1,
    ...             False, .05, False, False, quality=False)
    >>> finding_word(f)
    'not a quality measure'
    """
    if not found.quality:
        return "not a quality measure"
    return ("better" if found.direction > 0 else "worse" if found.direction < 0
            else "tie" if found.tie else "no clear difference")


def finding_words(found: Finding) -> str:
    """One comparison of the table in a line: who is better, or no clear difference, with p.

    >>> print(finding_words(Finding("AP", "weak", "bm25", .40, .43, -.03, 60, "t-test", .038,
    ...                             .066, "holm", 2, False, .05, False, False)))
    ... # doctest: +NORMALIZE_WHITESPACE
    no clear difference (corrected for the 2 comparisons with the baseline
    (Holm–Bonferroni): p = 0.066; uncorrected p = 0.038)
    """
    if not found.quality:
        return (f"{found.measure} says how much was judged, not how good a system is: not "
                f"compared as quality ({found.p_words()})")
    if found.tie:
        return f"a tie: the means differ by less than {TIE_TOLERANCE:g} ({found.p_words()})"
    if found.direction > 0:
        return f"{found.system} better than {found.against} ({found.p_words()})"
    if found.direction < 0:
        return f"{found.system} worse than {found.against} ({found.p_words()})"
    return f"no clear difference ({found.p_words()})"


def interval_label(confidence: float = 0.95, corrected_elsewhere: bool = False) -> str:
    """The t-based interval's label: it is never corrected for the other comparisons, and
    says so when a corrected p sits beside it.

    >>> interval_label(), interval_label(corrected_elsewhere=True)
    ('95% CI', '95% CI, uncorrected')
    """
    return f"{confidence:.0%} CI" + (", uncorrected" if corrected_elsewhere else "")


def highest_on_one(who: str, n_leaders: int, what: str, n_compared: int = 3) -> str:
    """Who scores highest on one query, said as what it is: an order of scores, ties shared,
    never a win (one query has no test). ``who`` names the leaders (:func:`leaders`) as the
    page writes names; ``n_leaders`` is 0 when all score the same.

    >>> highest_on_one("Ranking 1", 1, "precision (P@2 = 1.00)")
    'Ranking 1 scores highest on precision (P@2 = 1.00)'
    >>> highest_on_one("Rankings 1 and 3", 2, "precision")
    'Rankings 1 and 3 share the highest score on precision (a tie)'
    >>> highest_on_one("", 0, "precision")
    'all three score the same on precision'
    """
    if n_leaders == 0:
        count = {2: "both", 3: "all three"}.get(n_compared, f"all {n_compared}")
        return f"{count} score the same on {what}"
    if n_leaders == 1:
        return f"{who} scores highest on {what}"
    return f"{who} share the highest score on {what} (a tie)"


def leaders_named(who: str, n_leaders: int, n_compared: int = 3) -> str:
    """The leaders in a list of several K's or metrics: the names, "(a tie)" when shared.

    >>> leaders_named("Ranking 3", 1), leaders_named("Rankings 1 and 3", 2)
    ('Ranking 3', 'Rankings 1 and 3 (a tie)')
    >>> leaders_named("", 0)
    'no ranking (all three score the same)'
    """
    if n_leaders == 0:
        count = {2: "both", 3: "all three"}.get(n_compared, f"all {n_compared}")
        return f"no ranking ({count} score the same)"
    return who + (" (a tie)" if n_leaders > 1 else "")


def one_query_caption(k: int, n_compared: int = 3) -> str:
    """The caption of a table that stars the highest score of each metric on one query.

    >>> print(one_query_caption(2))   # doctest: +NORMALIZE_WHITESPACE
    ★: the highest score of each metric at K = 2, shared within 0.0005, none when all three
    tie. One query, no test: it says which order suits this query, not which system is better.
    """
    count = {2: "both", 3: "all three"}.get(n_compared, f"all {n_compared}")
    return (f"{STAR}: the highest score of each metric at K = {k}, shared within "
            f"{TIE_TOLERANCE:g}, none when {count} tie. One query, no test: it says which order "
            "suits this query, not which system is better.")


def _table_for_examples(frames, **options) -> ManyComparison:
    """The examples' tables (the first frame is the baseline)."""
    from irlib.stats.compare_many import compare_many
    return compare_many(frames, next(iter(frames)), **options)

