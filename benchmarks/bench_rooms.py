"""A class room on one server: 100 students join, wait, answer one question, see the reveal.

    python benchmarks/bench_rooms.py                 # 100 students, 20 s of idle polling
    python benchmarks/bench_rooms.py --students 30 --idle 10

What a "student" is here: a real Streamlit session over the app's websocket, speaking
Streamlit's own protocol (protobuf ``BackMsg``/``ForwardMsg``) from Python instead of from a
browser. Each one opens ``/join?code=…`` (the QR link), so the server runs the real join
page; it sends its anonymous id as ``ui/rooms/voter.js`` does (the element's state ``id``);
it clicks an answer button by sending the button's trigger, as the browser does; and it
keeps the page's poll running as the browser would: the server asks for a fragment rerun
every ``run_every`` seconds (``auto_rerun``) and the client sends it. What it does not do is
draw: no DOM, no Plotly, no pictures decoded — the phones' own work, which costs the server
nothing. The teacher is a real Chromium page (the projector), so its live tally is measured
too, and the benchmark checks that it reaches "100 answered".

Reported, with the server's CPU time from /proc: joining; idle polling (CPU per poll and per
second, teacher alone and with the class); the answers (time from the first click to the
last confirmation, and to the projector showing them all); the reveal reaching every phone.
The target is 100 answers within 10 s on one server.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_classroom import cpu_seconds, quantile  # noqa: E402
from tests.browser.helpers import open_app, streamlit_app  # noqa: E402

FINISHED = (ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)


class Student:
    """One Streamlit session on the join page, driven over the websocket."""

    def __init__(self, ws_url: str, code: str, headers: dict | None = None,
                 source: str | None = None):
        self.ws_url, self.code = ws_url, code
        # e.g. {"X-Forwarded-For": "10.1.0.7"}: a student behind the balancer, whose address
        # the server takes from that header when the connection comes from 127.0.0.1
        self.headers = headers
        # e.g. "127.0.1.7": the connection's own source address (any of the loopback's
        # 127.0.0.0/8), for a real balancer in front, which drops a client's X-Forwarded-For
        self.source = source
        self.voter = secrets.token_hex(16)         # what voter.js keeps in localStorage
        self.page_hash = ""
        self.buttons: dict[str, str] = {}          # label -> widget id, of the last full run
        self.texts: list[str] = []                 # alerts and markdown of the last full run
        self.polls = 0
        self.poll_seconds: list[float] = []        # each poll: sent -> its run finished
        self._poll_sent: float | None = None
        self.full_runs = 0
        self.changed = asyncio.Event()             # a full run finished
        self.busy = False                          # a full run of ours is under way
        self._timers: dict[str, asyncio.Task] = {}

    async def start(self) -> None:
        # No client pings: a browser sends none either (the server pings, the client answers).
        self.ws = await websockets.connect(self.ws_url, subprotocols=["streamlit"], max_size=None,
                                           ping_interval=None, additional_headers=self.headers,
                                           **({"local_addr": (self.source, 0)} if self.source
                                              else {}))
        self._reader = asyncio.create_task(self._read())
        await self._rerun(query=f"code={self.code}")

    async def _rerun(self, *, query: str | None = None, trigger: str | None = None,
                     fragment: str | None = None, voter_element: str | None = None) -> None:
        msg = BackMsg()
        state = msg.rerun_script
        state.query_string = query if query is not None else f"code={self.code}"
        state.page_name = "join"
        state.page_script_hash = self.page_hash
        if not fragment:
            self.busy = True
        if trigger:
            widget = state.widget_states.widgets.add()
            widget.id, widget.trigger_value = trigger, True
        if voter_element:
            widget = state.widget_states.widgets.add()
            widget.id, widget.json_value = voter_element, json.dumps({"id": self.voter})
        if fragment:
            state.fragment_id, state.is_auto_rerun = fragment, True
        await self.ws.send(msg.SerializeToString())

    async def _poll(self, fragment: str, interval: float) -> None:
        while True:
            await asyncio.sleep(interval)     # the page's own poll period (run_every)
            # This client sends no widget states with a poll (a browser sends them all), so a
            # poll must not overtake a click's rerun: the server would take the empty states.
            if not self.busy:
                self.polls += 1
                self._poll_sent = time.monotonic()
                await self._rerun(fragment=fragment)

    async def _read(self) -> None:
        buttons, texts = {}, []
        async for raw in self.ws:
            msg = ForwardMsg()
            msg.ParseFromString(raw)
            kind = msg.WhichOneof("type")
            if kind == "navigation":
                self.page_hash = msg.navigation.page_script_hash
            elif kind == "auto_rerun":
                fragment = msg.auto_rerun.fragment_id
                if fragment not in self._timers:
                    self._timers[fragment] = asyncio.create_task(
                        self._poll(fragment, msg.auto_rerun.interval))
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                element = msg.delta.new_element
                which = element.WhichOneof("type")
                if which == "button":
                    buttons[element.button.label] = element.button.id
                elif which == "alert":
                    texts.append(element.alert.body)
                elif which == "markdown":
                    texts.append(element.markdown.body)
                elif which == "bidi_component" and \
                        element.bidi_component.component_name == "irlab_voter":
                    self._timers["voter"] = asyncio.create_task(
                        self._rerun(voter_element=element.bidi_component.id))
            elif kind == "script_finished":
                if msg.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
                    self.buttons, self.texts, self.busy = buttons, texts, False
                    self.full_runs += 1
                    self.changed.set()
                if msg.script_finished != ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY:
                    buttons, texts = {}, []
                elif self._poll_sent is not None:
                    self.poll_seconds.append(time.monotonic() - self._poll_sent)
                    self._poll_sent = None

    async def until(self, predicate, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not predicate(self):
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"student never saw it; last texts: {self.texts[:3]}")
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                pass

    def shows(self, words: str) -> bool:
        return any(words in t for t in self.texts)

    async def answer(self, label: str) -> None:
        await self._rerun(trigger=self.buttons[label])

    async def close(self) -> None:
        for task in self._timers.values():
            task.cancel()
        if hasattr(self, "ws"):              # (not when the server refused the connection)
            await self.ws.close()


class Loop:
    """An asyncio loop in a thread, so the teacher's (sync) Playwright page runs beside it."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()

    def run(self, *awaitables, timeout: float = 300):
        async def together():
            return await asyncio.gather(*awaitables)
        return asyncio.run_coroutine_threadsafe(together(), self.loop).result(timeout)


