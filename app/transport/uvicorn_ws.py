"""uvicorn's WebSocket protocol, with one fix and one shortcut.

The fix: a lost connection ends websockets' parser.

uvicorn's sans-I/O protocol never tells websockets' ``ServerProtocol`` that the stream has
ended when a connection drops.  Its parser — a suspended generator that holds the protocol —
and the protocol then form a reference cycle that only the garbage collector can free: about
50 KB a connection (request, headers, reader, frames).  The server runs the collector on a
timer only (app/gc_policy.py), so under connection churn these would pile up between passes
(measured: +64 MiB for 1,200 dropped connections).  Feeding the parser its end of stream and
closing it ends the generator, which breaks the cycle: reference counting frees it all at once.

The shortcut: the ASGI scope's extensions carry ``SEND_NOW``, a plain function that writes a
text frame at once.  Through ASGI each frame costs a task switch (an ASGI ``send`` is a
coroutine, so the room hands frames to a writer task) and four coroutine layers; a room
sends four or five frames per move, and that was a fifth of the server's time under load.
``Connection`` uses it when nothing is queued ahead and the socket can take more; otherwise
(and under any other server) frames go the ASGI way.

Run uvicorn with ``--ws app.transport.uvicorn_ws:WebSocketProtocol`` (scripts/run.sh and the
Docker image do).
"""

from __future__ import annotations

import contextlib
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.http11 import Request

SEND_NOW = "uno.send_now"


class WebSocketProtocol(WebSocketsSansIOProtocol):
    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        if self.response.status_code == 101:  # the app's task, created above, has not started yet
            extensions: dict[str, Any] = self.scope["extensions"]
            extensions[SEND_NOW] = self.send_now

    def send_now(self, text: str) -> bool:
        """Write a text frame now; False (nothing written) if the handshake is not done, the
        socket is closing, or its write buffer is full: then send it the ASGI way, which waits."""
        if (not self.handshake_complete or self.close_sent or self.initial_response is not None
                or not self.writable.is_set() or self.transport.is_closing()):
            return False
        try:
            self.conn.send_text(text.encode())
        except InvalidState:
            return False
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        # The scope holds ``send_now``, which holds this protocol: a cycle, broken here.
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"].pop(SEND_NOW, None)
        with contextlib.suppress(Exception):  # idempotent; a parser already finished has nothing to end
            self.conn.receive_eof()
        # After the end of stream the parser still waits (to discard what might follow): close it,
        # and drop the error it kept, whose traceback holds the protocol too.
        self.conn.parser.close()
        self.conn.parser_exc = None
