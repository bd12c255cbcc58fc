"""The server the load benchmarks start (bench/load.py, bench/soak.py): ``python -m app serve`` as
scripts/run.sh starts it, through bench/gc_trace.py, with the per-address limits lifted; and
``gc_figures``, what that trace says of the server's garbage collections.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from bench.machine import free_port

ROOT = Path(__file__).resolve().parent.parent


def start_server(database_url: str, gc_trace: str, start_within: float = 60) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "UNO_BETWEEN_ROUNDS_SECONDS": "1", "UNO_MAX_ROOMS": "100000", "UNO_ECHO_ENDPOINT": "1",
           "DATABASE_URL": database_url,
           # Every bot is 127.0.0.1 and plays as fast as it can: lift the per-address and per-socket limits.
           "UNO_CREATE_ROOMS_PER_MINUTE": "1000000", "UNO_JOINS_PER_MINUTE": "1000000",
           "UNO_ROOMS_PER_ADDRESS": "1000000", "UNO_SOCKET_RATE_MESSAGES": "1000000",
           "UNO_SOCKETS_PER_ADDRESS": "1000000", "UNO_CONNECTIONS_PER_ADDRESS": "1000000",
           "UNO_MAX_CONNECTIONS": "1000000", "UNO_SOCKET_OPENS_PER_MINUTE": "1000000",
           "UNO_HTTP_REQUESTS_PER_MINUTE": "0", "UNO_NEW_PLAYERS_PER_HOUR": "1000000"}
    # As scripts/run.sh starts it (frame size, no per-message deflate), with a backlog for the connect burst.
    # Through bench/gc_trace.py, which times every garbage collection the server makes.
    proc = subprocess.Popen([sys.executable, "-m", "bench.gc_trace", gc_trace, "--host", "127.0.0.1",
                             "--port", str(port), "--log-level", "warning", "--backlog", "4096"],
                            cwd=ROOT, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + start_within
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url + "/healthz").status_code == 200:
                return proc, url
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")

def gc_figures(trace: dict[str, Any], ready: float, start: float, end: float) -> dict[str, Any]:
    """The server's garbage collections between two wall-clock times: how many of each generation,
    the longest (every room waits that long) and the share of the time they took; the longest
    since the server was ready (rooms created, sockets connecting); then the probe made after the
    window (bench/gc_trace.py)."""
    inside = [(gen, took) for at, gen, took in trace["pauses"] if start <= at <= end]
    since_ready = [took for at, _, took in trace["pauses"] if ready <= at <= end]
    probe = trace.get("probe") or {}
    return {
        "gc_probe": probe,
        "gc_max_pause_ms_since_ready": round(max(since_ready, default=0.0) * 1000, 2),
        "gc_collections": [sum(1 for gen, _ in inside if gen == g) for g in (0, 1, 2)],
        "gc_max_pause_ms": round(max((took for _, took in inside), default=0.0) * 1000, 2),
        "gc_pause_ms_per_s": round(sum(took for _, took in inside) * 1000 / max(end - start, 1e-9), 2),
        "gc_pauses_over_50ms": sum(1 for _, took in inside if took > 0.05),
    }
