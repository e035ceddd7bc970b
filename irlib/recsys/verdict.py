"""Recommender verdicts for many systems: the same corrected test as the table, said in words.

:func:`recommender_verdicts` runs :func:`irlib.stats.compare_many` on the users' values (a user is
a query) with the page's test and correction, and writes one sentence per comparison with
:func:`~irlib.recsys.compare.compare_recommenders`: a system "wins" only where that corrected
test marks the difference; a tie below :data:`irlib.stats.ties.TIE_TOLERANCE` is a tie; otherwise
"no clear winner" with both numbers and the corrected p (the uncorrected one named as such).
:meth:`RecommenderVerdicts.claims` lays every sentence beside the table's mark, for the
claims audit.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from ..stats.compare_many import CORRECTIONS, TESTS, ManyComparison, compare_many
from .compare import Finding, RecommenderComparison, compare_recommenders, score_text
from .evaluate import RecommenderEvaluation

__all__ = ["RecommenderVerdicts", "finding_of", "recommender_verdicts", "rule_changes"]


@dataclass(frozen=True)
class RecommenderVerdicts:
    """Every comparison's verdict, and the table's test they come from."""
    result: ManyComparison
    by: str                                                  # the measure ("NDCG@10")
    comparisons: dict[tuple[str, str], RecommenderComparison]  # (system, against) -> verdict

    def claims(self) -> pd.DataFrame:
        """One row per sentence: ``system, against, measure, sentence, says_wins`` (the
        system the sentence calls the winner, or None), ``marked`` (the table's mark) and
        ``p_corrected``. A sentence may name a winner only where ``marked`` is True."""
        rows = []
        for (system, against), c in self.comparisons.items():
            cell = self.result.cell(self.by, system, against)
            rows.append({"system": system, "against": against, "measure": self.by,
                         "sentence": c.sentence, "says_wins": c.winner,
                         "marked": bool(cell["significant"]) if cell is not None else False,
                         "p_corrected": None if cell is None else cell["p_adjusted"]})
        frame = pd.DataFrame(rows, columns=["system", "against", "measure", "sentence",
                                            "says_wins", "marked", "p_corrected"])
        # None, not NaN, where no winner is named (a text column would turn it into NaN)
        frame["says_wins"] = pd.Series([r["says_wins"] for r in rows], dtype=object)
        return frame


def _family(result: ManyComparison, measure: str) -> str:
    """', corrected for the 2 comparisons with Popular, the baseline (Holm–Bonferroni)', or
    ''. The baseline is named: a sentence may compare two systems, neither called that."""
    tests = result.tests[result.tests["measure"] == measure]
    m = len(tests)
    if result.correction == "none" or m < 2:
        return ""
    every = (tests["against"] != result.baseline).any()
    what = "of every pair" if every else f"with {result.baseline}, the baseline"
    return f", corrected for the {m} comparisons {what} ({CORRECTIONS[result.correction]})"


def finding_of(result: ManyComparison, measure: str, system: str,
               against: str | None = None) -> Finding | None:
    """The table's test of ``system`` against ``against`` (default the baseline) on
    ``measure``, as a :class:`~irlib.recsys.compare.Finding` for the sentence; None when
    the table did not test that pair."""
    against = against or result.baseline
    cell = result.cell(measure, system, against)
    if cell is None:
        return None
    p = None if pd.isna(cell["p_value"]) else float(cell["p_value"])
    adjusted = None if pd.isna(cell["p_adjusted"]) else float(cell["p_adjusted"])
    method = f"paired {TESTS[result.test].removeprefix('paired ')} over the users" + \
        _family(result, measure)          # the sentence's: short, the family named
    means = (float(result.means.at[system, measure]), float(result.means.at[against, measure]))
    return Finding(p, adjusted, bool(cell["significant"]), method, means)


def recommender_verdicts(evaluations: Mapping[str, RecommenderEvaluation],
                         baseline: str | None = None, *, by: str | None = None,
                         test: str = "randomization", correction: str = "holm",
                         all_pairs: bool = False, alpha: float = 0.05,
                         result: ManyComparison | None = None,
                         result_measure: str | None = None,
                         history: str = "training") -> RecommenderVerdicts:
    """Each system against the baseline (and every pair on request), one sentence each.

    Parameters
    ----------
    evaluations : mapping of name -> RecommenderEvaluation
        The systems, the baseline first unless ``baseline`` names another; same held-out
        set, K and catalogue.
    baseline : str, optional
        Default: the first system.
    by : str, optional
        The accuracy measure ("NDCG@10"); default the baseline's ``by``.
    test, correction, all_pairs, alpha
        As :func:`irlib.stats.compare_many`; the sentence says which.
    result : ManyComparison, optional
        A table's result to speak for (a page's: its test, correction and means); its
        measure for ``by`` is ``result_measure`` (default ``by``). Default: computed here.
    history : str
        Where popularity was counted, for the sentences (as
        :func:`~irlib.recsys.compare.compare_recommenders`).

    Returns
    -------
    RecommenderVerdicts
        ``comparisons[(system, against)]``: the verdict; ``claims()``: each sentence beside
        the table's mark.

    Examples
    --------
    >>> import pandas as pd
    >>> from irlib.recsys import evaluate_recommendations
    >>> users = [f"u{i}" for i in range(16)]
    >>> heldout = pd.DataFrame({"user_id": users, "item_id": ["a", "b"] * 8})
    >>> runs = {"base": {u: ["c", "a"] for u in users}, "good": {u: ["a", "b"] for u in users},
    ...         "same": {u: ["a", "c"] for u in users}}
    >>> found = {n: evaluate_recommendations(r, heldout, k=2) for n, r in runs.items()}
    >>> verdicts = recommender_verdicts(found, by="HitRate@2")
    >>> verdicts.claims()[["system", "says_wins", "marked"]]
      system says_wins  marked
    0   good      good    True
    1   same      None   False
    """
    names = list(evaluations)
    baseline = baseline or names[0]
    if baseline not in evaluations:
        raise ValueError(f"baseline {baseline!r} is not one of the systems ({', '.join(names)})")
    by = by or evaluations[baseline].by
    measure = result_measure or by
    if result is None:
        per_user = {n: e.per_user[[by]] for n, e in evaluations.items()}
        result = compare_many(per_user, baseline, measures=[by], test=test,
                              correction=correction, all_pairs=all_pairs, alpha=alpha)
    comparisons = {}
    pairs = result.tests[result.tests["measure"] == measure][["system", "against"]]
    for system, against in pairs.itertuples(index=False):
        finding = finding_of(result, measure, system, against)
        comparisons[(system, against)] = compare_recommenders(
            evaluations[system], evaluations[against], (system, against), by=by,
            finding=finding, history=history)
    return RecommenderVerdicts(result, measure, comparisons)


def _outcome(c: RecommenderComparison, system: str, against: str) -> str:
    a, b = (float(c.table.at[c.by, n]) for n in (system, against))
    if c.winner is not None:
        loser = against if c.winner == system else system
        won, lost = (a, b) if c.winner == system else (b, a)
        return f"{c.winner} wins ({score_text(won)} vs {score_text(lost)} for {loser})"
    return f"no clear winner ({system} {score_text(a)} vs {against} {score_text(b)})"


def method(result: ManyComparison, measure: str) -> str:
    """How the verdicts were tested, for a note: 'paired randomization test over the 200
    users, corrected for the 2 comparisons with Popular, the baseline (Holm–Bonferroni),
    significant at 0.05'."""
    tests = result.tests[result.tests["measure"] == measure]
    users = int(tests["n"].max()) if len(tests) else 0
    return (f"paired {TESTS[result.test].removeprefix('paired ')} over the {users:,} users"
            f"{_family(result, measure)}, significant at {result.alpha:g}")


def rule_changes(current: RecommenderVerdicts, other: RecommenderVerdicts,
                 other_rule: str) -> list[str]:
    """Sentences for the comparisons whose verdict (the tested winner, or that there is none)
    differs under another relevance rule, e.g. ``other_rule="only items rated 4 or more
    relevant"``: the rule is a choice, and a choice that turns the verdict must be said. A
    higher mean that flips while both rules find no clear winner is no change of verdict.
    Both verdicts must come from the same family of comparisons (the table's: with every
    pair compared, every pair), or a corrected p would be read against another."""
    out = []
    for (system, against), c in current.comparisons.items():
        o = other.comparisons.get((system, against))
        if o is None or c.winner == o.winner:
            continue
        out.append(f"The relevance rule changes the verdict on {c.by} for {system} against "
                   f"{against}: with {other_rule}, {_outcome(o, system, against)}; with the "
                   f"rule in use, {_outcome(c, system, against)}.")
    return out
