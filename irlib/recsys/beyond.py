r"""Beyond accuracy: what a recommender's top-K lists look like, whatever the users liked.

Accuracy asks whether the held-out items are in the lists; these ask what is *in* the lists.
A most-popular list can win accuracy while showing everyone the same 20 items: coverage,
exposure and novelty say so. Each measure is an entry of :data:`BEYOND` (label, title,
one-line description, what it needs, which direction is "more varied", the function over
:class:`~irlib.recsys.lists.TopLists` and an explainer that writes the formula with the
numbers), in the spirit of :data:`irlib.MEASURES`.

With :math:`L_u` user *u*'s top K (the users evaluated, those with a list), :math:`I` the
catalogue, :math:`x_i` the number of lists showing item *i*, :math:`n_i` the number of
training users who had item *i* and *N* the number of training users:

* coverage@K :math:`= |\bigcup_u L_u \cap I| \,/\, |I|`;
* exposure Gini@K :math:`= \sum_j (2j - n - 1)\, x_{(j)} / (n \sum_j x_j)` over the
  :math:`n = |I|` catalogue items sorted by exposure (0: every item shown equally often;
  :math:`(n-1)/n`: one item in every list, nothing else);
* popularity@K :math:`= \frac{1}{|U|}\sum_u \frac{1}{|L_u|}\sum_{i \in L_u} n_i / N`, the
  share of training users who had the average recommended item (Abdollahpouri et al.'s
  average recommendation popularity, as a share);
* novelty@K :math:`= \frac{1}{|U|}\sum_u \frac{1}{|L_u|}\sum_{i \in L_u} -\log_2(n_i / N)`,
  the mean self-information in bits (Zhou et al., PNAS 2010). An item no training user had
  counts as had by one (:math:`\log_2 N` bits, the most any item gets): popularity counts it 0;
* intra-list diversity@K :math:`= \frac{1}{|U'|}\sum_{u} \frac{2}{m_u(m_u-1)}
  \sum_{i<j \in L_u} \bigl(1 - J(C_i, C_j)\bigr)` with :math:`C_i` item *i*'s categories and
  :math:`J` the Jaccard index :math:`|C_i \cap C_j| / |C_i \cup C_j|`: 0 when every pair
  shares all its categories, 1 when no pair shares any. Items without categories are left
  out; a list with fewer than two categorised items has no value, and :math:`U'` is the
  lists that do.

Examples
--------
Two users, a catalogue of four items, and who had what in training:

>>> lists = {"ann": ["a", "b"], "bob": ["a", "c"]}
>>> train = pd.DataFrame({"user_id": ["u1", "u2", "u2", "u3"],
...                       "item_id": ["a", "a", "b", "d"]})
>>> result = beyond_accuracy(lists, 2, train=train, catalogue=["a", "b", "c", "d"])
>>> {name: round(v.value, 4) for name, v in result.items()}
{'Coverage': 0.75, 'Gini': 0.375, 'Popularity': 0.4167, 'Novelty': 1.085}
>>> print(explain(result["Coverage"]).latex)
\text{Coverage@2} = \frac{|\bigcup_u L_u \cap I|}{|I|} = \frac{3}{4} = 0.75
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._common import check_k
from .._common import fmt_number as fmt
from ..measures.explain import Explanation
from .lists import UNSEEN_USERS, TopLists, top_lists

__all__ = ["BEYOND", "BeyondInfo", "BeyondValue", "beyond_accuracy", "explain",
           "catalogue_coverage", "exposure_gini", "average_popularity", "novelty",
           "intra_list_diversity"]


@dataclass(frozen=True)
class BeyondValue:
    """One beyond-accuracy measure over the lists: the value, per list where it has one,
    and the terms its explainer writes out."""
    name: str
    k: int
    value: float
    per_user: pd.Series | None          # by user id; None for catalogue-wide measures
    terms: dict = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"{BEYOND[self.name].label}@{self.k}"


@dataclass(frozen=True)
class BeyondInfo:
    """Everything the library and the app know about one beyond-accuracy measure."""
    label: str                 # short, for tiles and tables; shown with "@K"
    title: str                 # the long name
    description: str           # one line
    needs: str | None          # "train" | "categories" | None
    more_varied: str           # "higher" or "lower": which way means less concentrated
    unit: str                  # "share" (0-1), "bits", "distance" (0-1)
    compute: Callable[[TopLists], BeyondValue]
    explain: Callable[[BeyondValue], Explanation]

    def label_at(self, k) -> str:
        return f"{self.label}@{k}"


def _int(n: int) -> str:
    """A count with thousands separators, as LaTeX typesets them: ``12{,}345``."""
    return f"{int(n):,}".replace(",", "{,}")


def _plural(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


def _no_lists(name: str, lists: TopLists) -> BeyondValue:
    per_user = pd.Series(np.full(lists.n_lists, np.nan), index=lists.users)
    return BeyondValue(name, lists.k, float("nan"), per_user, {"lists": 0})


# --------------------------------------------------------------------------- coverage, Gini

def exposure_counts(lists: TopLists) -> np.ndarray:
    """How many lists show each item (by item code)."""
    return np.bincount(lists.item, minlength=len(lists.items))


def _coverage(lists: TopLists) -> BeyondValue:
    shown = exposure_counts(lists) > 0
    outside = int(np.count_nonzero(shown & ~lists.in_catalogue))
    covered = int(np.count_nonzero(shown & lists.in_catalogue))
    size = lists.n_catalogue
    value = covered / size if size else float("nan")
    return BeyondValue("Coverage", lists.k, value, None,
                       {"covered": covered, "catalogue": size, "outside": outside,
                        "lists": lists.n_lists, "catalogue_is": lists.catalogue})


def _explain_coverage(v: BeyondValue) -> Explanation:
    t = v.terms
    latex = (rf"\text{{Coverage@{v.k}}} = \frac{{|\bigcup_u L_u \cap I|}}{{|I|}} = "
             rf"\frac{{{_int(t['covered'])}}}{{{_int(t['catalogue'])}}} = {fmt(v.value, 4)}")
    if t["outside"]:
        outside = _plural(t["outside"], "recommended item is", "recommended items are")
        latex += rf" \quad \text{{({outside} not in the catalogue)}}"
    return Explanation("Coverage", v.k, v.value, latex, details=t)


def gini(values: np.ndarray) -> float:
    r"""The Gini coefficient of non-negative ``values`` (0: all equal; (n-1)/n: one has all).

    .. math:: G = \frac{\sum_{j=1}^{n} (2j - n - 1)\, x_{(j)}}{n \sum_j x_j}

    with :math:`x_{(j)}` sorted ascending.

    >>> gini(np.array([1, 1, 1, 1])), gini(np.array([0, 0, 0, 4]))
    (0.0, 0.75)
    """
    x = np.sort(np.asarray(values, dtype=float))
    n, total = len(x), float(x.sum())
    if n == 0 or total == 0:
        return float("nan")
    weights = 2 * np.arange(1, n + 1) - n - 1
    return float(weights @ x / (n * total))


def _gini(lists: TopLists) -> BeyondValue:
    counts = exposure_counts(lists)
    exposure = counts[lists.in_catalogue]
    value = gini(exposure)
    n, total = len(exposure), int(exposure.sum())
    x = np.sort(exposure.astype(float))
    numerator = float((2 * np.arange(1, n + 1) - n - 1) @ x) if n else 0.0
    top = [{"item": str(lists.items[i]), "lists": int(counts[i])}
           for i in np.argsort(-counts, kind="stable")[:10] if counts[i] > 0]
    share_top = float(x[::-1][:max(1, n // 100)].sum() / total) if total else float("nan")
    return BeyondValue("Gini", lists.k, value, None,
                       {"numerator": numerator, "n": n, "total": total, "top": top,
                        "share_top_1pct": share_top, "lists": lists.n_lists})


def _explain_gini(v: BeyondValue) -> Explanation:
    t = v.terms
    latex = (rf"\text{{Gini@{v.k}}} = \frac{{\sum_j (2j - n - 1)\, x_{{(j)}}}}"
             rf"{{n \sum_j x_j}} = \frac{{{_int(round(t['numerator']))}}}"
             rf"{{{_int(t['n'])} \cdot {_int(t['total'])}}} = {fmt(v.value, 4)}")
    return Explanation("Gini", v.k, v.value, latex, rows=t["top"],
                       details=t)


# --------------------------------------------------------------------------- popularity, novelty

def _per_list_mean(lists: TopLists, per_item: np.ndarray) -> np.ndarray:
    sums = np.bincount(lists.user, weights=per_item[lists.item], minlength=lists.n_lists)
    length = lists.list_length
    out = np.full(lists.n_lists, np.nan)
    np.divide(sums, length, out=out, where=length > 0)
    return out


def _needs_train(lists: TopLists, name: str) -> None:
    if lists.users_per_item is None:
        raise ValueError(f"{BEYOND[name].title} needs the training interactions (who had "
                         "which item before the split): pass train=")


def _popularity_terms(lists: TopLists, per_item: np.ndarray, name: str) -> BeyondValue:
    per_user = _per_list_mean(lists, per_item)
    has = ~np.isnan(per_user)
    if not has.any():
        return _no_lists(name, lists)
    unseen = int(np.count_nonzero(lists.users_per_item[lists.item] == 0))
    counts = np.bincount(lists.item, minlength=len(lists.items))
    order = np.argsort(-counts, kind="stable")[:10]
    rows = [{"item": str(lists.items[i]), "lists": int(counts[i]),
             "training users": int(lists.users_per_item[i]), "value": float(per_item[i])}
            for i in order if counts[i] > 0]
    terms = {"sum": float(per_user[has].sum()), "lists": int(has.sum()),
             "n_train_users": lists.n_train_users, "unseen_rows": unseen, "top": rows}
    return BeyondValue(name, lists.k, float(per_user[has].mean()),
                       pd.Series(per_user, index=lists.users), terms)


def _popularity(lists: TopLists) -> BeyondValue:
    _needs_train(lists, "Popularity")
    share = lists.users_per_item / max(lists.n_train_users, 1)
    return _popularity_terms(lists, share, "Popularity")


def _novelty(lists: TopLists) -> BeyondValue:
    _needs_train(lists, "Novelty")
    had = np.maximum(lists.users_per_item, UNSEEN_USERS)
    bits = -np.log2(had / max(lists.n_train_users, 1))
    return _popularity_terms(lists, bits, "Novelty")


def _unseen_note(t: dict) -> str:
    if not t.get("unseen_rows"):
        return ""
    unseen = _plural(t["unseen_rows"], "recommendation", "recommendations")
    return rf" \quad \text{{({unseen} of items no training user had: counted as had by one)}}"


def _explain_popularity(v: BeyondValue) -> Explanation:
    t = v.terms
    latex = (rf"\text{{Popularity@{v.k}}} = \frac{{1}}{{|U|}} \sum_u \frac{{1}}{{|L_u|}}"
             rf" \sum_{{i \in L_u}} \frac{{n_i}}{{N}} = \frac{{{fmt(t.get('sum', 0), 2)}}}"
             rf"{{{_int(t['lists'])}}} = {fmt(v.value, 4)} \quad (N = {_int(t['n_train_users'])}"
             r"\text{ training users})")
    return Explanation("Popularity", v.k, v.value, latex,
                       rows=t.get("top", []), details=t)


def _explain_novelty(v: BeyondValue) -> Explanation:
    t = v.terms
    latex = (rf"\text{{Novelty@{v.k}}} = \frac{{1}}{{|U|}} \sum_u \frac{{1}}{{|L_u|}}"
             rf" \sum_{{i \in L_u}} -\log_2 \frac{{n_i}}{{N}} = "
             rf"\frac{{{fmt(t.get('sum', 0), 2)}}}{{{_int(t['lists'])}}} = {fmt(v.value, 4)}"
             rf"\text{{ bits}}" + _unseen_note(t))
    return Explanation("Novelty", v.k, v.value, latex,
                       rows=t.get("top", []), details=t)


from .diversity import _explain_diversity, diversity_parts, pair_distances  # noqa: E402,F401


def _diversity(lists: TopLists) -> BeyondValue:
    return BeyondValue("ILD", lists.k, *diversity_parts(lists))


#: The registry, in display order.
BEYOND = {
    "Coverage": BeyondInfo(
        label="Coverage", title="Catalogue coverage",
        description="Share of the catalogue that is in at least one user's top K.",
        needs=None, more_varied="higher", unit="share",
        compute=_coverage, explain=_explain_coverage),
    "Gini": BeyondInfo(
        label="Gini", title="Item exposure Gini",
        description="How unequally the top-K slots are spread over the catalogue: 0 every "
                    "item shown equally often, near 1 a few items take every slot.",
        needs=None, more_varied="lower", unit="share",
        compute=_gini, explain=_explain_gini),
    "Popularity": BeyondInfo(
        label="Popularity", title="Average recommended popularity",
        description="Share of training users who had the average recommended item (mean "
                    "over each user's top K, then over users).",
        needs="train", more_varied="lower", unit="share",
        compute=_popularity, explain=_explain_popularity),
    "Novelty": BeyondInfo(
        label="Novelty", title="Novelty (self-information)",
        description="Mean -log2 of the share of training users who had each recommended "
                    "item, in bits: higher means less well-known items.",
        needs="train", more_varied="higher", unit="bits",
        compute=_novelty, explain=_explain_novelty),
    "ILD": BeyondInfo(
        label="ILD", title="Intra-list diversity",
        description="Mean distance (1 - Jaccard of their categories) between the items of "
                    "a top K, averaged over users: 0 all alike, 1 no shared category.",
        needs="categories", more_varied="higher", unit="distance",
        compute=_diversity, explain=_explain_diversity),
}


def available(*, train: bool, categories: bool) -> tuple[str, ...]:
    """The measures that the inputs allow, in registry order."""
    have = {None, *(["train"] if train else []), *(["categories"] if categories else [])}
    return tuple(name for name, info in BEYOND.items() if info.needs in have)


def check_names(names: Iterable[str], *, train: bool, categories: bool) -> tuple[str, ...]:
    """``names`` as registry keys (case-insensitive, "@K" ignored), each with its inputs."""
    lookup = {n.lower(): n for n in BEYOND}
    out = []
    for raw in names:
        key = str(raw).split("@")[0].strip().lower()
        if key not in lookup:
            raise ValueError(f"unknown beyond-accuracy measure {raw!r}; known: "
                             f"{', '.join(BEYOND)}")
        name = lookup[key]
        needs = BEYOND[name].needs
        if needs == "train" and not train:
            raise ValueError(f"{BEYOND[name].title} ({name}) needs the training interactions: "
                             "pass train= (popularity is counted there, never in the "
                             "held-out set)")
        if needs == "categories" and not categories:
            raise ValueError(f"{BEYOND[name].title} ({name}) needs the items' categories: "
                             "pass item_categories=")
        out.append(name)
    return tuple(dict.fromkeys(out))


def compute(lists: TopLists, names: Iterable[str]) -> dict[str, BeyondValue]:
    """Each named measure over ``lists``."""
    return {name: BEYOND[name].compute(lists) for name in names}


def beyond_accuracy(recommendations, k: int, *, users=None, train=None, catalogue=None,
                    item_categories=None, measures=None) -> dict[str, BeyondValue]:
    """The beyond-accuracy measures of the top ``k`` of each list.

    Parameters
    ----------
    recommendations : DataFrame or mapping
        ``user_id, item_id, score[, rank]`` (e.g. from :func:`~irlib.recsys.read_recommendations`)
        or ``{user: [items, first recommended first]}``.
    k : int
        The cut-off: only each list's first ``k`` items count.
    users : iterable, optional
        Only these users' lists (default: every list).
    train : DataFrame, optional
        Training interactions (``user_id, item_id``): popularity and novelty.
    catalogue : iterable, optional
        The items that could be recommended (default: the items of ``train``; without it,
        the items in the top-``k`` lists, never those below K).
    item_categories : DataFrame or mapping, optional
        ``item_id, category`` rows or ``{item: [categories]}``: intra-list diversity.
    measures : iterable of str, optional
        Names in :data:`BEYOND`; default every measure the inputs allow.

    Returns
    -------
    dict
        name -> :class:`BeyondValue` (``.value``, ``.per_user``, ``.terms``).
    """
    k = check_k(k)
    has_train, has_categories = train is not None, item_categories is not None
    names = available(train=has_train, categories=has_categories) if measures is None else \
        check_names(measures, train=has_train, categories=has_categories)
    lists = top_lists(recommendations, k, users=users, train=train, catalogue=catalogue,
                      item_categories=item_categories)
    return compute(lists, names)


def explain(value: BeyondValue) -> Explanation:
    """The formula of ``value``'s measure with its numbers (``.latex``), and its rows: the
    most shown items (Gini, popularity, novelty) or one list's pairs (diversity)."""
    return BEYOND[value.name].explain(value)


