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


HOME = Lesson("pages/home.py", "Offline evaluation: the map", ":material/explore:",
              "What offline evaluation is and where each metric sits.", "home")

LESSONS = [
    Lesson("pages/playground.py", "1. Rank the cats", ":material/inventory_2:",
           "Drag eight search results, judge them, and watch P, R, F1, RR, AP and NDCG move.",
           "playground"),
    Lesson("pages/mrr_map.py", "2. Many queries: MRR and MAP", ":material/stacks:",
           "Three queries, three boards: how one number summarises a whole test set.", "mrr_map"),
    Lesson("pages/ndcg.py", "3. Graded relevance: NDCG", ":material/equalizer:",
           "CG, DCG, IDCG and NDCG step by step, with linear and exponential gains.", "ndcg"),
    Lesson("pages/choosing.py", "4. Choosing a metric", ":material/rule:",
           "Three rankings, six metrics: the winner depends on the metric and on K.", "choosing"),
    Lesson("pages/libraries.py", "5. Why libraries disagree", ":material/balance:",
           "trec_eval, ranx, scikit-learn, torchmetrics and Kaggle's apk side by side.",
           "libraries"),
    Lesson("pages/beyond.py", "6. Beyond accuracy: latency and cost", ":material/speed:",
           "Accuracy is one axis: find the systems on the cost/quality Pareto frontier.", "beyond"),
    Lesson("pages/upload.py", "7. Your own judgments", ":material/upload_file:",
           "Upload ratings or TREC files, find the weak queries, compare two systems.", "upload"),
]
