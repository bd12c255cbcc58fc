"""A burst of connections that never send a byte is taken in, and let go, a few per turn of the loop.

12,000 silent connections held the rooms for hundreds of milliseconds, mostly as they went:
libuv handles every connection that closed in one poll, and each cost the loop a transport and
a protocol to tear down (docs/OPERATIONS.md, ``idle_connections``).  ``app/transport/accept.py``
keeps a connection off the loop until it speaks, and bounds what one turn takes in or lets go
by ``UNO_ACCEPTS_PER_TURN``.  Checked structurally: a callback that runs once per turn of the
server's loop reads the gate's count of open connections, and no turn may change it by much
more than the bound — with the whole burst already waiting (the loop is held busy while it arrives,
and while it closes), so that it is not the clients' pace that spreads it out.  With uvloop's
own server, 2,001 connections were let go in one turn here.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import Callable

import httpx
import pytest

from app.transport.accept import SWEEP_EVERY_S, Listener
from app.transport.gate import ConnectionGate
from tests.hardening.test_connections import gate, live, tcp

BURST = 2_000
PER_TURN = 16
# What one turn may change the count by: the listener's share (at most PER_TURN from the backlog,
# PER_TURN of the silent ones) and a connection of the test's own going on (its health check).
SLACK = 2 * PER_TURN


class TurnProbe:
    """Once a turn of the server's loop, the gate's count of open connections: the largest change in one turn."""

    def __init__(self, gate: ConnectionGate, loop: asyncio.AbstractEventLoop) -> None:
        self.gate, self.loop = gate, loop
        self.last = gate.open
        self.grew = self.shrank = 0
        self.turns = 0
        self.running = True

    def __call__(self) -> None:
        now = self.gate.open
        self.grew = max(self.grew, now - self.last)
        self.shrank = max(self.shrank, self.last - now)
        self.last = now
        self.turns += 1
        if self.running:
            self.loop.call_soon(self)


def busy_then(loop: asyncio.AbstractEventLoop, seconds: float, then: Callable[[], None]) -> threading.Event:
    """Hold the server's loop for ``seconds`` (what arrives meanwhile waits in the kernel), then ``then``.
    Returns once the loop is held (a busy machine may take a while to get there)."""
    started, done = threading.Event(), threading.Event()

    def hold() -> None:
        started.set()
        time.sleep(seconds)  # the server's loop, held on purpose: what the test is about
        then()
        done.set()

    loop.call_soon_threadsafe(hold)
    assert started.wait(30), "the server's loop never got to the hold"
    return done


def wait_for(condition: Callable[[], bool], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def silent_connections(port: int, n: int) -> list[socket.socket]:
    """``n`` connections from 127.0.0.2..11 that send nothing (connected by the kernel, not yet accepted)."""
    held = []
    for i in range(n):
        s = socket.socket()
        s.bind((f"127.0.0.{2 + i % 10}", 0))
        s.setblocking(False)
        assert s.connect_ex(("127.0.0.1", port)) in (0, 115)  # EINPROGRESS
        held.append(s)
    return held


@pytest.mark.slow
def test_a_burst_of_silent_connections_is_taken_in_and_let_go_a_few_per_turn() -> None:
    with live(accepts_per_turn=PER_TURN, connections_per_address=BURST) as server:
        counted = gate(server)
        loop = server.server.servers[0].get_loop()
        probe = TurnProbe(counted, loop)

        def start_probe() -> None:
            probe.last = counted.open
            loop.call_soon(probe)

        # The burst arrives while the loop is busy: all of it is in the backlog when the loop looks.
        busy = busy_then(loop, 1.0, start_probe)
        held = silent_connections(server.port, BURST)
        assert busy.wait(10)
        wait_for(lambda: counted.open >= BURST)
        # Between the turns that took the burst in, a request is answered.
        assert httpx.get(f"{server.http}/healthz", timeout=5).status_code == 200
        assert probe.grew <= SLACK, f"{probe.grew} connections taken in in one turn of the loop"
        assert probe.turns >= BURST // PER_TURN

        # And they all go at once: the loop is busy again while they close.
        probe.shrank = 0
        busy = busy_then(loop, 1.0, lambda: None)
        for s in held:
            s.close()
        assert busy.wait(10)
        wait_for(lambda: counted.open == 0)
        probe.running = False
        assert probe.shrank <= SLACK, f"{probe.shrank} connections let go in one turn of the loop"
        assert httpx.get(f"{server.http}/healthz", timeout=5).status_code == 200


@pytest.mark.slow
def test_a_silent_connection_that_speaks_later_is_served_within_its_header_timeout() -> None:
    with live(header_timeout_s=1.0) as server:
        counted = gate(server)
        # Quiet for half the timeout, then a whole request: answered.
        s = tcp(server)
        time.sleep(0.5)
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert s.recv(65536).startswith(b"HTTP/1.1 200")
        s.close()
        # Quiet for most of the timeout, then half a request: the timeout counts from the accept.
        late = tcp(server)
        time.sleep(0.8)
        late.sendall(b"GET /healthz HTTP/1.1\r\n")
        started = time.monotonic()
        late.settimeout(5)
        with contextlib.suppress(OSError):
            assert late.recv(65536) == b""
        assert time.monotonic() - started < 0.9, "the request's time started over when it spoke"
        late.close()
        wait_for(lambda: counted.open == 0)
        assert counted.metrics is not None and counted.metrics.refused["header_timeout"] >= 1


def test_the_silent_connections_sweep_runs_only_while_one_is_silent() -> None:
    """An idle server is not woken by the sweep; a connection that falls silent later sets it again."""
    with live(header_timeout_s=0.5) as server:
        listener = server.server.servers[0]
        assert isinstance(listener, Listener)
        wait_for(lambda: listener.sweeper is None)  # the start-up health checks spoke: nothing silent
        for _ in range(2):  # the second after the sweep had stopped
            s = tcp(server)
            started = time.monotonic()
            wait_for(lambda: listener.sweeper is not None, timeout=5)
            assert s.recv(65536) == b"", "closed with nothing sent"
            # Its timeout, a sweep's wait, and a loaded machine's slack.
            assert time.monotonic() - started < 0.5 + SWEEP_EVERY_S + 1.5
            s.close()
            wait_for(lambda: listener.sweeper is None, timeout=5)