def _one(name: str, recommendations, k, **inputs) -> float:
    k = k if k is not None else _longest(recommendations)
    return beyond_accuracy(recommendations, k, measures=[name], **inputs)[name].value


def _longest(recommendations) -> int:
    if isinstance(recommendations, pd.DataFrame):
        return max(1, int(recommendations["user_id"].value_counts().max()))
    return max([1, *(len(v) for v in recommendations.values())])


def catalogue_coverage(recommendations, k: int | None = None, *, catalogue=None,
                       train=None) -> float:
    r"""Share of the catalogue in at least one top K: :math:`|\bigcup_u L_u \cap I| / |I|`.

    ``k`` defaults to the longest list. The catalogue defaults to the items of ``train``
    (without it, the items in the top-``k`` lists): give the same ``catalogue`` to every
    system compared, or the percentages have different denominators.

    >>> catalogue_coverage({"ann": ["a", "b"], "bob": ["a"]}, catalogue=["a", "b", "c", "d"])
    0.5
    """
    return _one("Coverage", recommendations, k, catalogue=catalogue, train=train)


def exposure_gini(recommendations, k: int | None = None, *, catalogue=None,
                  train=None) -> float:
    r"""Gini coefficient of how many lists show each catalogue item (see :func:`gini`).

    >>> exposure_gini({"ann": ["a", "b"], "bob": ["a", "b"]}, catalogue=["a", "b"])   # equal
    0.0
    >>> exposure_gini({"ann": ["a"], "bob": ["a"]}, catalogue=["a", "b", "c", "d"])  # one item
    0.75
    """
    return _one("Gini", recommendations, k, catalogue=catalogue, train=train)


