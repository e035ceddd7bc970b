"""Components every page shares: the ranking board and the live charts, the page's state in its link, the
course's navigation, charts, formula, layout and print styles, the cats' and films' catalogues.
"""
