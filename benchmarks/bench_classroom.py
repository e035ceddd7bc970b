"""A class on one server: N browser sessions click at the same moment, R rounds, then drag.

    python benchmarks/bench_classroom.py                    # 30 sessions x 6 rounds + a drag round
    python benchmarks/bench_classroom.py --processes 2      # the same through deploy/run_class.py
    python benchmarks/bench_classroom.py --own 12           # a lecturer's own example of 12 results
    python benchmarks/bench_classroom.py --order alternate  # the two classes' rounds alternated
    python benchmarks/bench_classroom.py --root DIR         # the playground of another checkout

Each session is its own Playwright context, opened from its own playground link (its own
order, judgments and K). In each round every session clicks the relevance badge of its
rank-1 card at the same wall-clock moment (a timer set in every page); in the drag round
every session drags its rank-2 card onto rank 1, with the drops released back to back.
Reported: the server's CPU time per interaction (the app processes' CPU clocks; also less
what the idle server spends over the round), p50/p95 of event -> numbers painted (the tiles
show new values) and event -> last DOM change, errors, and whether every session's address
bar holds exactly its own actions.

The reference, in the same run: the same sessions clicking at the same moment on a page that
holds one st.toggle (tests/browser/apps/toggle_app.py), so each click is one bare Streamlit
rerun. Its p95 is the floor of any page that answers a click with a rerun, on this machine
with these browsers; the playground's cost is read as the ratio to it.

Target on the 2-core machine, browsers included: p95 <= 1 s at 30 simultaneous clicks,
server CPU <= 8 ms per badge click. tests/browser/test_classroom.py runs a short version.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from dataclasses import dataclass, field, replace
from typing import Callable, Sequence
from pathlib import Path
from urllib.parse import parse_qs, urlparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_interaction import hold_over, server_cpu_seconds  # noqa: E402
from benchmarks.class_ports import free_ports, listener_pid
from benchmarks.class_profile import profiler
from benchmarks.class_report import quantile, report, report_classes, report_ratio  # noqa: F401  (report: tests)
from tests.browser.helpers import (NET_SPY, REPO_ROOT, free_port, launch_browser, serve,  # noqa: E402
                                   streamlit_app, wait_for_app_loaded)
from ui.lessons.playground import example_data as own_data

N_CARDS = 8
#: A page has settled after this long without a change (ms).
QUIET_MS = 400
#: In-page tools: find elements through open shadow roots, read the numbers the
#: playground shows, and time one interaction. The only place that knows how "numbers
#: painted" is detected: the tiles' values (``.lc-tile-value``) differ from before.
PAGE_TOOLS = """((SHOWN) => {
  const deepAll = (sel, root = document) => {
    const found = [...root.querySelectorAll(sel)];
    for (const el of root.querySelectorAll("*")) if (el.shadowRoot) found.push(...deepAll(sel, el.shadowRoot));
    return found;
  };
  const numbers = () => deepAll(SHOWN).map(e => e.textContent).join("|");
  const roots = (root = document) => {
    const out = [];
    for (const el of root.querySelectorAll("*")) if (el.shadowRoot) out.push(el.shadowRoot, ...roots(el.shadowRoot));
    return out;
  };
  window.__class = {deepAll, numbers, roots, t: null};
})"""
#: Arm one measurement: note the event, every DOM change (document and shadow roots) and
#: the first moment the numbers differ from now.
ARM = """() => {
  const c = window.__class;
  if (c.obs) c.obs.disconnect();
  const t = c.t = {start: null, painted: null, last: null, before: c.numbers()};
  const seen = () => {
    const now = performance.now();
    if (t.start === null) return;
    t.last = now;
    if (t.painted === null && c.numbers() !== t.before) t.painted = now;
  };
  c.obs = new MutationObserver(seen);
  for (const root of [document.body, ...c.roots()])
    c.obs.observe(root, {subtree: true, childList: true, characterData: true, attributes: true});
  if (!c.armed) {
    c.armed = true;
    const mark = () => { if (c.t && c.t.start === null) c.t.start = performance.now(); };
    for (const type of ["click", "pointerup", "drop", "dragend"]) window.addEventListener(type, mark, true);
  }
}"""
CLICK_AT = """([at, target]) => {
  const badge = window.__class.deepAll(target)[0];
  setTimeout(() => badge.click(), Math.max(0, at - Date.now()));
}"""


@dataclass(frozen=True)
class Target:
    """What the sessions open, what they click, and where the click's result shows."""
    path: str            # after the server's address
    click: str           # CSS selector (through shadow roots) of what every session clicks
    shown: str           # CSS selector of the text that changes once the result is painted
    symbols: str = ""    # the board's item ids (the playground's), in the link's ``order``
    query: str = ""      # the link's part every session shares (an own example's ``ex``)


