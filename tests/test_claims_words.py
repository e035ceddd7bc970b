"""No hand-made claims: evaluative words come from irlib's claims layer (issue 42, item 1).

Walks every string literal of ``ui/``, ``course/``, ``pages/`` and ``irlib/cli`` (docstrings
and comments aside: they are not shown) for words that say a system, ranking, split or metric
wins, beats, falls behind, is best (★), ties, is real or could be chance (▲/▼ too), and fails
with the file and line of each. Such a sentence or mark is made by
:mod:`irlib.stats.claims` from a tested result and printed as it comes back.

How a string may still carry one of the words, narrowly and explicitly:

* a string used as a subscript (``row["wins"]``) or as a dict key (``{"tie": f.tie}``) is a
  field's name, not a sentence: skipped (a shown column that says who is best takes its name
  from the claims layer, ``claims.BEST_COLUMN``);
* ``NOT_A_CLAIM``: a (file, a phrase of the literal) pair with why it is no claim (a glossary
  definition, the ideal order's "best grades", a preset's button). A phrase of 12 characters
  or fewer must be the whole literal, a longer one a part of it; an entry that matches nothing
  fails, so the list cannot outlive its strings;
* ``PENDING``: files another engineer is moving to the claims layer (issue 42's recommender
  half, 42b). Temporary, to be emptied by them; each also fails when clean.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("ui", "course", "pages", "irlib/cli")
WORDS = re.compile(
    r"\b(wins?|winners?|winning|won|beats?|beaten|falls? behind|best|ties|tied|tie|"
    r"is real|likely real|could be chance|outperforms?|better than|worse than)\b|[★▲▼]",
    re.IGNORECASE)

#: (file, phrase of the literal): why the word there is no claim about systems.
NOT_A_CLAIM = {
    ("ui/lessons/glossary.py", "looks better than it is"): "why leaving queries out biases a mean",
    ("ui/lessons/glossary.py", "Wins, ties and losses"): "the glossary entry defining the counts",
    ("ui/lessons/glossary.py", "win-tie-loss"): "the glossary entry's key",
    ("ui/lessons/glossary.py", "win/loss"): "the glossary entry's alias",
    ("ui/lessons/glossary.py", "many ties or one extreme query"): "when the t-test misleads",
    ("ui/lessons/glossary.py", "no other beats on cost and quality"): "the Pareto frontier's definition",
    ("ui/lessons/glossary.py", "best grades first"): "the ideal order's definition",
    ("ui/lessons/glossary.py", "The best score any order could reach"): "IDCG's definition",
    ("pages/libraries.py", "how ties are ordered"): "tied document scores in a run",
    ("pages/libraries.py", "3. Tied scores"): "tied document scores in a run",
    ("pages/ndcg.py", "★ Ideal order"): "a preset order's button, not a mark on a system",
    ("pages/playground.py", "★ Ideal"): "a preset order's button, not a mark on a system",
    ("pages/playground.py", "▼ Worst"): "a preset order's button, not a mark on a system",
    ("pages/playground.py", "Best-judged "): "a preset order's button (judged grades first)",
    ("pages/choosing.py", "Which ranking is best?"): "the lesson's question, answered per "
                                                     "metric by the claims layer below it",
    ("pages/upload.py", "says whether a difference could be chance"): "what the page tests",
    ("ui/upload/handoff.py", "Does it beat the baseline?"): "a section's question, answered by "
                                                       "the tested verdict",
    ("ui/upload/scores.py", "it cannot show that test ranks better than control"):
        "says one query cannot support the claim",
    ("ui/upload/compare.py", "ties"): "the count of queries scored alike (compare_systems)",
    ("ui/rooms/kinds.py", "Goes up ▲"): "a quiz answer: a metric's value goes up",
    ("ui/rooms/kinds.py", "Goes down ▼"): "a quiz answer: a metric's value goes down",
    ("ui/rooms/screen.py", "Two screens (best)"): "advice on a projector set-up",
    ("ui/rooms/questions.py", " — a tie."): "a quiz answer: one query's two values are equal",
    ("pages/libraries.py", "Pick two neighbours that tie"): "tied document scores in a run",
    ("ui/upload/compare.py", "orange: worse, grey: tie"): "one query's bar: equal scores",
    ("ui/upload/report.py", "orange: worse, grey: tie"): "one query's bar: equal scores",
    ("ui/upload/figures.py", "%{customdata}<br>tie<extra></extra>"): "one query's bar: equal "
                                                                      "scores",
    ("ui/upload/tables.py", "tie"): "one query's outcome: its two scores are equal",
    ("ui/upload/tables.py", "ties"): "the summary CSV's count of queries scored alike",
    ("pages/libraries.py", "tie"): "the tied pair's widget state",
    ("ui/lessons/libraries.py", "Tie rule"): "the column of tie-breaking rules for document scores",
    ("ui/upload/tables.py", "better / tie / worse on "): "counts of queries, not a claim",
    ("ui/upload/systems.py", " Better / tie / worse: "): "counts of queries, not a claim",
    ("ui/rooms/screen.py", "(Windows: ⊞ Win + P"): "the Windows key",
}

#: Files still moving their sentences to the claims layer, by whom. Temporary: empty it.
PENDING = {
}


def _docstrings(tree: ast.AST) -> set[int]:
    nodes = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return {id(n.body[0].value) for n in ast.walk(tree) if isinstance(n, nodes) and n.body
            and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}


def _keys(tree: ast.AST) -> set[int]:
    keys = {id(n.slice) for n in ast.walk(tree) if isinstance(n, ast.Subscript)}
    return keys | {id(k) for n in ast.walk(tree) if isinstance(n, ast.Dict)
                   for k in n.keys if k is not None}


def hits(path: Path) -> list[tuple[int, str, str]]:
    """(line, word, literal) for every evaluative word in ``path``'s shown string literals."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree) | _keys(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in skip:
            out += [(node.lineno, m.group(0), node.value) for m in WORDS.finditer(node.value)]
    return out