def average_popularity(recommendations, train, k: int | None = None) -> float:
    r"""Mean share of training users who had each recommended item (per list, then users).

    >>> train = pd.DataFrame({"user_id": ["u1", "u2", "u2"], "item_id": ["a", "a", "b"]})
    >>> average_popularity({"ann": ["a", "b"]}, train)    # (2/2 + 1/2) / 2
    0.75
    """
    return _one("Popularity", recommendations, k, train=train)


def novelty(recommendations, train, k: int | None = None) -> float:
    r"""Mean self-information :math:`-\log_2(n_i / N)` of the recommended items, in bits.

    >>> train = pd.DataFrame({"user_id": ["u1", "u2", "u3", "u4"],
    ...                       "item_id": ["a", "a", "a", "b"]})
    >>> round(novelty({"ann": ["a", "b"]}, train), 4)    # (-log2 3/4 - log2 1/4) / 2
    1.2075
    """
    return _one("Novelty", recommendations, k, train=train)


def intra_list_diversity(recommendations, item_categories, k: int | None = None) -> float:
    r"""Mean pairwise 1 - Jaccard of the items' categories within each top K.

    >>> cats = {"a": ["Comedy"], "b": ["Comedy", "Drama"], "c": ["Horror"]}
    >>> round(intra_list_diversity({"ann": ["a", "b", "c"]}, cats), 4)  # (1/2 + 1 + 1) / 3
    0.8333
    """
    return _one("ILD", recommendations, k, item_categories=item_categories)