PLAYGROUND = Target("/playground", '.rb-card[data-rank="1"] .rb-badge', ".lc-tile-value",
                    "12345678")
#: Streamlit's own floor: the bare toggle page of bench_interaction.py, a rerun per click.
REFERENCE = Target("", "[data-testid=stCheckbox] input", "[data-testid=stText]")
#: Six results more for a lecturer's own example of up to 12 (ui/lessons/playground/example_data.py).
MORE_RESULTS = ("Waterproof red hiking boots with Vibram sole, wide fit", "Red sneakers",
                "Running shorts, lightweight, red and black with reflective stripes",
                "Carbon-plated racing flat for marathon runners, crimson red colourway, unisex sizing",
                "Shoe laces", "Red running shoe (refurbished), size 42, free returns within 30 days")


def own_example(results: int) -> Target:
    """The playground with a lecturer's own example of ``results`` text results (3-12), the
    same shared link for every session (judged binary: a badge click toggles one)."""
    items = (*own_data.TEMPLATE.items, *(own_data.OwnItem(t, j % 5) for j, t in enumerate(MORE_RESULTS)))
    example = own_data.OwnExample("red running shoes", tuple(items[:results]))
    return replace(PLAYGROUND, symbols="".join(example.ids),
                               query=f"ex={own_data.to_link(example)}&mode=binary&")
SETTLED = """(quiet) => {
  const t = window.__class.t;
  const app = document.querySelector("[data-testid=stApp]");
  return t.start !== null && t.painted !== null && performance.now() - t.last > quiet
         && app.dataset.testScriptState === "notRunning";
}"""


# --------------------------------------------------------------------------- sessions


