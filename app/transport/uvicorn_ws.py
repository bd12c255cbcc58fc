"""uvicorn's WebSocket protocol, with one fix: a lost connection ends websockets' parser.

uvicorn's sans-I/O protocol never tells websockets' ``ServerProtocol`` that the stream has
ended when a connection drops.  Its parser — a suspended generator that holds the protocol —
and the protocol then form a reference cycle that only the garbage collector can free: about
50 KB a connection (request, headers, reader, frames).  The server runs the collector on a
timer only (app/gc_policy.py), so under connection churn these would pile up between passes
(measured: +64 MiB for 1,200 dropped connections).  Feeding the parser its end of stream and
closing it ends the generator, which breaks the cycle: reference counting frees it all at once.

Run uvicorn with ``--ws app.transport.uvicorn_ws:WebSocketProtocol`` (scripts/run.sh and the
Docker image do).
"""

from __future__ import annotations

import contextlib

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class WebSocketProtocol(WebSocketsSansIOProtocol):
    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        with contextlib.suppress(Exception):  # idempotent; a parser already finished has nothing to end
            self.conn.receive_eof()
        # After the end of stream the parser still waits (to discard what might follow): close it,
        # and drop the error it kept, whose traceback holds the protocol too.
        self.conn.parser.close()
        self.conn.parser_exc = None
