"""Who a browser is: the player whose secret its ``uno_player`` cookie holds.

The cookie is HttpOnly (no script reads it, so no page, frame or log of the client's carries
it), SameSite=Lax and, over HTTPS, Secure.  The secret never goes into a URL, a frame or a log
line; the server keeps only its SHA-256 (app/persistence/players.py).

A player is made the first time their browser takes a seat (named as the seat), or on the
player page; a seat taken afterwards is linked to them (``remember_seat``).  That link is all
the rooms ever learn of it: seats are still proved by their own tokens.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from fastapi import Request, Response

from app.persistence.player_reads import PlayerReads
from app.persistence.players import Player, PlayerStore
from app.persistence.settle import Settler
from app.rooms.room_state import hash_token
from app.web.new_players import new_players_of

log = logging.getLogger("app.web")

COOKIE = "uno_player"
COOKIE_MAX_AGE = 400 * 24 * 3600  # the longest browsers keep a cookie


@dataclass
class Players:
    """The players' parts of the app (``app.state.players``; None when the store keeps no players)."""

    store: PlayerStore
    reads: PlayerReads
    settler: Settler


def players_of(request: Request) -> Players | None:
    found: Players | None = getattr(request.app.state, "players", None)
    return found


def secret_of(request: Request) -> str | None:
    return request.cookies.get(COOKIE)


async def current(request: Request) -> Player | None:
    players = players_of(request)
    if players is None:
        return None
    return await players.store.by_secret(secret_of(request))


def keep_secret(request: Request, response: Response, secret: str) -> None:
    response.set_cookie(COOKIE, secret, max_age=COOKIE_MAX_AGE, path="/", httponly=True, samesite="lax",
                        secure=request.url.scheme == "https")


def drop_secret(response: Response) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")


async def remember_seat(request: Request, response: Response, seat: dict[str, Any]) -> None:
    """Link a seat just taken to this browser's player (made now, named as the seat, if it has none).

    Never refuses the seat: if the players' tables cannot be written, or the address has made its
    new players for the hour (app/web/new_players.py), the seat is taken unlinked."""
    players = players_of(request)
    if players is None:
        return
    try:
        player = await players.store.by_secret(secret_of(request))
        if player is None:
            if not await may_make_player(request):
                return
            player, secret = await players.store.create(str(seat["name"]))
            keep_secret(request, response, secret)
        await players.store.link_seat(player.id, hash_token(str(seat["token"])), str(seat["code"]))
    except Exception:
        log.exception("a seat of room %s could not be linked to its player", seat.get("code"))


async def may_make_player(request: Request) -> bool:
    """Count one player made from this request's address, if it may make one now."""
    limit = new_players_of(request)
    return limit is None or await limit.wait(request) <= 0
