"""irlib's version, in one place: pyproject.toml reads it (``[tool.setuptools.dynamic]``)."""
__version__ = "0.1.0"
