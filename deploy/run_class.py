"""Run the app for a class: N Streamlit processes behind HAProxy with sticky sessions.

    python deploy/run_class.py --processes 4            # students open http://<this machine>:8501

Starts N ``streamlit run app.py`` processes on 127.0.0.1 (ports 8601, 8602, ...) and HAProxy
in front of them on ``--bind``:``--port``, all in the foreground; Ctrl+C stops them all.
Installs Debian's ``haproxy`` package with apt-get when it is missing (as root; otherwise it
says what to run).

Why a balancer with *cookie* stickiness: a Streamlit session lives in one process. Its
websocket and its file uploads (separate HTTP requests) must reach that same process, so
HAProxy sets a cookie naming the process on the first response and routes every later
request of that browser by it. The processes share one ``server.cookieSecret``, so the XSRF
cookie one process signed is valid everywhere (after a process dies, its students reload and
land on another). HAProxy checks ``/_stcore/health`` and stops sending new students to a
process that fails it three times. ``timeout tunnel`` keeps idle websockets open through a lecture.
"""
from __future__ import annotations

import argparse
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COOKIE = "irlab_server"

HAPROXY_CFG = """\
global
    maxconn 4096
    log stderr format short local0 warning

defaults
    mode http
    log global
    option httplog
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    # a websocket may stay quiet for a whole lecture
    timeout tunnel 4h
    timeout client-fin 30s

frontend class
    bind {bind}:{port}
    # The class rooms count limits per client address (ui/rooms/limits.py). The app processes
    # see every connection come from 127.0.0.1, so HAProxy tells them the client's address in
    # X-Forwarded-For, which they trust from 127.0.0.1 only (FORWARDED_ALLOW_IPS below). A
    # header a client sent is dropped first: a student cannot pick the address counted.
    http-request del-header X-Forwarded-For
    option forwardfor
{session_limit}    default_backend streamlit

backend streamlit
    # Only a student's first request is balanced (the cookie routes the rest), and every
    # student costs a process about the same: take turns. (leastconn counted the short
    # page-load connections too and sent 16 of 20 students to one process in CI.)
    balance roundrobin
    cookie {cookie} insert indirect nocache httponly
    option httpchk GET /_stcore/health
    http-check expect string ok
    # a process busy with a burst of page loads answers slowly, not never: only a process
    # that fails three 10 s checks in a row stops getting new students
    timeout check 10s
{servers}
"""


#: New sessions (Streamlit websockets) one client address may open a minute by default:
#: twice a 300-seat lecture hall behind one NAT address whose every student opens the page
#: within the minute. See :data:`SESSION_LIMIT`.
SESSIONS_PER_MINUTE = 600

#: A new Streamlit session is a page run on an app process even when the class rooms refuse it
#: at once, and a script that opens them one after another gets as many as the process can run
#: (docs/rooms-security.md, "Measured"). HAProxy counts each client address's new sessions (the
#: websocket's upgrade request, ``…/_stcore/stream``) in a stick table, over 10 seconds so that
#: a burst is held as well as a minute's total (a sixth of the minute's limit in any 10 s), and
#: answers 429 to those over the limit without passing them on. An IPv6 client counts by its
#: /64, as the rooms' own limits do (ui/rooms/limits.py: address_key). The limit is checked
#: before a session is counted, so a refused try uses up nothing: an address over it gets
#: sessions again as the 10 seconds slide on, and a refused page gets in by itself: Streamlit
#: retries its websocket every few seconds (tests/browser/test_rooms_flood.py). The page's files, the health
#: checks and a session's later messages (one websocket) are not counted.
SESSION_LIMIT = """\
    # new sessions per client address (see deploy/run_class.py: SESSION_LIMIT)
    stick-table type ipv6 size 200k expire 1m store http_req_rate(10s)
    acl new_session path_end /_stcore/stream
    http-request deny deny_status 429 if new_session {{ src,ipmask(32,64),table_http_req_rate(class) ge {most} }}
    http-request track-sc0 src,ipmask(32,64) if new_session
"""


def haproxy_config(processes: int, *, bind: str, port: int, app_ports: list[int],
                   sessions_per_minute: int = SESSIONS_PER_MINUTE) -> str:
    """HAProxy's configuration for ``processes`` app processes on 127.0.0.1:``app_ports``;
    ``sessions_per_minute`` new sessions from one client address at most (0: no limit)."""
    servers = "\n".join(
        f"    server app{i} 127.0.0.1:{app_port} check inter 2s cookie app{i}"
        for i, app_port in enumerate(app_ports[:processes], start=1))
    limit = (SESSION_LIMIT.format(most=max(1, round(sessions_per_minute / 6)))
             if sessions_per_minute > 0 else "")
    return HAPROXY_CFG.format(bind=bind, port=port, cookie=COOKIE, servers=servers,
                              session_limit=limit)


