"""Helpers for the lesson "Why libraries disagree": one graded ranking, eight libraries.

The numbers come from :mod:`irlib.measures.conventions` (each library's conventions as irlib switches);
this module keeps the board's state and arranges tables and formulas.
"""
from __future__ import annotations

import functools
from collections.abc import Sequence

import pandas as pd

import irlib
from irlib.measures import conventions as cv
from ui.shared.numbers import fmt
from ui.shared import page_state as ps
from ui.shared.boards import BoardState
from ui.shared.catalog import load_catalog

PREFIX = "libraries_"
QUERY = "white-cat-in-a-box"
SHORT = {"trec_eval": "trec_eval", "ranx": "ranx", "sklearn": "scikit-learn",
         "torchmetrics": "torchmetrics", "apk": "Kaggle apk", "spark": "Spark",
         "recommenders": "Recommenders", "recbole": "RecBole"}
DEFAULTS = {"k_ap": 2, "k_ndcg": 8, "rel": 1, "missed": 0, "missed_grade": 4, "tie": 1}


def key(name: str) -> str:
    return PREFIX + name


@functools.cache
def page_state() -> ps.PageState:
    """The board, both K, the threshold, the missed documents, the tied pair and the open tab."""
    catalog = load_catalog()
    ids, query, n = list(catalog.items), catalog.queries[QUERY], len(catalog.items)
    ranges = {"k_ap": (1, n), "k_ndcg": (1, n), "rel": (1, 4), "missed": (0, 5),
              "missed_grade": (0, 4), "tie": (1, n - 1)}
    return ps.PageState(PREFIX, [
        ps.Field("order", tuple(query.order), ps.ordering(ids)),
        ps.Field("grades", dict(query.grades), ps.judgments(ids, 4)),
        *(ps.Field(name, DEFAULTS[name], ps.whole_number(*ranges[name])) for name in DEFAULTS),
        ps.Field("details", SHORT[next(iter(cv.CONVENTIONS))],
                 ps.one_of(tuple(SHORT[k] for k in cv.CONVENTIONS)), "library"),
    ])


def init() -> None:
    page_state().start()


def board() -> BoardState:
    return BoardState(page_state())


def reset() -> None:
    board().reset()


def on_board_change(change: dict) -> None:
    board().save(change)


def current() -> tuple[list[str], dict[str, int], list[int]]:
    return board().ranked()


def judged_pool(grades: Sequence[int], missed: int, missed_grade: int) -> list[int]:
    """The query's judged grades: the shown list plus ``missed`` never-retrieved documents."""
    return list(grades) + [int(missed_grade)] * int(missed)


def value_text(x: float | None, digits: int = 4) -> str:
    return "—" if x is None else fmt(x, digits)


def scores_table(grades, judged, k_ap: int, k_ndcg: int, rel: int) -> pd.DataFrame:
    """The numbers (rows) of every library (columns, short names): AP@K, the second AP some
    libraries have (Recommenders' ``map``, Spark's ``meanAveragePrecision``), HitRate@K and
    NDCG@K with each gain the library offers (the grade, 2^g − 1, 1 per relevant item).
    Metrics as rows keep eight libraries beside the board on a laptop's screen."""
    second = " / ".join(dict.fromkeys(name for c in cv.CONVENTIONS.values()
                                      for name, _, _ in c.other_ap))
    labels = {"AP": f"AP@{k_ap}", "other": f"AP@{k_ap} via {second}",
              "HitRate": f"HitRate@{k_ap}", "linear": f"NDCG@{k_ndcg} (gain = grade)",
              "exponential": f"NDCG@{k_ndcg} (gain = 2^grade − 1)",
              "binary": f"NDCG@{k_ndcg} (gain = 1 if relevant)"}
    columns = {}
    for lib, conv in cv.CONVENTIONS.items():
        at_k = cv.score_under(lib, grades, k_ap, judged=judged, rel=rel)
        other = [cv.score_under(lib, grades, k_ap, judged=judged, rel=rel,
                                denominator=denominator)["AP"]
                 for _, _, denominator in conv.other_ap]
        column = {"AP": value_text(at_k["AP"]),
                  "other": value_text(other[0] if other else None),
                  "HitRate": value_text(at_k["HitRate"])}
        for gain in ("linear", "exponential", "binary"):
            column[gain] = value_text(cv.score_under(lib, grades, k_ndcg, judged=judged,
                                                     rel=rel, gain=gain)["NDCG"])
        columns[SHORT[lib]] = [column[key] for key in labels]
    return pd.DataFrame(columns, index=pd.Index(list(labels.values()), name="Measure"))


