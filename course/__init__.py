"""The course the app teaches with irlib: Practice's challenges (:mod:`.challenges`) and
Lesson 8's film service (:mod:`.reclab`). No Streamlit here; every number comes from irlib.
"""
