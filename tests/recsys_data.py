"""The tests' recommender data: the shop of the samples (assets/samples/shop.py), generated
the same way, no number in it written by a test."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "assets" / "samples"))

from shop import GENRES, Shop, make_shop, write_shop  # noqa: E402,F401