def _files() -> list[Path]:
    return sorted(p for root in SCANNED for p in (ROOT / root).rglob("*.py"))


def _exempt(rel: str, word: str, literal: str, used: set) -> bool:
    for (path, phrase), _ in NOT_A_CLAIM.items():
        whole = phrase == literal or (len(phrase) > 12 and phrase in literal)
        if path == rel and whole and word.lower() in phrase.lower():
            used.add((path, phrase))
            return True
    return False


def test_no_hand_made_claims_outside_the_claims_layer():
    found, used = [], set()
    for path in _files():
        rel = path.relative_to(ROOT).as_posix()
        if rel in PENDING:
            continue
        for line, word, literal in hits(path):
            if not _exempt(rel, word, literal, used):
                i = literal.lower().find(word.lower())
                found.append(f"{rel}:{line}: {word!r} in "
                             f"{literal[max(0, i - 40):i + 40]!r}")
    assert not found, ("evaluative words made by hand; call irlib.stats.claims instead:\n"
                       + "\n".join(found))
    stale = set(NOT_A_CLAIM) - used
    assert not stale, f"NOT_A_CLAIM entries that match no string any more: {sorted(stale)}"


def test_pending_files_still_need_their_entry():
    """A pending file that is clean must leave the list (and every listed file exists)."""
    clean = [rel for rel in PENDING if (ROOT / rel).exists() and not hits(ROOT / rel)]
    missing = [rel for rel in PENDING if not (ROOT / rel).exists()]
    assert not clean, f"clean now, remove from PENDING: {clean}"
    assert not missing, f"PENDING names files that do not exist: {missing}"


def test_the_lint_finds_a_hand_made_claim(tmp_path):
    """The walker is not blind: a hand-made win in a literal is found, a docstring and a
    subscript key are not."""
    sample = tmp_path / "page.py"
    sample.write_text('"""Who wins? (a docstring)"""\nx = row["wins"]\n'
                      'st.info(f"{name} wins on AP ★")\n', encoding="utf-8")
    assert [(line, word) for line, word, _ in hits(sample)] == [(3, "wins"), (3, "★")]
