"""The order of bench_classroom.py's two classes, the playground's and the bare page's.

    --order playground-first   the playground's class, then the bare page's (the default, as
                               every figure in docs/benchmarks.md up to issue 48's sixth round)
    --order bare-first         the bare page's class first
    --order alternate          both classes open at once (60 sessions in one Chromium), their
                               rounds alternated: playground, bare, bare, playground, ...

A run loads the machine more as it goes (the browsers' memory, the load average's climb), so the
class run second may meet a busier machine; ``alternate`` gives both classes the same minutes,
each round of one next to a round of the other (ABBA, so neither always goes first), at the price
of both classes' pages being open throughout.
``--root DIR``: another checkout whose app the playground's class opens (an A/B of two copies,
e.g. a scratch copy with one part taken out); the bare page is always this checkout's.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from benchmarks.bench_classroom import (
    QUIET_MS,
    REFERENCE,
    ClassResult,
    Server,
    Target,
    class_server,
    click_round,
    finish_class,
    idle_cpu_rate,
    open_class,
    run_class,
)
from tests.browser.helpers import REPO_ROOT, streamlit_app

ORDERS = ("playground-first", "bare-first", "alternate")


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--order", choices=ORDERS, default=ORDERS[0],
                        help="which class runs first, or both alternated round by round")
    parser.add_argument("--root", type=Path, default=REPO_ROOT,
                        help="the checkout whose app the playground's class opens")


def run_both(browser, args, target: Target) -> tuple[ClassResult, ClassResult | None]:
    """The playground's class and (unless ``--no-reference``) the bare page's, in ``--order``."""
    def profile(name: str) -> Path | None:
        return args.profile and Path(f"{args.profile}.{name}.txt")

    def playground() -> ClassResult:
        with class_server(args.processes, root=args.root) as server:
            return run_class(browser, server, args.sessions, args.rounds, drag=not args.no_drag,
                             target=target, profile=profile("playground"))

    def bare() -> ClassResult:
        with streamlit_app("toggle_app.py") as app:
            return run_class(browser, Server(app.url, [app.process.pid]), args.sessions,
                             args.rounds, drag=False, target=REFERENCE, profile=profile("reference"))

    if args.no_reference:
        return playground(), None
    if args.order == "alternate":
        if args.profile:
            raise SystemExit("--profile records one class at a time: not with --order alternate")
        return alternated(browser, args, target)
    if args.order == "bare-first":
        reference = bare()
        return playground(), reference
    result = playground()
    return result, bare()


def alternated(browser, args, target: Target) -> tuple[ClassResult, ClassResult]:
    """Both classes open at once; round r of each, the playground's first in rounds 1, 4, 5,
    8, ... and the bare page's first in rounds 2, 3, 6, 7, ... (ABBA)."""
    play_pages: list = []
    bare_pages: list = []
    try:
        with class_server(args.processes, root=args.root) as server, \
                streamlit_app("toggle_app.py") as app:
            play = open_class(browser, server, args.sessions, args.rounds, target, play_pages)
            bare = open_class(browser, Server(app.url, [app.process.pid]), args.sessions,
                              args.rounds, REFERENCE, bare_pages)
            for c in (play, bare):
                c.result.idle_ms_per_s = idle_cpu_rate(c.server.pids) * 1000
            for round_ in range(args.rounds):
                pair = (play, bare) if round_ % 4 in (0, 3) else (bare, play)
                for c in pair:
                    click_round(c.pages, c.server, c.result, f"click round {round_ + 1}",
                                QUIET_MS, c.target)
            finish_class(play, not args.no_drag, QUIET_MS)
            finish_class(bare, False, QUIET_MS)
            return play.result, bare.result
    finally:
        for page in play_pages + bare_pages:
            page.context.close()
