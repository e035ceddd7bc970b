"""The lesson's built-in data set: a small film service, generated from a seed (no downloads).

Sixty users watch films over 100 days. What makes it a recommender's data set and not noise:

* **popularity skew**: each film has an appeal drawn from a Zipf law, so a few films take a
  large share of the views (the long tail);
* **taste**: each user likes one or two of the eight genres much more than the others, so
  knowing what a user watched helps (a personalised model has something to learn);
* **time**: 80 % of the films are released during the 100 days and are watched mostly in
  their first weeks, so *when* a view happens matters (a split that ignores time leaks the
  future). Users join and leave at different days and watch 6 to 80 films.

Everything comes from one ``numpy.random.default_rng(seed)``: the same seed gives the same
films, users and views on every machine.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd

#: The lesson's seed. Tests assert the traps' findings for it (the sampled-metric flip...).
SEED = 10
N_USERS = 60
DAYS = 100
GENRES = ("Drama", "Comedy", "Sci-fi", "Thriller", "Animation", "Documentary", "Romance",
          "Horror")

#: Each genre's titles: "The <word> <word>", 5 x 5 = 25 films per genre, 200 in all.
_TITLE_WORDS = {
    "Drama": (("Quiet", "Long", "Borrowed", "Broken", "Last"),
              ("Summer", "Letter", "Harbour", "Promise", "Winter")),
    "Comedy": (("Lucky", "Awkward", "Accidental", "Wrong", "Big"),
               ("Wedding", "Weekend", "Roommate", "Holiday", "Uncle")),
    "Sci-fi": (("Distant", "Silent", "Red", "Hollow", "Final"),
               ("Orbit", "Signal", "Colony", "Horizon", "Machine")),
    "Thriller": (("Midnight", "Cold", "Hidden", "Second", "Glass"),
                 ("Witness", "Alibi", "Ledger", "Stranger", "Corridor")),
    "Animation": (("Little", "Brave", "Paper", "Sleepy", "Flying"),
                  ("Fox", "Dragon", "Lantern", "Robot", "Island")),
    "Documentary": (("Secret", "Deep", "Wild", "Vanishing", "Frozen"),
                    ("Forests", "Oceans", "Cities", "Bees", "Rivers")),
    "Romance": (("Autumn", "Sweet", "Late", "Lost", "Golden"),
                ("Kiss", "Letters", "Dance", "Chance", "Serenade")),
    "Horror": (("Crooked", "Pale", "Drowned", "Hungry", "Ninth"),
               ("House", "Doll", "Well", "Choir", "Attic")),
}
N_ITEMS = sum(len(a) * len(b) for a, b in _TITLE_WORDS.values())

_NAMES = (
    "Ada", "Ben", "Chloe", "Dev", "Elif", "Finn", "Grace", "Hugo", "Iris", "Jonah", "Kira",
    "Leo", "Maya", "Nico", "Olga", "Pablo", "Quinn", "Rosa", "Sami", "Tess", "Umar", "Vera",
    "Wren", "Xavi", "Yara", "Zane", "Amir", "Bea", "Cyrus", "Dana", "Emil", "Fay", "Gus",
    "Hana", "Ivo", "June", "Kofi", "Lena", "Milo", "Nora", "Otto", "Pia", "Rafa", "Sara",
    "Theo", "Uma", "Vik", "Willa", "Yusuf", "Zoe", "Anya", "Bruno", "Cleo", "Dario", "Esme",
    "Felix", "Gia", "Hiro", "Ines", "Jude")

# How the views are drawn (see ``generate``): tuned once so that the traps show on this data.
_ZIPF = 1.0              # appeal of the film at popularity rank r: 1 / r
_TASTE_ALPHA = 0.3       # Dirichlet concentration of a user's genre taste: small = one or two
_TASTE_FLOOR = 0.05      # even a disliked genre gets watched now and then
_TASTE_POWER = 1.5       # how strongly taste weighs against appeal
_NEW_SHARE = 0.8         # films released during the 100 days (the rest: the back catalogue)
_FRESH_BOOST = 60.0      # a new release is this many times more attractive on its first day
_FRESH_DAYS = 10.0       # ... and the boost decays with this time constant (days)


@dataclass(frozen=True)
class Dataset:
    """Films, users and views. Ids are text (``f001``, ``u01``), as irlib compares them."""
    items: pd.DataFrame          # item_id, title, genre, release_day (< 0: before day 0)
    users: pd.DataFrame          # user_id, name
    interactions: pd.DataFrame   # user_id, item_id, day (a float; by user, then day)
    seed: int

    @functools.cached_property
    def titles(self) -> dict[str, str]:
        """item_id -> title."""
        return dict(zip(self.items["item_id"], self.items["title"]))

    @functools.cached_property
    def names(self) -> dict[str, str]:
        """user_id -> name."""
        return dict(zip(self.users["user_id"], self.users["name"]))


def _titles() -> list[tuple[str, str]]:
    """(title, genre) for every film, genre by genre."""
    return [(f"The {a} {b}", genre) for genre, (firsts, seconds) in _TITLE_WORDS.items()
            for a in firsts for b in seconds]


def item_id(i: int) -> str:
    return f"f{i + 1:03d}"


def user_id(u: int) -> str:
    return f"u{u + 1:02d}"


def generate(seed: int = SEED) -> Dataset:
    """The data set for ``seed`` (cached: the lesson asks for it on every run)."""
    return _generate(int(seed))


@functools.lru_cache(maxsize=4)
def _generate(seed: int) -> Dataset:
    rng = np.random.default_rng(seed)
    titles = _titles()
    n_genres = len(GENRES)
    genre = np.array([GENRES.index(g) for _, g in titles])
    appeal = 1.0 / (rng.permutation(N_ITEMS) + 1.0) ** _ZIPF
    new = rng.random(N_ITEMS) < _NEW_SHARE
    release = np.where(new, rng.uniform(0, DAYS, N_ITEMS), -30.0)
    taste = rng.dirichlet(np.full(n_genres, _TASTE_ALPHA), N_USERS)
    activity = np.clip(np.round(rng.lognormal(np.log(25), 0.6, N_USERS)), 6, 80).astype(int)

    users, items, days = [], [], []
    for u in range(N_USERS):
        start = rng.uniform(0, 60)
        end = rng.uniform(start + 25, DAYS)
        when = np.sort(rng.uniform(start, end, activity[u]))
        liking = appeal * (_TASTE_FLOOR + taste[u][genre]) ** _TASTE_POWER
        seen = np.zeros(N_ITEMS, bool)
        for t in when:
            fresh = 1 + _FRESH_BOOST * np.exp(-np.maximum(t - release, 0) / _FRESH_DAYS)
            weight = np.where((release <= t) & ~seen, liking * fresh, 0.0)
            if not weight.any():          # watched every film out so far: no view now
                continue
            i = int(rng.choice(N_ITEMS, p=weight / weight.sum()))
            seen[i] = True
            users.append(u)
            items.append(i)
            days.append(t)

    item_table = pd.DataFrame({
        "item_id": [item_id(i) for i in range(N_ITEMS)],
        "title": [t for t, _ in titles],
        "genre": [GENRES[g] for g in genre],
        "release_day": release})
    user_table = pd.DataFrame({"user_id": [user_id(u) for u in range(N_USERS)],
                               "name": list(_NAMES[:N_USERS])})
    views = pd.DataFrame({"user_id": [user_id(u) for u in users],
                          "item_id": [item_id(i) for i in items],
                          "day": np.asarray(days)})
    return Dataset(item_table, user_table, views, seed)
