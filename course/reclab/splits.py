"""Three ways to hold out test interactions, and how much of the future each one leaks.

* ``random``: a random 20 % of all views (seeded). Training then holds views from after the
  test ones, the user's own included: the model is trained on the future.
* ``last`` (leave-last-out): each user's last view. The user's own future is out, but other
  users' later views are still in training.
* ``time`` (temporal): everything after one cut day is test, everything before is training,
  as when a model trained today is used tomorrow. Nothing leaks.

A test user with no training view is left out of the test set (no model can know them); the
split says how many (:attr:`Split.cold_users`).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd

from course.reclab.data import SEED, Dataset, generate

SPLITS = ("random", "last", "time")
TEST_SHARE = 0.2


@dataclass(frozen=True)
class Split:
    how: str                      # one of SPLITS
    train: pd.DataFrame           # user_id, item_id, day
    test: pd.DataFrame            # user_id, item_id, day (users with training views only)
    cut_day: float | None         # the temporal split's cut; None for the others
    cold_users: tuple[str, ...]   # test users without training views: left out


@dataclass(frozen=True)
class Leak:
    """How much of the future the training data holds, seen from the test interactions."""
    own: float       # share of test views whose user has a training view on a later day
    anyone: float    # share of test views with any training view on a later day
    n_test: int


def split(data: Dataset, how: str, seed: int = SEED) -> Split:
    """Hold out test interactions from ``data``'s views (see the module's docstring)."""
    views = data.interactions
    if how == "random":
        rng = np.random.default_rng(seed)
        n_test = round(TEST_SHARE * len(views))
        is_test = np.zeros(len(views), bool)
        is_test[rng.permutation(len(views))[:n_test]] = True
        cut = None
    elif how == "last":
        is_test = (views["day"] == views.groupby("user_id")["day"].transform("max")).to_numpy()
        cut = None
    elif how == "time":
        cut = float(np.quantile(views["day"], 1 - TEST_SHARE))
        is_test = (views["day"] > cut).to_numpy()
    else:
        raise ValueError(f"unknown split {how!r}: use one of {', '.join(SPLITS)}")
    train = views[~is_test].reset_index(drop=True)
    test = views[is_test]
    warm = test["user_id"].isin(set(train["user_id"]))
    cold = tuple(sorted(set(test.loc[~warm, "user_id"])))
    return Split(how, train, test[warm].reset_index(drop=True), cut, cold)


def lesson_split(how: str, seed: int = SEED) -> Split:
    """The split ``how`` of the lesson's data set (cached)."""
    return _lesson_split(how, seed)


@functools.lru_cache(maxsize=8)
def _lesson_split(how: str, seed: int) -> Split:
    return split(generate(seed), how, seed)


def leak(s: Split) -> Leak:
    """What share of the test views the training data "sees past": a later view by the same
    user, or by anyone."""
    last_own = s.train.groupby("user_id")["day"].max()
    test_day = s.test["day"].to_numpy()
    own = test_day < s.test["user_id"].map(last_own).to_numpy()
    anyone = test_day < s.train["day"].max()
    n = len(s.test)
    return Leak(float(own.mean()) if n else 0.0, float(anyone.mean()) if n else 0.0, n)
