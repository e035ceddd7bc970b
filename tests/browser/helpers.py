"""Start Streamlit apps, drive Chromium, wait for reruns, find the ranking board.

One module for every browser test (and for ad-hoc scripts such as screenshot or
timing runs): ``python -c "from tests.browser.helpers import ..."`` works from
the repo root.

How waiting works (adapted from streamlit/streamlit e2e_playwright/conftest.py):
Streamlit publishes its status on the root element::

    <div data-testid="stApp" data-test-connection-state="CONNECTED"
         data-test-script-state="notRunning">

``data-test-script-state`` goes initial -> running -> notRunning on each rerun,
but a short run can end before React ever draws "running", so the attribute
alone cannot tell a rerun that has not started yet from one that finished.
``open_app`` therefore adds ``NET_SPY`` to every page: it reads the top-level
field of each websocket message (BackMsg ``rerun_script``/``file_urls_request``
sent; ForwardMsg ``new_session``/``script_finished`` received) and counts runs.
``wait_for_app_run`` waits until every run the page asked for has started,
ended and been drawn (two animation frames after its end); no fixed sleeps.
Where a test must show that nothing *else* happens, ``assert_stays`` waits for
that and a few more frames, then checks again.

The ranking board is a Components v2 component with ``isolate_styles=True``:
it renders in the main document (no iframe) inside an open shadow root under
``[data-testid="stBidiComponentIsolated"]``. Playwright CSS locators pierce
open shadow roots, so ``page.locator(".rb-card")`` just works.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, Locator, Page, Playwright, expect

REPO_ROOT = Path(__file__).resolve().parents[2]
APPS_DIR = Path(__file__).resolve().parent / "apps"
CHROMIUM = os.environ.get("IRLAB_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-dev-shm-usage",
)
TIMEOUT_MS = 25_000
#: Added to every page opened by ``open_app``: follows the app's script runs from its
#: websocket messages (see the module's docstring). ``window.__stNet``:
#: ``asked`` / ``started``: sequence numbers of the last rerun request sent and of the last
#: run start received; ``running``: a run started and has not ended (a run stopped early
#: for a rerun has not ended: another run follows); ``runs``: runs ended; ``drawn``: runs
#: ended whose end the page has drawn (two animation frames later); ``endedStart``: the
#: sequence number of the last ended run's start. ``lastSend``/``lastRecv``: times.
NET_SPY = """(() => {
  const net = (window.__stNet = { lastSend: 0, lastRecv: 0, seq: 0, asked: 0, started: 0,
                                  running: false, runs: 0, drawn: 0, endedStart: 0, runStart: 0 });
  // The top-level fields of a protobuf message: [field number, varint value or null].
  const fields = (data) => {
    const b = data instanceof ArrayBuffer ? new Uint8Array(data)
      : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : null;
    if (!b) return [];
    let i = 0;
    const varint = () => { let x = 0, m = 1, c; do { c = b[i++]; x += (c & 127) * m; m *= 128; } while (c & 128 && i < b.length); return x; };
    const out = [];
    while (i < b.length) {
      const tag = varint(), wire = tag & 7;
      if (wire === 0) { out.push([tag >>> 3, varint()]); continue; }
      out.push([tag >>> 3, null]);
      if (wire === 2) { const n = varint(); i += n; } else if (wire === 1) i += 8; else if (wire === 5) i += 4; else break;
    }
    return out;
  };
  const RERUN_SCRIPT = 11, FILE_URLS_REQUEST = 16;            // BackMsg
  const NEW_SESSION = 4, SCRIPT_FINISHED = 6, EARLY_FOR_RERUN = 2;   // ForwardMsg
  const Orig = window.WebSocket;
  const send = Orig.prototype.send;
  Orig.prototype.send = function (d) {
    net.lastSend = performance.now();
    if (fields(d).some(([f]) => f === RERUN_SCRIPT || f === FILE_URLS_REQUEST)) net.asked = ++net.seq;
    return send.call(this, d);
  };
  const received = (data) => {
    net.lastRecv = performance.now();
    for (const [f, value] of fields(data)) {
      if (f === NEW_SESSION) { net.started = ++net.seq; net.running = true; net.runStart = net.started; }
      if (f === SCRIPT_FINISHED && value !== EARLY_FOR_RERUN) {
        net.running = false;
        net.endedStart = net.runStart;
        const ended = ++net.runs;
        // Streamlit hands the message on in a microtask and React draws it in a task of
        // its own: two frames after the next task, the run's output is on the page.
        setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(() => {
          net.drawn = Math.max(net.drawn, ended);
        })), 0);
      }
    }
  };
  window.WebSocket = class extends Orig {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => received(e.data));
    }
  };
})();"""
NET_SETTLED = """() => {
  const n = window.__stNet;
  if (!n) return true;
  const now = performance.now();
  return (n.lastRecv >= n.lastSend || now - n.lastSend > 5000) && now - n.lastRecv > 50;
}"""
#: True once every run the page asked for has started, ended and been drawn.
APP_IDLE = """() => {
  const n = window.__stNet;
  return !n || (n.started > n.asked && !n.running && n.drawn === n.runs);
}"""
#: No longer used (``wait_for_app_run`` waits for the run itself); kept for importers.
INITIAL_WAIT_MS = 210


# --------------------------------------------------------------------------- server


def free_port() -> int:
    """An unused TCP port on 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class RunningApp:
    """A started ``streamlit run``; ``url`` is its base address."""

    url: str
    port: int
    process: subprocess.Popen
    log_path: Path

    def log(self) -> str:
        """Everything the server printed so far (stdout and stderr)."""
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""


