"""REST routes for players: this browser's player (``/api/me``), moving it to another browser
with a one-time code, and what everyone may see — a player's stats and history, an edition's
leaderboard, a player's group (docs/STATS.md)."""

from __future__ import annotations

import base64
import math
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request, Response, status
from pydantic import BaseModel, Field

from app.config import Settings
from app.persistence.players import CODE_LENGTH, Player
from app.persistence.standing import standings
from app.rooms.errors import RoomError
from app.rooms.seating import clean_name
from app.web.api import ErrorResponse
from app.web.identity import Players, current, drop_secret, keep_secret, players_of, secret_of
from app.web.invite import QrCodes, invite_base
from app.web.lookalikes import mark_lookalikes, tag_of
from app.web.new_players import new_players_of

router = APIRouter(prefix="/api", tags=["players"])
EDITIONS = ("classic", "mario_kart", "all_wild", "pocket_pizza")
CODE_PATH = r"^/api/me/codes/?$"  # rate-limited per address (app/main.py)
CLAIM_PATH = r"^/api/me/claim/?$"
BECOME_PATH = r"^/api/me/?$"
READ_PATH = r"^/api/(leaderboard|players)/"  # what everyone may read: limited per address (app/main.py)
MAX_PAGE_SIZE = 50  # leaderboard rows a page, whatever UNO_LEADERBOARD_SIZE says
MAX_PAGE = 100_000  # a page number past this is refused (422), not looked for
ERRORS: dict[int | str, dict[str, Any]] = {404: {"model": ErrorResponse}, 422: {"model": ErrorResponse}}


class PlayerName(BaseModel):
    name: str = Field(min_length=1, max_length=200)


class Claim(BaseModel):
    code: str = Field(min_length=1, max_length=40)


def _error(status_code: int, code: str, message: str, **params: Any) -> HTTPException:
    detail: dict[str, Any] = {"code": code, "message": message}
    if params:
        detail["params"] = params
    return HTTPException(status_code, detail=detail)


def _players(request: Request) -> Players:
    players = players_of(request)
    if players is None:
        raise _error(404, "no_players", "This server keeps no players (its database is in memory).")
    return players


def _name(request: Request, name: str) -> str:
    settings: Settings = request.app.state.settings
    try:
        return clean_name(settings, name)
    except RoomError as err:
        raise _error(err.status, err.code, err.message, **(err.params or {})) from None


async def _me(request: Request) -> Player:
    _players(request)
    player = await current(request)
    if player is None:
        raise _error(404, "no_player", "This browser is no player here yet.")
    return player


def _public(player: Player) -> dict[str, Any]:
    return {"id": player.id, "name": player.name, "since": player.created_at, "tag": tag_of(player.id)}


@router.get("/me", responses=ERRORS)
async def me(request: Request) -> dict[str, Any]:
    """This browser's player (by its cookie), or 404 `no_player`."""
    return _public(await _me(request))


@router.post("/me", status_code=status.HTTP_201_CREATED, responses=ERRORS)
async def become(body: PlayerName, request: Request, response: Response) -> dict[str, Any]:
    """Be a player on this server with this name (the browser keeps the secret as a cookie).
    A browser that is a player already keeps being that one, renamed."""
    players, name = _players(request), _name(request, body.name)
    player = await current(request)
    if player is not None:
        await players.store.rename(player.id, name)
        return _public(Player(player.id, name, player.created_at))
    limit = new_players_of(request)
    wait = await limit.wait(request) if limit is not None else 0.0
    if limit is not None and wait > 0:  # app/web/new_players.py
        retry = math.ceil(wait)
        message = (f"Too many new players from your address: at most {limit.per_hour} an hour. "
                   f"Try again in {retry} s.")
        raise HTTPException(429, detail={"code": "rate_limited", "message": message},
                            headers={"retry-after": str(retry)})
    player, secret = await players.store.create(name)
    keep_secret(request, response, secret)
    return _public(player)


@router.patch("/me", responses=ERRORS)
async def rename(body: PlayerName, request: Request) -> dict[str, Any]:
    """A new name: shown from now on on the player's page and the leaderboard (past matches keep
    the name they were played under)."""
    player, name = await _me(request), _name(request, body.name)
    await _players(request).store.rename(player.id, name)
    return _public(Player(player.id, name, player.created_at))


@router.delete("/me", status_code=status.HTTP_204_NO_CONTENT, responses=ERRORS)
async def delete_me(request: Request) -> Response:
    """Delete this player: their name leaves every stored match ("a former player"), and their
    history, stats and ratings go.  Other browsers that were this player are no player any more."""
    player = await _me(request)
    await _players(request).store.delete(player.id)
    response = Response(status_code=status.HTTP_204_NO_CONTENT)
    drop_secret(response)
    return response


