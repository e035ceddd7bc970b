"""A prankster floods one class room while a second class answers on the same server.

    python benchmarks/bench_rooms_flood.py                # 30 students, 5 pairs of questions
    python benchmarks/bench_rooms_flood.py --students 20 --pairs 3 --connections 6

The prankster is what issue 38 found: a script that opens a *new* Streamlit session for every
try (a new websocket, a new student id: what clearing the browser's storage and reloading
gives), ``--connections`` at a time, from one address (loopback), as fast as the server lets
it, at most ``--most`` sessions a question (a bounded loop, on this machine only). Half its
sessions join room A with its real code, half guess codes. Meanwhile class B (``--students``
sessions, each with its own address, as the balancer forwards it in ``X-Forwarded-For``)
keeps polling its room and answers its teacher's questions (each over ``--spread`` seconds,
as a class answers).

Reported, all from one run (the machine is shared: only ratios within a run compare):

* what one *refused* session costs the server: CPU time (the server process's own clock,
  its idle rate taken off) per new session refused by a limit, beside a student who joins
  (the reference). Target: at most 20 ms;
* how many of the prankster's sessions got into room A (the per-address limit: 10 a minute)
  and what room A's projector would count;
* class B's answer confirmations (click -> "Your answer") and poll round trips, p50/p95/max,
  in ``--pairs`` pairs of questions: one without a flood, one during it (the flood starts
  ``--lead`` seconds before the question and lasts until the class's last answer is
  confirmed; the prankster's address starts afresh each time). Which half of a pair comes
  first alternates. The figure is the median of the pairs' ratios (during / without, of the
  answers' medians): the load of other work on a shared machine drifts over minutes, and
  within a pair it weighs on both halves alike. Target: at most 1.5.

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

from websockets.exceptions import InvalidStatus

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_classroom import quantile  # noqa: E402
from benchmarks.bench_rooms import Loop, Student  # noqa: E402

CHOICES = [["yes", "Yes"], ["no", "No"]]
REFUSED = "Too many "
#: After the balancer answered 429 (deploy/run_class.py's limit on new sessions), the flood's
#: worker waits this long before its next try. HAProxy answers a try in well under a
#: millisecond, but this script spends about one of a core on it: without the pause the
#: prankster's own CPU would take a core of this 2-core machine from the server, which a
#: prankster on another machine does not.
PAUSE_AFTER_429 = 0.05


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
                guess_every: int = 2, headers=None,
                until: asyncio.Event | None = None) -> dict[str, int]:
    """``connections`` workers open new sessions one after another until ``seconds`` pass,
    ``most`` sessions were opened or ``until`` is set; every ``guess_every``-th session
    guesses a code instead."""
    from ui.rooms.room import new_code
    outcomes: dict[str, int] = {}
    opened = 0
    deadline = time.monotonic() + seconds

    async def worker():
        nonlocal opened
        while time.monotonic() < deadline and opened < most and not (until and until.is_set()):
            opened += 1
            target = new_code() if guess_every and opened % guess_every == 0 else code
            try:
                result = await one_session(ws_url, target, headers=headers, timeout=30)
            except InvalidStatus as refused:        # the balancer's limit
                result = f"HTTP {refused.response.status_code}"
                await asyncio.sleep(PAUSE_AFTER_429)
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


def address(n: int, network: int, balancer: bool) -> dict:
    """Student arguments for the ``n``-th client of ``network`` with its own address: behind
    the deployment's HAProxy, a connection from its own loopback address (127.x.y.z: HAProxy
    drops a client's X-Forwarded-For); on a bare app process, a forwarded address (the app
    trusts the header from 127.0.0.1, as its balancer would set it)."""
    if balancer:
        return {"source": f"127.{network}.{n // 250}.{n % 250 + 1}"}
    return {"headers": {"X-Forwarded-For": f"10.{network}.{n // 250}.{n % 250 + 1}"}}


async def joining_sessions(ws_url: str, code: str, n: int, first: int, at_once: int = 3,
                           balancer: bool = False):
    """The reference: ``n`` students who join (each its own address) and see "You are in"
    (the page drawn), ``at_once`` at a time."""
    left = iter(range(first, first + n))

    async def worker():
        for k in left:
            student = Student(ws_url, code, **address(k, 9, balancer))
            try:
                await student.start()
                await student.until(lambda s: s.shows("first question") or s.shows("Right")
                                    or "Yes" in s.buttons, 60)
            finally:
                await student.close()
    await asyncio.gather(*(worker() for _ in range(at_once)))


def cpu_per_session(pids: list[int], loop, work, n: int, idle_rate: float) -> float:
    """Server CPU milliseconds per session of ``work`` (the idle rate taken off), all app
    processes together."""
    from benchmarks.bench_classroom import cpu_seconds
    before, start = cpu_seconds(pids), time.monotonic()
    loop.run(work)
    spent = cpu_seconds(pids) - before - idle_rate * (time.monotonic() - start)
    return 1000 * max(0.0, spent) / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=30, help="class B's size")
    parser.add_argument("--processes", type=int, default=1,
                        help="1: one bare app process; 2 or more: deploy/run_class.py's app "
                             "processes behind its HAProxy, with its limit on new sessions")
    parser.add_argument("--pairs", type=int, default=5,
                        help="pairs of questions, one without a flood and one during it")
    parser.add_argument("--lead", type=float, default=3.0,
                        help="seconds the flood runs before the question is posed")
    parser.add_argument("--connections", type=int, default=6, help="the flood's sessions at once")
    parser.add_argument("--most", type=int, default=2000,
                        help="the flood's sessions at most, per question")
    parser.add_argument("--spread", type=float, default=6.0,
                        help="seconds over which class B's students answer")
    parser.add_argument("--refused", type=int, default=30,
                        help="refused sessions (and joining ones) whose server CPU is measured")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds of the refused-session measure (the median is reported)")
    args = parser.parse_args()
    from benchmarks.bench_classroom import class_server
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
    balancer = args.processes > 1
    with class_server(args.processes) as server:
        ws_url = server.url.replace("http://", "ws://") + "/_stcore/stream"
        print(f"{'deploy/run_class.py: HAProxy and ' if balancer else ''}{args.processes} app "
              f"process(es) (pids {server.pids}); class B: {args.students} students; flood: "
              f"{args.connections} connections from {args.lead:g} s before a question until "
              f"its last answer, at most {args.most} sessions; {args.pairs} pairs")
        students = [Student(ws_url, code_b, **address(n, 1, balancer))
                    for n in range(args.students)]

        async def class_joins():
            await asyncio.gather(*(s.start() for s in students))
            await asyncio.gather(*(s.until(lambda s: s.shows("first question")) for s in students))
        loop.run(class_joins())
        print(f"class B joined: {store.room(code_b).members} students")

        def summary(name, values):
            print(f"  class B {name}: n={len(values)}, p50 {statistics.median(values):.2f} s, "
                  f"p95 {quantile(values, 0.95):.2f} s, max {max(values):.2f} s")

        async def class_answers(prompt: str, confirmations: list[float]):
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

        def a_round(prompt: str, flooded: bool) -> tuple[list[float], list[float], dict]:
            """Class B answers one question, during a flood or not: its answers' and polls'
            seconds, and the flood's outcomes. The flood starts ``--lead`` seconds before the
            question and lasts until the last answer is confirmed."""
            answers: list[float] = []
            polls_before = [len(s.poll_seconds) for s in students]

            async def flooded_answers():
                done = asyncio.Event()

                async def answers_then_stop():
                    await asyncio.sleep(args.lead)             # (the flood in full swing)
                    try:
                        await class_answers(prompt, answers)
                    finally:
                        done.set()
                outcomes, _ = await asyncio.gather(
                    flood(ws_url, code_a, seconds=args.lead + 240, connections=args.connections,
                          most=args.most, until=done),
                    answers_then_stop())
                return outcomes

            if flooded:
                store.db.query("DELETE FROM hits WHERE who = 'address:local'")  # a new prankster
                outcomes, = loop.run(flooded_answers(), timeout=300)
            else:
                loop.run(class_answers(prompt, answers), timeout=300)
                outcomes = {}
            polls = [t for s, before in zip(students, polls_before)
                     for t in s.poll_seconds[before:]]
            return answers, polls, outcomes

        # 1. what a refused session costs, beside a student who joins (the same run)
        from benchmarks.bench_classroom import idle_cpu_rate
        pids = server.pids
        code_c, _ = store.open_room("10.255.0.3")        # (room A stays the flood's)
        for _ in range(10):                               # this machine's joins: used up
            store.join(code_c, secrets.token_hex(16), None)
        refused_ms, joining_ms, refused = [], [], 0
        for r in range(args.rounds):
            idle = idle_cpu_rate(pids, 1.0)
            joining_ms.append(cpu_per_session(pids, loop, joining_sessions(
                ws_url, code_b, args.refused, 1000 + r * args.refused, balancer=balancer),
                args.refused, idle))
            counted = []

            async def refuse_some(counted=counted):
                counted.append(await refused_sessions(ws_url, code_c, args.refused))
            refused_ms.append(cpu_per_session(pids, loop, refuse_some(), args.refused, idle))
            refused += counted[0]
        print(f"refused sessions: {refused} of {args.rounds * args.refused} refused; server "
              f"CPU per session, median of {args.rounds} rounds of {args.refused}: refused "
              f"{statistics.median(refused_ms):.1f} ms, a student joining "
              f"{statistics.median(joining_ms):.1f} ms (ratio "
              f"{statistics.median(refused_ms) / statistics.median(joining_ms):.2f}); "
              f"target: refused <= 20 ms")

        # 2. class B answers without a flood and during one, in --pairs pairs (which comes
        # first alternates): the ratio of each pair's medians, so that the machine's load,
        # which drifts over minutes, weighs on both halves of a pair alike
        quiet_all, flood_all, quiet_polls, flood_polls, ratios = [], [], [], [], []
        sessions: dict[str, int] = {}
        for pair in range(args.pairs):
            halves = {}
            for flooded in ((False, True) if pair % 2 == 0 else (True, False)):
                t0 = time.monotonic()
                halves[flooded] = a_round(f"Room B: question {2 * pair + flooded + 1}", flooded)
                if flooded:
                    outcomes = halves[True][2]
                    for k, v in outcomes.items():
                        sessions[k] = sessions.get(k, 0) + v
                    flood_took = time.monotonic() - t0
            (quiet, q_polls, _), (during, f_polls, outcomes) = halves[False], halves[True]
            ratio = statistics.median(during) / statistics.median(quiet)
            ratios.append(ratio)
            quiet_all += quiet
            flood_all += during
            quiet_polls += q_polls
            flood_polls += f_polls
            print(f"pair {pair + 1} ({'quiet first' if pair % 2 == 0 else 'flood first'}): "
                  f"answers p50 {statistics.median(quiet):.3f} s without, "
                  f"{statistics.median(during):.3f} s during a flood of "
                  f"{sum(outcomes.values())} new sessions in {flood_took:.1f} s "
                  f"({sum(outcomes.values()) / flood_took:.1f}/s); ratio x{ratio:.2f}",
                  flush=True)
        room_a = store.room(code_a)
        print(f"the flood, all pairs: {sum(sessions.values())} new sessions: {sessions}")
        print(f"room A: {room_a.members} joined, {room_a.waiting} waiting")
        print("without a flood (all pairs):")
        summary("answer confirmations", quiet_all)
        summary("poll round trips", quiet_polls)
        print("during the flood (all pairs):")
        summary("answer confirmations", flood_all)
        summary("poll round trips", flood_polls)
        print(f"class B's answers during the flood / without: median of the {args.pairs} "
              f"pairs' ratios x{statistics.median(ratios):.2f} "
              f"(pairs: {', '.join(f'x{r:.2f}' for r in ratios)}); all answers pooled: "
              f"median x{statistics.median(flood_all) / statistics.median(quiet_all):.2f}, "
              f"p95 x{quantile(flood_all, 0.95) / quantile(quiet_all, 0.95):.2f}; "
              f"target: median <= 1.5")
        loop.run(*(s.close() for s in students))


if __name__ == "__main__":
    main()
