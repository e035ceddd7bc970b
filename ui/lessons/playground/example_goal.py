"""A Practice-style goal on a lecturer's own example: "get NDCG@3 above 0.8 in one move".

The lecturer sets it in the "Own example" popover; the playground then shows the goal and
irlib's verdict on the board as it is (:mod:`course.challenges`: the same conditions and
sentences as the Practice lesson), and the link carries it (``goal=nDCG.3.0.8.1``). The start
is the example's own order and judgments; the goal counts drags from there (the fewest that make
the board, :func:`course.challenges.moves_between`) and asks that the judgments stay as given.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import streamlit as st

import irlib
from course.challenges import Board, Condition, Result, Spec, build, moves_between, regrades_between
from irlib.measures.registry import MEASURES
from ui.shared.numbers import fmt
from ui.shared import page_state as ps
from ui.shared.texts import SCORES, md_escape

#: The measures a goal may name: the playground's 0..1 scores.
GOAL_METRICS = tuple(SCORES)


@dataclass(frozen=True)
class Goal:
    """``metric``@``k`` above ``bound`` in at most ``moves`` drags, judgments as given."""
    metric: str
    k: int
    bound: float
    moves: int

    @property
    def name(self) -> str:
        return MEASURES[self.metric].label_at(self.k)

    @property
    def task(self) -> str:
        drags = "one move" if self.moves == 1 else f"at most {self.moves} moves"
        return f"Get {self.name} above {fmt(self.bound)} in {drags}."


def codec(n_items: int) -> ps.Codec:
    """A goal in a link: ``nDCG.3.0.8.1`` (metric, K, bound, moves); ``""``: none.

    >>> c = codec(6)
    >>> c.parse("nDCG.3.0.8.1"), c.encode(Goal("nDCG", 3, 0.8, 1)), c.parse("")
    (Goal(metric='nDCG', k=3, bound=0.8, moves=1), 'nDCG.3.0.8.1', None)
    """
    def parse(text: str) -> Goal | None:
        if not text:
            return None
        match = re.fullmatch(r"(\w+)\.(\d{1,2})\.(0\.\d{1,3}|1|0)\.([1-3])", text)
        if not match or match[1] not in GOAL_METRICS or not 1 <= int(match[2]) <= n_items:
            raise ValueError(text)
        return Goal(match[1], int(match[2]), float(match[3]), int(match[4]))
    return ps.Codec(parse, lambda g: "" if g is None else
                    f"{g.metric}.{g.k}.{fmt(g.bound, 3)}.{g.moves}",
                    "metric.K.bound.moves, e.g. nDCG.3.0.8.1")


def check(goal: Goal, start: Board, board: Board, *, rel: int, gain: str) -> Result:
    """irlib's verdict on ``board`` (Practice's sentences: solved or not, with the numbers)."""
    def rule(boards, starts):
        (b,), (s,) = boards, starts
        value = irlib.metric_curves(b.ranked(), rel=rel, gain=gain)[goal.metric][goal.k - 1]
        return [Condition.compare(goal.name, float(value), ">", goal.bound),
                Condition.moves(moves_between(s, b), goal.moves),
                Condition.kept("the judgments", regrades_between(s, b), "judgment")]
    spec = Spec("own-goal", 1, "Your goal", goal.task, "", ("own",), rule, (), "", goal.k)
    (challenge,) = build({"own": start}, [spec])
    return challenge.check([board])


def best_in_one_move(goal: Goal, start: Board, *, rel: int, gain: str) -> float:
    """The highest value one drag from the start can reach (irlib scores every drag at once):
    tells the lecturer whether a one-move goal can be met."""
    near = irlib.one_move_neighbours(start.ranked(), levels=())
    curves = irlib.metric_curves_batch(near.grades, rel=rel, gain=gain, measures=[goal.metric])
    return float(curves[goal.metric][:, goal.k - 1].max())


def show(goal: Goal, start: Board, board: Board, *, rel: int, gain: str) -> None:
    """The goal and its verdict, one line above the numbers."""
    result = check(goal, start, board, rel=rel, gain=gain)
    # a caption, not an alert box: the tiles and curves stay on a laptop's screen
    line = f"**Goal:** {md_escape(goal.task)} {md_escape(result.why)}"
    st.caption(f":green[:material/check_circle: {line}]" if result.solved
               else f":material/flag: {line}")


def editor(n_items: int, current: Goal | None, start: Board, *, rel: int, gain: str,
           on_set) -> None:
    """The popover's "goal for the class" row: metric, K, bound, moves; set or clear."""
    st.markdown("**A goal for the class** (as in Practice), checked by irlib on the board:")
    key = "pg_goal_"
    goal = current or Goal("nDCG", min(3, n_items), 0.8, 1)
    with st.container(horizontal=True, gap="small", vertical_alignment="bottom"):
        metric = st.selectbox("Measure", GOAL_METRICS, GOAL_METRICS.index(goal.metric),
                              format_func=SCORES.get, key=key + "metric", width=130)
        k = st.number_input("K", 1, n_items, min(goal.k, n_items), key=key + "k", width=90)
        bound = st.number_input("above", 0.0, 0.99, goal.bound, 0.05, format="%.2f",
                                key=key + "bound", width=110)
        moves = st.number_input("moves", 1, 3, goal.moves, key=key + "moves", width=90)
    wanted = Goal(metric, int(k), round(float(bound), 3), int(moves))
    if wanted.moves == 1:
        best = best_in_one_move(wanted, start, rel=rel, gain=gain)
        st.caption(f"The highest one move can reach from your order: {wanted.name} = "
                   f"{fmt(best)}" + ("." if best > wanted.bound else
                                           " — this goal cannot be met in one move."))
    with st.container(horizontal=True, gap="small"):
        st.button("Set the goal", key=key + "set", on_click=on_set, args=(wanted,))
        if current is not None:
            st.button("No goal", key=key + "clear", on_click=on_set, args=(None,))
