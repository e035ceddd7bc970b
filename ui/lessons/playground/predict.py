"""Predict, then see: the playground's mode where a change waits for the learner's guess.

With "Predict first" on, a drag or a judgment is *staged*: the board shows it, but the tiles
and curves keep the numbers of the board before it (and the live preview is off, it would
give the answer away). The learner picks a metric and says up, down or same; then the change
is applied, the page says right or wrong with the before → after numbers (irlib's, the same
as the tiles), and a running score (right / asked) is kept in the session and the address bar
(``predict=on&score=3-4``); the panel offers the same link without the score, to hand out.

The playground calls four hooks: :func:`fields` (its page state), :func:`stage` (its board's
``on_change``), :func:`shown` (what its board draws) and :func:`panel` (the questions).
"""
from __future__ import annotations

import re
from urllib.parse import urlencode

import streamlit as st

import irlib
from ui.shared.numbers import fmt
from ui.shared import page_state as ps
from ui.shared.texts import SCORES

#: The metrics a learner can predict, named as the tiles name them ...
METRICS = SCORES          # labels from irlib's registry (ui/shared/texts.py)
#: ... and short, on the buttons (one row with the answers on a laptop).
SHORT = {**METRICS, "P": "P", "R": "R"}
DIRECTIONS = {"up": ("Up", ":material/trending_up:"), "down": ("Down", ":material/trending_down:"),
              "same": ("Same", ":material/trending_flat:")}
_STAGED, _LAST = "predict_staged", "predict_last"


def score_codec() -> ps.Codec:
    """The running score as ``right-asked``.

    >>> c = score_codec()
    >>> c.parse("3-4"), c.encode((3, 4))
    ([3, 4], '3-4')
    """
    def parse(text: str) -> list[int]:
        match = re.fullmatch(r"([0-9]{1,5})-([0-9]{1,5})", text)
        if not match or int(match[1]) > int(match[2]):
            raise ValueError(text)
        return [int(match[1]), int(match[2])]
    return ps.Codec(parse, lambda score: f"{int(score[0])}-{int(score[1])}",
                    "right-asked, e.g. 3-4")


def fields() -> list[ps.Field]:
    """The mode's part of the playground's state: the switch, the score, the metric asked."""
    return [ps.Field("predict", False, ps.switch(on="on", off="off")),
            ps.Field("score", [0, 0], score_codec()),
            ps.Field("guess", "nDCG", ps.one_of(tuple(METRICS)))]


def _key(state: ps.PageState, name: str) -> str:
    return state.prefix + name


def _committed(state: ps.PageState) -> dict:
    grades = state["labels"] if state["mode"] == "binary" else state["grades"]
    return {"mode": state["mode"], "order": list(state["order"]), "grades": dict(grades)}


def stage(state: ps.PageState, change: dict) -> bool:
    """The board's change, held back when predicting (True); False: apply it as usual."""
    if not state.get("predict"):
        return False
    base = st.session_state.get(_key(state, _STAGED), {}).get("base") or _committed(state)
    st.session_state[_key(state, _STAGED)] = {
        "base": base, "order": list(change["order"]),
        "grades": {i: int(g) for i, g in change["grades"].items()}}
    st.session_state.pop(_key(state, _LAST), None)
    return True


def staged(state: ps.PageState) -> dict | None:
    """The change waiting for a prediction, if any (dropped once it no longer fits)."""
    change = st.session_state.get(_key(state, _STAGED))
    if change and (not state["predict"] or change["base"] != _committed(state)):
        st.session_state.pop(_key(state, _STAGED))     # mode switched, a button moved the board
        return None
    return change


def shown(state: ps.PageState, judgments: dict) -> tuple[list[str], dict]:
    """The order and judgments the board draws: the staged change, else the board's own."""
    change = staged(state)
    if change:
        return change["order"], change["grades"]
    return list(state["order"]), judgments


def _values(state: ps.PageState, order, grades, metric: str) -> float:
    """The tile's number (irlib.metric_curves, as the tiles use it) for one board."""
    rel = state["rel"] if state["mode"] == "graded" else 1
    curves = irlib.metric_curves([grades[i] for i in order], rel=rel, gain=state["gain"])
    return float(curves[metric][int(state["k"]) - 1])


def reveal(state: ps.PageState, guess: str) -> None:
    """Callback of Up / Down / Same: score the guess, then apply the staged change."""
    change = staged(state)
    if not change:
        return
    metric = state["guess"]
    before = _values(state, state["order"], change["base"]["grades"], metric)
    after = _values(state, change["order"], change["grades"], metric)
    truth = "up" if after > before + 1e-12 else "down" if after < before - 1e-12 else "same"
    right, asked = state["score"]
    state.set("score", [right + (guess == truth), asked + 1])
    state.set("order", list(change["order"]))
    state.set("labels" if state["mode"] == "binary" else "grades", dict(change["grades"]))
    st.session_state.pop(_key(state, _STAGED))
    st.session_state[_key(state, _LAST)] = {
        "right": guess == truth, "guess": guess, "truth": truth,
        "name": f"{METRICS[metric]}@{state['k']}", "before": before, "after": after}


