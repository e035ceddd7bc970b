"""The course: every page with its title and one-line promise. app.py and the home page read it."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Lesson:
    path: str
    title: str
    icon: str
    promise: str
    url_path: str


HOME = Lesson("pages/home.py", "Offline evaluation: the map", "🧭",
              "What offline evaluation is and where each metric sits.", "home")

LESSONS = [
    Lesson("pages/playground.py", "1. Rank the cats: P, R, F1, RR, AP, NDCG", "📦",
           "Drag eight search results, judge them, and watch every metric move.", "playground"),
]
