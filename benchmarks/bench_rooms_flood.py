"""A prankster floods one class room while a second class answers on the same server.

    python benchmarks/bench_rooms_flood.py                # 30 students, 20 s of flood
    python benchmarks/bench_rooms_flood.py --students 20 --seconds 10 --connections 6

The prankster is what issue 38 found: a script that opens a *new* Streamlit session for every
try (a new websocket, a new student id: what clearing the browser's storage and reloading
gives), ``--connections`` at a time, from one address (loopback), for ``--seconds`` and at most
``--most`` sessions (a bounded loop, on this machine only). Half its sessions join room A with
its real code, half guess codes. Meanwhile class B (``--students`` sessions, each with its own
address, as the balancer forwards it in ``X-Forwarded-For``) keeps polling its room and answers
a question posed during the flood (over ``--spread`` seconds, as a class answers).

Reported, all from one run (the machine is shared: only ratios within a run compare):

* what one *refused* session costs the server: CPU time (the server process's own clock,
  its idle rate taken off) per new session refused by a limit, beside a student who joins
  (the reference). Target: at most 20 ms;
* how many of the prankster's sessions got into room A (the per-address limit: 10 a minute)
  and what room A's projector would count;
* class B's answer confirmations (click -> "Your answer") and poll round trips, p50/p95/max,
  once without a flood and once during it, and the ratio of the medians. Target: at most 1.5.

Student sessions are ``bench_rooms.Student`` (Streamlit's own protocol, no browser). The
server runs as ``deploy/run_class.py`` runs its processes, trusting ``X-Forwarded-For``
(``IRLAB_BEHIND_BALANCER=1``): class B's students each claim their own address there.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_classroom import quantile  # noqa: E402
from benchmarks.bench_rooms import Loop, Student  # noqa: E402

CHOICES = [["yes", "Yes"], ["no", "No"]]
REFUSED = "Too many "


def question(prompt: str) -> dict:
    return {"kind": "text", "prompt": prompt, "choices": CHOICES, "correct": None}


async def one_session(ws_url: str, code: str, *, headers=None, answer: str | None = "Yes",
                      timeout: float = 60) -> str:
    """A new session (a new student id) tries to join ``code`` and answer: "answered",
    "refused" (a limit), "waiting" (the teacher's door) or "other"."""
    student = Student(ws_url, code, headers)
    try:
        await student.start()
        await student.until(lambda s: "Yes" in s.buttons or s.shows(REFUSED)
                            or s.shows("to let you in") or s.shows("There is no room"), timeout)
        if student.shows(REFUSED):
            return "refused"
        if student.shows("to let you in"):
            return "waiting"
        if student.shows("There is no room"):
            return "unknown code"
        if answer and answer in student.buttons:
            await student.answer(answer)
            await student.until(lambda s: s.shows("Your answer") or s.shows(REFUSED), timeout)
            return "answered" if student.shows("Your answer") else "refused"
        return "other"
    finally:
        await student.close()


async def flood(ws_url: str, code: str, *, seconds: float, connections: int, most: int,
                guess_every: int = 2, headers=None) -> dict[str, int]:
    """``connections`` workers open new sessions one after another until ``seconds`` pass or
    ``most`` sessions were opened; every ``guess_every``-th session guesses a code instead."""
    from ui.rooms.room import new_code
    outcomes: dict[str, int] = {}
    opened = 0
    deadline = time.monotonic() + seconds

    async def worker():
        nonlocal opened
        while time.monotonic() < deadline and opened < most:
            opened += 1
            target = new_code() if guess_every and opened % guess_every == 0 else code
            try:
                result = await one_session(ws_url, target, headers=headers, timeout=30)
            except (TimeoutError, OSError) as error:
                result = type(error).__name__
            outcomes[result] = outcomes.get(result, 0) + 1
    await asyncio.gather(*(worker() for _ in range(connections)))
    return outcomes


async def refused_sessions(ws_url: str, code: str, n: int, at_once: int = 3) -> int:
    """``n`` new sessions from this machine (whose joins are used up), ``at_once`` at a time,
    each until its refusal shows. Returns how many were refused."""
    refused = 0
    left = iter(range(n))

    async def worker():
        nonlocal refused
        for _ in left:
            student = Student(ws_url, code)
            try:
                await student.start()
                await student.until(lambda s: s.shows(REFUSED) or s.shows("You are in"), 60)
                refused += student.shows(REFUSED)
            finally:
                await student.close()
    await asyncio.gather(*(worker() for _ in range(at_once)))
    return refused


async def joining_sessions(ws_url: str, code: str, n: int, first: int, at_once: int = 3):
    """The reference: ``n`` students who join (each its own forwarded address) and see "You
    are in" (the page drawn), ``at_once`` at a time."""
    left = iter(range(first, first + n))

    async def worker():
        for k in left:
            student = Student(ws_url, code, {"X-Forwarded-For": f"10.9.{k // 250}.{k % 250 + 1}"})
            try:
                await student.start()
                await student.until(lambda s: s.shows("first question") or s.shows("Right")
                                    or "Yes" in s.buttons, 60)
            finally:
                await student.close()
    await asyncio.gather(*(worker() for _ in range(at_once)))


def cpu_per_session(pid: int, loop, work, n: int, idle_rate: float) -> float:
    """Server CPU milliseconds per session of ``work`` (the idle rate taken off)."""
    from benchmarks.bench_classroom import cpu_seconds
    before, start = cpu_seconds([pid]), time.monotonic()
    loop.run(work)
    spent = cpu_seconds([pid]) - before - idle_rate * (time.monotonic() - start)
    return 1000 * max(0.0, spent) / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=30, help="class B's size")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long the flood lasts")
    parser.add_argument("--connections", type=int, default=6, help="the flood's sessions at once")
    parser.add_argument("--most", type=int, default=400, help="the flood's sessions at most")
    parser.add_argument("--spread", type=float, default=6.0,
                        help="seconds over which class B's students answer")
    parser.add_argument("--refused", type=int, default=30,
                        help="refused sessions (and joining ones) whose server CPU is measured")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds of the refused-session measure (the median is reported)")
    args = parser.parse_args()
    from tests.browser.helpers import streamlit_app
    from ui.rooms.store import RoomStore

    db = Path(tempfile.mkdtemp(prefix="irlab-flood-")) / "rooms.sqlite3"
    os.environ["IRLAB_ROOMS_DB"] = str(db)
    os.environ["IRLAB_BEHIND_BALANCER"] = "1"     # as deploy/run_class.py's processes
    os.environ.pop("IRLAB_ROOMS_URL", None)
    os.environ.pop("IRLAB_ROOMS_PER_ADDRESS", None)
    store = RoomStore.from_env({"IRLAB_ROOMS_DB": str(db)})
    code_a, secret_a = store.open_room("10.255.0.1")
    store.pose(code_a, secret_a, question("Room A: the prankster's target"))
    code_b, secret_b = store.open_room("10.255.0.2")
    loop = Loop()
    with streamlit_app("app.py") as app:
        ws_url = app.url.replace("http://", "ws://") + "/_stcore/stream"
        print(f"one server (pid {app.process.pid}); class B: {args.students} students; flood: "
              f"{args.connections} connections, {args.seconds:g} s, at most {args.most} sessions")
        students = [Student(ws_url, code_b, {"X-Forwarded-For": f"10.1.{n // 250}.{n % 250 + 1}"})
                    for n in range(args.students)]

        async def class_joins():
            await asyncio.gather(*(s.start() for s in students))
            await asyncio.gather(*(s.until(lambda s: s.shows("first question")) for s in students))
        loop.run(class_joins())
        print(f"class B joined: {store.room(code_b).members} students")

        def summary(name, values):
            print(f"  class B {name}: n={len(values)}, p50 {statistics.median(values):.2f} s, "
                  f"p95 {quantile(values, 0.95):.2f} s, max {max(values):.2f} s")

        async def class_answers(prompt: str, delay: float, confirmations: list[float]):
            await asyncio.sleep(delay)                    # (the flood is in full swing)
            store.pose(code_b, secret_b, question(prompt))
            await asyncio.gather(*(s.until(lambda s: "Yes" in s.buttons, 60) for s in students))

            async def one(n, s):
                # students answer over --spread seconds, as a class does (not all in one ms)
                await asyncio.sleep(n * args.spread / len(students))
                start = time.monotonic()
                await s.answer("Yes")
                await s.until(lambda s: s.shows("Your answer"), 60)
                confirmations.append(time.monotonic() - start)
            await asyncio.gather(*(one(n, s) for n, s in enumerate(students)))

        # 1. what a refused session costs, beside a student who joins (the same run)
        from benchmarks.bench_classroom import idle_cpu_rate
        pid = app.process.pid
        code_c, _ = store.open_room("10.255.0.3")        # (room A stays the flood's)
        for _ in range(10):                               # this machine's joins: used up
            store.join(code_c, secrets.token_hex(16), None)
        refused_ms, joining_ms, refused = [], [], 0
        for r in range(args.rounds):
            idle = idle_cpu_rate([pid], 1.0)
            joining_ms.append(cpu_per_session(pid, loop, joining_sessions(
                ws_url, code_b, args.refused, 1000 + r * args.refused), args.refused, idle))
            counted = []

            async def refuse_some():
                counted.append(await refused_sessions(ws_url, code_c, args.refused))
            refused_ms.append(cpu_per_session(pid, loop, refuse_some(), args.refused, idle))
            refused += counted[0]
        print(f"refused sessions: {refused} of {args.rounds * args.refused} refused; server "
              f"CPU per session, median of {args.rounds} rounds of {args.refused}: refused "
              f"{statistics.median(refused_ms):.1f} ms, a student joining "
              f"{statistics.median(joining_ms):.1f} ms (ratio "
              f"{statistics.median(refused_ms) / statistics.median(joining_ms):.2f}); "
              f"target: refused <= 20 ms")

        # 2. class B answers without a flood, then during one
        polls_before = [len(s.poll_seconds) for s in students]
        quiet: list[float] = []
        loop.run(class_answers("Room B: a quiet question", 0, quiet), timeout=300)
        quiet_polls = [t for s, before in zip(students, polls_before)
                       for t in s.poll_seconds[before:]]
        print("without a flood:")
        summary("answer confirmations", quiet)
        summary("poll round trips", quiet_polls)

        store.db.query("DELETE FROM hits WHERE who = 'address:local'")  # a fresh prankster
        confirmations: list[float] = []
        polls_before = [len(s.poll_seconds) for s in students]
        t0 = time.monotonic()
        outcomes, _ = loop.run(
            flood(ws_url, code_a, seconds=args.seconds, connections=args.connections,
                  most=args.most),
            class_answers("Room B: still usable?", args.seconds / 3, confirmations),
            timeout=args.seconds + 300)
        took = time.monotonic() - t0
        polls = [t for s, before in zip(students, polls_before) for t in s.poll_seconds[before:]]
        room_a = store.room(code_a)
        print(f"flood: {sum(outcomes.values())} new sessions in {took:.1f} s: {outcomes}")
        print(f"room A: {room_a.members} joined, "
              f"{sum(store.tally(code_a, room_a.current.id).values())} answered")
        print("during the flood:")
        summary("answer confirmations", confirmations)
        summary("poll round trips", polls)
        ratio = statistics.median(confirmations) / statistics.median(quiet)
        ratio95 = quantile(confirmations, 0.95) / quantile(quiet, 0.95)
        print(f"class B's answers during the flood / without: median x{ratio:.2f}, "
              f"p95 x{ratio95:.2f}; target: median <= 1.5")
        loop.run(*(s.close() for s in students))


if __name__ == "__main__":
    main()
