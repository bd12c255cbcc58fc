"""``/ws/echo``: a trivial WebSocket, the load benchmark's baseline for this stack (bench/load.py).

Not part of the game: the app routes it only when ``UNO_ECHO_ENDPOINT`` asks for it (``create_app``).
"""

from __future__ import annotations

import contextlib

from fastapi import WebSocket, WebSocketDisconnect
from starlette.types import Receive, Scope, Send

from app.config import Settings

from .connection import Connection
from .limits import CLOSE_POLICY
from .ws import check_origin

PATH = "/ws/echo"


async def echo_socket(ws: WebSocket) -> None:
    """Sends every text frame straight back (or to its ``group``): the load benchmark's baselines."""
    settings: Settings = ws.app.state.settings
    if not check_origin(ws, settings):
        await ws.close(CLOSE_POLICY)
        return
    await ws.accept()
    # Frames go out as the rooms' do (``Connection``), so the baselines cost what a room's
    # sockets cost.  ?group=name: a relay — each message goes to every socket of the group, the
    # sender too: a room's traffic (one in, one out per player) with no game behind it.
    conn = Connection(ws, settings.send_queue_frames, max_chars=settings.send_queue_chars)
    group = ws.query_params.get("group")
    groups: dict[str, set[Connection]] = ws.app.state.echo_groups
    members = groups.setdefault(group, set()) if group else {conn}
    members.add(conn)
    try:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            while True:
                text = await ws.receive_text()
                for member in list(members):
                    member.offer(text)
    finally:
        members.discard(conn)
        if group and not members:
            groups.pop(group, None)
        await conn.aclose()


async def serve_echo(scope: Scope, receive: Receive, send: Send) -> None:
    await echo_socket(WebSocket(scope, receive, send))