@router.post("/me/codes", status_code=status.HTTP_201_CREATED, responses=ERRORS)
async def new_code(request: Request) -> dict[str, Any]:
    """A one-time code (and its link as a QR code) that makes another browser this player: valid
    for `UNO_PLAYER_CODE_SECONDS`, once; a new code replaces the last one."""
    player = await _me(request)
    settings: Settings = request.app.state.settings
    code, expires = await _players(request).store.new_code(player.id, settings.player_code_seconds)
    shown = f"{code[:CODE_LENGTH // 2]}-{code[CODE_LENGTH // 2:]}"
    out: dict[str, Any] = {"code": shown, "expires_at": expires.isoformat(),
                           "seconds": settings.player_code_seconds, "qr": None}
    base = invite_base(request)
    if base:  # the code rides in the link's fragment: browsers never send that part to a server
        qr: QrCodes = request.app.state.qr_codes
        svg = await qr.draw_once(f"{base}/me#code={code}")
        out["qr"] = "data:image/svg+xml;base64," + base64.b64encode(svg).decode()
    return out


@router.post("/me/claim", responses={**ERRORS, 429: {"model": ErrorResponse}})
async def claim(body: Claim, request: Request, response: Response) -> dict[str, Any]:
    """Use a one-time code: this browser becomes the player who made it.  Limited per address
    (`UNO_PLAYER_CLAIMS_PER_MINUTE`), so codes cannot be guessed."""
    claimed = await _players(request).store.claim(body.code)
    if claimed is None:
        raise _error(404, "bad_code", "That code is unknown, used or expired: make a new one on the other device.")
    player, secret = claimed
    keep_secret(request, response, secret)
    return _public(player)


@router.post("/me/forget", status_code=status.HTTP_204_NO_CONTENT)
async def forget(request: Request) -> Response:
    """This browser stops being its player (the player stays, on their other browsers)."""
    players, secret = _players(request), secret_of(request)
    if secret:
        await players.store.forget_browser(secret)
    response = Response(status_code=status.HTTP_204_NO_CONTENT)
    drop_secret(response)
    return response


@router.get("/players/{pid}", responses=ERRORS)
async def player(pid: str, request: Request, limit: Annotated[int, Query(ge=1, le=200)] = 50) -> dict[str, Any]:
    """A player's name, stats and rating per edition, and their latest matches."""
    players = _players(request)
    found = await players.store.by_id(pid) if len(pid) <= 16 else None
    if found is None:
        raise _error(404, "no_such_player", "There is no such player on this server.")
    viewer = await current(request)
    own = viewer is not None and viewer.id == pid
    async with players.reads.engine.connect() as conn:  # one connection for the page's few reads
        rows = await players.reads.standing_rows(pid, conn)  # read once: the stats and the standing
        return {"player": _public(found), "stats": await players.reads.stats(pid, conn, rows),
                "standing": await _standing(request, pid, own, conn, rows),
                "history": await players.reads.history(pid, limit, own, conn)}


async def _standing(request: Request, pid: str, own: bool, conn: Any = None,
                    rows: list[Any] | None = None) -> dict[str, Any]:
    settings: Settings = request.app.state.settings
    editions = await standings(_players(request).reads, pid, EDITIONS, settings.leaderboard_min_matches,
                               settings.leaderboard_min_opponents, conn, rows)
    if not own:  # a private room's match id leads to its room's code: the player's own to see (history)
        for entry in editions.values():
            entry["latest"] = None
    return {"min_matches": settings.leaderboard_min_matches,
            "min_opponents": settings.leaderboard_min_opponents, "editions": editions}


@router.get("/players/{pid}/standing", responses=ERRORS)
async def standing(pid: str, request: Request) -> dict[str, Any]:
    """Where the player stands on each edition's leaderboard, or what is left before they are on
    it (more rated matches, more different players met in them); the leaderboard's own rule.
    ``latest`` (the newest settled match) only for the player themselves."""
    players = _players(request)
    if len(pid) > 16 or await players.store.by_id(pid) is None:
        raise _error(404, "no_such_player", "There is no such player on this server.")
    viewer = await current(request)
    return await _standing(request, pid, own=viewer is not None and viewer.id == pid)


@router.get("/players/{pid}/group", responses=ERRORS)
async def group(pid: str, request: Request) -> dict[str, Any]:
    """The people this player played with most, and who finished ahead of whom how often."""
    players = _players(request)
    if len(pid) > 16 or await players.store.by_id(pid) is None:
        raise _error(404, "no_such_player", "There is no such player on this server.")
    found = await players.reads.group(pid)
    mark_lookalikes(found["players"])
    return found


@router.get("/leaderboard/{edition}", responses=ERRORS)
async def leaderboard(edition: str, request: Request,
                      page: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 1) -> dict[str, Any]:
    """A page of an edition's best ratings (mu - 3 sigma), of players with enough rated matches
    against enough different people: `UNO_LEADERBOARD_SIZE` a page, `page` from 1; `pages` and
    `ranked_players` say how far it goes."""
    players = _players(request)
    if edition not in EDITIONS:
        raise _error(404, "no_edition", f"There is no edition {edition!r}.")
    settings: Settings = request.app.state.settings
    size = max(1, min(settings.leaderboard_size, MAX_PAGE_SIZE))
    rows, ranked = await players.reads.leaderboard(edition, page, size)
    mark_lookalikes(rows)  # two look-alike names on one page are told apart by their tags
    pages = max(1, -(-ranked // size))
    return {"edition": edition, "min_matches": settings.leaderboard_min_matches,
            "min_opponents": settings.leaderboard_min_opponents, "players": rows,
            "page": page, "page_size": size, "pages": pages, "ranked_players": ranked,
            "previous": page - 1 if page > 1 else None, "next": page + 1 if page < pages else None}
