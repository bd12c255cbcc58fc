"""uvicorn's HTTP/1.1 protocol (h11), with the connection gate (``gate.py``) in front.

uvicorn itself never times out a request that does not finish arriving: a connection that
sends nothing, or half a request line, stays open for good — once 20,200 of them took every
file descriptor and ``/healthz`` could not connect.  Here each connection:

- is counted in when it opens (``connection_made``): past ``UNO_CONNECTIONS_PER_ADDRESS`` from
  its address, or ``UNO_MAX_CONNECTIONS`` in all with none waiting to displace, it gets a bare
  ``503`` and is closed before anything is read.  A reverse proxy the server takes client
  addresses from (``UNO_TRUSTED_PROXIES``) carries every client's connections: it is held to the
  global cap only;
- must deliver a whole request (headers, and a body if it has one) within
  ``UNO_HEADER_TIMEOUT_S`` of opening (of being accepted: ``app/transport/accept.py`` keeps a
  connection that has sent nothing yet off the loop, and makes this protocol only once it
  speaks), or of its previous response; if not, it is closed.  A
  response in progress is never cut: the timer stops once the request is in;
- hands its place in the count over to the WebSocket protocol when it upgrades
  (``handle_websocket_upgrade``): the socket is still the same connection, and is counted out
  only when it closes (``WebSocketProtocol.connection_lost``).

uvicorn picks h11 here because httptools is not installed (``--http auto`` would take httptools
if it were; this class is h11's either way).

uvicorn has no public hook for any of this, so this module subclasses its h11 protocol: it is
the one place that leans on uvicorn's HTTP internals.  What it needs, and why:

- ``H11Protocol.connection_made`` / ``connection_lost``: to count a connection in and out;
- ``handle_events`` and ``conn.their_state`` (h11's, public in h11): to tell when a request is in;
- ``on_response_complete``: to time the next request on a kept-alive connection;
- ``handle_websocket_upgrade`` and ``transport.get_protocol()``: to hand the count to the WebSocket;
- ``client``, ``transport``, ``loop``: the peer's address and the connection's own.

tests/transport/test_uvicorn_internals.py checks each of these, and scripts/canary.sh runs that
check against uvicorn's newest release.  The server is started with this class by
``app/server.py`` (``python -m app serve``).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from .gate import ConnectionGate, gate_of
from .uvicorn_ws import WebSocketProtocol

REFUSED = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
           b"retry-after: 5\r\nconnection: close\r\ncontent-length: 21\r\n\r\ntoo many connections\n")
# h11 states of a request still arriving: none of it, or its headers but not all its body.
_ARRIVING = (h11.IDLE, h11.SEND_BODY)


class HttpProtocol(H11Protocol):
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
            self.gate.refused(refused, f"refused a connection from {address}: {self.gate.by_address[address]} open "
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
