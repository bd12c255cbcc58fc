"""What the room actors need from the outside world, as Protocols.

Persistence is a port so that the actor never knows where records go: the in-memory
store below serves tests and single-process servers; the SQL store implements the same
Protocol.  A match is stored as (config, seed, action log), which ``engine.replay``
turns back into the identical state.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class PlayerRecord:
    seat: int
    name: str
    token_hash: str  # sha256 of the bearer token; the token itself is never stored


@dataclass(frozen=True)
class RoomRecord:
    code: str
    edition: str
    public: bool
    max_seats: int
    target: int | None
    name: str
    status: str
    players: tuple[PlayerRecord, ...]
    host: int
    match_no: int = 0
    seed: str | None = None
    # The engine's log as plain tuples: (round, seat, action json).
    log: tuple[tuple[int, int, dict[str, Any]], ...] = ()
    rounds: int = 0
    updated: float = field(default_factory=time.time)


@dataclass(frozen=True)
class MatchResult:
    code: str
    match_no: int
    edition: str
    winner: int
    players: tuple[str, ...]
    scores: tuple[int, ...]
    finished: float = field(default_factory=time.time)


class Store(Protocol):
    async def save_room(self, record: RoomRecord) -> None: ...

    async def load_room(self, code: str) -> RoomRecord | None: ...

    async def delete_room(self, code: str) -> None: ...

    async def record_result(self, result: MatchResult) -> None: ...


class InMemoryStore:
    """Keeps the latest record of each room and every finished match, in this process only."""

    def __init__(self) -> None:
        self.rooms: dict[str, RoomRecord] = {}
        self.results: list[MatchResult] = []

    async def save_room(self, record: RoomRecord) -> None:
        self.rooms[record.code] = record

    async def load_room(self, code: str) -> RoomRecord | None:
        return self.rooms.get(code)

    async def delete_room(self, code: str) -> None:
        self.rooms.pop(code, None)

    async def record_result(self, result: MatchResult) -> None:
        self.results.append(result)


class Outlet(Protocol):
    """One client socket as the actor sees it: a bounded, non-blocking way to send text.

    ``offer`` never waits: a socket that cannot keep up is closed by its outlet, so one slow
    client never stalls the room (the transport layer implements this).
    """

    def offer(self, text: str) -> bool: ...

    def close(self, code: int, reason: str) -> None: ...