def _healthy(port: int, path: str = "/_stcore/health") -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=1) as r:
            return r.read().decode().strip() == "ok"
    except OSError:
        return False


@contextlib.contextmanager
def streamlit_app(
    app: str | Path,
    *,
    theme: str | None = None,
    extra_args: Sequence[str] = (),
    timeout_s: float = 60.0,
    root: Path = REPO_ROOT,
) -> Iterator[RunningApp]:
    """Run ``streamlit run <app>`` on a free port until the block ends.

    ``app`` is a path (absolute, or relative to ``root``, or a file name in
    tests/browser/apps/). cwd and PYTHONPATH are ``root``: the repo, or another checkout of
    it (benchmarks/ab_interaction.py). ``theme`` ("light"/"dark") sets ``--theme.base``.
    """
    root = Path(root).resolve()
    path = Path(app)
    if not path.is_absolute():
        path = root / path if (root / path).exists() else APPS_DIR / path
    if not path.exists():
        raise FileNotFoundError(path)
    port = free_port()
    args = [
        sys.executable, "-m", "streamlit", "run", str(path),
        "--server.headless", "true",
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
        "--server.runOnSave", "false",
        "--global.developmentMode", "false",
    ]
    if theme:
        args += ["--theme.base", theme]
    args += list(extra_args)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))}
    with serve(args, port, cwd=root, env=env, timeout_s=timeout_s) as running:
        yield running


