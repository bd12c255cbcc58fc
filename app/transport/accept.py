"""Accepting connections a few at a time, and keeping those that say nothing off the event loop.

A connection costs the event loop some 50 µs as it comes in (uvloop's transport, uvicorn's
protocol, the ``ConnectionGate``) and nearly as much as it goes, and libuv handles whatever is
ready in one poll: every connection in a burst that closed, all in one turn of the loop.
12,000 connections that never sent a byte, opened in a second and closed together, held every
room for 100–600 ms, mostly as they went (docs/OPERATIONS.md, ``idle_connections``).

``Loop`` is uvloop's event loop whose ``create_server`` listens on its own (``Listener``):

- each turn of the loop accepts at most ``UNO_ACCEPTS_PER_TURN`` connections; the rest wait
  in the kernel's backlog for the next turn, so the rooms' work interleaves with a burst;
- a connection that has sent nothing yet is only a socket in an epoll set of the listener's
  own (one file descriptor on the loop): no transport, no protocol.  It is counted by the
  gate as it is accepted, like any other (``admit``: per address, in all, displacing the
  oldest still waiting at the cap), and closed if it says nothing within
  ``UNO_HEADER_TIMEOUT_S`` (looked for every ``SWEEP_EVERY_S`` while any is silent; with none,
  this sweep sets no timer).  At most ``UNO_ACCEPTS_PER_TURN`` of these sockets are looked at
  per turn: one that closed is closed here (a few µs), one with data is handed to uvloop as
  an accepted socket (``connect_accepted_socket``), whose protocol counts it from then on.

Refused connections get the gate's bare ``503`` here, before any protocol exists, and are
counted and logged as ``HttpProtocol`` does.

The one module that depends on uvloop's loop being subclassed: uvicorn takes a custom loop as
a public setting (``loop="app.transport.accept:Loop"``, which app/server.py gives it), and
``create_server`` is asyncio's public interface; ``Listener`` is an ``asyncio.AbstractServer``.
What it leans on, and why: uvicorn makes its listening sockets through ``loop.create_server``
and then uses only the server's ``sockets``, ``close`` and ``wait_closed`` (so a server of our
own can stand in for uvloop's), and uvloop's ``connect_accepted_socket`` (public asyncio) takes
a socket that spoke.  tests/transport/test_uvicorn_internals.py checks the first; TLS, and
options uvicorn does not pass, go to uvloop's own server.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import select
import socket
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import uvloop

from app.config import get_settings

from .gate import ConnectionGate
from .uvicorn_adapter import REFUSED, HttpProtocol

log = logging.getLogger("app.transport")

RETRY_AFTER_S = 1.0  # out of file descriptors: accepting pauses this long (as asyncio's own server does)
SWEEP_EVERY_S = 0.25  # how often silent connections past their time are looked for
_OUT_OF_RESOURCES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


class Silent:
    """An accepted connection that has not sent a byte yet: a socket and its place in the gate's count."""

    __slots__ = ("address", "listener", "since", "sock")

    def __init__(self, listener: Listener, sock: socket.socket, address: str) -> None:
        self.listener, self.sock, self.address = listener, sock, address
        self.since = time.monotonic()

    def evict(self) -> None:
        """The gate is full: this one has had its chance."""
        self.listener.drop(self)


