"""Sending a room's requests to the node that owns it, through nginx, with no client change.

nginx passes any request to any node.  A request for a room another live node owns is
answered with ``X-Accel-Redirect: /_node/HOST:PORT/original/path?query``: nginx then makes
the same request, WebSocket upgrade included, to that node through an internal location
(app/cluster/nginx.py) which marks it ``X-Uno-Routed``.  A routed request is never
sent on again: if the room moved meanwhile, the client is told to retry (503 with
``Retry-After``, to a request or a WebSocket handshake), and its next try finds the new owner.
"""

from __future__ import annotations

import json
import logging
import re
from typing import TYPE_CHECKING

from starlette.types import Receive, Scope, Send

if TYPE_CHECKING:
    from .node import ClusterNode

log = logging.getLogger("app.cluster")

# /ws/rooms/CODE, /api/rooms/CODE/..., and /rooms/CODE/qr.svg (the invite QR code: the owner knows the room).
_ROOM_PATH = re.compile(r"^/(?:ws/|api/)?rooms/([A-Za-z0-9-]{1,32})(?:/|$)")
# A match's history, export and replay are its room's views too: served where the room is, which
# knows whether its delayed spectators have been shown the end yet (app/rooms/reveal.py).
_MATCH_PATH = re.compile(r"^/api/matches/([A-Za-z0-9_.:-]{1,80})(?:/|$)")
ROUTED_HEADER = b"x-uno-routed"


def room_of(scope: Scope) -> str | None:
    if scope["type"] not in ("http", "websocket"):
        return None
    found = _ROOM_PATH.match(scope["path"])
    return found.group(1) if found else None


async def route(node: ClusterNode, scope: Scope, receive: Receive, send: Send) -> bool:
    """Answer a request for a room that lives on another node (True), or leave it to this one."""
    code = room_of(scope)
    found = _MATCH_PATH.match(scope["path"]) if code is None and scope["type"] == "http" else None
    if code is None and found is None:
        return False
    try:
        if found is not None:
            code = await node.room_of_match(found.group(1))
            if code is None:
                return False  # no such match: answered here
        assert code is not None
        place = await node.place(code)
    except Exception as err:  # the database is away: nobody can say where the room is
        log.warning("room %s could not be located: %s", code, type(err).__name__)
        await _retry_later(scope, receive, send)
        return True
    if place is None:
        return False
    if any(name == ROUTED_HEADER for name, _ in scope["headers"]):
        await _retry_later(scope, receive, send)  # it moved again on the way: the client retries
        return True
    method = scope.get("method", "GET")  # nginx makes a redirected request a GET: the method travels along
    target = f"/_node/{place.address}/{method}{scope['raw_path'].decode('latin-1')}"
    if scope["query_string"]:
        target += "?" + scope["query_string"].decode("latin-1")
    headers = [(b"x-accel-redirect", target.encode("latin-1")), (b"content-length", b"0")]
    if scope["type"] == "websocket":
        await receive()  # websocket.connect
        await send({"type": "websocket.http.response.start", "status": 200, "headers": headers})
        await send({"type": "websocket.http.response.body", "body": b""})
    else:
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": b""})
    return True


async def _retry_later(scope: Scope, receive: Receive, send: Send) -> None:
    """503 with Retry-After, to an HTTP request or a WebSocket handshake alike (a client
    retries a refused handshake as it retries a dropped socket)."""
    body = json.dumps({"detail": {"code": "room_moving",
                                  "message": "The room is moving to another server; try again in a moment."}}).encode()
    headers = [(b"content-type", b"application/json"), (b"retry-after", b"1"),
               (b"content-length", str(len(body)).encode())]
    if scope["type"] == "websocket":
        await receive()  # websocket.connect
        await send({"type": "websocket.http.response.start", "status": 503, "headers": headers})
        await send({"type": "websocket.http.response.body", "body": body})
        return
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body})
