"""RoomActor: the one task that owns a room and everything in it.

Every input — an HTTP join, a socket's command, a connect or disconnect, a timer — is a
message in one inbox, processed strictly in arrival order.  That order is the room's
truth: it settles UNO! races (C-12) and makes every frame's ``seq`` meaningful.

Each message goes through the same five steps, and only these:

    inbox → handle → plan → commit → publish

*handle* changes the state and says what to store (``handlers.py``; a client's command first
passes ``client_commands.py``); *plan* decides what the room stores and shows about time and
absent seats (clocks, the next round, hosting: ``automation.py``), and builds no view;
*commit* stores the records — the one commit point (``storing.py``); *publish* builds the views
once and sends every connected seat one patch, then the sender its answer, or the answer in its
patch (``publishing.py``, ``streams.py``).  After it, the bots' next move is picked on the views
the publish built (``bot_moves.py``).  Nothing is shown before it is stored: if a write fails
for good, the room stops without publishing, its sockets are told to come back, and the registry
rebuilds it from the store, where the unstored change never happened.

This module owns the room's life around those steps: its task and loop, the outside API every
caller uses (tell, ask, join, attach, stop, halt), and stopping or losing the room.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from app.config import Settings

from .automation import Automation
from .client_commands import handle_command
from .errors import CLOSE_RESTARTING, CLOSE_ROOM_CLOSED, RoomError, room_closed, room_restarting
from .handlers import MESSAGE_HANDLERS
from .inbox import (
    AddBot,
    Attach,
    Command,
    CountWatchers,
    Detach,
    GetSummary,
    Join,
    Mailbox,
    MatchShown,
    Message,
    SpectatorsDue,
    Stop,
    Tick,
    refuse,
)
from .outcome import Outcome
from .parts import RoomParts
from .ports import Outlet, Store
from .publishing import publish
from .races import Races
from .reveal import Reveal
from .room_state import RoomState, hash_token
from .storing import RefusedWrites, commit
from .stream import FrameObserver
from .streams import Streams

log = logging.getLogger("app.rooms")
T = TypeVar("T")

# Called when a room stopped because what it had to store could not be stored.
LostHandler = Callable[[str], None]


class RoomActor:
    def __init__(self, state: RoomState, settings: Settings, store: Store,
                 observer: FrameObserver | None = None, on_lost: LostHandler | None = None) -> None:
        self.state = state
        self.settings = settings
        self.store = store
        self.on_lost = on_lost
        self.mailbox = Mailbox()
        self.inbox = self.mailbox.queue
        self.streams = Streams(state, settings, observer)
        self.streams.tell = self.mailbox.tell  # not self.tell: the parts must not hold the actor
        self.automation = Automation(state, settings, self.mailbox.tell)
        self.parts = RoomParts(state, settings, self.streams, self.automation, Races(state),
                               Reveal(state, state.clock.monotonic()))
        for p in state.players:
            self.streams.add(p.token_hash, bot=p.bot)
        self.task: asyncio.Task[None] | None = None
        # For the registry's sweep: when a seat last did something, and when a seat last had a socket.
        self.last_activity = self.last_seated = state.clock.monotonic()
        # Replaced (never mutated) after each message, so others may read it without the actor.
        self.summary: dict[str, Any] = state.public_summary()
        # With several nodes: whether this node may still serve its rooms (its lease is fresh).
        # A node that was stopped or cut off for a while must not answer anyone before it knows
        # whether it still owns the room (app/cluster/node.py).
        self.serving: Callable[[], bool] | None = None
        self.refused_writes = RefusedWrites(self.parts, store)

    @property
    def code(self) -> str:
        return self.state.code

    @property
    def connections(self) -> int:
        return self.streams.connections

    @property
    def seated(self) -> int:
        return self.streams.seated

    # ------------------------------------------------------------------ outside API

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"room-{self.code}")
        self.task.add_done_callback(_ended)

    @property
    def stopped(self) -> bool:
        return self.mailbox.closed

    @stopped.setter
    def stopped(self, value: bool) -> None:
        self.mailbox.closed = value

    def tell(self, message: Message) -> None:
        self.mailbox.tell(message)

    async def ask(self, message: Callable[[asyncio.Future[T]], Message]) -> T:
        """Tell the room ``message(reply)`` and wait for its reply."""
        reply: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self.tell(message(reply))
        try:
            return await reply
        finally:
            # A refusal raised here keeps this frame in its traceback, and the future holds the
            # refusal: without this, every refused request would leave a cycle behind.
            del reply

    async def join(self, name: str) -> dict[str, Any]:
        return await self.ask(lambda reply: Join(name, reply))

    async def get_summary(self) -> dict[str, Any]:
        return await self.ask(GetSummary)

    async def add_bot(self, token: str, level: str | None = None) -> dict[str, Any]:
        return await self.ask(lambda reply: AddBot(token, reply, level))

    async def attach(self, outlet: Outlet, token: str | None, last_seq: int | None,
                     address: str = "", acks_in_patch: bool = False,
                     screen_key: str | None = None) -> int | None:
        return await self.ask(lambda reply: Attach(outlet, token, last_seq, reply, address, acks_in_patch,
                                                   screen_key))

    async def stop(self, reason: str = "room closed", code: int = CLOSE_ROOM_CLOSED) -> None:
        """Stop after the messages already in the inbox (their writes included) are handled."""
        if self.task is None or self.task.done():
            return
        self.tell(Stop(reason, code))
        # Waited on, not awaited: a caller cancelled meanwhile does not cancel the room mid-stop.
        await asyncio.wait([self.task])

    def halt(self, code: int, reason: str) -> None:
        """Stop at once, storing nothing more: the room lives on elsewhere (another node owns it
        now), and its sockets are closed with ``code`` to reconnect there."""
        if self.stopped:
            return
        self.stopped = True
        self.automation.cancel()
        self.streams.close_all(code, reason)
        while not self.inbox.empty():
            refuse(self.inbox.get_nowait(), room_restarting())
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()

    async def shown(self, match_id: str) -> bool:
        """Whether a match of this room may be shown over HTTP yet (``reveal.py``)."""
        return await self.ask(lambda reply: MatchShown(match_id, reply))

    def resume(self) -> None:
        """After a restart: plan what the restored room calls for (bots, clocks, the next round,
        hosting) — as a message, so that whatever the planning changes is stored like any change."""
        self.tell(Tick())

    # ------------------------------------------------------------------ the loop

    async def _run(self) -> None:
        while True:
            msg = await self.inbox.get()
            now = self.state.clock.monotonic()
            if self._lively(msg):
                self.last_activity = now
            if self.streams.seated:  # before a Detach is handled: its seat was here until now
                self.last_seated = now
            if isinstance(msg, Stop):
                self._shutdown(msg.reason, msg.code)
                return
            if self.serving is not None and not self.serving():
                self._lost(msg)
                return
            out = Outcome()
            broken = self._handle(msg, out)
            if not broken:
                try:
                    self.automation.plan(out)
                except Exception:
                    log.exception("room %s: error planning clocks", self.code)
                    broken = True
            stored = False if broken else await commit(self.store, self.code, out)
            if stored is None and await self.refused_writes.revert(msg, out):
                self.tell(Tick())  # clocks and bots planned again for the state as it is
                self.summary = self.state.public_summary()
                continue  # refused to its sender alone; the room goes on as it was before it
            if not stored:
                self._lost(msg)
                return
            try:
                games = publish(self.streams, out)
            except Exception:  # stored, but the streams are in doubt: rebuild, clients resync
                log.exception("room %s: error publishing", self.code)
                self._lost(msg)
                return
            try:
                self.automation.moves.after_publish(games)  # on the views just built: none twice
            except Exception:  # stored and shown, but the bots are in doubt: rebuilt, they plan afresh
                log.exception("room %s: error planning the bots", self.code)
                self._lost(msg)
                return
            self.summary = self.state.public_summary()
            self.parts.reveal.published(self.state.clock.monotonic())

    def _lively(self, msg: Message) -> bool:
        """Whether a message is the room in use.  A summary read or a spectator's message is
        not: anyone may send those, as often as they like, and they must not keep a room
        nobody plays in from being swept."""
        if isinstance(msg, GetSummary | MatchShown | CountWatchers | SpectatorsDue):
            return False
        if isinstance(msg, Command):
            return msg.seat_token is not None
        if isinstance(msg, Attach):
            return msg.token is not None and hash_token(msg.token) in self.streams.seats
        if isinstance(msg, Detach):
            return msg.outlet not in self.streams.spectators
        return True

    def _handle(self, msg: Message, out: Outcome) -> bool:
        """Handle one message; True when an unexpected error left the state in doubt."""
        try:
            if isinstance(msg, Command):
                handle_command(self.parts, msg, out)
            else:
                MESSAGE_HANDLERS[type(msg)](self.parts, msg, out)
        except RoomError as err:
            refuse(msg, err)
        except Exception:
            # A bug may have changed the state halfway: rebuild the room from what is stored.
            log.exception("room %s: error handling %s", self.code, type(msg).__name__)
            return True
        return False

    # ------------------------------------------------------------------ stopping

    def _shutdown(self, reason: str, code: int = CLOSE_ROOM_CLOSED) -> None:
        self.stopped = True
        self.automation.cancel()
        self.streams.close_all(code, reason)
        while not self.inbox.empty():
            refuse(self.inbox.get_nowait(), room_closed())

    def _lost(self, msg: Message) -> None:
        """What this message changed could not be stored: nobody is shown it.  The room stops,
        its sockets are told to come back, and the registry rebuilds it from the store."""
        refuse(msg, room_restarting())
        self.stopped = True
        self.automation.cancel()
        self.streams.close_all(CLOSE_RESTARTING, "room restarting")
        while not self.inbox.empty():
            refuse(self.inbox.get_nowait(), room_restarting())
        if self.on_lost is not None:
            self.on_lost(self.code)


def _ended(task: asyncio.Task[None]) -> None:
    """Take a room task's outcome.  A cancelled task (``halt``, a loop closing) keeps its error until
    asked, and its traceback holds ``_run``'s frame → the actor → the task: a cycle that only the
    collector, rarely run (app/gc_policy.py), would free."""
    try:
        error = task.exception()
    except asyncio.CancelledError:
        return  # taken, and with it the frames that held the room
    if error is not None:
        log.error("room task %s ended with an error", task.get_name(), exc_info=error)
