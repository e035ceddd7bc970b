"""The command lines: the trec_eval drop-in (:mod:`.trec_eval`, ``python -m irlib``) and the
recommenders' (:mod:`.recsys`, ``python -m irlib.recsys``).
"""