def ensure_haproxy() -> str:
    """Path of the ``haproxy`` binary, installing Debian's package if it is missing."""
    found = shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin:/sbin")
    if found:
        return found
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        sys.exit("haproxy is missing: run `sudo apt-get install haproxy` (Debian/Ubuntu) and try again")
    print("== installing Debian's haproxy package", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", "haproxy"], check=True, env=env)
    return shutil.which("haproxy", path="/usr/sbin:/usr/bin:/sbin")


def app_command(app_port: int, extra: list[str]) -> list[str]:
    return [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
            "--server.address", "127.0.0.1", "--server.port", str(app_port),
            "--server.headless", "true",
            "--server.fileWatcherType", "none", "--server.runOnSave", "false", *extra]


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1) as r:
            return r.read().decode().strip() == "ok"
    except OSError:
        return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", "-n", type=int, default=max(2, os.cpu_count() or 2),
                        help="app processes (default: one per core, at least 2)")
    parser.add_argument("--port", type=int, default=8501, help="where students connect (8501)")
    parser.add_argument("--bind", default="0.0.0.0",
                        help="address HAProxy listens on (0.0.0.0: every network; 127.0.0.1: this machine only)")
    parser.add_argument("--app-port", type=int, default=8601,
                        help="first app process's port on 127.0.0.1 (8601; the next get +1, +2, ...)")
    parser.add_argument("--sessions-per-minute", type=int, default=SESSIONS_PER_MINUTE,
                        help=f"new sessions one client address may open a minute "
                             f"({SESSIONS_PER_MINUTE}; 0: no limit); the rest get 429 from HAProxy")
    parser.add_argument("streamlit_args", nargs="*",
                        help="more `streamlit run` options for every process, after --")
    args = parser.parse_args(argv)
    if args.processes < 1:
        parser.error("--processes must be at least 1")

    haproxy = ensure_haproxy()
    # One secret for all processes (XSRF cookies stay valid across them); set
    # IRLAB_COOKIE_SECRET to keep it across restarts.
    cookie_secret = os.environ.get("IRLAB_COOKIE_SECRET") or secrets.token_urlsafe(32)
    app_ports = [args.app_port + i for i in range(args.processes)]
    workdir = Path(tempfile.mkdtemp(prefix="irlab-class-"))
    config = workdir / "haproxy.cfg"
    config.write_text(haproxy_config(args.processes, bind=args.bind, port=args.port,
                                     app_ports=app_ports,
                                     sessions_per_minute=args.sessions_per_minute),
                      encoding="utf-8")

    children: list[subprocess.Popen] = []

    def stop(*_):
        for child in reversed(children):
            if child.poll() is None:
                child.terminate()
        deadline = time.monotonic() + 10
        for child in children:
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
        shutil.rmtree(workdir, ignore_errors=True)

    def interrupted(*_):
        raise KeyboardInterrupt
    # Explicit handlers: a shell may have started us with SIGINT ignored (`... &`).
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, interrupted)
    try:
        for i, app_port in enumerate(app_ports, start=1):
            # Streamlit takes the secret only from a file or the environment, not a flag.
            env = {**os.environ, "STREAMLIT_SERVER_COOKIE_SECRET": cookie_secret,
                   # the server (uvicorn) takes X-Forwarded-For from the balancer only, and
                   # the rooms count that address (ui/rooms/view.py: client_address)
                   "FORWARDED_ALLOW_IPS": "127.0.0.1", "IRLAB_BEHIND_BALANCER": "1"}
            child = subprocess.Popen(app_command(app_port, args.streamlit_args), cwd=ROOT,
                                     env=env, stdin=subprocess.DEVNULL)
            children.append(child)
            print(f"== app{i}: pid {child.pid}, 127.0.0.1:{app_port}", flush=True)
        deadline = time.monotonic() + 90
        while not all(healthy(p) for p in app_ports):
            if any(c.poll() is not None for c in children):
                print("an app process exited; stopping", file=sys.stderr)
                return 1
            if time.monotonic() > deadline:
                print("the app processes did not become healthy in 90 s", file=sys.stderr)
                return 1
            time.sleep(0.3)
        balancer = subprocess.Popen([haproxy, "-db", "-f", str(config)], stdin=subprocess.DEVNULL)
        children.append(balancer)
        print(f"== haproxy: pid {balancer.pid}, {args.bind}:{args.port} -> {args.processes} "
              f"processes (sticky cookie {COOKIE})", flush=True)
        print(f"== students open http://<this machine's address>:{args.port}   (Ctrl+C stops all)",
              flush=True)
        while all(c.poll() is None for c in children):
            time.sleep(0.5)
        print("a process exited; stopping the others", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        stop()


if __name__ == "__main__":
    sys.exit(main())
