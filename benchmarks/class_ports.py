"""Ports and processes for bench_classroom.py's class on several processes (deploy/run_class.py)."""
from __future__ import annotations

import contextlib
import os
from pathlib import Path

from tests.browser.helpers import free_port


def free_ports(n: int) -> int:
    """The first of ``n`` consecutive unused TCP ports on 127.0.0.1 (deploy/run_class.py
    numbers its app processes' ports from one): a free port's next one may be taken (seen as
    "Port … is not available" beside other servers' tests)."""
    import socket
    while True:
        first = free_port()
        try:
            with contextlib.ExitStack() as held:
                for port in range(first, first + n):
                    s = held.enter_context(socket.socket(socket.AF_INET, socket.SOCK_STREAM))
                    s.bind(("127.0.0.1", port))
            return first
        except OSError:
            continue


def listener_pid(port: int) -> int:
    """The pid of the process listening on 127.0.0.1:``port`` (Linux /proc)."""
    inode = None
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        parts = line.split()
        if parts[1].endswith(f":{port:04X}") and parts[3] == "0A":      # LISTEN
            inode = parts[9]
    if inode is None:
        raise LookupError(f"nothing listens on port {port}")
    for pid in filter(str.isdigit, os.listdir("/proc")):
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                    return int(pid)
    raise LookupError(f"no process owns the socket on port {port}")
