"""Lesson 1, the playground: its session state and fields, Predict first, the browser's preview of
every next move, and a lecturer's own example (editor, data and files, goal, pictures).
"""
