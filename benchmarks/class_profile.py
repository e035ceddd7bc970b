"""A sampling profile of a running server while a benchmark's block runs (py-spy)."""
from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import time
from pathlib import Path


@contextlib.contextmanager
def profiler(pid: int, out: Path):
    """``py-spy record`` attached to ``pid`` while the block runs (every thread, idle ones too,
    200 samples a second, not pausing the server), its collapsed stacks written to ``out``."""
    spy = subprocess.Popen([str(Path(sys.executable).with_name("py-spy")), "record", "--threads",
                            "--idle", "--nonblocking", "-r", "200", "-f", "raw", "-o", str(out),
                            "-p", str(pid)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(1.0)            # py-spy attaches before the first round (a wait for a tool
                                   # that says nothing when it is ready)
        yield
    finally:
        spy.send_signal(signal.SIGINT)
        spy.wait(timeout=60)
