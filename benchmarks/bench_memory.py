"""The server's memory per session: after loading the samples, and after a 700,000-line run.

    python benchmarks/bench_memory.py [--sessions 10] [--queries 7000 --docs 100]

Measures the app process's resident memory (VmRSS, from /proc) as browser sessions open
the upload page and load the samples, then as two sessions one after the other upload a
different 700,000-line TREC run each (with its qrels), each closed before the next: if a
closed session's upload were kept, the second upload would add as much again. Prints MiB
and what 30 sessions cost.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import expect, sync_playwright  # noqa: E402

from benchmarks.bench_classroom import open_many, rss_mib  # noqa: E402
from benchmarks.bench_upload import write_files  # noqa: E402
from tests.browser.helpers import launch_browser, streamlit_app, wait_for_app_run  # noqa: E402


def settled_rss(pids: list[int], quiet_s: float = 3.0, timeout_s: float = 60.0) -> float:
    """RSS once it has stopped changing by more than 1 MiB for ``quiet_s``."""
    last, since, deadline = rss_mib(pids), time.monotonic(), time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        time.sleep(0.5)     # the sampling interval of the measurement, not a wait for the app
        now = rss_mib(pids)
        if abs(now - last) > 1:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet_s:
            break
    return last


def upload_big_run(browser, url: str, qrels: Path, run: Path) -> None:
    (page,) = open_many(browser, [url + "/upload"])
    page.get_by_test_id("stRadio").first.get_by_text("TREC qrels + runs").click()
    wait_for_app_run(page)
    inputs = page.get_by_test_id("stFileUploaderDropzoneInput")
    inputs.nth(0).set_input_files(str(qrels))
    wait_for_app_run(page)
    inputs.nth(1).set_input_files(str(run))
    expect(page.get_by_text("queries, weakest first").first).to_be_visible(timeout=120_000)
    page.context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--queries", type=int, default=7000)
    parser.add_argument("--docs", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw, \
            streamlit_app("app.py") as app:
        runs = []
        for seed in (0, 1):
            folder = Path(tmp) / str(seed)
            folder.mkdir()
            runs.append(write_files(folder, args.queries, args.docs, seed=seed))
        lines = runs[0][0].read_bytes().count(b"\n")
        browser = launch_browser(pw)
        pids = [app.process.pid]
        (warm,) = open_many(browser, [app.url + "/playground"])
        base = settled_rss(pids)
        pages = open_many(browser, [app.url + "/upload"] * args.sessions)
        opened = settled_rss(pids)
        for page in pages:
            page.get_by_role("button", name="Load the samples").first.click()
        for page in pages:
            expect(page.get_by_text("queries, weakest first").first).to_be_visible(timeout=60_000)
        samples = settled_rss(pids)
        for page in pages:
            page.context.close()
        closed = settled_rss(pids)
        big = []
        for run_path, qrels_path in runs:
            upload_big_run(browser, app.url, qrels_path, run_path)
            big.append(settled_rss(pids))
        warm.context.close()
        browser.close()

    per_open = (opened - base) / args.sessions
    per_samples = (samples - base) / args.sessions
    print(f"server RSS with one session open: {base:.0f} MiB")
    print(f"{args.sessions} sessions on the upload page: +{opened - base:.0f} MiB "
          f"({per_open:.1f} MiB each)")
    print(f"... after each loaded the samples: +{samples - base:.0f} MiB ({per_samples:.1f} MiB each)")
    print(f"... after all {args.sessions} closed: {closed:.0f} MiB")
    print(f"a {lines:,}-line run + qrels uploaded in a new session, then closed: "
          f"+{big[0] - closed:.0f} MiB;  a second, different one (new session): "
          f"+{big[1] - big[0]:.0f} MiB more")
    print(f"30 sessions with the samples: about {base + 30 * per_samples:.0f} MiB for the process")


if __name__ == "__main__":
    main()
