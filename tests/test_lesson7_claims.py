"""Issue 42, item 6 for Lesson 7: the trap boxes' claims audit. Every sentence and ★ of the
split and sampled traps comes from :func:`irlib.recsys.standings.standings`; here a few
hundred random states (3 models under 2–3 settings, 30–80 users, no real difference, a real
one, or a tie) are said, and every claim is checked against the tests it must come from: a
model is "first" (and starred) only when the corrected test finds it above each other model,
"last" only when below each, "no clear winner" otherwise, the corrected p always beside the
uncorrected. Under no real difference the share of states that call any model first or last
stays within α (Holm over the comparisons on screen), and would not without the correction.
Then the page: a few random states of the lesson through AppTest, each box and ★ the same as
irlib's for that state."""
from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from irlib.recsys.standings import order_sentence, standings, turned

ALPHA = 0.05
RESAMPLES = 300
MODELS = ("popular", "trending", "mf")
NAMES = {"popular": "Most popular", "trending": "Trending", "mf": "Matrix factorisation"}
HAND_MADE = re.compile(r"\b(wins?|beats?|best|better|worse|falls? behind)\b", re.I)


def _state(rng: np.random.Generator, effect: bool) -> dict:
    """Per-user values of the three models under 2–3 settings, paired by user: hit-like
    (0/1) or graded (NDCG-like) values; with ``effect`` some models are moved for real."""
    settings = {}
    for s in range(int(rng.integers(2, 4))):
        n = int(rng.integers(30, 81))
        users = [f"u{i}" for i in range(n)]
        binary = bool(rng.integers(2))
        base = rng.uniform(0.1, 0.5)
        models = {}
        for m in MODELS:
            shift = rng.choice([0.0, 0.25, -0.1]) if effect else 0.0
            if binary:
                values = (rng.random(n) < np.clip(base + shift, 0.01, 0.99)).astype(float)
            else:
                values = np.clip(rng.beta(2, 5, n) + shift, 0, 1)
            models[m] = pd.Series(values, index=users)
        if effect and rng.random() < 0.15:       # a tie: two models a hair apart, always
            models["mf"] = models["popular"] + 1e-4
        settings[f"setting{s}"] = models
    return settings


def _check(found) -> tuple[bool, bool]:
    """Every claim against the tests; returns (anything called first or last, the same
    without the correction: any uncorrected p below α on a pair)."""
    called = False
    for setting, st in found.settings.items():
        sentence = found.sentence(setting, NAMES, f"Under {setting}")
        winner, last = st.winner, st.last
        for pair in st.pairs:                   # a mark is a corrected p below α, no tie
            assert pair.marked == (pair.p_corrected < ALPHA and
                                   abs(pair.mean_first - pair.mean_second) >= 0.0005)
            assert pair.p_corrected >= pair.p_value - 1e-12
        others = [m for m in MODELS if m != winner]
        if winner is not None:
            assert all(st.pair(winner, o).higher == winner for o in others)
            assert f"**{NAMES[winner]}** is first" in sentence
            assert "no clear winner" not in sentence
        else:
            assert " is first" not in sentence
            assert "no clear winner" in sentence or "no model is clearly first" in sentence
        if last is not None:
            assert all(st.pair(last, o).higher == o for o in MODELS if o != last)
            assert f"**{NAMES[last]}** is last" in sentence
        else:
            assert " is last" not in sentence
        assert found.stars(setting) == ([] if winner is None else [winner])
        assert "corrected p" not in sentence.replace("uncorrected p", "") or \
            "uncorrected p" in sentence                      # both, always together
        assert not HAND_MADE.search(sentence), sentence
        called |= winner is not None or last is not None
    names = list(found.settings)
    for a, b in zip(names, names[1:]):
        turn = order_sentence(found, a, b, NAMES, f"Under {a}", f"under {b}")
        if turn is not None:
            assert ("the test finds" in turn) == bool(turned(found, a, b))
            assert not HAND_MADE.search(turn), turn
    raw = any(p.p_value < ALPHA and abs(p.mean_first - p.mean_second) >= 0.0005
              for st in found.settings.values() for p in st.pairs)
    return called, raw


def test_every_trap_claim_comes_from_its_test_and_nulls_stay_at_alpha():
    rng = np.random.default_rng(42)
    for _ in range(50):                       # real differences and ties: no contradiction
        _check(standings(_state(rng, True), measure="NDCG@10", n_resamples=RESAMPLES))
    trials, called, raw = 160, 0, 0
    for _ in range(trials):                   # no real difference anywhere
        c, r = _check(standings(_state(rng, False), measure="NDCG@10",
                                n_resamples=RESAMPLES))
        called += c
        raw += r
    margin = 3 * np.sqrt(ALPHA * (1 - ALPHA) / trials)
    assert called / trials <= ALPHA + margin, (called, trials)
    # the audit can fail: uncorrected, the same null states call something real far more
    assert raw / trials > ALPHA + margin, (raw, trials)


@pytest.mark.parametrize("seed", [3, 11])
def test_the_page_shows_irlibs_claims_for_random_states(seed):
    """A random state of Lesson 7's split or sampled trap: the box is irlib's sentence for
    that state and the ★ are its stars, nothing else."""
    from course.reclab import lesson
    from tests.apptest import run_page
    from ui.lessons import recommenders as rc

    rng = np.random.default_rng(seed)
    k = int(rng.integers(3, 21))
    key = str(rng.choice(["hit", "recall", "ndcg", "mrr"]))
    how = str(rng.choice(["random", "last", "time"]))
    at = run_page("recommenders", timeout=300, session={
        rc.PREFIX + "trap": "split", rc.PREFIX + "k": k, rc.PREFIX + "split": how,
        rc.PREFIX + "split_metric": key})
    assert not at.exception, at.exception
    found = lesson.split_standings(key, k)
    box = next(i.value for i in at.info if "could not be read" not in i.value)
    from ui.lessons.recommenders.split import SPLIT_WORDS
    expected = found.sentence(how, rc.MODEL_NAMES, f"Under the {SPLIT_WORDS[how]} split")
    assert box.startswith(expected), (box, expected)
    table = at.table[0].value
    for column, setting in zip(table.columns, ("random", "last", "time")):
        starred = {m for m, v in table[column].items() if "★" in v}
        assert starred == {rc.model_name(m) for m in found.stars(setting)}, column
