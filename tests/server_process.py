"""A server in a process of its own, started the way a self-hoster starts it, on a free port.

The hardening tests (scripts/run.sh, ``python -m app serve``) and the crash tests share this.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Mapping
from contextlib import suppress
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]

# For a port: the command that serves on it, and its environment.
Command = Callable[[int], tuple[list[str], Mapping[str, str]]]

# How often a start that lost its port is made again before the test gives up.
STARTS = 3


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stop_group(proc: subprocess.Popen[bytes], sig: int = signal.SIGKILL) -> None:
    """``sig`` to the process's session (spawned with ``start_new_session``: a wrapper and the
    server it started go together); reaped."""
    with suppress(ProcessLookupError):
        os.killpg(proc.pid, sig)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(5)


def lost_its_port(log: Path) -> bool:
    return "address already in use" in log.read_text().lower()


def start_listening(command: Command, log: Path, seconds: float = 90) -> tuple[subprocess.Popen[bytes], int]:
    """``command(port)`` run from the project's root on a free port, its output in ``log`` and in a session
    of its own (a wrapper and the server it starts), waited for until ``/healthz`` answers; the process and
    its port.

    The port is free when chosen, but any process on the machine may bind it before the server
    has imported and migrated (bind(0) hands the same free ports to everyone): a start that
    lost its port is made again on another one.  ``seconds`` bounds a start on a loaded machine.
    """
    for _ in range(STARTS):
        port = free_port()
        argv, env = command(port)
        with log.open("w") as out:
            proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                    start_new_session=True)
        deadline = time.monotonic() + seconds
        while proc.poll() is None:
            if time.monotonic() > deadline:
                stop_group(proc)
                raise AssertionError(f"the server did not start within {seconds} s:\n{log.read_text()}")
            with suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    return proc, port
            time.sleep(0.1)
        stop_group(proc)  # whatever it started goes with it
        if not lost_its_port(log):
            raise AssertionError(f"the server exited while starting:\n{log.read_text()}")
    raise AssertionError(f"{STARTS} starts in a row lost their port:\n{log.read_text()}")
