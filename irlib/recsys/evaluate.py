"""Evaluate recommendation lists against held-out interactions, in a recommender's words.

The held-out interactions are the judgments (users are queries, items documents) and the
lists are the run; :func:`irlib.evaluate` computes the accuracy with trec_eval's
conventions, so every number here agrees with trec_eval and ranx. The rules, stated once:

* **Relevant**: every held-out item (``relevant_from=None``), or those rated
  ``>= relevant_from`` (a 1-star rating is a dislike, not a hit).
* **Gain** (NDCG): ``"binary"`` (default, as ranx, RecBole and Microsoft Recommenders
  count a hit): each relevant item gains 1. ``"graded"``: ``rating - relevant_from + 1``, so
  with ``relevant_from=4`` a 4 gains 1 and a 5 gains 2. Never ``2^rating - 1`` (a 5 would
  be worth 31 4-star items' 1).
* **Users evaluated**: every held-out user with at least one relevant item. One without a
  list scores 0 on every accuracy measure and counts in the means (``trec_eval -c``): a
  system cannot look better by leaving hard users out. Users with lists but no held-out
  items, and held-out users with no relevant item, are left out; all three are counted in
  :attr:`RecommenderEvaluation.users`.
* **Lists**: ordered by ``rank`` when given, else by ``score`` (ties: item id descending,
  as trec_eval); only the first K count. Precision@K divides by K even for a shorter list.
* **MAP@K** is trec_eval's ``map_cut_K`` (and ranx's ``map@k``): the precisions at the
  relevant items in the top K, summed and divided by *all* the user's relevant held-out
  items, not by ``min(K, R)``; **MRR@K** is the reciprocal rank of the first hit in the top K.

:func:`self_judged_problem` is the check for the other way in: a results table that carries
its own relevance column and no held-out set (see there).
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa

from .._common import InputError, check_k
from ..batch.engine import Evaluation, evaluate
from ..measures.registry import parse_measure
from . import beyond
from .lists import as_frame, code_inputs, lists_from, ranking_score, sorted_unique
from .relevance import (_EXAMPLES, ACCURACY, GAINS, AccuracyInfo, UserAccounting,  # noqa: F401
                        _check_frame, _examples, _text, relevance_grades)
from .roles import check_roles
from .seen import SeenItems, count_seen, seen_in_training
from .self_judged import SELF_JUDGED_MEASURES, self_judged_problem  # noqa: F401

__all__ = ["ACCURACY", "AccuracyInfo", "RecommenderEvaluation", "UserAccounting", "check_ids_meet",
           "evaluate_recommendations", "self_judged_problem", "SELF_JUDGED_MEASURES"]


@dataclass(frozen=True)
class RecommenderEvaluation:
    """What :func:`evaluate_recommendations` found."""
    k: int
    per_user: pd.DataFrame         # one row per evaluated user, worst first (see `by`)
    accuracy: pd.Series            # label ("NDCG@10") -> mean over the evaluated users
    beyond: dict                   # name -> irlib.recsys.beyond.BeyondValue
    relevance: str                 # the rule, in words
    users: UserAccounting
    by: str                        # the column per_user is sorted by
    evaluation: Evaluation         # irlib.evaluate's result (trec_eval's names)
    notes: tuple[str, ...] = ()
    catalogue: tuple[int, str] = (0, "")   # coverage's and Gini's denominator: size, what
    seen: SeenItems | None = None  # top-K items the users had in training (needs train)

    @property
    def catalogue_sentence(self) -> str:
        """'Catalogue: 500 items (the training and held-out items).'"""
        size, what = self.catalogue
        return f"Catalogue for coverage and Gini: {size:,} items ({what})."

    @property
    def overall(self) -> pd.Series:
        """Accuracy and beyond-accuracy in one line: label -> value."""
        values = {v.label: v.value for v in self.beyond.values()}
        return pd.concat([self.accuracy, pd.Series(values, dtype=float)])


def _never_match(what: str, recs: pd.Series, held: pd.Series) -> InputError:
    return InputError(
        f"no {what} of the recommendations is in the held-out interactions: the ids never "
        f"match. Recommendations' {what}s look like {_examples(pd.unique(recs))}; held-out "
        f"{what}s look like {_examples(pd.unique(held))}. Check that both files use the same "
        f"ids and that the right column is read as the {what}.")


def check_ids_meet(recommendations: pd.DataFrame, heldout: pd.DataFrame) -> None:
    """Raise :class:`~irlib.InputError` when the two files share no user, or no item, or
    look given the wrong way round (:func:`~irlib.recsys.roles.check_roles`).

    Such files cannot be scored (every user would score 0, or every list would miss); the
    usual cause is a wrong column read as the user or the item, or files from two data sets.
    :func:`evaluate_recommendations` checks this too; call it to refuse a file before that.

    >>> recs = pd.DataFrame({"user_id": ["u1"], "item_id": ["i1"]})
    >>> check_ids_meet(recs, pd.DataFrame({"user_id": ["u1"], "item_id": ["i9"]}))
    Traceback (most recent call last):
    ...
    irlib._common.InputError: no item of the recommendations is in the held-out interactions: \