def cancel(state: ps.PageState) -> None:
    st.session_state.pop(_key(state, _STAGED), None)


def exercise_link(state: ps.PageState) -> str:
    """A relative link (``?predict=on&order=…``) to this board with Predict first on and a
    fresh score: what a lecturer hands out. The address bar carries the score too, so that a
    reload keeps one's own.

    >>> from urllib.parse import parse_qs
    >>> s = ps.PageState("ex_", fields())
    >>> "score" in parse_qs(exercise_link(s)[1:]), parse_qs(exercise_link(s)[1:])["predict"]
    (False, ['off'])
    """
    query = {name: value for name, value in state.query().items() if name != "score"}
    return "?" + urlencode(query)


def outcome_text(last: dict) -> str:
    """``Right: NDCG@2 went up, 0.39 → 0.61.`` (or what was said and what happened).

    >>> outcome_text({"right": False, "guess": "down", "truth": "same", "name": "P@2",
    ...               "before": 0.5, "after": 0.5})
    'Not this time: you said down, but P@2 stayed the same, 0.5 → 0.5.'
    """
    went = "stayed the same" if last["truth"] == "same" else f"went {last['truth']}"
    numbers = f"{fmt(last['before'])} → {fmt(last['after'])}"
    if last["right"]:
        return f"Right: {last['name']} {went}, {numbers}."
    return f"Not this time: you said {last['guess']}, but {last['name']} {went}, {numbers}."


#: The panel hugs its content: on a 1366x768 screen the board, the panel, the tiles, the charts
#: and the lines under them share one screen while a change waits and after the answer.
_PANEL_CSS = """<style>
.st-key-{key} {{ padding: 0.4rem 0.75rem; }}
.st-key-{key}:has([data-testid="stAlert"]) {{ padding: 0; border: none; }}
.st-key-{key} [data-testid="stAlert"] > div {{ padding: 0.3rem 0.75rem; }}
.st-key-{key} [data-testid="stMarkdownContainer"] p {{ margin: 0; }}
.st-key-{key} [data-testid="stMarkdownContainer"] {{ margin-bottom: 0; }}
.st-key-{guess} [role=radiogroup] {{ flex-wrap: wrap; }}
</style>"""
#: The presenter view on a projector: the question the class answers, as big as the tiles'
#: labels (a laptop's shorter screen keeps the size that fits it).
_PRESENT_PANEL_CSS = """<style>
@media (min-height: 901px) {{ .st-key-{key} p {{ font-size: 1.2rem; }} }}
</style>"""


def panel(state: ps.PageState) -> None:
    """The questions while a change is staged, else the last outcome; the score either way.

    One row in the presenter view, two short ones beside the sidebar: what to do (and the
    score), then the metric and the three answers. The numbers under the board stay in view.
    """
    right, asked = state["score"]
    score = (f"Score: **{right} right of {asked}**"
             + (f" ({round(100 * right / asked)} %)." if asked else "."))
    share = f"[Link without my score]({exercise_link(state)})"
    change = staged(state)
    last = st.session_state.get(_key(state, _LAST))
    # a phone wraps the six metrics instead of scrolling them out of sight
    st.html((_PANEL_CSS + (_PRESENT_PANEL_CSS if state.get("present") else ""))
            .format(key=_key(state, "predict_panel"), guess=_key(state, "guess")))
    with st.container(border=True, key=_key(state, "predict_panel"), gap="small"):
        if change is None:
            if last:              # one line: the outcome, the score, what next
                (st.success if last["right"] else st.error)(
                    f"{outcome_text(last)} {score.replace('**', '')} Make the next change. "
                    f"· {share}",
                    icon=":material/check:" if last["right"] else ":material/close:")
            else:
                st.markdown("**Predict first:** make one change — drag a card or click a "
                            f"badge; the numbers wait for your prediction. · {score} · {share}")
            return
        k = int(state["k"])             # not read inside format_func: it runs outside the script
        question = (f"**Your change is on the board:** up, down or same? · "
                    f"{score.removeprefix('Score: ')}")
        why = ("The numbers still show the board before your change. Pick a metric: will it "
               "go up, down or stay the same?")
        if not state.get("present"):      # beside the sidebar the row has no room for it
            st.markdown(question, help=why)
        with st.container(horizontal=True, gap="small", vertical_alignment="center"):
            if state.get("present"):
                st.markdown(question, help=why, width="content")
            st.segmented_control("Metric", list(METRICS), **state.bind("guess"), required=True,
                                 format_func=lambda m: f"{SHORT[m]}@{k}",
                                 label_visibility="collapsed")
            for direction, (text, icon) in DIRECTIONS.items():
                st.button(text, icon=icon, key=_key(state, f"guess_{direction}"),
                          on_click=reveal, args=(state, direction))
            st.button("Undo the change", key=_key(state, "guess_cancel"), on_click=cancel,
                      args=(state,), type="tertiary")
