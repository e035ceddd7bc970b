"""Issue 38's prankster, scripted, against the deployment (deploy/run_class.py: two app processes
behind HAProxy): every try a new Streamlit session with a new student id (what clearing the
browser's storage and reloading gives), six connections at once, each claiming another address
in ``X-Forwarded-For``. HAProxy drops that header and forwards the real one, the limits are
counted in the shared database whatever process serves a session, so the prankster gets what one
address gets: 10 joins a minute, of which one room admits 3 (the rest wait for the teacher).
No browser: sessions speak Streamlit's protocol (benchmarks/bench_rooms.py). A bounded loop on
loopback only."""
from __future__ import annotations

import os
import shutil

import pytest

from benchmarks.bench_classroom import class_server
from benchmarks.bench_rooms import Loop
from benchmarks.bench_rooms_flood import flood, question
from ui.rooms import limits as rl
from ui.rooms.store import RoomStore

pytestmark = [
    pytest.mark.browser,
    pytest.mark.serial,         # a flood of sessions: alone, after the parallel run
    pytest.mark.skipif(not (shutil.which("haproxy") or os.path.exists("/usr/sbin/haproxy"))
                       and os.environ.get("IRLAB_BROWSER_TESTS", "").lower() != "required",
                       reason="haproxy is not installed (apt-get install haproxy)"),
]

SESSIONS = 24


def test_a_flood_of_new_sessions_behind_haproxy_gets_what_one_address_gets(tmp_path,
                                                                           monkeypatch):
    db = tmp_path / "rooms.sqlite3"
    monkeypatch.setenv("IRLAB_ROOMS_DB", str(db))
    monkeypatch.delenv("IRLAB_ROOMS_URL", raising=False)
    monkeypatch.delenv("IRLAB_ROOMS_PER_ADDRESS", raising=False)
    store = RoomStore.from_env({"IRLAB_ROOMS_DB": str(db)})
    code, secret = store.open_room("192.0.2.250")
    store.pose(code, secret, question("Which metric?"))
    forged = iter(range(10_000))
    loop = Loop()
    with class_server(2) as server:
        ws_url = server.url.replace("http://", "ws://") + "/_stcore/stream"

        class Forged(dict):            # a new made-up address on every connection
            def items(self):
                return [("X-Forwarded-For", f"198.51.100.{next(forged) % 250}")]

        outcomes, = loop.run(flood(ws_url, code, seconds=120, connections=6, most=SESSIONS,
                                   guess_every=0, headers=Forged()), timeout=300)
    joins, _ = rl.LIMITS[("address", "join")]
    admitted = rl.PER_ADDRESS_IN_ROOM
    assert outcomes == {"answered": admitted, "waiting": joins - admitted,
                        "refused": SESSIONS - joins}, outcomes
    room = store.room(code)
    assert (room.members, room.waiting) == (admitted, joins - admitted)
    assert sum(store.tally(code, room.current.id).values()) == admitted   # "answered"
    # every try was counted against the one real address, none against a forged one
    counted = {who for who, in store.db.query(
        "SELECT DISTINCT who FROM hits WHERE who LIKE 'address:%'")}
    assert counted == {"address:local", "address:192.0.2.250"}, counted


def test_haproxy_limits_new_sessions_per_client_address(browser):
    """deploy/run_class.py's HAProxy counts each client address's new sessions (websockets)
    over 10 seconds and answers 429 past its limit, before any app process sees them; another
    address is not held by it. Here 48 a minute, so 8 in 10 s: the 9th and 10th session from
    127.0.0.1 are refused, then one from 127.0.0.2 gets in (both are this machine's loopback).
    A student's browser refused the same way is not left stranded: Streamlit's page retries
    its websocket by itself (every few seconds) and the page runs once the window has slid on."""
    import asyncio
    import concurrent.futures
    import time

    import websockets

    most = 8

    async def open_session(url: str, source: str) -> int:
        try:
            ws = await websockets.connect(url, subprotocols=["streamlit"], ping_interval=None,
                                          local_addr=(source, 0), open_timeout=60)
        except websockets.exceptions.InvalidStatus as refused:
            return refused.response.status_code
        await ws.close()
        return 101

    with class_server(2, ["--sessions-per-minute", str(6 * most)]) as server:
        ws_url = server.url.replace("http://", "ws://") + "/_stcore/stream"

        async def tries():
            start = time.monotonic()
            first = [await open_session(ws_url, "127.0.0.1") for _ in range(most + 2)]
            took = time.monotonic() - start
            return first, took, await open_session(ws_url, "127.0.0.2")
        # In a thread of its own: Playwright's sync API holds this thread's event loop.
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            first, took, other = pool.submit(asyncio.run, tries()).result()
        # 127.0.0.1 is at its limit now: a browser from it is refused, retries, then gets in.
        context = browser.new_context()
        try:
            page = context.new_page()
            sockets = []
            page.on("websocket", lambda ws: sockets.append(ws.url))
            page.goto(server.url + "/glossary")
            page.wait_for_selector("[data-testid=stApp][data-test-script-state=notRunning] h1",
                                   timeout=60_000)
        finally:
            context.close()
    assert len(sockets) >= 2, f"the browser's first websocket was not refused: {sockets}"
    assert took < 9, f"the {most + 2} tries took {took:.1f} s: the 10 s window slid on"
    assert first == [101] * most + [429, 429], first
    assert other == 101
