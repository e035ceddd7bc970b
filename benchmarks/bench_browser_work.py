"""Where a browser's time goes per badge click: the playground against the bare page.

    python benchmarks/bench_browser_work.py [--clicks 20] [--path "playground?..."] [--root DIR]

``--root``: another checkout of the repo whose playground to measure (an A/B of two commits,
as benchmarks/ab_interaction.py does).

One Chromium page per app at bench_classroom.py's 1280x800 viewport, each clicking what the
class clicks (the playground's rank-1 badge, the bare page's st.toggle) N times, each click
waited until the page has settled (bench_classroom.py's measure). Chrome's own counters
(CDP ``Performance.getMetrics``) are read before and after: the main thread's task, script,
layout and style time per click, and the DOM's size. With 30 browsers on the server's two
cores, every millisecond here delays the server and everyone's last change. Also each of
Chromium's processes' CPU per click (/proc, this script's descendants): the browser process's
share is work the class's 30 sessions queue for in one process (their contexts share it).
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_classroom import (
    ARM,
    PAGE_TOOLS,
    PLAYGROUND,
    REFERENCE,
    SETTLED,
    Target,
    session_link,
)
from tests.browser.helpers import launch_browser, streamlit_app, wait_for_app_loaded

METRICS = ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration",
           "LayoutCount", "RecalcStyleCount", "Nodes")


def metrics(cdp) -> dict[str, float]:
    got = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {name: got.get(name, 0.0) for name in METRICS}


def chromium_cpu() -> dict[int, tuple[str, float]]:
    """CPU seconds of each Chromium process started by this script, with its kind
    (browser, renderer, gpu-process, a utility's sub-type)."""
    def ours(pid: int) -> bool:
        for _ in range(12):                       # up the tree to this script, or not
            if pid == os.getpid():
                return True
            try:
                pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError):
                return False
        return False
    out = {}
    for entry in os.listdir("/proc"):
        try:
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ") if entry.isdigit() else b""
            if b"chrom" not in cmd.split(b" ")[0] or not ours(int(entry)):
                continue
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        kind = "browser"
        for flag in (b"--utility-sub-type=", b"--type="):
            if flag in cmd:
                kind = cmd.split(flag, 1)[1].split(b" ")[0].decode().split(".")[-1]
                break
        out[int(entry)] = (kind, (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"))
    return out


def per_click(browser, url: str, target: Target, clicks: int) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(url)
    wait_for_app_loaded(page)
    page.evaluate(f"{PAGE_TOOLS}({json.dumps(target.shown)})")
    page.locator(target.shown).first.wait_for()
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
    click = f"() => window.__class.deepAll({json.dumps(target.click)})[0].click()"

    def one() -> None:
        page.evaluate(ARM)
        page.evaluate(click)
        page.wait_for_function(SETTLED, arg=400, timeout=60_000, polling=50)

    one()                                        # the first click's one-off work aside
    before, cpu0 = metrics(cdp), chromium_cpu()
    for _ in range(clicks):
        one()
    after, cpu1 = metrics(cdp), chromium_cpu()
    context.close()
    out = {k: (after[k] - before[k]) / clicks for k in METRICS if k != "Nodes"}
    out["Nodes"] = after["Nodes"]
    kinds: collections.Counter = collections.Counter()
    for pid, (kind, seconds) in cpu1.items():
        kinds[kind] += (seconds - cpu0.get(pid, (kind, 0.0))[1]) / clicks
    out["processes"] = dict(kinds)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clicks", type=int, default=20)
    parser.add_argument("--path", default=None, help="the playground's address after the server's")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose app to run")
    args = parser.parse_args()
    link = session_link(0)
    path = args.path or "playground?" + "&".join(f"{k}={v}" for k, v in link.items())
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        browser = launch_browser(pw)
        rows = {}
        with streamlit_app("app.py", root=args.root) as app:
            rows["playground"] = per_click(browser, f"{app.url}/{path}", PLAYGROUND, args.clicks)
        with streamlit_app("toggle_app.py") as app:
            rows["bare page"] = per_click(browser, app.url, REFERENCE, args.clicks)
        browser.close()
    print(f"per click ({args.clicks} clicks), main thread, ms  | task | script | layout | style "
          "| layouts | style passes | DOM nodes")
    for name, m in rows.items():
        print(f"{name:12} | {m['TaskDuration'] * 1000:6.1f} | {m['ScriptDuration'] * 1000:6.1f} "
              f"| {m['LayoutDuration'] * 1000:6.1f} | {m['RecalcStyleDuration'] * 1000:6.1f} "
              f"| {m['LayoutCount']:5.1f} | {m['RecalcStyleCount']:5.1f} | {m['Nodes']:.0f}")
    print("per click, each of Chromium's processes' CPU (/proc clock ticks), ms")
    for name, m in rows.items():
        kinds = sorted(m["processes"].items(), key=lambda kv: -kv[1])
        print(f"{name:12} | all {sum(m['processes'].values()) * 1000:6.1f} | "
              + ", ".join(f"{kind} {v * 1000:.1f}" for kind, v in kinds if v > 0))


if __name__ == "__main__":
    main()