def session_link(i: int, k: int = 1, symbols: str = PLAYGROUND.symbols) -> dict[str, str]:
    """Session ``i``'s own playground state: a distinct order and judgments, K=1.

    K=1 makes every action visible in the tiles: a click toggles the rank-1 card (P@1
    changes) and the drag swaps ranks 1 and 2, whose judgments differ after any number
    of rounds (see ``expected_state``). ``symbols``: the board's item ids.
    """
    n = len(symbols)
    shift = i % n
    order = symbols[shift:] + symbols[:shift]
    if (i // n) % 2:
        order = order[::-1]
    labels = [(i >> (j % 6)) & 1 for j in range(n)]
    return {"order": order, "labels": "".join(map(str, labels)), "k": str(k)}


def with_different_top_two(link: dict[str, str], rounds: int,
                           symbols: str = PLAYGROUND.symbols) -> dict[str, str]:
    """The link, judgments adjusted so that after ``rounds`` clicks ranks 1 and 2 differ."""
    labels = [int(c) for c in link["labels"]]
    first, second = (symbols.index(c) for c in link["order"][:2])
    if (labels[first] ^ (rounds % 2)) == labels[second]:
        labels[second] ^= 1
    return {**link, "labels": "".join(map(str, labels))}


def expected_state(link: dict[str, str], rounds: int, drag: bool,
                   symbols: str = PLAYGROUND.symbols) -> dict[str, str]:
    """Order and labels after ``rounds`` rank-1 clicks and (optionally) the 2 -> 1 drag."""
    order = list(link["order"])
    labels = [int(c) for c in link["labels"]]
    labels[symbols.index(order[0])] ^= rounds % 2
    if drag:
        order[0], order[1] = order[1], order[0]
    return {"order": "".join(order), "labels": "".join(map(str, labels))}


def address_state(url: str) -> dict[str, str]:
    query = parse_qs(urlparse(url).query)
    return {key: query.get(key, ["(missing)"])[0] for key in ("order", "labels")}


# --------------------------------------------------------------------------- server


def cpu_seconds(pids: list[int]) -> float:
    """CPU time of these processes so far, their ended threads included (a script run's).

    Nanoseconds (``server_cpu_seconds``): /proc's 10 ms ticks, over a round of 30 clicks, are
    a third of a millisecond per click, a sixth of the bare page's cost.
    """
    return sum(server_cpu_seconds(pid) for pid in pids)


def idle_cpu_rate(pids: list[int], seconds: float = 2.0) -> float:
    """The servers' CPU seconds per second while nobody clicks (Streamlit's own background
    work: it polls its config files five times a second)."""
    before, start = cpu_seconds(pids), time.monotonic()
    time.sleep(seconds)           # nothing to wait for: a stretch of nothing is the point
    return (cpu_seconds(pids) - before) / (time.monotonic() - start)


def rss_mib(pids: list[int]) -> float:
    """Resident memory of these processes (MiB)."""
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024


@dataclass
class Server:
    url: str
    pids: list[int]          # the app processes (not the balancer)
    log: Callable[[], str] = lambda: ""   # what the servers printed so far

    def balancer_events(self) -> list[str]:
        """HAProxy's lines about a process going down or up (a failed health check)."""
        return [line for line in self.log().splitlines() if " is DOWN" in line or " is UP" in line]


@contextlib.contextmanager
def class_server(processes: int = 1, options: Sequence[str] = (), root: Path = REPO_ROOT):
    """One ``streamlit run app.py``, or ``deploy/run_class.py`` with N processes behind HAProxy
    (and its ``options``, e.g. ``["--sessions-per-minute", "10"]``); ``root``: the checkout."""
    if processes == 1:
        with streamlit_app("app.py", root=root) as app:
            yield Server(app.url, [app.process.pid], app.log)
        return
    port, first_app_port = free_port(), free_ports(processes)
    app_ports = [first_app_port + i for i in range(processes)]
    argv = [sys.executable, str(root / "deploy" / "run_class.py"), "--processes", str(processes),
            "--port", str(port), "--bind", "127.0.0.1", "--app-port", str(first_app_port),
            *options, "--", "--browser.gatherUsageStats", "false"]
    with serve(argv, port, cwd=root, env=dict(os.environ), timeout_s=120) as running:
        yield Server(running.url, [listener_pid(p) for p in app_ports], running.log)


# --------------------------------------------------------------------------- the class


@dataclass
class ClassResult:
    sessions: int
    rounds: int
    click_painted: list[float] = field(default_factory=list)     # seconds
    click_last: list[float] = field(default_factory=list)
    drag_painted: list[float] = field(default_factory=list)
    drag_last: list[float] = field(default_factory=list)
    click_cpu_ms: list[float] = field(default_factory=list)      # per click, one per round
    click_busy_ms: list[float] = field(default_factory=list)     # the same less idle CPU
    idle_ms_per_s: float = 0.0
    drag_cpu_ms: float | None = None
    drop_spread_ms: float | None = None
    errors: list[str] = field(default_factory=list)
    wrong_state: list[str] = field(default_factory=list)
    server_of_session: list[str] = field(default_factory=list)


def wait_all(pages, result: ClassResult, label: str, quiet_ms: int) -> list[dict | None]:
    """Each page's timings once it has settled (None and an error where it did not)."""
    timings = []
    for i, page in enumerate(pages):
        try:
            page.wait_for_function(SETTLED, arg=quiet_ms, timeout=60_000, polling=50)
            timings.append(page.evaluate("() => window.__class.t"))
        except Exception as exc:   # a timeout is a result here, not a crash
            result.errors.append(f"session {i}, {label}: {type(exc).__name__}: {str(exc)[:200]}")
            timings.append(None)
    return timings


def open_many(browser, urls: list[str]) -> list:
    """One new context and page per address, all loading at once; returned when all are loaded."""
    pages = []
    for url in urls:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.add_init_script(NET_SPY)
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(url, wait_until="commit")
        pages.append(page)
    for page in pages:
        # many pages load at once: give the first connection and run more than the usual time
        for state in ("connection-state='CONNECTED'", "script-state='notRunning'"):
            page.locator(f"[data-testid='stApp'][data-test-{state}]").wait_for(state="attached", timeout=120_000)
        wait_for_app_loaded(page)
    return pages


def click_round(pages, server: Server, result: ClassResult, label: str, quiet_ms: int,
                target: Target) -> None:
    """One round: every session clicks at the same moment; the round is waited out."""
    for page in pages:
        page.evaluate(ARM)
    cpu0, t0 = cpu_seconds(server.pids), time.monotonic()
    at = page.evaluate("() => Date.now()") + 300 + 10 * len(pages)
    for page in pages:
        page.evaluate(CLICK_AT, [at, target.click])
    timings = wait_all(pages, result, label, quiet_ms)
    spent_ms = (cpu_seconds(server.pids) - cpu0) * 1000
    result.click_cpu_ms.append(spent_ms / len(pages))
    idle_ms = result.idle_ms_per_s * (time.monotonic() - t0)
    result.click_busy_ms.append((spent_ms - idle_ms) / len(pages))
    for t in filter(None, timings):
        result.click_painted.append((t["painted"] - t["start"]) / 1000)
        result.click_last.append((t["last"] - t["start"]) / 1000)


@dataclass
class OpenClass:
    """A class's sessions, open on their server and ready to click."""
    server: Server
    target: Target
    result: ClassResult
    links: list[dict[str, str]]
    pages: list


def open_class(browser, server: Server, sessions: int, rounds: int, target: Target,
               pages: list) -> OpenClass:
    """Open ``sessions`` sessions (into ``pages``, for the caller to close) from their own links."""
    result = ClassResult(sessions, rounds)
    symbols = target.symbols or PLAYGROUND.symbols
    links = [with_different_top_two(session_link(i, symbols=symbols), rounds, symbols)
             for i in range(sessions)]
    urls = [server.url + target.path + "?" + target.query + "&".join(f"{k}={v}" for k, v in link.items())
            for link in links]
    pages.extend(open_many(browser, urls))
    for i, page in enumerate(pages):
        page.on("pageerror", lambda exc, i=i: result.errors.append(f"session {i}: page error {exc}"))
        page.evaluate(f"{PAGE_TOOLS}({json.dumps(target.shown)})")
        page.locator(target.shown).first.wait_for()
        page.locator(target.click).first.wait_for(state="attached")
    return OpenClass(server, target, result, links, pages)


def finish_class(c: OpenClass, drag: bool, quiet_ms: int) -> None:
    """The drag round (if ``drag``), then each session's address bar and errors checked."""
    result, pages, server = c.result, c.pages, c.server
    if drag:
        for page in pages:
            page.evaluate(ARM)
            hold_over(page, 2, 1)
        cpu0 = cpu_seconds(server.pids)
        released = time.perf_counter()
        for page in pages:
            page.mouse.up()
        result.drop_spread_ms = (time.perf_counter() - released) * 1000
        timings = wait_all(pages, result, "drag", quiet_ms)
        result.drag_cpu_ms = (cpu_seconds(server.pids) - cpu0) * 1000 / len(pages)
        for t in filter(None, timings):
            result.drag_painted.append((t["painted"] - t["start"]) / 1000)
            result.drag_last.append((t["last"] - t["start"]) / 1000)
    symbols = c.target.symbols
    for i, (page, link) in enumerate(zip(pages, c.links) if symbols else ()):
        want = expected_state(link, result.rounds, drag, symbols)
        got = address_state(page.evaluate("() => location.href"))
        if got != want:
            result.wrong_state.append(f"session {i}: address bar {got}, its own actions give {want}")
        if page.get_by_test_id("stException").count():
            result.errors.append(f"session {i}: an exception is shown")
        cookies = {k["name"]: k["value"] for k in page.context.cookies()}
        result.server_of_session.append(cookies.get("irlab_server", "single"))


def run_class(browser, server: Server, sessions: int = 30, rounds: int = 6, drag: bool = True,
              quiet_ms: int = QUIET_MS, target: Target = PLAYGROUND,
              keep_open: list | None = None, profile: Path | None = None) -> ClassResult:
    """Open ``sessions`` sessions, run the rounds, check the address bars (the playground's).

    ``keep_open``: a list that receives the sessions' pages, left open for the caller (who
    closes their contexts), so a test can go on in the same sessions. ``profile``: py-spy
    records the server over the click rounds into this file (raw, collapsed stacks)."""
    pages: list = []
    try:
        c = open_class(browser, server, sessions, rounds, target, pages)
        c.result.idle_ms_per_s = idle_cpu_rate(server.pids) * 1000
        spy = profiler(server.pids[0], profile) if profile else contextlib.nullcontext()
        with spy:
            for round_ in range(rounds):
                click_round(pages, server, c.result, f"click round {round_ + 1}", quiet_ms, target)
        finish_class(c, drag, quiet_ms)
    finally:
        if keep_open is None:
            for page in pages:
                page.context.close()
        else:
            keep_open.extend(pages)
    return c.result


def main() -> None:
    from benchmarks import class_order  # it imports this module
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--no-drag", action="store_true")
    parser.add_argument("--processes", type=int, default=1,
                        help="app processes; >1 runs deploy/run_class.py (HAProxy, sticky sessions)")
    parser.add_argument("--own", type=int, default=0, metavar="N",
                        help="a lecturer's own example of N text results (3-12, one shared link) "
                             "instead of the cats")
    parser.add_argument("--profile", type=Path, default=None, metavar="PREFIX",
                        help="py-spy records each server over its click rounds into "
                             "PREFIX.playground.txt and PREFIX.reference.txt (collapsed stacks)")
    parser.add_argument("--no-reference", action="store_true",
                        help="skip the reference class (the same clicks on a bare st.toggle page)")
    class_order.add_options(parser)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    load = os.getloadavg()[0]
    with sync_playwright() as pw:
        browser = launch_browser(pw)
        result, reference = class_order.run_both(
            browser, args, own_example(args.own) if args.own else PLAYGROUND)
        browser.close()
    if args.own:
        print(f"A lecturer's own example of {args.own} results (one shared link), judged binary:")
    report_classes(result, reference, args.processes, args.order, load)


if __name__ == "__main__":
    main()
