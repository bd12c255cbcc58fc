"""uvicorn's WebSocket protocol, with three fixes and two bounds.

The first fix: a lost connection ends websockets' parser.

uvicorn's sans-I/O protocol never tells websockets' ``ServerProtocol`` that the stream has
ended when a connection drops.  Its parser — a suspended generator that holds the protocol —
and the protocol then form a reference cycle that only the garbage collector can free: about
50 KB a connection (request, headers, reader, frames).  The server's collector seldom walks
the heap of a busy server, if ever (app/gc_policy.py), so under connection churn these would
pile up (measured: +64 MiB for 1,200 dropped connections).  Feeding the parser its end of
stream and closing it ends the generator, which breaks the cycle: reference counting frees
it all at once.

The second fix: a server that stops says "going away" (1001), the code for it, where
uvicorn says "service restart" (1012) — and it says it after what the app still had queued
for the socket.  uvicorn closes every socket before the app's own shutdown runs; the scope's
extensions hold a ``GOING_AWAY`` slot, where the app puts a function that closes the socket
its own way (``Connection``: what is queued, then the close frame).

No shortcut past ASGI for sending.  One used to write a text frame on the spot, from the room,
instead of handing it to the socket's writer task: it cost more server CPU, not less.  At
1,000 rooms playing at full speed (``bench/load.py --rooms 1000 --pace full --stores memory
--no-baselines``, four runs each way, alternated, on 2 shared cores), the server spent a median
438 µs per action with it (429–461) and 374 µs without (366–378).

The third fix: when the app refuses a handshake with an HTTP response of its own (429, too
many sockets opened), uvicorn took the handshake for unfinished and logged an error for each.
A response sent whole ends the handshake (``send``).

These are uvicorn's and websockets' private parts: pyproject.toml pins the series they were
checked against, and tests/transport/test_uvicorn_internals.py names any that changed.

Then two bounds on what a client makes the server do (``control_frame``, ``pause_writing``).

Control frames count against the socket's message rate.  websockets answers every ping with a
pong on its own, and uvicorn never tells the app about either: one socket once sent 2,000,000
pings in 22 s, and every room on the server waited behind them.  The scope's extensions hold a
``CONTROL_FRAME`` slot, where the app puts the seat's rate (``SlidingWindow.allow``); until it
does (the handshake, an echo socket) the protocol keeps a window of its own, of the same size
(the ``ConnectionGate``'s).  Past it the socket is closed with 1008, what it sent after is
not even parsed, and the refusal is counted and logged.  Data is parsed ``CHUNK`` bytes at a
time, so a flood is cut within a few hundred frames, not a whole read of them.

A socket whose peer does not read what it is sent stops being read.  When the outgoing
buffer passes its high-water mark (asyncio calls ``pause_writing``), reading pauses until it
drains (``resume_writing``): each ping read would otherwise add a pong to a buffer that never
empties (RSS went 138 → 424 MiB).  uvicorn's own flow control resumes reading whenever the
app takes a message (``receive``) or closes (``send``): both pause it again while writing is
blocked.  A socket closed while its peer still does not read is aborted ``ABORT_AFTER_S``
later, rather than held until TCP gives up.

The connection's place in the ``ConnectionGate``'s count comes over from the HTTP protocol on
the upgrade (``uvicorn_http.HttpProtocol``) and is given back when the connection is lost.

Run uvicorn with ``--ws app.transport.uvicorn_ws:WebSocketProtocol`` (scripts/run.sh and the
Docker image do), and ``--http app.transport.uvicorn_http:HttpProtocol``.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from uvicorn._types import ASGIReceiveEvent, ASGISendEvent
from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.frames import Frame
from websockets.http11 import Request

from .gate import ConnectionGate, gate_of
from .limits import CLOSE_POLICY, SlidingWindow

GOING_AWAY = "uno.going_away"
CONTROL_FRAME = "uno.control_frame"
CLOSE_GOING_AWAY = 1001
SHUTDOWN_WAIT_S = 5.0  # how long the app's own close may take before the socket is dropped
CHUNK = 4096  # bytes parsed at a time: at most ~680 control frames before a flood is noticed
ABORT_AFTER_S = 5.0  # a closed socket whose buffered output its peer never takes is dropped this late


class WebSocketProtocol(WebSocketsSansIOProtocol):
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
        with contextlib.suppress(Exception):  # idempotent; a parser already finished has nothing to end
            self.conn.receive_eof()
        # After the end of stream the parser still waits (to discard what might follow): close it,
        # and drop the error it kept, whose traceback holds the protocol too.
        self.conn.parser.close()
        self.conn.parser_exc = None
