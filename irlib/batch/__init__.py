"""The batch engine: whole runs scored at once (:mod:`.engine`, :func:`irlib.evaluate`) and
every measure's curve over K for many rankings at once (:mod:`.curves`).
"""
