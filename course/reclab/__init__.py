"""A recommender lab in miniature, for the lesson "Recommenders: the same metrics, new traps".

* :mod:`~course.reclab.data` — the built-in data set: 60 users, 200 films, 100 days of views,
  generated from a seed;
* :mod:`~course.reclab.splits` — random, leave-last-out and temporal splits, and how much of
  the future each leaks;
* :mod:`~course.reclab.models` — most popular, trending and matrix factorisation (ALS);
* :mod:`~course.reclab.evaluation` — top-K lists scored by :func:`irlib.evaluate`;
* :mod:`~course.reclab.sampled` — sampled metrics (N random negatives per held-out film);
* :mod:`~course.reclab.lesson` — the numbers of each trap, cached for the page.

No Streamlit here; the metric math stays in :func:`irlib.evaluate`.
"""
