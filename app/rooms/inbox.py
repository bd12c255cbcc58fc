"""The messages a room's inbox takes: from HTTP, from sockets, and from its own timers.

Every input is one of these, handled strictly in arrival order by the room's one task;
that order is the room's truth (it settles UNO! races, C-12).  Timers only ever put a
message here: a bot's move, a turn clock running out, the next round, a wake-up.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from .commands import ClientCommand
from .errors import RoomError, room_closed
from .ports import Outlet


@dataclass
class Join:
    name: str
    reply: asyncio.Future[dict[str, Any]]


@dataclass
class GetSummary:
    reply: asyncio.Future[dict[str, Any]]


@dataclass
class MatchShown:
    """Whether a match of this room may be shown over HTTP yet (``reveal.py``)."""

    match_id: str
    reply: asyncio.Future[bool]


@dataclass
class AddBot:
    """The host (by token) fills a free seat with a bot (HTTP; the socket's ``add_bot`` does the same)."""

    token: str
    reply: asyncio.Future[dict[str, Any]]
    level: str | None = None  # None: the default level


@dataclass
class Attach:
    outlet: Outlet
    token: str | None  # None: a spectator
    last_seq: int | None
    reply: asyncio.Future[int | None]
    address: str = ""  # the client's address (a spectator's counts against ``spectators_per_address``)
    acks_in_patch: bool = False  # the client takes the ack of its command in the patch it caused
    screen_key: str | None = None  # no token, a key: the host's big screen (screen.py, RULES.md D-14)


@dataclass
class ScreenLink:
    """The host (by token) asks for the big-screen link's key (``create``: made if there is none)
    or revokes it (its screens are closed at once)."""

    token: str
    create: bool
    reply: asyncio.Future[str | None]


@dataclass
class Detach:
    outlet: Outlet


@dataclass
class Command:
    """A client's command from a socket, already parsed and validated (``commands.py``)."""

    outlet: Outlet
    seat_token: str | None  # token hash of the sender's seat (None: spectator)
    body: ClientCommand
    done: asyncio.Future[None]


@dataclass
class NextRound:
    match_no: int
    round_no: int


@dataclass
class RematchDue:
    """The host's rematch countdown ran out for the match numbered ``match_no`` (stale: ignored)."""

    match_no: int


@dataclass
class BotTurn:
    """A bot's planned move is due; ``key`` is the table it was planned on (stale: ignored)."""

    key: tuple[Any, ...]
    seat: int
    action: dict[str, Any]


@dataclass
class TurnTimeout:
    """The turn clock ran out on decision ``turn`` (stale: ignored)."""

    turn: tuple[Any, ...]


@dataclass
class BlitzExpired:
    """The match clock (HR-25) ran out for the match numbered ``match_no`` (stale: ignored)."""

    match_no: int


@dataclass
class Tick:
    """Time passed (an absent seat's grace ran out): just look at the room again."""


@dataclass
class CountWatchers:
    """Time to publish how many spectators there are (coalesced: at most one count per window)."""


@dataclass
class SpectatorsDue:
    """Delayed spectator frames are due: the publish step sends them (``Streams.release``)."""


@dataclass
class Stop:
    reason: str
    code: int = 4410  # CLOSE_ROOM_CLOSED; 1001 when the server is only going away for a while


Message = (Join | GetSummary | MatchShown | AddBot | ScreenLink | Attach | Detach | Command | NextRound
           | RematchDue | BotTurn | TurnTimeout | BlitzExpired | Tick | CountWatchers | SpectatorsDue | Stop)


class Mailbox:
    """The room's inbox, and whether it still takes messages.  The room's own parts (its timers,
    its streams) hold this to tell the room something later — not the actor, which holds them:
    a room that is dropped is then freed at once by reference counting, with no cycle left for
    the garbage collector, which a busy server rarely runs (app/gc_policy.py)."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[Message] = asyncio.Queue()
        self.closed = False

    def tell(self, message: Message) -> None:
        if self.closed:
            refuse(message, room_closed())
            return
        self.queue.put_nowait(message)


def refuse(msg: Message, err: RoomError) -> None:
    """Answer a message the room will not handle: its asker gets the error (a socket's command,
    just the end of its wait)."""
    if isinstance(msg, Join | GetSummary | MatchShown | Attach | AddBot | ScreenLink):
        if not msg.reply.done():
            # Without where the room raised it: that traceback holds the room's frame, which
            # holds this message, which holds the error — a cycle for every refusal.
            msg.reply.set_exception(err.with_traceback(None))
    elif isinstance(msg, Command) and not msg.done.done():
        msg.done.set_result(None)
