"""Which of several recommenders is first, or last, under each of several settings — tested.

A lesson table often shows a few models side by side under a few settings (three splits,
a sampled and a full catalogue) and marks the best of each column. A mark or a sentence that
says a model "wins" there is a claim about every comparison behind it, so
:func:`standings` makes them all: every pair of models within each setting, a paired test
over the setting's users (each user is a query; the same users for every model), and one
Holm–Bonferroni correction over **all the comparisons on screen** (3 models under 3
settings: 9). A model *wins* a setting only when the corrected test finds it above each of
the others, and is *last* only when it finds it below each; means closer than
:data:`irlib.stats.ties.TIE_TOLERANCE` are a tie whatever the test says. Otherwise the
sentence says "no clear winner", with the corrected p beside the uncorrected one.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations

import pandas as pd

from ..stats.compare_many import CORRECTIONS, TESTS, compare_many, holm
from ..stats.p_values import format_p
from ..stats.ties import TIE_TOLERANCE, is_tie

STAR = "★"
#: What a ★ by the highest mean says (an untested mark beside a tested sentence).
HIGHEST_MEAN_LEGEND = (f"{STAR} the highest mean (means within {TIE_TOLERANCE:g} share it), "
                       "not a tested win")

__all__ = ["HIGHEST_MEAN_LEGEND", "PairTest", "Standing", "Standings", "highest_mean_words",
           "order_sentence", "standings", "turned"]


@dataclass(frozen=True)
class PairTest:
    """One comparison on screen: ``first`` against ``second`` under one setting."""
    first: str
    second: str
    mean_first: float
    mean_second: float
    n: int                       # the users paired
    p_value: float               # the test's own
    p_corrected: float           # after Holm over every comparison on screen
    marked: bool                 # corrected p < alpha and the means no tie

    @property
    def higher(self) -> str | None:
        """The model the test finds above the other (None: not told apart)."""
        if not self.marked:
            return None
        return self.first if self.mean_first > self.mean_second else self.second

    def p_words(self) -> str:
        """'corrected p = 0.41, uncorrected p = 0.046': both, the corrected first."""
        return f"corrected p {_p(self.p_corrected)}, uncorrected p {_p(self.p_value)}"


def _p(p: float) -> str:
    text = format_p(p)
    return text if text.startswith("<") else f"= {text}"


@dataclass(frozen=True)
class Standing:
    """One setting: the models' means and the tested pairs."""
    setting: str
    means: pd.Series             # model -> mean, in the order given
    pairs: tuple[PairTest, ...]

    def pair(self, a: str, b: str) -> PairTest:
        return next(p for p in self.pairs if {p.first, p.second} == {a, b})

    def _above_all(self, model: str, sign: int) -> bool:
        others = [m for m in self.means.index if m != model]
        return bool(others) and all(
            self.pair(model, o).higher == (model if sign > 0 else o) for o in others)

    @property
    def winner(self) -> str | None:
        """The model found above every other model (None: no clear winner)."""
        return next((m for m in self.means.index if self._above_all(m, +1)), None)

    @property
    def last(self) -> str | None:
        """The model found below every other model (None: not clearly last)."""
        return next((m for m in self.means.index if self._above_all(m, -1)), None)

    @property
    def n_users(self) -> int:
        return max((p.n for p in self.pairs), default=0)


