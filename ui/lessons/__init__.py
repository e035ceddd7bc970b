"""Each lesson's own helpers: one module per lesson, a package where a lesson has several parts
(the playground, Practice, the recommenders' traps).
"""