def conventions_matrix() -> pd.DataFrame:
    """The six conventions (rows) in a few words for every library (columns, short names)."""
    table = cv.conventions_table(short=True)
    table.columns = [SHORT[k] for k in cv.CONVENTIONS]
    table.index.name = None
    return table


def library_details(library: str) -> pd.DataFrame:
    """One library's record in full: how it is called, the six conventions, version, sources."""
    conv = cv.CONVENTIONS[library]
    calls = (conv.ap_call, *(call for _, call, _ in conv.other_ap), conv.hit_call, conv.ndcg_call)
    rows = [("Called as", "; ".join(c for c in calls if c))]
    rows += [(label, getattr(conv, field)) for label, field in cv.ROWS]
    rows += [("Version", conv.version),
             ("Sources", "; ".join(f"{what} ({where})" for what, where in conv.sources))]
    return pd.DataFrame(rows, columns=["", conv.name]).set_index("")


def ap_parts(grades, judged, k: int, rel: int) -> dict:
    """The shared numerator and the three denominators of AP@K (irlib's explanation)."""
    steps = irlib.explain("AP", grades, k, judged=judged, rel=rel).details
    r = steps["n_relevant"]
    return {"numerator": steps["numerator"], "terms": steps["terms"], "R": r,
            "min_r_k": min(r, k), "found": len(steps["terms"])}


def ap_latex(parts: dict, k: int) -> list[tuple[str, str, float, str]]:
    """(who, denominator in words, value, LaTeX) for each AP@K denominator, today's numbers."""
    num = fmt(parts["numerator"], 3)
    out = []
    for who, name, den_tex, den in (
            ("trec_eval, pytrec_eval, ir_measures, ranx; Recommenders' map",
             "R, all relevant", str(parts["R"]), parts["R"]),
            ("Kaggle apk; Spark's MAP@K, Recommenders' map_at_k, RecBole", "min(R, K)",
             rf"\min({parts['R']}, {k})", parts["min_r_k"]),
            ("torchmetrics; scikit-learn given the top K", "relevant found in the top K",
             str(parts["found"]), parts["found"])):
        value = parts["numerator"] / den if den else 0.0
        out.append((who, name, value, rf"AP@{k} = \frac{{{num}}}{{{den_tex}}} = {fmt(value, 4)}"))
    return out


def numerator_latex(parts: dict, k: int) -> str:
    terms = [fmt(t, 3) for t in parts["terms"]]
    total = fmt(parts["numerator"], 3)
    steps = " + ".join(terms) + (f" = {total}" if len(terms) > 1 else "") if terms else "0"
    return rf"\text{{numerator}} = \sum_{{k=1}}^{{{k}}} P@k \cdot rel_k = {steps}"


def tie_table(grades, order: Sequence[str], tied_rank: int, k_ap: int, k_ndcg: int,
              rel: int, missed: Sequence[int] = ()) -> pd.DataFrame:
    """Ranks ``tied_rank`` and ``tied_rank + 1`` share a score; each tie rule's result.
    ``missed``: grades of judged documents never returned, as in :func:`judged_pool`."""
    n = len(order)
    scores = [float(n - i) for i in range(n)]
    scores[tied_rank] = scores[tied_rank - 1]
    at_ap = cv.tie_scores(grades, order, scores, k_ap, missed=missed, rel=rel)
    at_ndcg = cv.tie_scores(grades, order, scores, k_ndcg, missed=missed, rel=rel)
    rows = []
    for rule, text in cv.TIE_RULES.items():
        seq = at_ap[rule]["order"]
        pair = ("both get their mean gain" if seq is None else
                " → ".join(seq[tied_rank - 1:tied_rank + 1]))
        rows.append({"Tie rule": text, f"Ranks {tied_rank}, {tied_rank + 1} (doc ids)": pair,
                     f"AP@{k_ap}": value_text(at_ap[rule]["AP"]),
                     f"NDCG@{k_ndcg}": value_text(at_ndcg[rule]["NDCG"])})
    return pd.DataFrame(rows).set_index("Tie rule")
