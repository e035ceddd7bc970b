"""Practice: the lesson, its link's codecs and its layout.
"""