def teacher_sees(page, text: str, timeout_s: float = 60) -> float:
    """Seconds until the teacher's page shows ``text`` (it must do so by itself)."""
    start = time.monotonic()
    page.get_by_text(text).first.wait_for(timeout=timeout_s * 1000)
    return time.monotonic() - start


def cpu_over(pid: int, seconds: float) -> float:
    """Server CPU seconds spent during ``seconds`` of wall time (nothing else driven)."""
    before = cpu_seconds([pid])
    time.sleep(seconds)
    return cpu_seconds([pid]) - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=100)
    parser.add_argument("--idle", type=float, default=20.0, help="seconds of idle polling")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from tests.browser.helpers import launch_browser
    from ui.rooms.view import STUDENT_POLL_S, TEACHER_POLL_S

    n = args.students
    db = Path(tempfile.mkdtemp(prefix="irlab-rooms-")) / "rooms.sqlite3"
    os.environ["IRLAB_ROOMS_DB"] = str(db)
    os.environ["IRLAB_BEHIND_BALANCER"] = "1"    # its students each claim an address (XFF)
    loop = Loop()
    with streamlit_app("app.py") as app, sync_playwright() as pw:
        pid = app.process.pid
        ws_url = app.url.replace("http://", "ws://") + "/_stcore/stream"
        browser = launch_browser(pw)
        teacher = open_app(browser, app.url + "/room", width=1920, height=1080)
        teacher.get_by_role("button", name="Open a room").click()
        teacher.locator(".room-code").wait_for()
        code = teacher.locator(".room-code").inner_text().strip()
        teacher.get_by_role("radio", name="A or B?").click()       # choose, then ask
        teacher.get_by_role("combobox", name="Rankings").wait_for()   # its options: chosen
        teacher.get_by_role("button", name="Ask the class").click()
        teacher.get_by_text("0 answered").wait_for()

        print(f"{n} students, one server (pid {pid}); polls: teacher every {TEACHER_POLL_S:g} s, "
              f"students every {STUDENT_POLL_S:g} s")
        idle = args.idle
        teacher_cpu = cpu_over(pid, idle)
        teacher_polls = idle / TEACHER_POLL_S
        print(f"teacher alone, idle {idle:g} s: server CPU {teacher_cpu * 1000:.0f} ms "
              f"= {teacher_cpu / idle * 100:.1f}% of a core, "
              f"~{teacher_cpu / teacher_polls * 1000:.1f} ms per tally redraw")

        # each student has its own address, as the balancer forwards it: the limits count
        # per address (ui/rooms/limits.py), and a class is not one address
        students = [Student(ws_url, code, {"X-Forwarded-For": f"10.2.{i // 250}.{i % 250 + 1}"})
                    for i in range(n)]
        cpu0, t0 = cpu_seconds([pid]), time.monotonic()

        async def join_all():
            await asyncio.gather(*(s.start() for s in students))
            await asyncio.gather(*(s.until(lambda s: "Ranking A" in s.buttons) for s in students))
        loop.run(join_all())
        joined_s, join_cpu = time.monotonic() - t0, cpu_seconds([pid]) - cpu0
        print(f"join: {n} sessions open /join?code=… in {joined_s:.1f} s, server CPU "
              f"{join_cpu:.2f} s ({join_cpu / n * 1000:.0f} ms per student)")
        teacher_sees(teacher, f"0 answered · {n} joined")

        polls0 = sum(s.polls for s in students)
        class_cpu = cpu_over(pid, idle)
        polls = sum(s.polls for s in students) - polls0
        student_cpu = class_cpu - teacher_cpu
        print(f"idle class, {idle:g} s: server CPU {class_cpu * 1000:.0f} ms = "
              f"{class_cpu / idle * 100:.1f}% of a core; {polls} student polls, "
              f"~{student_cpu / max(polls, 1) * 1000:.2f} ms each beyond the teacher's "
              f"({student_cpu / idle * 100:.1f}% of a core for {n} students)")

        choices = ["Ranking A", "Ranking B", "Both the same"]
        cpu0, t0 = cpu_seconds([pid]), time.monotonic()
        confirmed: list[float] = []

        async def answer_all():
            async def one(i, s):
                await s.answer(choices[i % 3])
                await s.until(lambda s: s.shows("Your answer"))
                confirmed.append(time.monotonic() - t0)
            await asyncio.gather(*(one(i, s) for i, s in enumerate(students)))
        loop.run(answer_all())
        last = max(confirmed)
        teacher_sees(teacher, f"{n} answered · {n} joined")
        answer_cpu = cpu_seconds([pid]) - cpu0
        print(f"answers: {n} clicks at once -> confirmations p50 {statistics.median(confirmed):.2f} s,"
              f" p95 {quantile(confirmed, 0.95):.2f} s, last {last:.2f} s; the projector shows "
              f"all {n} after {time.monotonic() - t0:.2f} s; server CPU {answer_cpu:.2f} s "
              f"({answer_cpu / n * 1000:.0f} ms per answer)")

        cpu0, t0 = cpu_seconds([pid]), time.monotonic()
        teacher.get_by_role("button", name="Reveal the answer").click()
        loop.run(*(s.until(lambda s: s.shows("Right answer")) for s in students))
        reveal_s, reveal_cpu = time.monotonic() - t0, cpu_seconds([pid]) - cpu0
        print(f"reveal: on all {n} phones after {reveal_s:.2f} s (poll {STUDENT_POLL_S:g} s + "
              f"a full rerun each); server CPU {reveal_cpu:.2f} s")
        verdict = "within" if last <= 10 else "NOT within"
        print(f"target: {n} answers confirmed {verdict} 10 s ({last:.2f} s)")
        loop.run(*(s.close() for s in students))
        browser.close()


if __name__ == "__main__":
    main()
