"""REST routes for rooms: create, list, inspect, take a seat.  Thin: the actors decide."""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request, Response, status
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from app.rooms.actor import RoomActor
from app.rooms.errors import RoomError
from app.rooms.registry import RoomRegistry
from app.web.address_limits import MissLimit
from app.web.identity import remember_seat
from app.web.limits import limited_address

router = APIRouter(prefix="/api", tags=["rooms"])


def get_registry(request: Request) -> RoomRegistry:
    registry: RoomRegistry = request.app.state.registry
    return registry


Registry = Annotated[RoomRegistry, Depends(get_registry)]


class CreateRoom(BaseModel):
    variant: Literal["classic", "mario_kart", "all_wild", "pocket_pizza"]
    public: bool = Field(False, description="Listed in the lobby; private (invite only) unless asked for")
    # Checked by the room options (app/rooms/options.py), the one place that knows their limits.
    max_seats: int = 4
    target_score: int | None = Field(None, description="Default: the edition's own")
    name: str | None = Field(None, max_length=200)
    house_rules: dict[str, Any] | None = Field(
        None, description="House rules (RULES.md §6, §7), all off by default: each option is a key "
        "(stacking, seven_o, jump_in, draw_until_playable, single_round, rounds, stack_only, cross_stack, ...), and "
        "'preset' names a preset (HR-34) that the other keys override. A wrong one is a 422 bad_house_rules.")
    turn_seconds: int | None = Field(None, description="A turn clock in seconds (1-120; the UI offers 15/30/60), "
                                     "or null for none")
    away_grace_seconds: float | None = Field(None, description="How long a disconnected seat waits before a bot "
                                             "plays it (1-600 s); null: the server's default")
    spectator_chat: bool = Field(False, description="Whether spectators may chat (the host can change it later)")
    spectator_delay: int = Field(0, description="Seconds spectators see the table late (0-30; the host can "
                                 "change it later)")


class RoomSummary(BaseModel):
    code: str
    name: str
    variant: str
    public: bool
    max_seats: int
    target_score: int | None
    status: Literal["waiting", "playing", "between", "over"]
    seats_taken: int
    seats_free: int
    players: list[str]
    bots: int = 0
    created_at: float
    house_rules: dict[str, Any] = Field(default_factory=dict)
    turn_seconds: int | None = None
    away_grace_seconds: float | None = None
    spectator_chat: bool = False
    spectator_delay: int = 0


PAGE_DEFAULT = 50  # rooms per page of GET /api/rooms, unless ?limit= asks for fewer or more ...
PAGE_MAX = 100  # ... up to this many


class RoomList(BaseModel):
    rooms: list[RoomSummary]
    total: int = Field(description="Public rooms open to join, on every page")
    offset: int
    limit: int
    next_offset: int | None = Field(description="?offset= of the next page; null on the last page")


class JoinRoom(BaseModel):
    name: str = Field(min_length=1, max_length=200)


class Seat(BaseModel):
    code: str
    seat: int
    token: str = Field(description="Bearer secret of this seat: for the WebSocket and for reconnecting.")
    name: str
    host: bool
    ws_path: str


class ErrorBody(BaseModel):
    code: str
    message: str
    params: dict[str, Any] | None = Field(default=None, description="What a client needs to word the error "
                                          "itself, e.g. the name already taken; absent when there is nothing.")


class ErrorResponse(BaseModel):
    detail: ErrorBody


def _http(err: RoomError) -> HTTPException:
    detail: dict[str, Any] = {"code": err.code, "message": err.message}
    if err.params:
        detail["params"] = err.params
    return HTTPException(err.status, detail=detail)


NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorResponse, "description": "No such room"},
    429: {"model": ErrorResponse, "description": "Too many unknown room codes from this address"},
}


def _too_many_misses(misses: MissLimit, wait: float) -> HTTPException:
    retry = max(1, math.ceil(wait))
    return HTTPException(429, detail={"code": "rate_limited", "message": "Too many requests from your address: "
                                      f"at most {misses.per_minute} unknown room codes a minute. "
                                      f"Try again in {retry} s."}, headers={"Retry-After": str(retry)})


async def find_room(code: str, request: Request, registry: RoomRegistry) -> RoomActor:
    """The room with this code, or 404; an address asking for too many that don't exist gets 429."""
    misses: MissLimit = request.app.state.room_misses
    address = limited_address(request.scope)
    wait = misses.refused(address)
    if wait > 0:
        raise _too_many_misses(misses, wait)
    actor = await registry.find(code)
    if actor is None:
        wait = await misses.record(address)
        if wait > 0:  # past the limit on another node's count (several nodes count together)
            raise _too_many_misses(misses, wait)
        raise HTTPException(404, detail={"code": "no_room", "message": f"There is no room {code!r}."})
    return actor


@router.post("/rooms", status_code=status.HTTP_201_CREATED, response_model=RoomSummary,
             responses={422: {"model": ErrorResponse}, 429: {"model": ErrorResponse}, 503: {"model": ErrorResponse}})
