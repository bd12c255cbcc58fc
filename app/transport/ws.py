"""The WebSocket endpoints: ``/ws/rooms/{code}`` (the game) and ``/ws/echo`` (a benchmark baseline).

Reader side: parse each client frame, hand it to the room's inbox and wait until the room
has processed it before reading the next — one frame in flight per socket, so a flooding
client only slows itself.  Writer side: ``Connection``.
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.config import Settings
from app.rooms.actor import CLOSE_BAD_TOKEN, CLOSE_NO_ROOM, CLOSE_ROOM_CLOSED, Command, Detach, RoomError, dumps
from app.rooms.registry import RoomRegistry
from app.rooms.room_state import hash_token

from .connection import Connection
from .messages import BadMessage, parse

router = APIRouter()


def bearer_token(ws: WebSocket) -> str | None:
    token = ws.query_params.get("token")
    if token:
        return token
    auth = ws.headers.get("authorization", "")
    scheme, _, value = auth.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return None


def last_seq(ws: WebSocket) -> int | None:
    raw = ws.query_params.get("last_seq")
    if raw is None or not raw.isdigit() or len(raw) > 18:
        return None
    return int(raw)


@router.websocket("/ws/rooms/{code}")
async def room_socket(ws: WebSocket, code: str) -> None:
    registry: RoomRegistry = ws.app.state.registry
    settings: Settings = ws.app.state.settings
    await ws.accept()
    actor = registry.get(code)
    if actor is None:
        await ws.close(CLOSE_NO_ROOM, "no such room")
        return
    token = bearer_token(ws)
    conn = Connection(ws, settings.send_queue_frames)
    try:
        await actor.attach(conn, token, last_seq(ws))
    except RoomError as err:
        conn.offer(dumps({"type": "error", "id": None, "code": err.code, "message": err.message}))
        conn.close(CLOSE_BAD_TOKEN if err.code == "bad_token" else CLOSE_ROOM_CLOSED, err.message)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(conn.writer, 2)
        return
    seat_token = hash_token(token) if token else None
    loop = asyncio.get_running_loop()
    try:
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if text is None:
                text = (frame.get("bytes") or b"").decode("utf-8", "replace")
            try:
                msg = parse(text, settings.message_max_bytes)
            except BadMessage as err:
                conn.offer(dumps({"type": "error", "id": err.id, "code": err.code, "message": err.message}))
                continue
            done: asyncio.Future[None] = loop.create_future()
            payload = msg.model_dump(exclude={"type", "id"})
            actor.tell(Command(conn, seat_token, str(getattr(msg, "type", "")), msg.id, payload, done))
            await done
    except (WebSocketDisconnect, RoomError, RuntimeError):
        pass
    finally:
        actor.tell(Detach(conn))
        await conn.aclose()


@router.websocket("/ws/echo")
async def echo_socket(ws: WebSocket) -> None:
    """Sends every text frame straight back: the load benchmark's ceiling for this stack."""
    settings: Settings = ws.app.state.settings
    if not settings.echo_endpoint:
        await ws.close(CLOSE_NO_ROOM, "echo endpoint disabled")
        return
    await ws.accept()
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            await ws.send_text(await ws.receive_text())
