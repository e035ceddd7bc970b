"""Intra-list diversity: how different the items of one top K are, by their categories.

With :math:`C_i` item *i*'s categories and :math:`J` the Jaccard index, a list's diversity is
the mean of :math:`1 - J(C_i, C_j)` over its pairs of categorised items (see
:mod:`irlib.recsys.beyond`). Category sets are bit masks, so a piece of lists is a few
whole-array operations.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .._common import fmt_number as fmt
from ..measures.explain import Explanation
from .lists import TopLists


def _int(n: int) -> str:
    return f"{int(n):,}".replace(",", "{,}")


def _plural(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"



_PAIR_ROWS = 1 << 15           # lists per piece: the pair temporaries stay small


def _popcount(x: np.ndarray) -> np.ndarray:
    if hasattr(np, "bitwise_count"):                     # NumPy >= 2.0
        return np.bitwise_count(x)
    table = np.array([bin(b).count("1") for b in range(256)], np.uint8)
    return table[x.view(np.uint8).reshape(*x.shape, 8)].sum(axis=-1)


def _list_matrix(lists: TopLists) -> np.ndarray:
    """(n_lists, longest) item codes, -1 where a list is shorter."""
    length = lists.list_length
    width = int(length.max()) if len(length) else 0
    matrix = np.full((lists.n_lists, width), -1, np.int64)
    position = np.arange(len(lists.user)) - np.searchsorted(lists.user, lists.user)
    matrix[lists.user, position] = lists.item
    return matrix


def pair_distances(masks: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """1 - Jaccard of the category sets of items ``a`` and ``b`` (NaN where one has none)."""
    inter = _popcount(masks[a] & masks[b]).sum(axis=-1, dtype=np.int64)
    union = _popcount(masks[a] | masks[b]).sum(axis=-1, dtype=np.int64)
    sizes_a = _popcount(masks[a]).sum(axis=-1)
    sizes_b = _popcount(masks[b]).sum(axis=-1)
    out = np.full(inter.shape, np.nan)
    both = (sizes_a > 0) & (sizes_b > 0)
    np.divide(inter, union, out=out, where=both)
    return np.where(both, 1.0 - out, np.nan)


def diversity_parts(lists: TopLists) -> tuple[float, pd.Series, dict]:
    """Intra-list diversity over ``lists``: (the mean, per user, the explainer's terms).
    :mod:`irlib.recsys.beyond` wraps them as its ``ILD`` value (this module does not import
    it: the registry imports this one)."""
    if lists.category_masks is None:
        raise ValueError("Intra-list diversity needs the items' categories: pass "
                         "item_categories=")
    masks = lists.category_masks
    matrix = _list_matrix(lists)
    # a pad (-1) reads the all-zero row appended at the end: no categories, left out
    masks = np.vstack([masks, np.zeros((1, masks.shape[1]), np.uint64)])
    first, second = np.triu_indices(matrix.shape[1], k=1)
    sums = np.zeros(lists.n_lists)
    pairs = np.zeros(lists.n_lists, np.int64)
    for start in range(0, lists.n_lists, _PAIR_ROWS):
        piece = matrix[start:start + _PAIR_ROWS]
        d = pair_distances(masks, piece[:, first], piece[:, second])
        known = ~np.isnan(d)
        sums[start:start + len(piece)] = np.where(known, d, 0.0).sum(axis=1)
        pairs[start:start + len(piece)] = known.sum(axis=1)
    per_user = np.full(lists.n_lists, np.nan)
    np.divide(sums, pairs, out=per_user, where=pairs > 0)
    has = pairs > 0
    uncategorised = int(np.count_nonzero(_popcount(lists.category_masks[lists.item]).sum(
        axis=-1) == 0))
    terms = {"sum": float(per_user[has].sum()), "lists": int(has.sum()),
             "without_value": int(np.count_nonzero(~has)), "uncategorised_rows": uncategorised}
    if lists.n_lists:
        terms["example"] = _example_pairs(lists, matrix[0])
        terms["example_user"] = str(lists.users[0])
    value = float(per_user[has].mean()) if has.any() else float("nan")
    return value, pd.Series(per_user, index=lists.users), terms


def _example_pairs(lists: TopLists, row: np.ndarray) -> list[dict]:
    """The pairs of one list with their categories and distance, for the explainer."""
    row = row[row >= 0]
    names = lists.categories

    def cats(code):
        mask = lists.category_masks[code]
        return [names[w * 64 + b] for w in range(mask.shape[0]) for b in range(64)
                if w * 64 + b < len(names) and int(mask[w]) >> b & 1]
    out = []
    for x in range(len(row)):
        for y in range(x + 1, len(row)):
            d = pair_distances(lists.category_masks, row[[x]], row[[y]])[0]
            out.append({"item": str(lists.items[row[x]]), "other": str(lists.items[row[y]]),
                        "categories": "|".join(cats(row[x])),
                        "other categories": "|".join(cats(row[y])), "distance": float(d)})
    return out


def _explain_diversity(v) -> Explanation:      # v: beyond's ILD BeyondValue
    t = v.terms
    latex = (rf"\text{{ILD@{v.k}}} = \frac{{1}}{{|U'|}} \sum_u \frac{{2}}{{m_u(m_u - 1)}}"
             rf" \sum_{{i < j \in L_u}} \left(1 - \frac{{|C_i \cap C_j|}}{{|C_i \cup C_j|}}"
             rf"\right) = \frac{{{fmt(t.get('sum', 0), 2)}}}{{{_int(t['lists'])}}} = "
             rf"{fmt(v.value, 4)}")
    if t.get("without_value"):
        latex += (rf" \quad \text{{({_plural(t['without_value'], 'list', 'lists')} with fewer "
                  r"than two categorised items left out)}")
    return Explanation("ILD", v.k, v.value, latex,
                       rows=t.get("example", []), details=t)
