"""The users' top-K lists as integer codes: what every beyond-accuracy measure reads.

:func:`top_lists` turns recommendations (a frame from
:func:`~irlib.recsys.read_recommendations`, or ``{user: [items in list order]}``) into a
:class:`TopLists`: one row per (list, item) in the top K, items coded once against every item
known (catalogue, training, held-out, categories), with the training popularity and the
category sets per item code. The measures (:mod:`irlib.recsys.beyond`) are then whole-array
NumPy sums: no loop over users.

The top K follows the order :func:`irlib.evaluate` ranks by, so accuracy and beyond-accuracy
describe the same lists: ``rank`` when the frame has it, else ``score`` descending with ties
broken by item id descending (trec_eval's rule).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .._codes import factorize

#: Training popularity of items the training data never saw: as if one training user had
#: (self-information log2 N, the most a seen item can have; popularity 0 is kept for them).
UNSEEN_USERS = 1


@dataclass(frozen=True)
class TopLists:
    """The evaluated users' top-K lists, coded.

    Rows are sorted by list (user); ``item`` codes index ``items`` and every per-item array.
    """
    k: int
    users: pd.Index                  # one user id per list, list order
    user: np.ndarray                 # per row: the list it belongs to (0 .. n_lists - 1)
    item: np.ndarray                 # per row: the item's code
    items: pd.Index                  # every item id known, by code
    in_catalogue: np.ndarray         # per item code: counted by coverage and Gini
    users_per_item: np.ndarray | None    # per item code: training users who had it
    n_train_users: int | None            # distinct users in the training interactions
    category_masks: np.ndarray | None    # (n_items, words) uint64: each item's categories
    categories: tuple[str, ...] = ()     # category names, bit order
    user_codes: np.ndarray | None = None  # per list: its user's code in the Coded inputs
    catalogue: str = "the catalogue given"    # what in_catalogue is, in words

    @property
    def n_lists(self) -> int:
        return len(self.users)

    @property
    def list_length(self) -> np.ndarray:
        return np.bincount(self.user, minlength=self.n_lists)

    @property
    def n_catalogue(self) -> int:
        return int(np.count_nonzero(self.in_catalogue))


def as_frame(recommendations) -> pd.DataFrame:
    """A recommendations frame (``user_id, item_id, score[, rank]``) from a frame or from
    ``{user: [items, first recommended first]}``.

    >>> as_frame({"ann": ["boots", "hat"]})
      user_id item_id  score  rank
    0     ann   boots   -1.0     1
    1     ann     hat   -2.0     2
    """
    if isinstance(recommendations, pd.DataFrame):
        missing = [c for c in ("user_id", "item_id") if c not in recommendations.columns]
        if missing or not {"score", "rank"} & set(recommendations.columns):
            raise ValueError("recommendations need columns user_id, item_id and score or rank "
                             f"(found: {', '.join(map(str, recommendations.columns))}); "
                             "irlib.recsys.read_recommendations reads any column names")
        return recommendations
    if not isinstance(recommendations, Mapping):
        raise TypeError("recommendations must be a DataFrame or a mapping user -> list of "
                        f"items, got {type(recommendations).__name__}")
    users, items, ranks = [], [], []
    for user, listed in recommendations.items():
        if isinstance(listed, (str, bytes)):
            raise ValueError(f"the list of user {user!r} is a string; give a list of items")
        listed = list(listed)
        if len(set(map(str, listed))) != len(listed):
            raise ValueError(f"the list of user {user!r} has an item twice")
        users += [str(user)] * len(listed)
        items += [str(i) for i in listed]
        ranks += range(1, len(listed) + 1)
    rank = np.asarray(ranks, dtype=np.int64)
    return pd.DataFrame({"user_id": pd.Series(users, dtype="str"),
                         "item_id": pd.Series(items, dtype="str"),
                         "score": -rank.astype(float), "rank": rank})


def ranking_score(recommendations: pd.DataFrame) -> np.ndarray:
    """What orders each list: ``-rank`` when there is a rank, else the score."""
    if "rank" in recommendations.columns:
        return -recommendations["rank"].to_numpy(dtype=float)
    return recommendations["score"].to_numpy(dtype=float)


def _text(column) -> pd.Series:
    """Ids as a text column (pandas' Arrow ``str``), as the readers give them."""
    if not isinstance(column, pd.Series):
        column = pd.Series([str(i) for i in column], dtype="str")
    if not (pd.api.types.is_string_dtype(column.dtype) and column.dtype != object):
        column = column.astype("str")
    return column.reset_index(drop=True)       # a view: the codes stay remembered


def _arrow(names: pd.Index) -> pa.Array:
    values = names.array
    if isinstance(values, pd.arrays.ArrowStringArray):
        return values.__arrow_array__().combine_chunks().cast(pa.large_string())
    return pa.array(np.asarray(names, dtype=object).astype(str), pa.large_string())


def joint_codes(columns) -> tuple[list[np.ndarray], pd.Index]:
    """One integer code per distinct id across several id columns, and the ids by code.

    Each column is encoded on its own (:func:`irlib._codes.factorize`, remembered for a
    reader's columns), then only the distinct ids are merged: millions of rows are
    hashed once.

    >>> codes, names = joint_codes([pd.Series(["a", "b", "a"]), pd.Series(["c", "a"])])
    >>> [c.tolist() for c in codes], names.tolist()
    ([[0, 1, 0], [2, 0]], ['a', 'b', 'c'])
    """
    parts = [factorize(_text(c)) for c in columns]
    if not parts:
        return [], pd.Index([], dtype="str")
    merged = pc.dictionary_encode(pa.concat_arrays([_arrow(names) for _, names in parts]))
    to_global = merged.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    out, at = [], 0
    for local, names in parts:
        out.append(to_global[at:at + len(names)][local] if len(local) else
                   np.empty(0, np.int64))
        at += len(names)
    return out, pd.Index(merged.dictionary.cast(pa.string()).to_pandas())


def sorted_unique(values: np.ndarray) -> np.ndarray:
    """The distinct values, sorted (a sort and a compare: NumPy 2.4's hash-based
    ``np.unique`` took seconds for what this does in a tenth)."""
    ordered = np.sort(values)
    keep = np.ones(len(ordered), bool)
    keep[1:] = ordered[1:] != ordered[:-1]
    return ordered[keep]


def top_rows(user: np.ndarray, score: np.ndarray, item_names: pd.Index, item: np.ndarray,
             n_users: int, k: int) -> np.ndarray:
    """The rows in each user's top ``k`` (score descending, then item id descending),
    sorted by user then rank.

    Nothing is sorted when no list is longer than ``k`` (the whole list is its top), nor
    when the rows already come user by user in rank order, as a recommender writes them.
    """
    counts = np.bincount(user, minlength=n_users)
    if len(user) == 0 or counts.max() <= k:
        return np.argsort(user, kind="stable")
    text_order = np.empty(len(item_names), np.int64)     # item id's place in text order
    text_order[pc.sort_indices(_arrow(item_names)).to_numpy()] = np.arange(len(item_names))
    same = user[1:] == user[:-1]
    in_order = (user[1:] >= user[:-1]).all() and not (
        same & ((score[1:] > score[:-1]) | ((score[1:] == score[:-1])
                                             & (text_order[item[1:]] > text_order[item[:-1]])))
    ).any()
    order = np.arange(len(user)) if in_order else \
        np.lexsort((-text_order[item], -score, user))
    sorted_user = user[order]
    position = np.arange(len(order)) - np.searchsorted(sorted_user, sorted_user)
    return order[position < k]


def _category_pairs(item_categories) -> pd.DataFrame:
    """``item_id, category`` rows from a frame or from ``{item: [categories]}``."""
    if isinstance(item_categories, pd.DataFrame):
        missing = [c for c in ("item_id", "category") if c not in item_categories.columns]
        if missing:
            raise ValueError("item_categories needs columns item_id, category (found: "
                             f"{', '.join(map(str, item_categories.columns))}); "
                             "irlib.recsys.read_item_categories reads any column names")
        return item_categories
    if not isinstance(item_categories, Mapping):
        raise TypeError("item_categories must be a DataFrame (item_id, category) or a "
                        f"mapping item -> categories, got {type(item_categories).__name__}")
    rows = []
    for item, cats in item_categories.items():
        cats = [cats] if isinstance(cats, str) else list(cats)
        rows += [(str(item), str(c)) for c in cats]
    return pd.DataFrame(rows, columns=["item_id", "category"], dtype="str")


@dataclass(frozen=True)
class Coded:
    """Recommendations, held-out and training interactions, catalogue and categories with
    their ids as integer codes: users in one code space, items in another (each column is
    encoded once, :func:`code_inputs`)."""
    users: pd.Index                  # user id by code: the lists' owners first
    items: pd.Index                  # item id by code
    rec_user: np.ndarray             # per recommendation row
    rec_item: np.ndarray
    score: np.ndarray                # what orders a list (:func:`ranking_score`)
    in_catalogue: np.ndarray         # per item code
    held_user: np.ndarray | None = None      # per held-out row
    held_item: np.ndarray | None = None
    users_per_item: np.ndarray | None = None  # per item code: training users who had it
    n_train_users: int | None = None
    category_masks: np.ndarray | None = None
    categories: tuple[str, ...] = ()
    catalogue: str = "the catalogue given"    # what the catalogue is, in words


def catalogue_words(*, given: bool, heldout: bool, train: bool) -> str:
    """What the catalogue of coverage and Gini is, in words (:func:`code_inputs`' rule)."""
    if given:
        return "the catalogue given"
    if heldout and train:
        return "the training and held-out items"
    if heldout or train:
        return "the held-out items" if heldout else "the training items"
    return "the items in the top-K lists"


def code_inputs(recommendations, *, heldout_user=None, heldout_item=None, train=None,
                catalogue: Iterable | None = None, item_categories=None) -> Coded:
    """Code every input once (see :class:`Coded`).

    The catalogue (what coverage and Gini divide by) is ``catalogue`` when given, else the
    held-out and training items: one catalogue for every system evaluated against the same
    files, never enlarged by what a system lists (below K or not). Without either, it is the
    items in the top-K lists (:func:`lists_from`). Recommended items outside it are counted
    apart (``terms["outside"]`` of coverage).
    """
    recs = as_frame(recommendations)
    user_columns = [recs["user_id"]] + ([] if heldout_user is None else [heldout_user])
    user_codes, users = joint_codes(user_columns)
    sources = {"recs": recs["item_id"]}
    if heldout_item is not None:
        sources["held"] = heldout_item
    if train is not None:
        sources["train"] = train["item_id"]
    if catalogue is not None:
        sources["catalogue"] = _text(catalogue)
    pairs = None
    if item_categories is not None:
        pairs = _category_pairs(item_categories)
        sources["categories"] = pairs["item_id"]
    coded, items = joint_codes(list(sources.values()))
    code = dict(zip(sources, coded))

    in_catalogue = np.zeros(len(items), bool)
    for name in (["catalogue"] if catalogue is not None else
                 [n for n in sources if n in ("held", "train")]):
        in_catalogue[code[name]] = True
    words = catalogue_words(given=catalogue is not None, heldout="held" in sources,
                            train="train" in sources)

    users_per_item = n_train_users = None
    if train is not None:
        train_user, _ = factorize(_text(train["user_id"]))
        n_train_users = int(train_user.max()) + 1 if len(train_user) else 0
        pair = sorted_unique(train_user.astype(np.int64) * len(items) + code["train"])
        users_per_item = np.bincount(pair % len(items), minlength=len(items))

    masks, names = None, ()
    if pairs is not None:
        cat_codes, cat_names = factorize(_text(pairs["category"]))
        names = tuple(str(c) for c in cat_names)
        masks = np.zeros((len(items), max(1, -(-len(names) // 64))), np.uint64)
        bits = np.left_shift(np.uint64(1), (cat_codes % 64).astype(np.uint64))
        np.bitwise_or.at(masks, (code["categories"], cat_codes // 64), bits)

    return Coded(users, items, user_codes[0], code["recs"], ranking_score(recs), in_catalogue,
                 user_codes[1] if heldout_user is not None else None, code.get("held"),
                 users_per_item, n_train_users, masks, names, words)


def lists_from(coded: Coded, k: int, wanted: np.ndarray | None = None) -> TopLists:
    """The top ``k`` of the lists of the users marked in ``wanted`` (a bool per user code;
    None: every list), lists in user-code order."""
    rec_user, rec_item, score = coded.rec_user, coded.rec_item, coded.score
    n_codes = len(coded.users)
    if wanted is not None:
        keep = wanted[rec_user]
        if not keep.all():
            rec_user, rec_item, score = rec_user[keep], rec_item[keep], score[keep]
    present = np.zeros(n_codes, bool)
    present[rec_user] = True
    list_of_code = np.cumsum(present) - 1                 # user code -> list number
    row_user = list_of_code[rec_user]
    rows = top_rows(row_user, score, coded.items, rec_item, int(present.sum()), k)
    in_catalogue = coded.in_catalogue
    if coded.catalogue == catalogue_words(given=False, heldout=False, train=False):
        in_catalogue = np.zeros(len(coded.items), bool)
        in_catalogue[rec_item[rows]] = True
    return TopLists(k, coded.users[present], row_user[rows], rec_item[rows], coded.items,
                    in_catalogue, coded.users_per_item, coded.n_train_users,
                    coded.category_masks, coded.categories, np.flatnonzero(present),
                    coded.catalogue)


def top_lists(recommendations, k: int, *, users: Iterable | None = None, train=None,
              catalogue: Iterable | None = None, item_categories=None) -> TopLists:
    """Code the top ``k`` of each list for the beyond-accuracy measures.

    Parameters
    ----------
    recommendations : DataFrame or mapping
        ``user_id, item_id, score[, rank]`` (:func:`as_frame`).
    k : int
        The cut-off.
    users : iterable, optional
        Only these users' lists (those that have one); default every list.
    train : DataFrame, optional
        Training interactions ``user_id, item_id``: popularity and novelty.
    catalogue : iterable, optional
        The items that can be recommended. Default: the items of ``train``; without it, the
        items in the top-``k`` lists (never those below K).
    item_categories : DataFrame or mapping, optional
        ``item_id, category`` rows, or ``{item: [categories]}``: intra-list diversity.

    Examples
    --------
    >>> lists = top_lists({"ann": ["a", "b", "c"], "bob": ["c"]}, 2)
    >>> list(lists.users), lists.items[lists.item].tolist()
    (['ann', 'bob'], ['a', 'b', 'c'])
    """
    wanted_users = None if users is None else _text(users)
    coded = code_inputs(recommendations, heldout_user=wanted_users, train=train,
                        catalogue=catalogue, item_categories=item_categories)
    wanted = None
    if wanted_users is not None:
        wanted = np.zeros(len(coded.users), bool)
        wanted[coded.held_user] = True
    return lists_from(coded, k, wanted)
