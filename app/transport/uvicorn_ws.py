"""uvicorn's WebSocket protocol, with two fixes.

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

These are uvicorn's and websockets' private parts: pyproject.toml pins the series they were
checked against, and tests/transport/test_uvicorn_internals.py names any that changed.

Run uvicorn with ``--ws app.transport.uvicorn_ws:WebSocketProtocol`` (scripts/run.sh and the
Docker image do).
"""

from __future__ import annotations

import contextlib
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request

GOING_AWAY = "uno.going_away"
CLOSE_GOING_AWAY = 1001
SHUTDOWN_WAIT_S = 5.0  # how long the app's own close may take before the socket is dropped


class WebSocketProtocol(WebSocketsSansIOProtocol):
    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        if self.response.status_code == 101:  # the app's task, created above, has not started yet
            extensions: dict[str, Any] = self.scope["extensions"]
            extensions[GOING_AWAY] = None  # for the app to fill in: how to close this socket when the server stops

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
        # The scope holds the app's ``going_away``, which holds this protocol: a cycle, broken here.
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"].pop(GOING_AWAY, None)
        with contextlib.suppress(Exception):  # idempotent; a parser already finished has nothing to end
            self.conn.receive_eof()
        # After the end of stream the parser still waits (to discard what might follow): close it,
        # and drop the error it kept, whose traceback holds the protocol too.
        self.conn.parser.close()
        self.conn.parser_exc = None