@contextlib.contextmanager
def serve(argv: Sequence[str], port: int, *, cwd: Path, env: dict, timeout_s: float = 60.0,
          health_path: str = "/_stcore/health") -> Iterator[RunningApp]:
    """Run ``argv`` until the block ends, once ``http://127.0.0.1:<port><health_path>`` says ok.

    The output goes to a log file (``RunningApp.log()``); the process is terminated (then
    killed) at the end.
    """
    log = tempfile.NamedTemporaryFile("w+", prefix="server-", suffix=".log", delete=False)
    proc = subprocess.Popen(list(argv), cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, text=True)
    running = RunningApp(url=f"http://127.0.0.1:{port}", port=port, process=proc, log_path=Path(log.name))
    try:
        deadline = time.monotonic() + timeout_s
        while not _healthy(port, health_path):
            if proc.poll() is not None:
                raise RuntimeError(f"{argv[0]} exited with {proc.returncode}:\n{running.log()}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"{argv[0]} did not become healthy in {timeout_s}s:\n{running.log()}")
            time.sleep(0.2)
        yield running
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log.close()
        with contextlib.suppress(OSError):
            os.unlink(log.name)


def readme_run_command(readme: Path = REPO_ROOT / "README.md") -> list[str]:
    """The README's own command to start the app (``streamlit run app.py``), as argv.

    It is the ``streamlit ...`` part of the first code block under "## Run the app".
    """
    text = readme.read_text(encoding="utf-8").split("## Run the app", 1)[1]
    block = text.split("```", 2)[1]
    for part in block.replace("\n", "&&").split("&&"):
        words = part.split()
        if words and words[0] == "streamlit":
            return words
    raise ValueError("README.md: no `streamlit ...` command under '## Run the app'")


@contextlib.contextmanager
def readme_app(timeout_s: float = 60.0, extra_args: Sequence[str] = ()) -> Iterator[RunningApp]:
    """The app started *exactly* as the README says, from the repo root, with no flags.

    Only where it listens comes from the environment (a free port on 127.0.0.1: other
    servers may run on this machine); every other ``STREAMLIT_*`` variable is removed and
    HOME is an empty folder, so no user-wide ~/.streamlit/config.toml or environment can
    supply what the project's own ``.streamlit/config.toml`` must. ``extra_args`` exists
    for tests that show the check can fail.
    """
    port = free_port()
    home = tempfile.mkdtemp(prefix="irlab-home-")
    env = {k: v for k, v in os.environ.items() if not k.startswith("STREAMLIT_")}
    env.update(HOME=home, STREAMLIT_SERVER_PORT=str(port), STREAMLIT_SERVER_ADDRESS="127.0.0.1")
    env.pop("DISPLAY", None)            # headless, as on a server
    argv = readme_run_command()
    argv[0] = str(Path(sys.executable).with_name(argv[0]))   # this interpreter's `streamlit`
    try:
        with serve([*argv, *extra_args], port, cwd=REPO_ROOT, env=env, timeout_s=timeout_s) as running:
            yield running
    finally:
        shutil.rmtree(home, ignore_errors=True)


# --------------------------------------------------------------------------- browser


def chromium_available() -> bool:
    return Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)


def launch_browser(playwright: Playwright, **kwargs) -> Browser:
    """Headless Debian Chromium with the flags that keep it quiet and offline."""
    return playwright.chromium.launch(
        executable_path=CHROMIUM, headless=True, args=list(CHROMIUM_ARGS), **kwargs
    )


def open_app(
    browser: Browser,
    url: str,
    *,
    width: int = 1280,
    height: int = 800,
    color_scheme: str = "light",
    query: str = "",
    **context_kwargs,
) -> Page:
    """New context + page at ``url`` (plus ``?query``), waited until the first run ends.

    Close it with ``page.context.close()``. Pass ``is_mobile=True, has_touch=True``
    (and a ``device_scale_factor``) for a phone.
    """
    context = browser.new_context(
        viewport={"width": width, "height": height}, color_scheme=color_scheme, **context_kwargs
    )
    context.add_init_script(NET_SPY)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(url + (("?" + query.lstrip("?")) if query else ""))
    wait_for_app_loaded(page)
    return page


def wait_for_app_loaded(page: Page) -> None:
    page.wait_for_selector("[data-testid='stAppViewContainer']", state="attached", timeout=30_000)
    wait_for_app_run(page, initial_wait_ms=0)


def wait_for_app_run(page: Page, initial_wait_ms: int = INITIAL_WAIT_MS, settle_ms: int = 0) -> None:
    """Block until Streamlit has finished re-running the script and the page shows it.

    Call it after any interaction that reruns the app and before asserting. It waits
    until every run the page has asked for (``NET_SPY``'s counters) has started,
    ended and been drawn, then for ``data-test-script-state="notRunning"`` and for
    loading skeletons to disappear. Clicks, key presses and the board's own changes
    ask for their run before Playwright's call returns; for an action that asks
    later (a slider's keys are debounced, a file upload first uploads the file) use
    ``with expect_app_run(page): ...``. On a page without ``NET_SPY`` (not opened
    with ``open_app``) only the DOM is checked.

    ``initial_wait_ms`` and ``settle_ms`` are accepted for older callers and ignored:
    this waits for the run itself instead of for a fixed time.
    """
    page.wait_for_function(APP_IDLE, timeout=TIMEOUT_MS, polling="raf")
    page.locator("[data-testid='stApp'][data-test-connection-state='CONNECTED']").wait_for(
        state="attached", timeout=TIMEOUT_MS
    )
    page.locator("[data-testid='stApp'][data-test-script-state='notRunning']").wait_for(
        state="attached", timeout=TIMEOUT_MS
    )
    expect(page.get_by_test_id("stSkeleton")).to_have_count(0, timeout=TIMEOUT_MS)


