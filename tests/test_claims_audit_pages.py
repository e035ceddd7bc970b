"""The course-wide claims audit (issue 42, item 6): every evaluative sentence or mark a page
shows, in random states, against the result it must come from, recomputed here from irlib's
plain functions (not from the page's helpers).

Each page is one :class:`PageAudit`: ``state(rng)`` draws a random state (session state to
set, or what ``visit(state)`` needs to open the page), ``expect(state)`` recomputes the claims
that state must show, and ``shown(at)`` reads them off the page run by AppTest; ``text(at)``,
for pages that compare without a test, must hold no word of a win. ``pure(state)``, optional,
returns the same claims from the page's own helpers without Streamlit, so hundreds of states
run in a second. Adding a page is a few lines: write those functions and append a
``PageAudit`` to ``AUDITS``. Audited: Lesson 4 (choosing), Lesson 6 (beyond, helper level),
Lesson 9's search side (upload: the systems table's marks against irlib's own comparison of
three generated runs), Lesson 7's split and sampled traps (each column's ★ and the box's
first and last against irlib.recsys.standings over per-user values recomputed with
irlib.evaluate; their null false-claim rate is in tests/test_lesson7_claims.py).

CI stays fast: ``IRLAB_AUDIT_PAGE_STATES`` AppTest visits per page (default 2) and
``IRLAB_AUDIT_PURE_STATES`` helper-level states (default 300). The upload page's statistical
claims (verdict, headline, CSV, CLI; the false-claim rate under the null within α) are audited
by tests/test_claims_audit.py, and its page-vs-CLI table by tests/test_cli_many.py.
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

import irlib
from tests.apptest import run_page

PAGE_STATES = int(os.environ.get("IRLAB_AUDIT_PAGE_STATES", "2"))
PURE_STATES = int(os.environ.get("IRLAB_AUDIT_PURE_STATES", "300"))
#: Words no untested comparison may use (one query, a typed table).
WIN_WORDS = re.compile(r"\b(wins?|winners?|won|beats?|crowns?|outperforms?|is best|"
                       r"better than|could be chance|is real)\b", re.IGNORECASE)


def _top(values: dict, tolerance: float = 0.0005) -> tuple:
    """Who shares the highest value, restated here (ties within 0.0005 share, all tied: none)."""
    high = max(values.values())
    top = tuple(k for k, v in values.items() if high - v < tolerance)
    return () if len(top) == len(values) else top


@dataclass(frozen=True)
class PageAudit:
    page: str
    state: Callable[[np.random.Generator], dict]
    expect: Callable[[dict], dict]
    shown: Callable[[object], dict]
    pure: Callable[[dict], dict] | None = None
    text: Callable[[object], str] | None = None      # the page's sentences, for WIN_WORDS
    visit: Callable[[dict], object] | None = None    # how to open the page in that state


# --------------------------------------------------------------------------- Lesson 4

CHOOSING_METRICS = {"Success": lambda g, k: irlib.success_at_k(g, k),
                    "RR": lambda g, k: irlib.reciprocal_rank(g, k),
                    "P": lambda g, k: irlib.precision_at_k(g, k),
                    "R": lambda g, k: irlib.recall_at_k(g, k),
                    "F1": lambda g, k: irlib.f1_at_k(g, k),
                    "AP": lambda g, k: irlib.average_precision(g)}


def choosing_state(rng: np.random.Generator) -> dict:
    from ui.lessons import choosing as ch
    grades = {d: int(rng.random() < 0.5) for d in ch.DOCS}
    state = {ch.order_key(n): list(rng.permutation(list(ch.DOCS))) for n in ch.RANKINGS}
    return {**state, ch.GRADES_KEY: grades, ch.K_KEY: int(rng.integers(1, ch.N + 1))}


def choosing_expect(state: dict) -> dict:
    """metric label -> the rankings that must carry ★; "insight": the first sentence's
    leaders of precision and recall at K."""
    from ui.lessons import choosing as ch
    k = state[ch.K_KEY]
    grades = {n: [state[ch.GRADES_KEY][d] for d in state[ch.order_key(n)]]
              for n in ch.RANKINGS}
    out = {}
    for metric, f in CHOOSING_METRICS.items():
        top = _top({n: f(g, k) for n, g in grades.items()})
        out[ch.label(metric, k)] = tuple(f"Ranking {n}" for n in top)
    return out


def choosing_shown(at) -> dict:
    from ui.lessons import choosing as ch
    table = at.table[0].value.to_dict("index")
    return {row: tuple(col for col, cell in cells.items() if cell.startswith(ch.WINNER_MARK))
            for row, cells in table.items() if row != "Relevant at ranks"}


def choosing_pure(state: dict) -> dict:
    from ui.lessons import choosing as ch
    by_ranking = {n: [int(state[ch.GRADES_KEY].get(d, 0)) for d in state[ch.order_key(n)]]
                  for n in ch.RANKINGS}
    scores = ch.score_all(by_ranking, state[ch.K_KEY])
    table = ch.results_table(scores, by_ranking).to_dict("index")
    insight = ch.insight(scores, ch.score_all(by_ranking, 2, ["P"]),
                         ch.score_all(by_ranking, 5, ["P"]), scores.values["AP"])
    assert not WIN_WORDS.search(insight), insight
    shown = {row: tuple(col for col, cell in cells.items() if cell.startswith(ch.WINNER_MARK))
             for row, cells in table.items() if row != "Relevant at ranks"}
    # the insight names precision's leaders (or says all score the same) as the table stars
    leaders = shown[ch.label("P", state[ch.K_KEY])]
    first = insight.split(". ")[0]
    if leaders:
        assert f"**{ch.names([int(n.split()[-1]) for n in leaders])}**" in first, (first, leaders)
    else:
        assert "score the same on" in first, first
    return shown


def choosing_text(at) -> str:
    return " ".join([*(i.value for i in at.info), *(c.value for c in at.caption),
                     *(m.value for m in at.markdown)])


# --------------------------------------------------------------------------- Lesson 6

def beyond_state(rng: np.random.Generator) -> dict:
    from ui.lessons import beyond as by
    n = int(rng.integers(2, 8))
    mrr = np.round(rng.uniform(0.1, 0.5, n), int(rng.choice([2, 3])))
    cost = np.round(rng.choice([50, 100, 200, 400, 800], n) * rng.choice([1, 1, 2], n))
    latency = np.round(rng.uniform(10, 500, n))
    rows = [[f"s{i}", float(mrr[i]), float(latency[i]), float(cost[i])] for i in range(n)]
    return {"rows": rows, "budget": float(rng.choice([0, 100, 300, 1000]))}


def beyond_expect(state: dict) -> dict:
    """name -> its verdict, by the definition: dominated when another within the budget costs
    no more and scores at least as well, strictly better on one; over the budget first."""
    rows, budget = state["rows"], state["budget"]
    within = [r for r in rows if not budget or r[2] <= budget]
    out = {}
    for name, mrr, latency, cost in rows:
        if budget and latency > budget:
            out[name] = "over budget"
            continue
        others = [o for o in within if o[0] != name and o[3] <= cost and o[1] >= mrr
                  and (o[3] < cost or o[1] > mrr)]
        out[name] = "dominated" if others else "frontier"
    return out


def beyond_pure(state: dict) -> dict:
    import pandas as pd

    from ui.lessons import beyond as by
    valid, _, _ = by.clean(pd.DataFrame(state["rows"], columns=list(by.COLUMNS)))
    judged = by.verdicts(valid, state["budget"])
    out = {}
    for _, row in judged.iterrows():
        out[row[by.NAME]] = row["status"]
        if row["status"] == "dominated":          # the named system really dominates it
            other = judged[judged[by.NAME] == row["Verdict"].removeprefix("dominated by ")]
            o = other.iloc[0]
            assert o[by.COST] <= row[by.COST] and o[by.MRR] >= row[by.MRR]
            assert o[by.COST] < row[by.COST] or o[by.MRR] > row[by.MRR]
    return out


# --------------------------------------------------------------------------- Lesson 9

UPLOAD_RUNS = ("bm25", "rerank", "weak")


def upload_state(rng: np.random.Generator) -> dict:
    """Three generated runs (tests/issue33_data.py with a random seed), a test, every pair
    or not."""
    return {"seed": int(rng.integers(0, 10_000)),
            "test": str(rng.choice(["t-test", "randomization"])),
            "pairs": bool(rng.random() < 0.5)}


def _upload_table(state: dict):
    from irlib.cli.many import systems_table
    from irlib.io import read_qrels, read_run
    from tests import issue33_data
    files = issue33_data.files(state["seed"])
    runs = {n: read_run(files[f"run_{n}.txt"], name=n) for n in UPLOAD_RUNS}
    return systems_table(read_qrels(files["qrels.txt"], name="q"), runs, ["nDCG@10", "AP"],
                         test=state["test"], all_pairs=state["pairs"])


def upload_expect(state: dict) -> dict:
    """system -> its cells (mean, ▲/▼, ★, †) as the claims layer says them from irlib's own
    evaluation and comparison of the three runs."""
    from irlib.stats import claims
    result = _upload_table(state)
    cells = {s: tuple(claims.table_cell(result, m, s) for m in result.means.columns)
             for s in result.means.index}
    return {"cells": cells}


def upload_visit(state: dict):
    from tests import issue33_data
    files = issue33_data.files(state["seed"])
    query = {"input": "trec", "measures": "nDCG,AP", "by": "nDCG", "k": "10",
             "test": state["test"]}
    at = run_page("upload", query=query, timeout=120)
    at.session_state["upload_inject"] = [("qrels", "qrels.txt", files["qrels.txt"])] + [
        ("run", f"run_{n}.txt", files[f"run_{n}.txt"]) for n in UPLOAD_RUNS]
    if state["pairs"]:
        at.session_state["upload_pairs"] = True
    at.run()
    assert not at.exception, at.exception
    return at


def upload_shown(at) -> dict:
    (table,) = [d.value for d in at.dataframe if "system" in d.value.columns
                and any(c.startswith("better / tie / worse") for c in d.value.columns)]
    return {"cells": {row["system"]: tuple(row.iloc[1:3]) for _, row in table.iterrows()}}


# --------------------------------------------------------------------------- the audits

# --------------------------------------------------------------------------- Lesson 7

def recommenders_state(rng: np.random.Generator) -> dict:
    """Trap 1 (the split) or 2 (sampled metrics) with a random K, metric, split or N."""
    from ui.lessons import recommenders as rc
    P = rc.PREFIX
    if rng.random() < 0.5:
        return {P + "trap": "split", P + "k": int(rng.integers(2, 21)),
                P + "split": str(rng.choice(["random", "last", "time"])),
                P + "split_metric": str(rng.choice(["hit", "recall", "ndcg", "mrr"]))}
    return {P + "trap": "sampled", P + "k": int(rng.integers(2, 21)),
            P + "negatives": int(rng.choice([5, 20, 50, 100])), P + "seed": 0,
            P + "sampled_metric": str(rng.choice(["hit", "ndcg", "mrr"]))}


def _users_values(state: dict) -> dict:
    """setting -> model -> each test user's value, by irlib.evaluate on the lesson's files."""
    from course.reclab.data import SEED
    from course.reclab.evaluation import NAMES, qrels, run
    from course.reclab.models import MODELS, lesson_ranking
    from course.reclab.sampled import _lesson_orders, candidate_run
    from course.reclab.splits import SPLITS, lesson_split
    from ui.lessons import recommenders as rc
    P, k = rc.PREFIX, state[rc.PREFIX + "k"]
    if state[P + "trap"] == "split":
        name = NAMES[state[P + "split_metric"]].format(k=k)
        return {how: {m: irlib.evaluate(qrels(lesson_split(how).test),
                                        run(lesson_ranking(how, m).top_k(k)), [name],
                                        complete=True).per_query[name] for m in MODELS}
                for how in SPLITS}
    name = NAMES[state[P + "sampled_metric"]].format(k=k)
    s = lesson_split("last")
    orders = _lesson_orders(0, SEED)
    return {setting: {m: irlib.evaluate(qrels(s.test), candidate_run(
                          lesson_ranking("last", m), s, orders, n), [name],
                          complete=True).per_query[name] for m in MODELS}
            for setting, n in (("sampled", state[P + "negatives"]), ("full", None))}


def recommenders_expect(state: dict) -> dict:
    """Each column's ★ (the model the corrected test finds above both others: irlib's
    standings over the per-user values recomputed here) and who the box calls first/last."""
    from irlib.recsys.standings import standings
    from ui.lessons import recommenders as rc
    found = standings(_users_values(state), measure="m")
    names = dict(rc.MODEL_NAMES)
    out = {f"col{i}": tuple(names[m] for m in found.stars(s))
           for i, s in enumerate(found.settings)}
    if state[rc.PREFIX + "trap"] == "split":
        st = found.settings[state[rc.PREFIX + "split"]]
        out["first"] = None if st.winner is None else names[st.winner]
        out["last"] = None if st.last is None else names[st.last]
    return out


def recommenders_shown(at) -> dict:
    table = at.table[0].value
    out = {f"col{i}": tuple(m for m, v in table[c].items() if "★" in v)
           for i, c in enumerate(table.columns)}
    if "◀" in " ".join(table.columns):        # the split trap: its box's first and last
        box = next(i.value for i in at.info if "could not be read" not in i.value)
        box = box.split(" Cut by time")[0]
        first, last = re.search(r"\*\*([^*]+)\*\* is first", box), \
            re.search(r"\*\*([^*]+)\*\* is last", box)
        out["first"], out["last"] = (first and first.group(1)), (last and last.group(1))
    return out


def recommenders_visit(state: dict):
    return run_page("recommenders", session=state, timeout=300)


AUDITS = [
    PageAudit("choosing", choosing_state, choosing_expect, choosing_shown, choosing_pure,
              choosing_text),
    PageAudit("beyond", beyond_state, beyond_expect, shown=lambda at: {}, pure=beyond_pure),
    PageAudit("upload", upload_state, upload_expect, upload_shown, visit=upload_visit),
    PageAudit("recommenders", recommenders_state, recommenders_expect, recommenders_shown,
              visit=recommenders_visit),
]


@pytest.mark.parametrize("audit", [a for a in AUDITS if a.pure], ids=lambda a: a.page)
def test_every_claim_in_random_states_from_the_helpers(audit):
    rng = np.random.default_rng(42)
    for _ in range(PURE_STATES):
        state = audit.state(rng)
        assert audit.pure(state) == audit.expect(state), state


@pytest.mark.parametrize("audit", [a for a in AUDITS if a.text or a.visit],
                         ids=lambda a: a.page)
def test_every_claim_in_random_states_on_the_page(audit):
    rng = np.random.default_rng(7)
    for _ in range(PAGE_STATES):
        state = audit.state(rng)
        at = audit.visit(state) if audit.visit else run_page(audit.page, session=state,
                                                             timeout=60)
        assert audit.shown(at) == audit.expect(state), state
        if audit.text:
            assert not WIN_WORDS.search(audit.text(at)), audit.text(at)


def test_the_audit_can_fail():
    """A star given by the highest value alone (no tie rule) is caught: two rankings whose
    precision ties must share the star."""
    from ui.lessons import choosing as ch
    state = {ch.order_key(1): list("ABCDEF"), ch.order_key(2): list("ABCDEF"),
             ch.order_key(3): list("DEFABC"), ch.GRADES_KEY: dict(ch.LECTURE_GRADES),
             ch.K_KEY: 2}
    expected = choosing_expect(state)
    assert expected["P@2"] == ("Ranking 1", "Ranking 2")
    one_star = {**expected, "P@2": ("Ranking 1",)}
    assert one_star != choosing_pure(state)