class Listener(asyncio.AbstractServer):
    """The listening sockets of one ``create_server``: what uvicorn holds as its server."""

    def __init__(self, loop: asyncio.AbstractEventLoop, protocol_factory: Callable[[], asyncio.BaseProtocol],
                 sockets: list[socket.socket]) -> None:
        self.loop = loop
        self.protocol_factory = protocol_factory
        self.sockets = sockets
        self.serving = True
        # Our HTTP protocol's gate (a protocol object made for the asking); with another
        # protocol class every connection goes to it at once.
        probe = protocol_factory()
        self.gate: ConnectionGate | None = probe.gate if isinstance(probe, HttpProtocol) else None
        self.per_turn = self.gate.accepts_per_turn if self.gate is not None else get_settings().accepts_per_turn
        self.silent: OrderedDict[int, Silent] = OrderedDict()  # by file descriptor, oldest first
        self.poll = select.epoll()
        loop.add_reader(self.poll.fileno(), self.spoke)
        # Set only while some connection is silent: an idle server is not woken four times a second.
        self.sweeper: asyncio.TimerHandle | None = None
        for sock in sockets:
            loop.add_reader(sock.fileno(), self.accept, sock)

    def accept(self, sock: socket.socket) -> None:
        """At most ``per_turn`` connections; the rest wait for the loop's next turn."""
        for _ in range(self.per_turn):
            try:
                conn, peer = sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:
                if exc.errno in _OUT_OF_RESOURCES:  # try again later: they wait in the backlog meanwhile
                    log.error("accepting connections paused for %g s: %s", RETRY_AFTER_S, exc)
                    self.loop.remove_reader(sock.fileno())
                    self.loop.call_later(RETRY_AFTER_S, self.resume, sock)
                    return
                continue  # the peer gave up before it was accepted (ECONNABORTED...): the next one
            conn.setblocking(False)
            gate = self.gate
            if gate is None:
                self.hand_over(conn)
                continue
            address = peer[0] if isinstance(peer, tuple) else ""
            refused = gate.admit(address, proxy=gate.is_proxy(address))
            if refused is not None:
                gate.refused(refused, f"refused a connection from {address}: {gate.held(address)} open "
                             f"from it, {gate.open} in all ({refused})")
                with contextlib.suppress(OSError):
                    conn.send(REFUSED)
                conn.close()
                continue
            waiting = Silent(self, conn, address)
            self.silent[conn.fileno()] = waiting
            gate.waiting[waiting] = None
            self.poll.register(conn.fileno(), select.EPOLLIN | select.EPOLLRDHUP)
            if self.sweeper is None:
                self.sweeper = self.loop.call_later(SWEEP_EVERY_S, self.sweep)

    def spoke(self) -> None:
        """Silent connections that sent something, or closed: at most ``per_turn`` of them a turn."""
        for fd, _ in self.poll.poll(0, self.per_turn):
            waiting = self.silent.get(fd)
            if waiting is None:
                continue
            try:
                data = waiting.sock.recv(1, socket.MSG_PEEK)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                data = b""
            if not data:  # gone without a word
                self.drop(waiting)
                continue
            self.forget(waiting)
            assert self.gate is not None
            self.gate.release(waiting.address)  # the protocol counts it in again, as it opens
            self.hand_over(waiting.sock, waiting.since)

    def hand_over(self, conn: socket.socket, accepted_at: float | None = None) -> None:
        protocol = self.protocol_factory()
        if accepted_at is not None and isinstance(protocol, HttpProtocol):
            protocol.accepted_at = accepted_at  # its request's time counts from then
        self.loop.create_task(self.loop.connect_accepted_socket(lambda: protocol, conn))

    def forget(self, waiting: Silent) -> None:
        fd = waiting.sock.fileno()
        del self.silent[fd]
        self.poll.unregister(fd)
        if self.gate is not None:
            self.gate.waiting.pop(waiting, None)

    def drop(self, waiting: Silent) -> None:
        """Close a silent connection: nothing to say to it, nothing to flush."""
        self.forget(waiting)
        waiting.sock.close()
        if self.gate is not None:
            self.gate.release(waiting.address)

    def sweep(self) -> None:
        """Close what has said nothing within the header timeout, oldest first, ``per_turn`` a turn."""
        self.sweeper = None
        gate = self.gate
        if gate is None:  # nothing is ever silent here
            return
        too_old = time.monotonic() - gate.header_timeout
        for _ in range(self.per_turn):
            oldest = next(iter(self.silent.values()), None)
            if oldest is None:  # none left: the next silent connection sets the sweep again
                return
            if oldest.since > too_old:
                self.sweeper = self.loop.call_later(SWEEP_EVERY_S, self.sweep)
                return
            self.drop(oldest)
            gate.refused("header_timeout", f"closed a connection from {oldest.address}: no complete request "
                         f"within {gate.header_timeout:g} s")
        self.sweeper = self.loop.call_at(self.loop.time(), self.sweep)  # more to close: the next turn

    def resume(self, sock: socket.socket) -> None:
        if self.serving:
            self.loop.add_reader(sock.fileno(), self.accept, sock)

    def get_loop(self) -> asyncio.AbstractEventLoop:
        return self.loop

    def is_serving(self) -> bool:
        return self.serving

    def close(self) -> None:
        if not self.serving:
            return
        self.serving = False
        for sock in self.sockets:
            self.loop.remove_reader(sock.fileno())
            sock.close()
        if self.sweeper is not None:
            self.sweeper.cancel()
            self.sweeper = None
        while self.silent:
            self.drop(next(iter(self.silent.values())))
        self.loop.remove_reader(self.poll.fileno())
        self.poll.close()

    async def wait_closed(self) -> None:
        """Nothing to wait for: uvicorn waits for its connections itself."""

    async def start_serving(self) -> None:
        """Serving from the start, as ``create_server`` does by default."""

    async def serve_forever(self) -> None:
        raise NotImplementedError("uvicorn runs the server; nothing here serves forever")


async def listening_sockets(loop: asyncio.AbstractEventLoop, host: str | None, port: int | None,
                            backlog: int) -> list[socket.socket]:
    """Bound and listening, one per address ``host`` has (every interface if none), as asyncio binds them."""
    infos = await loop.getaddrinfo(host, port, family=socket.AF_UNSPEC, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, _, address in dict.fromkeys(infos):
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:  # IPv4 has a socket of its own
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                sock.bind(address)
            except OSError as exc:
                raise OSError(exc.errno, f"error while attempting to bind on address {address!r}: "
                              f"{(exc.strerror or str(exc)).lower()}") from None
            sock.listen(backlog)
            sock.setblocking(False)
    except BaseException:
        for sock in sockets:
            sock.close()
        raise
    return sockets


class Loop(uvloop.Loop):
    """uvloop's event loop, with a server that takes connections in a few at a time (``Listener``)."""

    async def create_server(self, protocol_factory: Callable[[], asyncio.BaseProtocol],  # type: ignore[override]
                            host: str | None = None, port: int | None = None, *, sock: socket.socket | None = None,
                            backlog: int = 100, ssl: Any = None, **options: Any) -> Any:
        if ssl is not None or options:
            return await super().create_server(protocol_factory, host, port, sock=sock, backlog=backlog,  # type: ignore[arg-type]
                                               ssl=ssl, **options)
        if sock is not None:
            sock.listen(backlog)
            sock.setblocking(False)
            sockets = [sock]
        else:
            sockets = await listening_sockets(self, host, port, backlog)
        return Listener(self, protocol_factory, sockets)
