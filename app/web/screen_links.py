"""The host's big-screen link: ``POST`` / ``DELETE /api/rooms/{code}/screen`` (app/rooms/screen.py).

The host (by seat token) asks for the link — its key is made on the first ask and kept until
revoked, so asking again (a reload of the host's page) shows the same link and the screen on
the TV stays up — or revokes it, which closes the screens that came with it at once.
"""

from __future__ import annotations

import base64
from typing import Any

from fastapi import APIRouter, Request, Response, status

from app.rooms.errors import RoomError
from app.rooms.inbox import ScreenLink
from app.web.api import NOT_FOUND, ErrorResponse, _bearer, _http, find_room
from app.web.invite import QrCodes, invite_base

router = APIRouter(prefix="/api", tags=["rooms"])

ERRORS: dict[int | str, dict[str, Any]] = {
    **NOT_FOUND, 401: {"model": ErrorResponse, "description": "No token, or not a seat of this room"},
    409: {"model": ErrorResponse, "description": "Not the host (`not_host`)"}}


async def _ask(request: Request, code: str, create: bool) -> tuple[str, str | None]:
    token = _bearer(request)
    actor = await find_room(code, request, request.app.state.registry)
    try:
        key: str | None = await actor.ask(lambda reply: ScreenLink(token, create, reply))
    except RoomError as err:
        raise _http(err) from None
    return actor.code, key


@router.post("/rooms/{code}/screen", status_code=status.HTTP_200_OK, responses=ERRORS)
async def screen_link(code: str, request: Request) -> dict[str, Any]:
    """The big-screen link (`Authorization: Bearer <host's seat token>`): `{"key", "path", "url",
    "qr"}`; the key is made on the first ask and the same one is answered until it is revoked."""
    room, key = await _ask(request, code, create=True)
    path = f"/r/{room}/screen?key={key}"
    out: dict[str, Any] = {"key": key, "path": path, "url": None, "qr": None}
    base = invite_base(request)
    if base:
        out["url"] = base + path
        qr: QrCodes = request.app.state.qr_codes
        svg = await qr.image(room, base + path)
        out["qr"] = "data:image/svg+xml;base64," + base64.b64encode(svg).decode()
    return out


@router.delete("/rooms/{code}/screen", status_code=status.HTTP_204_NO_CONTENT, responses=ERRORS)
async def revoke_screen_link(code: str, request: Request) -> Response:
    """Revoke the big-screen link: its screens are closed at once (`4431`, `screen_revoked`)."""
    await _ask(request, code, create=False)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
