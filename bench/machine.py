"""What the benchmarks read of this machine and ask of it: a process's CPU time and resident
memory (from /proc), its children, this machine's Postgres processes, a free loopback port, as
many open files as the hard limit allows, and an end by SIGTERM that stops what the bench started.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import socket
from pathlib import Path
from types import FrameType


def end_on_signals() -> None:
    """Make SIGTERM and SIGHUP end this bench the way Ctrl-C does: by an exception, so every
    ``finally`` and ``with`` on the way out runs and stops what it started.  The servers, nodes
    and nginx a bench starts are in sessions of their own (a Ctrl-C at the terminal must not kill
    them mid-measure), so no signal sent to the bench reaches them: only its own clean-up does.
    Without this, SIGTERM (``timeout``, a CI's cancel) ends the bench at once and leaves them."""
    def stop(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(128 + signum)

    for wanted in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(wanted, stop)


def raise_open_files() -> None:
    """Each socket is a file: take the hard limit (4,000 players need 4,000 on each side)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 65536, hard))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int | None) -> float | None:
    """User + system CPU time of a process so far (from /proc)."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def rss_kib(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def rss_sum(pids: list[int]) -> int | None:
    """The resident memory of these processes together (None if any is gone)."""
    sizes = [rss_kib(p) for p in pids]
    return sum(s for s in sizes if s is not None) if sizes and None not in sizes else None


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (nginx's workers, say)."""
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def postgres_pids() -> list[int]:
    """This machine's Postgres processes (the server and its backends)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if (entry / "comm").read_text().strip() == "postgres":
                    found.append(int(entry.name))
    return found
