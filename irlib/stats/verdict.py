"""Comparisons said in sentences: for the engineer, and for the product team they report to.

:func:`verdict` turns a :class:`~irlib.stats.compare.Comparison` into

* ``sentence``: wins and losses, how the mean moves, and what the chosen test says (the
  randomization test, or the paired t-test), naming it and, when the comparison is one of a
  family (three systems or more), its corrected p-value and the family;
* ``disagreement``: when the other test reaches the other conclusion, one sentence saying so
  and why (few queries differ, many ties, one query carries the difference, skewed
  differences), so the page never contradicts its own cards;
* ``plain``: a reading for people who do not read p-values: what changed for how many
  queries, how sure we are, and what the comparison does not say.

What a sentence may claim comes from one :class:`~irlib.stats.compare_many.Finding`, the same
object the systems table marks from: a difference the table does not mark is never called
real, likely real or rare by chance, and means closer than :data:`irlib.stats.ties.TIE_TOLERANCE`
are a tie whatever a test says.

Numbers in a sentence are rounded alike (:func:`format_pair`): "from 0.60 to 0.59", never
"from 0.6 to 0.59", and with enough digits to tell two different means apart.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from irlib.stats.compare import _TIE_TOLERANCE, Comparison
from irlib.stats.compare_many import TESTS, Finding, is_quality_measure
from irlib.stats.p_values import format_p
from irlib.stats.ties import TIE_TOLERANCE, is_tie

#: Below this many differing queries a difference is easily chance; the sentence says so.
FEW_DIFFERING = 10
#: Below this many queries the t-test's normality assumption cannot be checked, and one odd
#: query moves its p-value a lot.
MIN_QUERIES_T_TEST = 6


def format_number(x: float) -> str:
    """A score or difference for a sentence: 2 decimals, or 2 significant digits if tiny.

    Examples
    --------
    >>> format_number(0.0512), format_number(0.0042), format_number(1.0), format_number(0)
    ('0.05', '0.0042', '1', '0')
    """
    x = float(x)
    if x == 0 or not math.isfinite(x):
        return "0" if x == 0 else str(x)
    if abs(x) >= 0.01:
        text = f"{x:.2f}".rstrip("0").rstrip(".")
    else:
        text = f"{x:.2g}"
        if "e" in text:
            text = f"{x:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def format_pair(a: float, b: float) -> tuple[str, str]:
    """Two means with the same number of decimals (2 to 4), enough to tell them apart.

    >>> format_pair(0.6, 0.5912), format_pair(0.2712, 0.2749), format_pair(0.5, 0.5)
    (('0.60', '0.59'), ('0.271', '0.275'), ('0.50', '0.50'))
    """
    for digits in (2, 3, 4):
        pair = f"{a:.{digits}f}", f"{b:.{digits}f}"
        if pair[0] != pair[1] or a == b:
            return pair
    return pair


def _p_text(p: float) -> str:
    text = format_p(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


#: What a row of the comparison is: a search query, or a recommender's user.
PLURALS = {"query": "queries", "user": "users"}


def queries(n: int, unit: str = "query") -> str:
    """``1 query``, ``24 queries`` (or users).

    >>> queries(1), queries(0), queries(3, "user")
    ('1 query', '0 queries', '3 users')
    """
    return f"{n:,} {unit if n == 1 else PLURALS[unit]}"


def t_test_caveat(comparison: Comparison, unit: str = "query") -> str | None:
    """Why the paired t-test's p-value must not be read here, or None when it may be.

    Examples
    --------
    >>> import pandas as pd
    >>> from irlib.stats.compare import compare_systems
    >>> a = pd.Series({"q1": 0.2, "q2": 0.4, "q3": 0.1})
    >>> print(t_test_caveat(compare_systems(a, a + 0.1)))
    every query moved by the same amount, so the differences have no spread and the t-test divides by zero
    """
    d = comparison.deltas.to_numpy()
    if len(d) < 2:
        return f"it needs at least two {PLURALS[unit]}"
    if np.ptp(d) <= _TIE_TOLERANCE * max(1.0, float(np.abs(d).max())):   # float noise aside
        return (f"every {unit} moved by the same amount, so the differences have no spread "
                "and the t-test divides by zero")
    if len(d) < MIN_QUERIES_T_TEST:
        return (f"with {queries(len(d), unit)} its assumption of normally distributed "
                "differences cannot be checked")
    return None


def _reasons(c: Comparison, unit: str = "query") -> list[str]:
    """What makes the two tests weigh this sample differently."""
    d = c.deltas.to_numpy()
    moved = d[d != 0]
    reasons = []
    if len(moved) < FEW_DIFFERING:
        reasons.append(f"only {queries(len(moved), unit)} differ")
    if c.ties * 3 >= c.n and c.ties:
        reasons.append(f"{c.ties} of the {queries(c.n, unit)} are ties")
    if len(moved):
        share = np.abs(moved).max() / np.abs(moved).sum()
        top = c.deltas.index[int(np.argmax(np.abs(d)))]
        if len(moved) > 2 and share >= 0.4:
            reasons.append(f"one {unit} carries {share:.0%} of the total change "
                           f"({unit} {top}: {float(c.deltas[top]):+.2f})")
        elif len(moved) >= 8 and abs(float(stats.skew(d))) >= 1:
            reasons.append("the differences are skewed (a few large moves, many small ones)")
    return reasons or ["the mean difference sits near the edge of what either test calls "
                       "rare"]


@dataclass(frozen=True)
class Verdict:
    """A comparison in words; see the module. ``significant`` is the table's mark
    (:attr:`Finding.real`), ``finding`` the result every sentence was said from."""
    sentence: str
    disagreement: str | None
    plain: str
    significant: bool | None       # the table marks it; None: no test possible
    finding: Finding | None = None

    @property
    def p_text(self) -> str:
        """The p-value the verdict rests on, short, for a chart title: ``corrected p = 0.066``
        or ``p = 0.033``; empty when there is none."""
        f = self.finding
        if f is None or f.p_value is None:
            return ""
        return ("corrected " + _p_text(f.p_adjusted)) if f.corrected else _p_text(f.p_value)


def single_finding(comparison: Comparison, *, test: str = "randomization",
                   alpha: float = 0.05, measure: str = "", names: tuple[str, str] = ("a", "b")
                   ) -> Finding:
    """Two systems alone: a family of one comparison, nothing to correct.

    >>> import pandas as pd
    >>> from irlib.stats.compare import compare_systems
    >>> a = pd.Series({f"q{i}": i / 10 for i in range(8)})
    >>> f = single_finding(compare_systems(a, a + 0.1), test="randomization")
    >>> f.p_value, f.marked, f.family_size
    (0.0078125, True, 1)
    """
    if test not in TESTS:
        raise ValueError(f"test must be one of {tuple(TESTS)}, got {test!r}")
    c = comparison
    p = c.randomization_pvalue if test == "randomization" else c.t_pvalue
    tie = c.mean_a is not None and is_tie(c.mean_a, c.mean_b)
    return Finding(measure=measure, system=names[1], against=names[0],
                   mean_system=c.mean_b, mean_against=c.mean_a, mean_delta=c.mean_delta,
                   n=c.n, test=test, p_value=p, p_adjusted=p, correction="none",
                   family_size=1, all_pairs=False, alpha=alpha,
                   marked=bool(p is not None and p < alpha and not tie), tie=bool(tie))


def _how(c: Comparison, test: str, unit: str) -> str:
    if test == "randomization" and c.randomization is not None:
        return f"by the randomization test ({c.randomization.describe(PLURALS[unit])})"
    return f"by the {TESTS[test]}"


def verdict(comparison: Comparison, measure_label: str, name_a: str, name_b: str, *,
            finding: Finding | None = None, test: str = "randomization",
            alpha: float = 0.05, plain_label: str | None = None,
            unit: str = "query") -> Verdict:
    """The comparison of ``name_b`` against ``name_a`` in sentences (see the module).

    ``finding`` is the systems table's result for this pair (its test, corrected p and
    mark); without one the pair is a family of one, tested by ``test``
    (:func:`single_finding`). ``plain_label`` names the measure in the product team's
    reading (e.g. ``NDCG@10`` where the engineer's label says ``NDCG@10 (gain g)``);
    ``unit`` what a row is: a ``"query"``, or a recommender's ``"user"``.

    Examples
    --------
    >>> import pandas as pd
    >>> from irlib.stats.compare import compare_systems
    >>> a = pd.Series({"q1": 0.5, "q2": 0.25, "q3": 1.0, "q4": 0.0})
    >>> b = pd.Series({"q1": 0.75, "q2": 0.25, "q3": 1.0, "q4": 0.5})
    >>> v = verdict(compare_systems(a, b), "NDCG@4", "control", "test")
    >>> print(v.sentence)   # doctest: +NORMALIZE_WHITESPACE
    test is better on 2 of 4 queries and worse on 0; the mean NDCG@4 rises by 0.19 (from
    0.44 to 0.62); by the randomization test (exact: all 4 sign patterns of the 2 queries
    that differ) the difference could be chance (p = 0.50).
    """
    c = comparison
    n = c.n
    if n == 0:
        text = f"{name_a} and {name_b} have no {unit} in common, so they cannot be compared."
        return Verdict(text, None, text, None, finding)
    finding = finding or single_finding(c, test=test, alpha=alpha, names=(name_a, name_b))
    test = finding.test
    if not finding.quality or not is_quality_measure(measure_label):
        before, after = format_pair(c.mean_a, c.mean_b)
        text = (f"{measure_label} says how much of each ranking was judged, not how good it is: "
                f"its mean goes from {before} ({name_a}) to {after} ({name_b}) over "
                f"{queries(n, unit)}; it is not compared as a quality measure.")
        return Verdict(text, None, text, None, finding)
    if c.wins == 0 and c.losses == 0:
        where = f"the only {unit}" if n == 1 else f"all {queries(n, unit)}"
        text = f"{name_b} and {name_a} score the same {measure_label} on {where}."
        return Verdict(text, None, text + " Nothing changed on this test set.", False, finding)
    head = f"{name_b} is better on {c.wins:,} of {queries(n, unit)} and worse on {c.losses:,}"
    before, after = format_pair(c.mean_a, c.mean_b)
    if c.mean_delta == 0:
        move = f"the mean {measure_label} does not change ({before})"
    else:
        verb = "rises" if c.mean_delta > 0 else "falls"
        move = (f"the mean {measure_label} {verb} by {format_number(abs(c.mean_delta))} "
                f"(from {before} to {after})")
    if finding.p_value is None:
        if n < 2:
            text = f"{head}; {move}; with a single {unit} no test can tell a real difference " \
                   "from chance."
        else:
            text = f"{head}; {move}; {_how(c, test, unit)} no p-value can be read here " \
                   f"({t_test_caveat(c, unit) or 'no test possible'}), so this is no finding."
        return Verdict(text, None, _plain(c, plain_label or measure_label, name_a, name_b,
                                          None, unit, finding), None, finding)
    how = _how(c, test, unit)
    caveat = t_test_caveat(c, unit) if test == "t-test" else None
    if finding.tie:
        ruling = (f"the two means differ by less than {TIE_TOLERANCE:g}, a tie whatever a test "
                  f"says ({how}, {finding.p_words()})")
    elif finding.real:
        ruling = (f"{how} a difference this large would rarely appear by chance "
                  f"({finding.p_words()})")
    elif finding.corrected and finding.p_value < finding.alpha:
        ruling = (f"{how} the difference could be chance once the other comparisons are "
                  f"counted ({finding.p_words()}): the table does not mark it")
    else:
        ruling = f"{how} the difference could be chance ({finding.p_words()})"
    if caveat and finding.real:
        ruling += f"; but read that p with care: {caveat}"
    text = f"{head}; {move}; {ruling}."
    return Verdict(text, _disagreement(c, finding, unit),
                   _plain(c, plain_label or measure_label, name_a, name_b, finding.real,
                          unit, finding),
                   finding.real, finding)


def _disagreement(c: Comparison, finding: Finding, unit: str = "query") -> str | None:
    """The other test, uncorrected, against the chosen one, uncorrected: when they part,
    say why. It never calls anything real; it says the difference is not settled."""
    if finding.tie or t_test_caveat(c, unit) or c.t_pvalue is None \
            or c.randomization_pvalue is None:
        return None
    alpha = finding.alpha
    other = "t-test" if finding.test == "randomization" else "randomization"
    p_other = c.t_pvalue if other == "t-test" else c.randomization_pvalue
    if (p_other < alpha) == (finding.p_value < alpha):
        return None
    named = "uncorrected " if finding.corrected else ""
    extra = ""
    if other == "t-test":
        low, high = f"{c.ci_low:+.3f}", f"{c.ci_high:+.3f}"
        extra = (f"; its {c.confidence:.0%} interval for the mean difference, {low} to {high}, "
                 + ("includes 0" if c.ci_low <= 0 <= c.ci_high else "excludes 0"))
    return (f"The {TESTS[other]} disagrees ({named}{_p_text(p_other)}{extra}) because "
            + "; ".join(_reasons(c, unit)) + ": the two tests weigh such a sample "
            f"differently, so treat the difference as not settled and judge more {PLURALS[unit]}.")


def _plain(c: Comparison, label: str, name_a: str, name_b: str,
           significant: bool | None, unit: str = "query", finding: Finding | None = None
           ) -> str:
    before, after = format_pair(c.mean_a, c.mean_b)
    change = "did not change" if c.mean_delta == 0 else f"went from {before} to {after}"
    lines = [f"On the {queries(c.n, unit)} we tested, {name_b} gave better results than {name_a} "
             f"for {c.wins:,}, worse for {c.losses:,} and the same for {c.ties:,}. "
             f"Its average {label} score {change}."]
    if finding is not None and finding.tie:
        lines.append("The two averages are the same to three decimals: a tie, whatever the "
                     "rest says.")
    elif significant is None:
        lines.append(f"One {unit} is too few to tell a real difference from luck."
                     if c.n < 2 else "No test can be read here, so this is no finding.")
    elif significant:
        lines.append("A difference this large would rarely come from the luck of which "
                     f"{PLURALS[unit]} were picked, so on {label} it is likely real for "
                     f"{PLURALS[unit]} like these" + (f", even counting that {finding.family_size} "
                                     "comparisons were made at once." if finding is not None
                                     and finding.corrected else "."))
    else:
        lines.append("A difference like this could come from the luck of which "
                     f"{PLURALS[unit]} were picked: on {label}, these {PLURALS[unit]} cannot "
                     "tell the two systems apart" + (
                         # the correction is named only where it is what took the finding
                         # away: the uncorrected p alone would have been below alpha
                         f" once we count that {finding.family_size} comparisons were made at "
                         "once." if finding is not None and finding.corrected
                         and finding.p_value is not None and finding.p_value < finding.alpha
                         else "."))
    lines.append("It does not say how people will respond to the change online, or how it "
                 f"does on kinds of {PLURALS[unit]} that are not in this test set.")
    return " ".join(lines)