def app_runs(page: Page) -> int:
    """How many script runs of this page have ended so far (``NET_SPY``)."""
    return page.evaluate("() => window.__stNet.runs")


@contextlib.contextmanager
def expect_app_run(page: Page, timeout_ms: int = TIMEOUT_MS) -> Iterator[None]:
    """Wait, at the end of the block, for a run that started inside it to end and be drawn.

    For actions that ask for their rerun some time after Playwright's call returns::

        with expect_app_run(page):
            uploader.set_input_files(path)
    """
    mark = page.evaluate("() => window.__stNet.seq")
    yield
    page.wait_for_function("(mark) => window.__stNet.endedStart > mark", arg=mark,
                           timeout=timeout_ms, polling="raf")
    wait_for_app_run(page)


def animation_frames(page: Page, frames: int = 2) -> None:
    """Return after the page has drawn ``frames`` more animation frames."""
    page.evaluate("""(n) => new Promise((done) => {
        const step = (k) => (k ? requestAnimationFrame(() => step(k - 1)) : done());
        step(n);
    })""", frames)


def wait_for_app_idle(page: Page, frames: int = 3) -> None:
    """The app's runs have ended and been drawn, and ``frames`` more animation frames
    passed without the page asking for another run (if it did, that run is waited for too).

    Those frames give the page time to react to what the run drew — a component that
    sends a second change, a chart that redraws — before a test says nothing else happens.
    """
    asked = "() => window.__stNet ? window.__stNet.asked : 0"
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    wait_for_app_run(page)
    while True:
        before = page.evaluate(asked)
        animation_frames(page, frames)
        wait_for_app_run(page)
        if page.evaluate(asked) == before:
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"the page kept asking for reruns for {TIMEOUT_MS} ms")


def assert_stays(page: Page, fn, expected, message: str = "", *, frames: int = 3) -> None:
    """Assert that ``fn()`` equals ``expected`` and still does once nothing more happens.

    For tests that show that something does *not* happen (a second rerun, a jump back,
    a swipe that must not reorder). What it waits for: every run the page asked for
    has ended and been drawn, then ``frames`` animation frames with no new request
    (``wait_for_app_idle``); ``fn()`` is compared before and after.
    """
    __tracebackhide__ = True
    wait_for_app_run(page)
    first = fn()
    assert first == expected, message or f"{first!r} != {expected!r}"
    wait_for_app_idle(page, frames)
    last = fn()
    assert last == expected, message or f"{last!r} != {expected!r} after the page settled"


ASSETS_LOADED = """() => {
  const images = [];
  const collect = (root) => {
    images.push(...root.querySelectorAll("img"));
    for (const el of root.querySelectorAll("*")) if (el.shadowRoot) collect(el.shadowRoot);
  };
  collect(document);
  return document.readyState === "complete" && document.fonts.status === "loaded"
    && images.every((img) => img.complete);
}"""


def wait_for_assets(page: Page) -> None:
    """The document has loaded, its fonts too, and every picture (also inside open shadow
    roots) has loaded or failed: what a screenshot or a request log needs."""
    page.wait_for_function(ASSETS_LOADED, timeout=TIMEOUT_MS, polling="raf")


def script_state(page: Page) -> str | None:
    return page.get_attribute("[data-testid='stApp']", "data-test-script-state")


def text_line(page: Page, prefix: str) -> str:
    """The ``st.text`` line that starts with ``prefix`` (e.g. "order="), without it."""
    loc = page.get_by_test_id("stText").filter(has_text=prefix).first
    return loc.inner_text().strip()[len(prefix):]


# --------------------------------------------------------------------------- board


def board(page: Page, index: int = 0) -> Locator:
    """The nth ranking board's root (inside its shadow DOM)."""
    return page.locator(".rb-root").nth(index)