@dataclass(frozen=True)
class Standings:
    """Every setting's standing and how they were tested."""
    settings: dict[str, Standing]
    measure: str
    test: str
    alpha: float

    @property
    def family_size(self) -> int:
        return sum(len(s.pairs) for s in self.settings.values())

    def method(self) -> str:
        """'paired randomization test over each setting's users, Holm–Bonferroni over the 9
        comparisons on screen, at 0.05'."""
        return (f"paired {TESTS[self.test].removeprefix('paired ')} over the users, "
                f"{CORRECTIONS['holm']} over the {self.family_size} comparisons on screen, "
                f"at {self.alpha:g}")

    def legend(self, where: str = "under that setting") -> str:
        """The caption of the table's ★: '★: the test (...) finds the model above both
        others under that split; no ★: no clear winner.'"""
        return (f"{STAR}: the test ({self.method()}) finds the model above both others "
                f"{where}; no {STAR}: no clear winner.")

    def stars(self, setting: str) -> list[str]:
        """The models that get the table's ★ under ``setting``: the tested winner, or none."""
        winner = self.settings[setting].winner
        return [] if winner is None else [winner]

    def sentence(self, setting: str, names: Mapping[str, str], where: str) -> str:
        """What ``setting``'s column shows, in one sentence: the tested winner and last, or
        "no clear winner" with the closest pair and both p-values (the means are in the table
        beside it).

        ``names``: model -> the name to print; ``where``: "Under the random split".
        """
        s = self.settings[setting]
        label = self.measure
        winner, last = s.winner, s.last
        if winner is not None:
            beaten = [m for m in s.means.index if m != winner]
            weakest = max((s.pair(winner, o) for o in beaten), key=lambda p: p.p_corrected)
            text = (f"{where}, **{names[winner]}** is first on {label} "
                    f"({weakest.p_words()} against the closer one)")
        else:
            order = s.means.sort_values(ascending=False, kind="stable").index
            top = order[0]
            close = [s.pair(top, o) for o in order[1:] if not s.pair(top, o).marked]
            if not close:              # no pair to test
                text = f"{where}: no model is clearly first on {label}"
            else:
                pair = close[0]        # the highest mean and the next one not told apart
                other = pair.second if pair.first == top else pair.first
                how = "a tie" if is_tie(s.means[top], s.means[other]) else \
                    f"could be chance, {pair.p_words()}"
                text = (f"{where}: no clear winner on {label} ({names[top]} vs "
                        f"{names[other]}: {how})")
        if last is not None:
            text += f"; **{names[last]}** is last"
        return text + "."

    def short(self, setting: str, names: Mapping[str, str], where: str) -> str:
        """The sentence without its numbers: '{where}, **X** is first.' or '{where}: no
        clear winner.' (the table beside it holds the means)."""
        winner = self.settings[setting].winner
        return f"{where}, **{names[winner]}** is first." if winner is not None else \
            f"{where}: no clear winner."

    def legend_short(self) -> str:
        """'★: first by the corrected paired test (no ★: no clear winner)', for a caption
        whose tooltip holds :meth:`legend`."""
        return f"{STAR}: first by the corrected paired test (no {STAR}: no clear winner)"


def turned(found: Standings, first: str, second: str) -> list[tuple[str, str]]:
    """(a, b): the pairs the test finds a above b under ``first`` and b above a under
    ``second``: an order that really turns, not two means that swap within chance.

    >>> users = [f"u{i}" for i in range(40)]
    >>> up = pd.Series([0.0, 1.0] * 20, index=users)
    >>> found = standings({"x": {"a": up, "b": up * 0}, "y": {"a": up * 0, "b": up}},
    ...                   measure="HitRate@10")
    >>> turned(found, "x", "y")
    [('a', 'b')]
    """
    out = []
    for pair in found.settings[first].pairs:
        a = pair.higher
        if a is None:
            continue
        b = pair.second if a == pair.first else pair.first
        if found.settings[second].pair(a, b).higher == b:
            out.append((a, b))
    return out


def highest_mean_words(name: str, count: int, total: int, detail: str = "") -> str:
    """'**Trending** (detail) has the highest mean (★) on every accuracy number.' or '... on
    2 of the 4 accuracy numbers.': means, untested; the tested sentence goes beside it.

    >>> highest_mean_words("**MF**", 2, 4)
    '**MF** has the highest mean (★) on 2 of the 4 accuracy numbers.'
    """
    where = "every accuracy number" if count == total else \
        f"{count} of the {total} accuracy numbers"
    return f"{name}{detail} has the highest mean ({STAR}) on {where}."


def _gaps(one: PairTest, two: PairTest, n: int, where_one: str, where_two: str) -> str:
    """', but over these 60 users neither gap is one the paired test tells from chance
    (...)', or which one it finds: never a tested change of order (see :func:`turned`)."""
    if not (one.marked or two.marked):
        return (f"; the paired test finds neither gap (corrected p "
                f"{_p(one.p_corrected)} and {format_p(two.p_corrected)}; uncorrected p "
                f"{_p(one.p_value)} and {format_p(two.p_value)})")
    found, lost, w_found, w_lost = (one, two, where_one, where_two) if one.marked else \
        (two, one, where_two, where_one)
    return (f"; over {n} users the paired test finds the gap {w_found} "
            f"({found.p_words()}) but not {w_lost} ({lost.p_words()}): no tested turn")


