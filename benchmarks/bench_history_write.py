"""What one address-bar write costs each of Chromium's processes (issue 48, sixth round).

    python benchmarks/bench_history_write.py                 # every variant, 3 repeats
    python benchmarks/bench_history_write.py --variants control,replace --extra 29

A plain page (no app, no server but a static file) in the Chromium the class benchmarks drive
(Playwright, ``tests.browser.helpers.launch_browser``, a 1280x800 context per variant) makes
N writes, one every ``--gap`` ms as a class's clicks come, or all in one task (``loop``).
Reported per write: each Chromium process kind's CPU (/proc, ``bench_browser_work.chromium_cpu``)
over the writes, medians of the repeats; ``control`` runs the same timers without a write, so
a variant's cost is its figure less the control's. ``--extra N`` keeps N more contexts open
and idle (the class's 30 sessions are contexts of one Chromium).
"""
from __future__ import annotations

import argparse
import collections
import functools
import http.server
import statistics
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_browser_work import chromium_cpu
from tests.browser.helpers import launch_browser

PAGE = """<!doctype html><html><body><div id=forms></div><script>
window.addInputs = (k) => { for (let i = 0; i < k; i++) {
  const el = document.createElement("input"); el.value = "value " + i;
  document.getElementById("forms").appendChild(el); } };
window.go = (o) => new Promise((resolve) => {
  const state = o.state ? {big: "x".repeat(o.state)} : history.state;
  const one = (i) => {
    const q = o.url.replace("{i}", String(i)) + "p".repeat(o.pad);
    if (o.write === "replace") history.replaceState(state, "", location.pathname + "?" + q);
    if (o.write === "hash") location.replace("#" + q);
    if (o.setItem) sessionStorage.setItem("irlab-address:" + location.pathname, q);
  };
  if (o.gap === 0) { for (let i = 0; i < o.n; i++) one(i); resolve(); return; }
  let i = 0;
  const tick = () => { if (i >= o.n) return resolve(); one(i++); setTimeout(tick, o.gap); };
  tick();
});
</script></body></html>"""
#: the playground's address after a click on the cats, give or take a parameter
APP_QUERY = "order=23456781&labels=01101001&k=1&mode=binary&metric=AP&gain=linear&i={i}"
BASE = {"url": APP_QUERY, "write": "replace", "setItem": False, "state": 0, "pad": 0, "inputs": 0}
VARIANTS = {
    "control": {"write": "none"},                       # the timers alone
    "replace": {},                                      # keepAddress's replaceState
    "replace+setItem": {"setItem": True},               # keepAddress as the page runs it
    "setItem": {"write": "none", "setItem": True},      # the sessionStorage write alone
    "loop": {"loop": True},                             # all N writes in one task
    "short": {"url": "i={i}"},                          # a 3-character query
    "long2k": {"pad": 2000},                            # a 2 kB query (an own example's link)
    "state100k": {"state": 100_000},                    # a 100 kB history.state
    "inputs300": {"inputs": 300},                       # 300 form controls on the page
    "hash": {"write": "hash"},                          # location.replace('#...') instead
}


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def serve(directory: str) -> int:
    handler = functools.partial(_Quiet, directory=directory)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--writes", type=int, default=40)
    parser.add_argument("--gap", type=int, default=150, help="ms between two writes")
    parser.add_argument("--extra", type=int, default=0, help="idle contexts kept open")
    args = parser.parse_args()
    names = args.variants.split(",")
    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        (Path(tmp) / "page.html").write_text(PAGE)
        url = f"http://127.0.0.1:{serve(tmp)}/page.html"
        browser = launch_browser(pw)
        for _ in range(args.extra):
            browser.new_context(viewport={"width": 1280, "height": 800}).new_page().goto(url)
        per_write: dict[str, list[collections.Counter]] = collections.defaultdict(list)
        for _ in range(args.repeats):
            for name in names:                       # interleaved: each repeat sees the same noise
                o = {**BASE, **VARIANTS[name], "n": args.writes}
                o["gap"] = 0 if o.pop("loop", False) else args.gap
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                page = context.new_page()
                page.goto(url + "?start=1")
                page.evaluate("(k) => addInputs(k)", o["inputs"])
                page.wait_for_timeout(300)           # the load's own work done (a CPU read)
                before = chromium_cpu()
                page.evaluate("(o) => go(o)", o)
                page.wait_for_timeout(300)           # the browser's last work of the writes
                after = chromium_cpu()
                kinds: collections.Counter = collections.Counter()
                for pid, (kind, seconds) in after.items():
                    kinds[kind] += (seconds - before.get(pid, (kind, 0.0))[1]) * 1000 / args.writes
                per_write[name].append(kinds)
                context.close()
        browser.close()
    print(f"per write, ms of CPU (medians of {args.repeats}; {args.writes} writes "
          f"{args.gap} ms apart; {args.extra} idle contexts open)")
    shown = ("browser", "renderer", "gpu-process")
    print(f"{'variant':16} |    all | " + " | ".join(f"{k:>11}" for k in shown))
    for name in names:
        rows = per_write[name]
        total = statistics.median(sum(r.values()) for r in rows)
        print(f"{name:16} | {total:6.1f} | "
              + " | ".join(f"{statistics.median(r[k] for r in rows):11.1f}" for k in shown))


if __name__ == "__main__":
    main()
