"""What a room tells its store, as small immutable records — and what a restart reads back.

The actor never knows where records go.  It hands each message's changes as records to
``Store.write`` and waits: once ``write`` returns they are durable, and only then does the
actor acknowledge and broadcast.  A match is kept as (config, seed, action log), which
``engine.replay`` turns back into the identical state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class RoomOpened:
    code: str
    name: str
    edition: str
    public: bool
    max_seats: int
    target: int | None
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class OptionsChanged:
    """The host changed a room option: all of ``RoomOpened.options`` as they are now."""

    code: str
    options: dict[str, Any]


@dataclass(frozen=True)
class GameChanged:
    """The host chose the next match's edition, seats and target (between matches)."""

    code: str
    edition: str
    max_seats: int
    target: int | None


@dataclass(frozen=True)
class RoomChanged:
    code: str
    status: str
    host: int


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    name: str
    token_hash: str  # sha256 of the bearer token; the token itself is never stored
    is_bot: bool = False
    bot_level: str | None = None  # a bot seat's level (app.bots.LEVELS); None for a person's seat


@dataclass(frozen=True)
class SeatsChanged:
    """The room's seats, all of them (joins, leaves, renames and renumbering alike)."""

    code: str
    seats: tuple[SeatInfo, ...]


@dataclass(frozen=True)
class MatchStarted:
    code: str
    match_id: str
    number: int
    edition: str
    config: dict[str, Any]  # the engine's MatchConfig as JSON: seats, target, house rules
    target: int
    seed: str
    players: tuple[str, ...]
    # HR-25: epoch seconds the match clock runs out (round 1's deal + ``blitz_seconds``), or None.
    blitz_deadline: float | None = None


@dataclass(frozen=True)
class RoundStarted:
    match_id: str
    number: int
    seed: str
    dealer: int
    # The round's secret (kept server-side; revealed when the round ends) and its SHA-256, published
    # at the deal.  None: a round dealt from the match seed alone, before commitments existed.
    secret: str | None = None
    commitment: str | None = None


@dataclass(frozen=True)
class ActionApplied:
    code: str
    match_id: str
    round: int
    seq: int  # 1, 2, ... within the match: the position in the engine's log
    seat: int
    action: dict[str, Any]
    client_id: str | None = None  # the id the client sent it with (None: a bot's or the clock's move)


@dataclass(frozen=True)
class RoundFinished:
    match_id: str
    number: int
    winner: int
    points: int
    totals: tuple[int, ...]
    cards_left: tuple[int, ...]
    # What each total gained (the points to the winner, unless a scoring house rule says otherwise).
    gained: tuple[int, ...] = ()

    def seat_points(self, seat: int) -> int:
        if self.gained:
            return self.gained[seat]
        return self.points if seat == self.winner else 0


@dataclass(frozen=True)
class MatchFinished:
    code: str
    match_id: str
    winner: int | None
    # Per seat that sent moves: (seat, moves sent, those sent within think_time.INSTANT_MS of the
    # room's last change) — for the ratings' by-hand check; not stored with the match.
    think: tuple[tuple[int, int, int], ...] = ()


@dataclass(frozen=True)
class ChatPosted:
    code: str
    seat: int | None
    name: str
    text: str
    client_id: str | None = None
    sender: str | None = None  # the token hash of the sender's seat: ids are per seat, and seats renumber


@dataclass(frozen=True)
class RoomClosed:
    code: str


Record = (RoomOpened | OptionsChanged | GameChanged | RoomChanged | SeatsChanged | MatchStarted | RoundStarted
          | ActionApplied | RoundFinished | MatchFinished | ChatPosted | RoomClosed)


# ---------------------------------------------------------------------- read back after a restart


@dataclass
class StoredMatch:
    id: str
    number: int
    config: dict[str, Any]
    seed: str
    players: list[str]
    rounds_started: int
    log: list[tuple[int, int, dict[str, Any]]]  # (round, seat, action), in order
    secrets: dict[int, str] = field(default_factory=dict)  # round -> the secret it was dealt from, if stored
    blitz_deadline: float | None = None  # HR-25: when the match clock runs out (epoch seconds), if it runs


@dataclass
class StoredRoom:
    code: str
    name: str
    edition: str
    public: bool
    max_seats: int
    target: int | None
    options: dict[str, Any]
    status: str
    host: int
    seats: list[SeatInfo]
    match: StoredMatch | None
    chat: list[tuple[int | None, str, str]] = field(default_factory=list)  # (seat, name, text)
    # Client ids the room has stored the effects of, oldest first: (token hash of the seat, id).
    # A resend of one after a restart is answered, never applied again.
    answered: list[tuple[str, str]] = field(default_factory=list)