def order_sentence(found: Standings, first: str, second: str, names: Mapping[str, str],
                   where_first: str, where_second: str) -> str | None:
    """A sentence on two models whose means swap order between two settings, tested: "the
    test finds a above b ... and b above a ..." only for an order that really turns
    (:func:`turned`), else the means and both settings' p-values, said as means; None when
    no pair of means swaps order.
    """
    tested = turned(found, first, second)
    if tested:
        a, b = tested[0]
        one, two = found.settings[first], found.settings[second]
        return (f"{where_first} the test finds **{names[a]}** above **{names[b]}** "
                f"({one.means[a]:.3f} vs {one.means[b]:.3f}; {one.pair(a, b).p_words()}), "
                f"{where_second} below it ({two.means[a]:.3f} vs {two.means[b]:.3f}; "
                f"{two.pair(a, b).p_words()}): the two settings order them differently.")
    one, two = found.settings[first], found.settings[second]
    for pair in one.pairs:
        a, b = pair.first, pair.second
        if one.means[a] < one.means[b]:
            a, b = b, a
        if is_tie(one.means[a], one.means[b]) or is_tie(two.means[a], two.means[b]) or \
                two.means[a] > two.means[b]:
            continue
        return (f"{where_first} **{names[a]}** is above **{names[b]}**, {where_second} "
                "below"
                + _gaps(one.pair(a, b), two.pair(a, b), one.n_users, where_first.lower(),
                        where_second) + ".")
    return None


def standings(per_user: Mapping[str, Mapping[str, pd.Series]], *, measure: str,
              test: str = "randomization", alpha: float = 0.05,
              seed: int = 0, n_resamples: int = 10_000) -> Standings:
    """Every pair of models within each setting, tested over the setting's users and
    corrected together.

    Parameters
    ----------
    per_user : mapping setting -> (mapping model -> Series)
        Each model's value per user (user ids as the index) under each setting; within a
        setting the models are paired by user.
    measure : str
        The measure's name, for the sentences ("NDCG@10").
    test : {"randomization", "t-test"}
    alpha : float
        The level the corrected p-values are held to.
    seed, n_resamples : int
        The randomization test's seed and number of sign patterns.

    Returns
    -------
    Standings

    Examples
    --------
    >>> import numpy as np
    >>> users = [f"u{i}" for i in range(30)]
    >>> rng = np.random.default_rng(1)
    >>> base = pd.Series(rng.random(30), index=users)
    >>> noise = pd.Series(rng.normal(0, 0.2, 30), index=users)
    >>> found = standings({"easy": {"good": base + 0.3 + noise / 5, "same": base,
    ...                             "also": base + noise / 9},
    ...                    "hard": {"good": base + noise, "same": base, "also": base * 0.9}},
    ...                   measure="NDCG@10")
    >>> found.settings["easy"].winner, found.settings["hard"].winner, found.family_size
    ('good', None, 6)
    >>> found.stars("easy"), found.stars("hard")
    (['good'], [])
    >>> print(found.sentence("hard", {"good": "Good", "same": "Same", "also": "Also"},
    ...                      "Under the hard setting"))  # doctest: +NORMALIZE_WHITESPACE
    Under the hard setting: no clear winner on NDCG@10 (Same vs Good: could be chance,
    corrected p = 1, uncorrected p = 0.88).
    """
    if test not in TESTS:
        raise ValueError(f"test must be one of {tuple(TESTS)}, got {test!r}")
    raw = []
    for setting, models in per_user.items():
        names = list(models)
        column = f"{measure} | {setting}"     # each setting's comparisons their own stream
        frames = {m: pd.DataFrame({column: models[m]}) for m in names}
        found = compare_many(frames, names[0], measures=[column], test=test,
                             correction="none", all_pairs=True, seed=seed,
                             n_resamples=n_resamples)
        for a, b in combinations(names, 2):
            f = found.finding(column, a, b)
            raw.append((setting, a, b, f.mean_system, f.mean_against, f.n,
                        1.0 if f.p_value is None else f.p_value))
    adjusted = holm([r[-1] for r in raw]) if raw else []
    pairs: dict[str, list[PairTest]] = {s: [] for s in per_user}
    for (setting, a, b, mean_a, mean_b, n, p), p_adj in zip(raw, adjusted):
        marked = bool(p_adj < alpha and not is_tie(mean_a, mean_b))
        pairs[setting].append(PairTest(a, b, mean_a, mean_b, n, p, float(p_adj), marked))
    settings = {s: Standing(s, pd.Series({m: float(v.mean()) for m, v in models.items()}),
                            tuple(pairs[s]))
                for s, models in per_user.items()}
    return Standings(settings, measure, test, alpha)