def board_card(page: Page, *, rank: int | None = None, item_id: str | None = None, index: int = 0) -> Locator:
    """A card by rank (1-based) or by item id."""
    root = board(page, index)
    if item_id is not None:
        return root.locator(f'.rb-card[data-item-id="{item_id}"]')
    if rank is None:
        raise ValueError("give rank or item_id")
    return root.locator(f'.rb-card[data-rank="{rank}"]')


def board_order(page: Page, index: int = 0) -> list[str]:
    """Item ids in the order the board currently shows them."""
    return board(page, index).locator(".rb-card").evaluate_all("cs => cs.map(c => c.dataset.itemId)")


def board_announcement(page: Page, index: int = 0) -> str:
    """Text of the board's aria-live region."""
    return (board(page, index).locator("[aria-live]").text_content() or "").strip()


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

    Needs a context made with ``has_touch=True``. ``hold_ms`` must exceed the
    board's touch delay; with ``hold_ms=0`` this is a swipe, which should scroll.
    Both points must be inside the viewport. With a hold, the finger lifts once the
    card has taken the target's place (as ``hold_card_over`` waits for it).
    """
    source.scroll_into_view_if_needed()
    sb, tb = source.bounding_box(), target.bounding_box()
    assert sb and tb, "cards must be visible"
    sx, sy = sb["x"] + sb["width"] / 2, sb["y"] + sb["height"] / 2
    tx, ty = tb["x"] + tb["width"] / 2, tb["y"] + tb["height"] / 2
    points = [(sx, sy)] + [(sx + (tx - sx) * i / steps, sy + (ty - sy) * i / steps)
                           for i in range(1, steps + 1)]
    before_lift = None
    if hold_ms:
        handle, goal = source.element_handle(), target.evaluate(CARD_PLACE_JS)["index"]
        before_lift = lambda cdp: _wait_until_placed(   # noqa: E731
            page, handle, goal, (tx, ty), move=lambda x, y: _touch(cdp, "touchMove", x, y))
    _swipe(page, points, hold_ms=hold_ms, step_ms=25, before_lift=before_lift)


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


def _swipe(page: Page, points, *, hold_ms: int, step_ms: int, before_lift=None) -> None:
    cdp = page.context.new_cdp_session(page)
    try:
        (x0, y0), rest = points[0], points[1:]
        _touch(cdp, "touchStart", x0, y0)
        if hold_ms:
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


def main_scroll_top(page: Page) -> float:
    """Scroll offset of Streamlit's main scroll container."""
    return page.evaluate("() => (document.querySelector('[data-testid=stMain]') || document.scrollingElement).scrollTop")


#: Resolves at the page's next change: a DOM change in the document or in any open shadow
#: root, a message from the server, or at the latest after ``ms`` (a scroll or a computed
#: style changes no DOM).
NEXT_CHANGE_JS = """(ms) => new Promise((done) => {
  const obs = new MutationObserver(() => finish());
  const watch = (root) => {
    obs.observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
    for (const el of root.querySelectorAll("*")) if (el.shadowRoot) watch(el.shadowRoot);
  };
  watch(document);
  const net = window.__stNet, recv = net ? net.lastRecv : 0;
  const poll = setInterval(() => { if (net && net.lastRecv !== recv) finish(); }, 10);
  const timer = setTimeout(() => finish(), ms);
  function finish() { obs.disconnect(); clearInterval(poll); clearTimeout(timer); done(); }
})"""


def wait_until(page: Page, fn, timeout_ms: int = 10_000, interval_ms: int = 100) -> None:
    """Retry ``fn`` until it returns truthy (or None without raising AssertionError).

    Use it for assertions on what the page shows after a change that may come later.
    ``fn`` is tried again at each change of the page (``NEXT_CHANGE_JS``), and at the
    latest every ``interval_ms``.
    """
    __tracebackhide__ = True
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        try:
            result = fn()
            if result is None or result:
                return
            error: AssertionError | None = AssertionError(f"condition still false after {timeout_ms} ms")
        except AssertionError as exc:
            error = exc
        if time.monotonic() > deadline:
            raise error
        page.evaluate(NEXT_CHANGE_JS, interval_ms)