async def create_room(body: CreateRoom, registry: Registry, request: Request) -> RoomSummary:
    """Open a room; join it with `POST /api/rooms/{code}/players`."""
    try:
        actor = await registry.create(body.variant, public=body.public, max_seats=body.max_seats,
                                         target=body.target_score, name=body.name, house_rules=body.house_rules,
                                         turn_seconds=body.turn_seconds,
                                         away_grace_seconds=body.away_grace_seconds,
                                         spectator_chat=body.spectator_chat, spectator_delay=body.spectator_delay,
                                         creator=limited_address(request.scope))
    except RoomError as err:
        raise _http(err) from None
    return RoomSummary(**actor.summary)


class PageCache:
    """The lobby's pages as sent, for as long as the list they were cut from is the registry's.

    The list is rebuilt at most once a second, yet each request made its page again: 50 rooms
    validated and serialised, house rules and all, several milliseconds of the loop apiece; four
    addresses spending their minute's lists at once held an honest room up for 80-200 ms
    (bench/abuse.py rooms_list_flood).  A page is now made once per list; it is bytes after that."""

    KEPT = 32  # pages (offset, limit) kept: asking for others costs what a page always cost

    def __init__(self) -> None:
        self.rooms: list[dict[str, Any]] | None = None  # the list the pages were cut from (held, so its id is its own)
        self.pages: dict[tuple[int, int], bytes] = {}

    def page(self, rooms: list[dict[str, Any]], offset: int, limit: int) -> bytes:
        if rooms is not self.rooms:
            self.rooms, self.pages = rooms, {}
        found = self.pages.get((offset, limit))
        if found is not None:
            return found
        page = rooms[offset:offset + limit]
        more = offset + limit < len(rooms)
        listed = RoomList(rooms=[RoomSummary(**s) for s in page], total=len(rooms), offset=offset, limit=limit,
                          next_offset=offset + limit if more else None)
        body = bytes(JSONResponse(listed.model_dump(mode="json")).body)
        if len(self.pages) >= self.KEPT:
            del self.pages[next(iter(self.pages))]
        self.pages[(offset, limit)] = body
        return body


@router.get("/rooms", response_model=RoomList)
async def list_rooms(request: Request, registry: Registry, limit: Annotated[int, Query(ge=1)] = PAGE_DEFAULT,
                     offset: Annotated[int, Query(ge=0)] = 0) -> Response:
    """Public rooms still open to join, newest first, a page at a time (`limit` at most 100).

    The list is rebuilt at most once per `UNO_LOBBY_CACHE_SECONDS` (1 s), so a room may show that late."""
    limit = min(limit, PAGE_MAX)
    cache: PageCache = request.app.state.lobby_pages
    return Response(cache.page(await registry.lobby(), offset, limit), media_type="application/json")


@router.get("/rooms/{code}", response_model=RoomSummary, responses=NOT_FOUND)
async def get_room(code: str, request: Request, registry: Registry) -> RoomSummary:
    actor = await find_room(code, request, registry)
    try:
        return RoomSummary(**await actor.get_summary())
    except RoomError as err:
        raise _http(err) from None


@router.post("/rooms/{code}/players", status_code=status.HTTP_201_CREATED, response_model=Seat,
             responses={**NOT_FOUND, 409: {"model": ErrorResponse, "description": "Full, started or finished"},
                        422: {"model": ErrorResponse}})
async def join_room(code: str, body: JoinRoom, request: Request, response: Response, registry: Registry) -> Seat:
    """Take a seat.  Keep the returned token secret: it is the seat's only credential.

    A browser's seats are linked to its player (the `uno_player` cookie; set here on its first seat)."""
    actor = await find_room(code, request, registry)
    try:
        seat = await actor.join(body.name)
    except RoomError as err:
        raise _http(err) from None
    await remember_seat(request, response, seat)
    return Seat(**seat)


class BotSeat(BaseModel):
    code: str
    seat: int
    name: str
    bot: bool = True
    level: str = "normal"


class BotRequest(BaseModel):
    """The bot's level: easy, normal or hard (left out, or no body at all: normal)."""

    model_config = ConfigDict(extra="forbid")
    level: str | None = Field(default=None, max_length=32)


def _bearer(request: Request) -> str:
    auth = request.headers.get("authorization", "")
    scheme, _, token = auth.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HTTPException(401, detail={"code": "bad_token", "message": "Send the host's seat token as "
                                         "'Authorization: Bearer <token>'."})
    return token.strip()


@router.post("/rooms/{code}/bots", status_code=status.HTTP_201_CREATED, response_model=BotSeat,
             responses={**NOT_FOUND, 401: {"model": ErrorResponse}, 403: {"model": ErrorResponse},
                        409: {"model": ErrorResponse, "description": "Full, started, or not the host"}})
async def add_bot(code: str, request: Request, registry: Registry, body: BotRequest | None = None) -> BotSeat:
    """The host fills a free seat with a bot (authorised by the host's seat token), at the level
    the body names (`{"level": "hard"}`; no body: normal); an unknown level is `422 bad_bot_level`.

    Remove it again before the start with the socket's `kick` command.
    """
    token = _bearer(request)
    actor = await find_room(code, request, registry)
    try:
        return BotSeat(**await actor.add_bot(token, body.level if body is not None else None))
    except RoomError as err:
        raise _http(err) from None
