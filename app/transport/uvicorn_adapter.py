"""uvicorn's HTTP and WebSocket protocols, with the defences uvicorn has no setting or hook for.

This is the one module that leans on uvicorn's internals (websockets' are in
websockets_adapter.py, uvloop's server in accept.py).  uvicorn offers no public way to act when
a connection opens or closes, when a request has fully arrived, or when a WebSocket control
frame comes in, so both classes subclass uvicorn's own protocols.  What they need, and why:

- ``H11Protocol``: ``connection_made`` / ``connection_lost`` (count a connection in and out of
  the gate), ``handle_events`` and ``conn.their_state`` (h11's, public there: when a request is
  in), ``on_response_complete`` (time the next request on a kept-alive connection),
  ``handle_websocket_upgrade`` (hand the gate's count to the WebSocket);
- ``WebSocketsSansIOProtocol``: ``handle_connect`` (slots in the scope's extensions),
  ``data_received`` (parse a flood in chunks), ``handle_ping`` / ``handle_pong`` and
  ``pending_ping_payload`` (count control frames, but not the pong to uvicorn's own keepalive
  ping), ``pause_writing`` / ``resume_writing`` / ``receive`` / ``send`` and ``read_paused``
  (stop reading a peer that does not read), ``shutdown`` (close with 1001, the app's way),
  ``keepalive_timeout`` and ``close_timeout`` (drop a peer that never takes its close),
  ``connection_lost`` (end the parser: websockets_adapter.py), and its state ``conn``, ``queue``,
  ``scope``, ``handshake_complete``, ``close_sent``, ``initial_response``, ``disconnected``;
- both: ``client``, ``transport``, ``loop``, and the ``app_state`` their constructors are given
  (the lifespan state, where the app puts its gate: gate.py).

tests/transport/test_uvicorn_internals.py checks every one of these on a live server and names
what changed; scripts/canary.sh runs it against uvicorn's newest release.  pyproject.toml pins
the series it was checked against (docs/OPERATIONS.md, "Dependencies and their pins").  The
server runs with these classes because app/server.py configures it so (``python -m app serve``).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import h11
from uvicorn._types import ASGIReceiveEvent, ASGISendEvent
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.frames import Frame
from websockets.http11 import Request

from .gate import ConnectionGate, gate_of
from .limits import CLOSE_POLICY, SlidingWindow
from .websockets_adapter import end_parser

REFUSED = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
           b"retry-after: 5\r\nconnection: close\r\ncontent-length: 21\r\n\r\ntoo many connections\n")
# h11 states of a request still arriving: none of it, or its headers but not all its body.
_ARRIVING = (h11.IDLE, h11.SEND_BODY)
GOING_AWAY = "uno.going_away"
CONTROL_FRAME = "uno.control_frame"
CLOSE_GOING_AWAY = 1001
SHUTDOWN_WAIT_S = 5.0  # how long the app's own close may take before the socket is dropped
CHUNK = 4096  # bytes parsed at a time: at most ~680 control frames before a flood is noticed
ABORT_AFTER_S = 5.0  # a closed socket whose buffered output its peer never takes is dropped this late


class HttpProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol (h11), with the connection gate (gate.py) in front.

    uvicorn never times out a request that does not finish arriving: a connection that sends
    nothing, or half a request line, stays open for good (once 20,200 of them took every file
    descriptor and ``/healthz`` could not connect).  Here each connection is counted in as it
    opens (past ``UNO_CONNECTIONS_PER_ADDRESS`` from its address, or ``UNO_MAX_CONNECTIONS`` in
    all with none waiting to displace, a bare ``503`` and closed before anything is read; a
    proxy in ``UNO_TRUSTED_PROXIES`` is held to the global cap only); must deliver a whole request
    within ``UNO_HEADER_TIMEOUT_S`` of being accepted (accept.py) or of its previous response (a
    response in progress is never cut); and hands its place in the count to the WebSocket
    protocol when it upgrades, counted out only when the socket closes.  h11's, because
    httptools is not installed.
    """

    def __init__(self, config: Config, server_state: ServerState, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.gate: ConnectionGate = gate_of(app_state)
        self.counted: str | None = None  # the address this connection is counted under, while it is
        self.request_timer: asyncio.TimerHandle | None = None
        # When the connection was accepted, if it waited silent before this protocol was made
        # (app/transport/accept.py): its request's time counts from then.
        self.accepted_at: float | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else ""
        refused = self.gate.admit(address, proxy=self.gate.is_proxy(address))
        if refused is not None:
            self.gate.refused(refused, f"refused a connection from {address}: {self.gate.held(address)} open "
                              f"from it, {self.gate.open} in all ({refused})")
            transport.write(REFUSED)
            transport.close()
            return
        self.counted = address
        self._wait_for_request()

    def _wait_for_request(self) -> None:
        self.gate.waiting[self] = None
        wait = self.gate.header_timeout
        if self.accepted_at is not None:
            wait -= time.monotonic() - self.accepted_at
            self.accepted_at = None
        self.request_timer = self.loop.call_later(max(0.0, wait), self._request_timed_out)

    def _request_arrived(self) -> None:
        self.gate.waiting.pop(self, None)
        if self.request_timer is not None:
            self.request_timer.cancel()
            self.request_timer = None

    def _request_timed_out(self) -> None:
        self.request_timer = None
        self.gate.waiting.pop(self, None)
        if self.transport.is_closing():
            return
        self.gate.refused("header_timeout", f"closed a connection from {self.counted}: no complete request "
                          f"within {self.gate.header_timeout:g} s")
        self.transport.close()

    def evict(self) -> None:
        """The gate is full and this connection has not sent its request yet: close it now."""
        self._request_arrived()
        self._count_out()
        self.transport.abort()  # nothing to flush: the file descriptor is free at once

    def _count_out(self) -> None:
        if self.counted is not None:
            self.gate.release(self.counted)
            self.counted = None

    def handle_events(self) -> None:
        super().handle_events()
        if self.request_timer is not None and self.conn.their_state not in _ARRIVING:
            self._request_arrived()

    def on_response_complete(self) -> None:
        # The next request on this connection has the same time to arrive (uvicorn's keep-alive
        # timer alone is cancelled by its first byte).  Armed first: uvicorn reads a request
        # already pipelined behind this one right away, and handle_events then stops the timer.
        if not self.transport.is_closing() and self.request_timer is None and self.counted is not None:
            self._wait_for_request()
        super().on_response_complete()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._request_arrived()
        super().handle_websocket_upgrade(event)
        # The WebSocket protocol now owns the connection, and its place in the count.
        ws = self.transport.get_protocol()
        if isinstance(ws, WebSocketProtocol):
            ws.counted, self.counted = self.counted, None
        else:  # another WebSocket class (--ws), which would never count it out
            self._count_out()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self._request_arrived()
        self._count_out()


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, with three fixes and two bounds.

    A lost connection ends websockets' parser (``connection_lost``): uvicorn never tells it the
    stream ended, and the suspended parser and the protocol then form a cycle of ~50 KB only the
    garbage collector frees (+64 MiB for 1,200 dropped connections; the collector seldom runs:
    app/gc_policy.py).  A stopping server says "going away" (1001), after what the app still had
    queued, where uvicorn says 1012 first (``shutdown``; the scope's ``GOING_AWAY`` slot holds the
    app's close).  A handshake the app refuses with a response of its own (429) ends the
    handshake, instead of an error logged for each (``send``).

    Control frames count against the socket's message rate (``control_frame``): websockets
    answers every ping by itself and uvicorn never tells the app (one socket once sent 2,000,000
    pings in 22 s, and every room waited).  The scope's ``CONTROL_FRAME`` slot holds the seat's
    rate; until the app fills it, the protocol keeps a window of the same size.  Past it: 1008,
    and nothing it sent after is parsed (``CHUNK`` bytes at a time, so a flood is cut within a
    few hundred frames).  A peer that does not read what it is sent is not read either until its
    buffer drains (``pause_writing``: a pong per ping read took RSS from 138 to 424 MiB), and one
    closed while it still does not read is aborted ``ABORT_AFTER_S`` later.  Frames go out
    through ASGI only (a shortcut past it cost more CPU: docs/OPERATIONS.md).
    """

    def __init__(self, config: Config, server_state: ServerState, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.gate: ConnectionGate = gate_of(app_state)
        self.counted: str | None = None  # set by HttpProtocol on the upgrade: this connection's address
        self.control_rate: SlidingWindow | None = None  # ours, until the app puts its own in the scope
        self.write_blocked = False
        self.refused = False
        self.abort_timer: asyncio.TimerHandle | None = None

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        if self.response.status_code == 101:  # the app's task, created above, has not started yet
            extensions: dict[str, Any] = self.scope["extensions"]
            extensions[GOING_AWAY] = None  # for the app to fill in: how to close this socket when the server stops
            extensions[CONTROL_FRAME] = None  # ... and the rate its control frames count against

    # ------------------------------------------------------------------ what the client sends

    def data_received(self, data: bytes) -> None:
        if self.refused:
            return  # closing it for a flood: nothing more is parsed
        if len(data) <= CHUNK:
            super().data_received(data)
            return
        for start in range(0, len(data), CHUNK):
            super().data_received(data[start:start + CHUNK])
            if self.refused or self.transport.is_closing():
                return

    def handle_ping(self) -> None:
        super().handle_ping()  # the pong websockets queued goes out
        self.control_frame("control_ping")

    def handle_pong(self, event: Frame) -> None:
        solicited = self.pending_ping_payload is not None and bytes(event.data) == self.pending_ping_payload
        super().handle_pong(event)
        if not solicited:
            self.control_frame("control_pong")

    def control_frame(self, kind: str) -> None:
        if self.refused:
            return
        self.gate.seen(kind)
        scope = getattr(self, "scope", None)
        allow = scope["extensions"].get(CONTROL_FRAME) if scope is not None else None
        if allow is None:
            if self.control_rate is None:
                self.control_rate = SlidingWindow(self.gate.control_limit, self.gate.control_window)
            allow = self.control_rate.allow
        if not allow():
            self.refuse_flood()

    def refuse_flood(self) -> None:
        self.refused = True
        address = self.client[0] if self.client else "?"
        self.gate.refused("control_frames", f"closed a WebSocket from {address}: control frames over the message rate")
        self.stop_keepalive()
        self.transport.pause_reading()
        if self.handshake_complete and not self.close_sent:
            reason = "rate limit exceeded"
            self.queue.put_nowait({"type": "websocket.disconnect", "code": CLOSE_POLICY, "reason": reason})
            with contextlib.suppress(Exception):  # websockets may already be closing the connection itself
                self.conn.send_close(CLOSE_POLICY, reason)
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
        self.transport.close()
        self.abort_later(ABORT_AFTER_S)

    # ------------------------------------------------------------------ a peer that does not read

    def pause_writing(self) -> None:
        super().pause_writing()
        self.write_blocked = True
        self.transport.pause_reading()

    def resume_writing(self) -> None:
        super().resume_writing()
        self.write_blocked = False
        # uvicorn's own pause (a message the app has not taken yet) still holds, if it is on.
        if not self.read_paused and not self.refused and not self.transport.is_closing():
            self.transport.resume_reading()

    async def receive(self) -> ASGIReceiveEvent:
        message = await super().receive()
        if self.write_blocked and not self.transport.is_closing():
            self.transport.pause_reading()  # uvicorn resumed it for the app; the peer must read first
        return message

    async def send(self, message: ASGISendEvent) -> None:
        await super().send(message)
        if self.close_sent:
            if self.initial_response is not None:
                # The app refused the handshake with a response of its own (HTTP 429): that ends
                # the handshake too, or uvicorn would log an error and try a 500 on top of it.
                self.handshake_complete = True
            if self.write_blocked and not self.transport.is_closing():
                self.transport.pause_reading()  # as in receive: uvicorn resumes reading to hear the close
            if self.abort_timer is None:
                self.abort_later(self.close_timeout + ABORT_AFTER_S)  # uvicorn closes it after close_timeout

    def keepalive_timeout(self) -> None:
        super().keepalive_timeout()  # no pong: uvicorn fails the connection and closes it
        self.abort_later(ABORT_AFTER_S)

    def abort_later(self, delay: float) -> None:
        if self.abort_timer is None and not self.disconnected:
            self.abort_timer = self.loop.call_later(delay, self._abort)

    def _abort(self) -> None:
        self.abort_timer = None
        if not self.disconnected:
            self.transport.abort()

    # ------------------------------------------------------------------ stopping

    def shutdown(self) -> None:
        """The server is stopping: close with 1001, the app's way if it said how."""
        if not self.handshake_complete or self.close_sent:  # no socket yet (uvicorn answers 500), or closing
            super().shutdown()
            return
        self.stop_keepalive()
        extensions: dict[str, Any] = self.scope["extensions"]
        going_away = extensions.get(GOING_AWAY)
        if going_away is not None:
            going_away()
            # Whatever happens there, the socket is gone in a few seconds (uvicorn waits for it).
            self.loop.call_later(SHUTDOWN_WAIT_S, self.transport.close)
            return
        self.queue.put_nowait({"type": "websocket.disconnect", "code": CLOSE_GOING_AWAY})
        self.conn.send_close(CLOSE_GOING_AWAY, "server going away")
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if self.counted is not None:
            self.gate.release(self.counted)
            self.counted = None
        if self.abort_timer is not None:
            self.abort_timer.cancel()
            self.abort_timer = None
        # The scope holds the app's ``going_away``, which holds this protocol: a cycle, broken here.
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"].pop(GOING_AWAY, None)
            scope["extensions"].pop(CONTROL_FRAME, None)
        end_parser(self.conn)
