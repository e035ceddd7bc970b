"""Section 8 of issue 33: a claims audit. Many random comparisons (2 to 10 systems, search
queries and recommender users, some with no real difference, some with one, some a tie)
are said in every sentence the product makes: the page's verdict and plain-words box
(irlib.stats.verdict), the report's headline (irlib.stats.compare_many.headline), the summary CSV's
finding (irlib.stats.claims.finding_words) and the command line's (irlib.cli.many). Each
claim is checked against the table's marks: no contradiction at all. Under no real
difference the share of comparisons that call anything real stays at α (Holm's family-wise
guarantee) within a Monte Carlo margin.

Recommender lists are audited here through the verdict they share with search (unit
"user"); irlib.recsys' own "wins" sentence is checked on the recommenders' branch.
"""
from __future__ import annotations

import re

import numpy as np
import pandas as pd

from irlib.cli.many import comparison_records
from irlib.stats.compare_many import compare_many, headline
from irlib.stats.verdict import verdict
from irlib.stats.claims import finding_words

ALPHA = 0.05
REAL = ("rarely appear by chance", "likely real")
RESAMPLES = 500


def _case(rng: np.random.Generator, effect: bool) -> dict[str, pd.DataFrame]:
    """2–10 systems on 15–60 rows: the baseline, and variants that move it by zero-mean
    noise (no real difference), a shift (``effect``), or nothing visible (a tie)."""
    n_systems, n_rows = int(rng.integers(2, 11)), int(rng.integers(15, 61))
    ids = [f"q{i}" for i in range(n_rows)]
    base = rng.beta(2, 3, n_rows)
    systems = {"s0": base}
    for i in range(1, n_systems):
        kind = rng.choice(["null", "shift", "tie"], p=[0.6, 0.3, 0.1]) if effect else \
            rng.choice(["null", "tie"], p=[0.9, 0.1])
        noise = rng.normal(0, 0.15, n_rows)
        if kind == "shift":
            values = base + rng.choice([-1, 1]) * rng.uniform(0.05, 0.2) + noise
        elif kind == "tie":            # a consistent move far below what a table prints
            values = base + rng.choice([-1, 1]) * 2e-4 + rng.normal(0, 1e-6, n_rows)
        else:
            values = base + noise
        systems[f"s{i}"] = np.clip(values, 0, 1) if kind != "tie" else values
    return {name: pd.DataFrame({"m": v}, index=ids) for name, v in systems.items()}


def _audit(per_query, test: str, all_pairs: bool, unit: str) -> bool:
    """Every claim against the marks; returns whether anything was called real."""
    result = compare_many(per_query, "s0", test=test, all_pairs=all_pairs,
                          n_resamples=RESAMPLES, seed=1)
    called_real = False
    records = {(r["system"], r["against"]): r for r in comparison_records(result)}
    for f in result.findings():
        c = result.comparisons[("m", f.system, f.against)]
        said = verdict(c, "M", f.against, f.system, finding=f, unit=unit)
        claims = [words in said.sentence + " " + said.plain for words in REAL]
        assert all(claims) if f.marked else not any(claims), (f, said)
        assert said.significant == f.marked
        assert not (f.tie and f.marked)
        if f.tie:
            assert "a tie" in said.sentence and "likely real" not in said.plain
        words = finding_words(f)
        assert ("better than" in words or "worse than" in words) == f.marked, words
        assert records[(f.system, f.against)]["finding"] in (
            ("better", "worse") if f.marked else ("no clear difference", "tie"))
        if said.disagreement:                   # the other test never calls it real
            assert not any(w in said.disagreement for w in REAL)
        called_real |= f.marked
    text = headline(result, unit=unit)
    for system in result.means.index[1:]:
        f = result.finding("m", system)
        beats = re.search(rf"(^|\. ){re.escape(system)} beats s0 on m", text) is not None
        behind = re.search(rf"(^|\. ){re.escape(system)} (beats s0 on m and )?falls behind",
                           text) is not None
        assert beats == (f.direction > 0) and behind == (f.direction < 0), (f, text)
    return called_real


def test_no_sentence_contradicts_the_marks_and_nulls_stay_at_alpha():
    rng = np.random.default_rng(2026)
    n_null, false_claims = 0, 0
    for i in range(150):
        effect = i % 3 == 0
        test = "randomization" if i % 4 == 0 else "t-test"
        called = _audit(_case(rng, effect), test, all_pairs=i % 5 == 0,
                        unit="user" if i % 2 else "query")
        if not effect:
            n_null += 1
            false_claims += called
    rate = false_claims / n_null
    margin = 3 * np.sqrt(ALPHA * (1 - ALPHA) / n_null)       # three standard errors
    assert rate <= ALPHA + margin, (rate, n_null)


def test_the_audit_can_fail_without_correction():
    """The same null comparisons, uncorrected: with up to nine comparisons the share that
    calls something real rises well above α, so the bound above has teeth."""
    rng = np.random.default_rng(7)
    called = 0
    for _ in range(80):
        result = compare_many(_case(rng, effect=False), "s0", test="t-test",
                              correction="none")
        called += bool(result.tests["marked"].any())
    assert called / 80 > ALPHA + 3 * np.sqrt(ALPHA * (1 - ALPHA) / 80)
