"""Every measure, declared once: each family's one-ranking functions (:mod:`.ap`,
:mod:`.binary`, :mod:`.bpref`, :mod:`.counts`, :mod:`.dcg`, :mod:`.infap`,
:mod:`.interpolated`, :mod:`.rank`), their kernels for whole runs and for curves, their
explanations (:mod:`.explain`), and the registry that names them (:mod:`.registry`, read by
the parser, the CLI and the app); trec_eval's vocabulary (:mod:`.trec_names`) and other
libraries' conventions (:mod:`.conventions`).
"""
