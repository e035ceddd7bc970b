"""Waiting for the app in the browser: for its script runs, for what they draw, and for
nothing more to happen. Imported through tests/browser/helpers.py.

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
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

from playwright.sync_api import Page, expect

TIMEOUT_MS = 25_000
#: Added to every page opened by ``open_app``: follows the app's script runs from its
#: websocket messages (see the module's docstring). ``window.__stNet``:
#: ``asked`` / ``started``: sequence numbers of the last rerun request sent (or file upload
#: request: its rerun follows the upload) and of the last run start received; ``running``: a run started and has not ended (a run stopped early
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
  // Field numbers from streamlit/proto/BackMsg.proto and ForwardMsg.proto (Streamlit 1.67).
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

def wait_for_app_loaded(page: Page) -> None:
    # 120 s: twenty new sessions at once on two processes (test_classroom.py) load slowly
    page.wait_for_selector("[data-testid='stAppViewContainer']", state="attached", timeout=120_000)
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


def wait_until(page: Page, fn, timeout_ms: int = 10_000, interval_ms: int = 100):
    """Retry ``fn`` until it returns truthy (or None without raising AssertionError), and
    return what that call returned.

    Use it for assertions on what the page shows after a change that may come later.
    ``fn`` is tried again at each change of the page (``NEXT_CHANGE_JS``), and at the
    latest every ``interval_ms``. Read values from the returned result, not from a second
    call: the page may be mid-change again by then (a chart laid out anew).
    """
    __tracebackhide__ = True
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        try:
            result = fn()
            if result is None or result:
                return result
            error: AssertionError | None = AssertionError(f"condition still false after {timeout_ms} ms")
        except AssertionError as exc:
            error = exc
        if time.monotonic() > deadline:
            raise error
        page.evaluate(NEXT_CHANGE_JS, interval_ms)