the ids never match. Recommendations' items look like 'i1'; held-out items look like 'i9'. \
Check that both files use the same ids and that the right column is read as the item.
    """
    _check_frame(recommendations, ("user_id", "item_id"), "recommendations")
    _check_frame(heldout, ("user_id", "item_id"), "heldout")
    check_roles(recommendations, heldout)
    for what in ("user", "item"):
        recs = _text(recommendations[f"{what}_id"])
        held = _text(heldout[f"{what}_id"])
        if not pd.Index(pd.unique(recs)).isin(pd.unique(held)).any():
            raise _never_match(what, recs, held)


def evaluate_recommendations(recommendations, heldout: pd.DataFrame, *, k: int = 10,
                             relevant_from: float | None = None, gain: str = "binary",
                             train: pd.DataFrame | None = None, item_categories=None,
                             catalogue: Iterable | None = None, measures=None,
                             by: str = "NDCG", drop_seen: bool = False) -> RecommenderEvaluation:
    """Score top-K recommendation lists against held-out interactions.

    Parameters
    ----------
    recommendations : DataFrame or mapping
        ``user_id, item_id`` and ``score`` or ``rank`` (:func:`~irlib.recsys.read_recommendations`),
        or ``{user: [items, first recommended first]}``.
    heldout : DataFrame
        The held-out (test) interactions: ``user_id, item_id[, rating]``
        (:func:`~irlib.recsys.read_interactions`).
    k : int, default 10
        The cut-off.
    relevant_from : number, optional
        The lowest rating that counts as relevant; None: every held-out item is.
    gain : {"binary", "graded"}
        NDCG's gain: 1 per relevant item, or ``rating - relevant_from + 1``.
    train : DataFrame, optional
        Training interactions ``user_id, item_id``: popularity and novelty (and the
        catalogue).
    item_categories : DataFrame or mapping, optional
        ``item_id, category`` (:func:`~irlib.recsys.read_item_categories`) or
        ``{item: [categories]}``: intra-list diversity.
    catalogue : iterable, optional
        The items that could be recommended (coverage's and Gini's denominator); default
        the items of ``train`` and ``heldout``: the same for every system scored against
        the same files, never enlarged by a list's items (below K or not). Stated in
        ``catalogue`` and :attr:`RecommenderEvaluation.catalogue_sentence`.
    measures : iterable of str, optional
        Names from :data:`ACCURACY` and :data:`irlib.recsys.BEYOND` (case-insensitive);
        default all accuracy measures and every beyond-accuracy measure the inputs allow.
    by : str, default "NDCG"
        The accuracy measure that orders ``per_user`` (worst user first).
    drop_seen : bool, default False
        Remove from each list the items its user already had in ``train`` before the top K
        is taken (recommender libraries' "remove seen"). Either way ``seen`` counts them.

    Returns
    -------
    RecommenderEvaluation
        ``per_user``: index ``user_id``, one column per measure (``"HitRate@10"``, ...,
        then per-user beyond-accuracy such as ``"Novelty@10"``), ``relevant`` (relevant
        held-out items) and ``recommended`` (items in the top K); sorted by ``by``
        ascending, ties by user id. ``accuracy``: the means. ``beyond``: name ->
        :class:`~irlib.recsys.BeyondValue` (``explain`` writes its formula). ``relevance``:
        the rule in words. ``users``: who was evaluated and who was left out.
        ``evaluation``: irlib's own result. ``notes``: things worth saying.

    Raises
    ------
    InputError
        When the user ids (or the item ids) of the two sides never match (the message shows
        a few of each side's ids), or when the files look given the wrong way round
        (:func:`~irlib.recsys.roles.check_roles`).
    ValueError
        For a parameter that cannot be used (e.g. ``relevant_from`` without ratings).

    Examples
    --------
    Two users, ratings 1-5 held out; only 4 stars and up is a hit:

    >>> heldout = pd.DataFrame({"user_id": ["ann", "ann", "bob"],
    ...                         "item_id": ["boots", "hat", "scarf"], "rating": [5, 1, 4]})
    >>> recs = {"ann": ["hat", "boots"], "bob": ["boots", "hat"]}
    >>> result = evaluate_recommendations(recs, heldout, k=2, relevant_from=4)
    >>> result.per_user[["HitRate@2", "Recall@2", "NDCG@2", "MRR@2"]].round(4)  # worst first
    ... # doctest: +NORMALIZE_WHITESPACE
             HitRate@2  Recall@2  NDCG@2  MRR@2
    user_id
    bob            0.0       0.0  0.0000    0.0
    ann            1.0       1.0  0.6309    0.5
    >>> result.relevance
    'a held-out item rated 4 or more is relevant (gain 1)'
    >>> round(result.beyond["Coverage"].value, 4)    # 2 of the 3 items known
    0.6667
    """
    k = check_k(k)
    recs = as_frame(recommendations)
    _check_frame(heldout, ("user_id", "item_id"), "heldout")
    if len(heldout) == 0:
        raise ValueError("the held-out interactions are empty: there is nothing to evaluate "
                         "against")
    check_roles(recs, heldout)
    seen = None
    if train is not None:
        _check_frame(train, ("user_id", "item_id"), "train")
        seen_rows = seen_in_training(recs, train)
        seen = count_seen(recs, train, k, dropped=drop_seen, seen=seen_rows)
        if drop_seen:
            recs = recs[~seen_rows]
    elif drop_seen:
        raise ValueError("drop_seen needs the training interactions (who had which item "
                         "before the split): pass train=")
    accuracy_names, beyond_names = _split_measures(measures, train is not None,
                                                   item_categories is not None)
    by_name = _accuracy_name(by)

    grade, rule = relevance_grades(heldout, relevant_from, gain)
    relevant = grade > 0
    if not relevant.any():
        raise ValueError(f"no held-out item is relevant under the rule: {rule}; lower "
                         "relevant_from")
    held_user, held_item = _text(heldout["user_id"]), _text(heldout["item_id"])
    rec_user, rec_item = _text(recs["user_id"]), _text(recs["item_id"])
    # irlib.evaluate first: the codes of the run's columns are then remembered for the rest
    qrels = pd.DataFrame({"query_id": held_user[relevant].reset_index(drop=True),
                          "doc_id": held_item[relevant].reset_index(drop=True),
                          "relevance": grade[relevant]})
    run = pd.DataFrame({"query_id": rec_user, "doc_id": rec_item,
                        "score": ranking_score(recs)}, copy=False)
    evaluation = _evaluate(qrels, run, [f"{ACCURACY[n].irlib}@{k}" for n in ACCURACY])
    coded = code_inputs(recs, heldout_user=held_user, heldout_item=held_item, train=train,
                        catalogue=catalogue, item_categories=item_categories)
    n_users = len(coded.users)
    has_held, has_recs = _marks(coded.held_user, n_users), _marks(coded.rec_user, n_users)
    if not (has_held & has_recs).any():
        raise _never_match("user", rec_user, held_user)
    if not np.intersect1d(sorted_unique(coded.held_item), sorted_unique(coded.rec_item)).size:
        raise _never_match("item", rec_item, held_item)

    users = evaluation.per_query.index
    has_relevant = _marks(coded.held_user[relevant], n_users)
    accounting = UserAccounting(
        evaluated=len(users),
        without_recommendations=tuple(evaluation.missing_queries),
        recommendations_only=_sorted_ids(coded.users, has_recs & ~has_held),
        without_relevant=_sorted_ids(coded.users, has_held & ~has_relevant))

    per_user = pd.DataFrame(index=users)
    for name in ACCURACY:
        per_user[f"{name}@{k}"] = evaluation.per_query[str(parse_measure(
            f"{ACCURACY[name].irlib}@{k}"))].to_numpy()
    accuracy = per_user.mean()[[f"{n}@{k}" for n in accuracy_names]]
    per_user = per_user[list(accuracy.index)]
    code_of_user = coded.users.get_indexer(users)          # evaluated user -> user code
    per_user["relevant"] = np.bincount(coded.held_user[relevant],
                                       minlength=n_users)[code_of_user]

    lists = lists_from(coded, k, wanted=has_relevant)
    list_of_user = np.full(n_users, -1)
    list_of_user[lists.user_codes] = np.arange(lists.n_lists)
    list_of_user = list_of_user[code_of_user]              # evaluated user -> list, or -1
    has_list = list_of_user >= 0
    per_user["recommended"] = np.where(has_list, lists.list_length[list_of_user], 0)
    values = beyond.compute(lists, beyond_names)
    for value in values.values():
        if value.per_user is not None:
            per_list = value.per_user.to_numpy()
            per_user[value.label] = np.where(has_list, per_list[list_of_user], np.nan)

    by_label = f"{by_name}@{k}"
    order = _worst_first(evaluation.per_query[str(parse_measure(
        f"{ACCURACY[by_name].irlib}@{k}"))].to_numpy(), users)
    per_user = per_user.iloc[order]
    per_user.index.name = "user_id"
    notes = tuple(_notes(recs, heldout, values, lists, relevant_from, k))
    catalogue_size = (int(np.count_nonzero(coded.in_catalogue)), coded.catalogue)
    return RecommenderEvaluation(k, per_user, accuracy, values, rule, accounting, by_label,
                                 evaluation, notes, catalogue_size, seen)


def _marks(codes: np.ndarray, n: int) -> np.ndarray:
    marks = np.zeros(n, bool)
    marks[codes] = True
    return marks


def _sorted_ids(names: pd.Index, chosen: np.ndarray) -> tuple[str, ...]:
    return tuple(sorted(map(str, names[chosen])))


def _evaluate(qrels: pd.DataFrame, run: pd.DataFrame, measures) -> Evaluation:
    """irlib.evaluate, its messages about repeated rows said in a recommender's words."""
    try:
        return evaluate(qrels, run, measures, complete=True)
    except ValueError as err:
        match = re.match(r"(qrels|run) has duplicate rows (\d+) and (\d+): query (.*), doc (.*) "
                         r"appear more than once", str(err))
        if not match:
            raise
        side, first, later, user, item = match.groups()
        what = "the held-out interactions list" if side == "qrels" else \
            "the recommendations list"
        raise ValueError(f"{what} item {item} twice for user {user} (rows {first} and "
                         f"{later} of the relevant rows); read the files with "
                         "irlib.recsys.read_interactions / read_recommendations, which keep "
                         "one row per pair or say where the repeat is") from None


def _worst_first(values: np.ndarray, ids: pd.Index) -> np.ndarray:
    """Rows by value ascending, ties by id: ``ids`` come sorted as text (irlib.evaluate's
    order), and are put in numeric order when every one is a whole number."""
    try:
        numbers = pa.array(np.asarray(ids.array)).cast(pa.int64()).to_numpy()
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, TypeError, ValueError):
        numbers = np.arange(len(ids))
    return np.lexsort((numbers, values))


def _accuracy_name(text: str) -> str:
    lookup = {n.lower(): n for n in ACCURACY}
    key = str(text).split("@")[0].strip().lower()
    if key not in lookup:
        raise ValueError(f"unknown accuracy measure {text!r}; known: {', '.join(ACCURACY)}")
    return lookup[key]


def _split_measures(measures, has_train: bool, has_categories: bool):
    if measures is None:
        return tuple(ACCURACY), beyond.available(train=has_train, categories=has_categories)
    if isinstance(measures, str):
        measures = [measures]
    accuracy_keys = {n.lower() for n in ACCURACY}
    asked_accuracy, asked_beyond = [], []
    for m in measures:
        key = str(m).split("@")[0].strip().lower()
        (asked_accuracy if key in accuracy_keys else asked_beyond).append(m)
    names = tuple(dict.fromkeys(_accuracy_name(m) for m in asked_accuracy))
    return names, beyond.check_names(asked_beyond, train=has_train, categories=has_categories)


def _notes(recs, heldout, values, lists, relevant_from, k) -> list[str]:
    notes = []
    longest = int(lists.list_length.max()) if lists.n_lists else 0
    if longest and longest < k:
        notes.append(f"The longest list has {longest} item{'s' if longest != 1 else ''}, "
                     f"fewer than K = {k}: "
                     f"Precision@{k} still divides by {k}.")
    coverage = values.get("Coverage")
    if coverage is not None and coverage.terms.get("outside"):
        notes.append(f"{coverage.terms['outside']:,} recommended items are not in the "
                     f"catalogue ({coverage.terms['catalogue_is']}): coverage and Gini count "
                     "only catalogue items.")
    for name in ("Popularity", "Novelty"):
        value = values.get(name)
        if value is not None and value.terms.get("unseen_rows"):
            notes.append(f"{value.terms['unseen_rows']:,} recommendations are items no "
                         "training user had: popularity counts them 0, novelty as had by "
                         "one user.")
            break
    diversity = values.get("ILD")
    if diversity is not None and diversity.terms.get("uncategorised_rows"):
        notes.append(f"{diversity.terms['uncategorised_rows']:,} recommendations are items "
                     "without a category: left out of intra-list diversity.")
    return notes
