"""A hand on the ranking board: mouse drags and finger gestures, for tests and benchmarks.
Imported through tests/browser/helpers.py.

The board sorts with SortableJS (``ui/shared/board/board.js``: its own copy of the card follows the
mouse or the finger, a 150 ms swap animation). These helpers move like a hand
but wait for the board, not for the clock: a drag is held until the card has taken its new
place and nothing animates, so a drop right after lands where the test means.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator, Sequence

from playwright.sync_api import Locator, Page

from tests.browser.waiting import TIMEOUT_MS, animation_frames

#: Index of the card among its list's cards, and whether any card is still in SortableJS's
#: swap animation (Sortable marks it with an ``animated`` property for ``animation`` ms).
CARD_PLACE_JS = """(card) => {
  const cards = [...card.parentElement.querySelectorAll(".rb-card")];
  return {index: cards.indexOf(card), animating: cards.some((c) => c.animated)};
}"""


def hold_card_over(page: Page, source: Locator, target: Locator | tuple[float, float], *,
                   steps: int = 12) -> None:
    """Pick ``source`` up with the mouse and hold it over ``target`` (a locator or a point in
    the viewport), button still down: a drag in progress. Raw ``page.mouse`` events do not
    scroll, so the source is scrolled into view first.

    It returns once the drag has started and, for a target card, once the held card has
    taken the target's place in the list and SortableJS's swap animation is over (so a
    ``page.mouse.up()`` next drops it there); for a point, once nothing animates.
    """
    source.scroll_into_view_if_needed()
    sb = source.bounding_box()
    assert sb, "the card must be visible"
    if isinstance(target, tuple):
        (tx, ty), goal = target, None
    else:
        tb = target.bounding_box()
        assert tb, "the target must be visible"
        tx, ty = tb["x"] + tb["width"] / 2, tb["y"] + tb["height"] / 2
        goal = target.evaluate(CARD_PLACE_JS)["index"]
    handle = source.element_handle()
    sx, sy = sb["x"] + sb["width"] / 2, sb["y"] + sb["height"] / 2
    page.mouse.move(sx, sy)
    page.mouse.down()
    # A few small moves start the drag where the card was grabbed; SortableJS starts it on
    # the next task (its ghost class shows it), and a move before that is not seen.
    for i in range(1, 4):
        page.mouse.move(sx + i * 3, sy + i * 3)
    page.wait_for_function("(c) => c.classList.contains('rb-ghost')", arg=handle, polling="raf")
    for i in range(1, steps + 1):
        page.mouse.move(sx + (tx - sx) * i / steps, sy + (ty - sy) * i / steps)
    _wait_until_placed(page, handle, goal, (tx, ty))


def _wait_until_placed(page: Page, card, goal: int | None, point: tuple[float, float], *,
                       move=None) -> None:
    """Wait until ``card`` sits at index ``goal`` (None: anywhere) with no swap animating.

    SortableJS ignores a drag-over while the card under the pointer is still animating a
    swap, so a hand that stops there would have to move a little again: if the card is not
    in place once nothing animates, nudge the pointer by a pixel and look again.
    """
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    nudge = 1
    while True:
        page.wait_for_function(f"(c) => !({CARD_PLACE_JS})(c).animating", arg=card, polling="raf")
        if goal is None or card.evaluate(CARD_PLACE_JS)["index"] == goal:
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"the held card did not reach index {goal}")
        nudge = -nudge
        (move or page.mouse.move)(point[0] + nudge, point[1])
        animation_frames(page, 1)


def drag_card(page: Page, source: Locator, target: Locator, *, steps: int = 12) -> None:
    """Real mouse drag from the middle of ``source`` to the middle of ``target``."""
    hold_card_over(page, source, target, steps=steps)
    page.mouse.up()


def touch_drag(
    page: Page, source: Locator, target: Locator, *, hold_ms: int = 400, steps: int = 15
) -> None:
    """Finger drag (Chrome DevTools touch events): press, hold, move, lift.

    Needs a context made with ``has_touch=True``. With ``hold_ms=0`` this is a swipe,
    which should scroll. Otherwise the finger rests until the board has picked the card
    up (any other positive ``hold_ms`` is accepted and ignored: the board's touch delay,
    not a time, decides) and lifts once the card has taken the target's place (as
    ``hold_card_over`` waits for it). Both points must be inside the viewport.
    """
    source.scroll_into_view_if_needed()
    sb, tb = source.bounding_box(), target.bounding_box()
    assert sb and tb, "cards must be visible"
    sx, sy = sb["x"] + sb["width"] / 2, sb["y"] + sb["height"] / 2
    tx, ty = tb["x"] + tb["width"] / 2, tb["y"] + tb["height"] / 2
    points = [(sx, sy)] + [(sx + (tx - sx) * i / steps, sy + (ty - sy) * i / steps)
                           for i in range(1, steps + 1)]
    if not hold_ms:
        _swipe(page, points, hold_ms=0, step_ms=25)
        return
    handle, goal = source.element_handle(), target.evaluate(CARD_PLACE_JS)["index"]

    def picked_up() -> None:
        # The finger rests until the board has picked the card up (after its touch delay
        # SortableJS gives it the chosen class), not for a fixed ``hold_ms``.
        page.wait_for_function("(c) => c.classList.contains('rb-chosen')", arg=handle,
                               polling="raf")

    def placed(cdp) -> None:
        _wait_until_placed(page, handle, goal, (tx, ty),
                           move=lambda x, y: _touch(cdp, "touchMove", x, y))

    _swipe(page, points, hold_ms=hold_ms, step_ms=0, after_press=picked_up, before_lift=placed)


class Finger:
    """One finger held on the board (Chrome DevTools touch events), for a test to look at the
    board while a card is held: ``with finger_on(page, card) as finger: finger.over(other)``.
    """

    def __init__(self, page: Page, cdp, card: Locator, x: float, y: float) -> None:
        self.page, self.cdp, self.x, self.y = page, cdp, x, y
        self.handle = card.element_handle()

    def to(self, x: float, y: float, *, steps: int = 12) -> None:
        """Move to ``(x, y)`` (viewport coordinates) in ``steps`` moves, one a frame."""
        x0, y0 = self.x, self.y
        for i in range(1, steps + 1):
            self.x, self.y = x0 + (x - x0) * i / steps, y0 + (y - y0) * i / steps
            _touch(self.cdp, "touchMove", self.x, self.y)
            animation_frames(self.page, 1)

    def over(self, target: Locator, *, steps: int = 12) -> None:
        """Move over the middle of ``target`` and wait until the held card has taken its
        place (as ``hold_card_over`` does for the mouse). A target off the screen is reached
        the way a hand does: the finger stops at the screen's edge, where the board scrolls
        the page, and follows the target until the card is there."""
        goal = target.evaluate(CARD_PLACE_JS)["index"]
        size = self.page.viewport_size
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        while True:
            box = target.bounding_box()
            assert box, "the target must be on the page"
            x = min(max(box["x"] + box["width"] / 2, 1), size["width"] - 1)
            y = min(max(box["y"] + box["height"] / 2, 1), size["height"] - 1)
            self.to(x, y, steps=steps)
            steps = 2
            self.page.wait_for_function(f"(c) => !({CARD_PLACE_JS})(c).animating",
                                        arg=self.handle, polling="raf")
            if self.handle.evaluate(CARD_PLACE_JS)["index"] == goal:
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"the held card did not reach index {goal}")
            animation_frames(self.page, 2)


@contextlib.contextmanager
def finger_on(page: Page, card: Locator) -> Iterator[Finger]:
    """Press ``card`` with one finger and hold it until the board has picked the card up;
    the finger lifts where it is at the end of the block. Needs ``has_touch=True``."""
    card.scroll_into_view_if_needed()
    box = card.bounding_box()
    assert box, "the card must be visible"
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)
    try:
        _touch(cdp, "touchStart", x, y)
        finger = Finger(page, cdp, card, x, y)
        page.wait_for_function("(c) => c.classList.contains('rb-chosen')", arg=finger.handle,
                               polling="raf")
        yield finger
        _touch(cdp, "touchEnd")
    finally:
        cdp.detach()


def swipe(page: Page, points: Sequence[tuple[float, float]], *, hold_ms: int = 0, step_ms: int = 25) -> None:
    """One finger along ``points`` (viewport coordinates) via CDP touch events.

    ``hold_ms`` and ``step_ms`` are the gesture's own pace, not waits for the app: a
    finger held still for ``hold_ms`` before it moves (the board starts a touch drag only
    after its touch delay), then moving every ``step_ms`` (SortableJS's touch fallback
    follows the finger on each move and on a 50 ms timer). It lifts right after its last move.
    """
    _swipe(page, points, hold_ms=hold_ms, step_ms=step_ms)


def _touch(cdp, kind: str, x: float | None = None, y: float | None = None) -> None:
    points = [] if x is None else [{"x": x, "y": y, "id": 1}]
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def _swipe(page: Page, points, *, hold_ms: int, step_ms: int, after_press=None,
           before_lift=None) -> None:
    cdp = page.context.new_cdp_session(page)
    try:
        (x0, y0), rest = points[0], points[1:]
        _touch(cdp, "touchStart", x0, y0)
        if after_press:
            after_press()
        elif hold_ms:
            page.wait_for_timeout(hold_ms)       # the finger rests: part of the gesture
        for x, y in rest:
            _touch(cdp, "touchMove", x, y)
            if step_ms:
                page.wait_for_timeout(step_ms)   # the finger's speed: part of the gesture
        if before_lift:
            before_lift(cdp)
        _touch(cdp, "touchEnd")
    finally:
        cdp.detach()


