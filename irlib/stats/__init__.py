"""Comparisons and statistics: two systems (:mod:`.compare`, the paired randomization test
:mod:`.randomization`), many systems (:mod:`.compare_many`), the sentences that say them
(:mod:`.verdict`) and accuracy against a second axis (:mod:`.pareto`).
"""
