"""The registry: creates, finds, rebuilds and stops room actors; sweeps idle and finished rooms."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from app.config import Settings

from . import records as rec
from .actor import LostHandler, RoomActor
from .clock import REAL_CLOCK, Clock
from .errors import CLOSE_GOING_AWAY, RoomError
from .holdings import LocalHoldings
from .options import RoomOptions
from .ports import Holdings, SoleTenancy, Store, Tenancy
from .records import StoredRoom
from .restore import restore_state
from .room_state import RoomState, new_code, normalise_code
from .stream import FrameObserver

log = logging.getLogger("app.rooms")

REBUILD_TRIES = 5  # a room whose store cannot be read back after this many tries is dropped


def restore_room(stored: StoredRoom, settings: Settings, store: Store, observer: FrameObserver | None = None,
                 on_lost: LostHandler | None = None, clock: Clock = REAL_CLOCK) -> RoomActor:
    """A room actor for a stored room (app/rooms/restore.py rebuilds its state), not yet started."""
    actor = RoomActor(restore_state(stored, settings, clock), settings, store, observer, on_lost)
    for token_hash, cid in stored.answered:
        actor.streams.remember(token_hash, cid, None)
    return actor


class RoomRegistry:
    def __init__(self, settings: Settings, store: Store, observer: FrameObserver | None = None,
                 clock: Clock = REAL_CLOCK) -> None:
        self.settings = settings
        self.store = store
        self.observer = observer
        self.clock = clock  # every room's time, and the sweep's (clock.py): the real one but in tests
        self.rooms: dict[str, RoomActor] = {}
        # The client address each live room was created from, for the per-address cap (rooms
        # restored after a restart, or taken over from another node, have none: the address is
        # not stored).  Counted in ``holdings``: this process's own, or with several nodes every
        # node's (app/cluster implements the port; create_app sets it), as the sockets are.
        self.creators: dict[str, str] = {}
        self.holdings: Holdings = LocalHoldings()
        # Rooms being rebuilt from the store after a failed write: lookups wait for them.
        self.rebuilding: dict[str, asyncio.Task[None]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        # The lobby's list, as of a time: rebuilding it walks every room, and anyone may ask.
        self._lobby: tuple[float, list[dict[str, Any]]] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None  # the loop every actor runs on
        # Which rooms are this process's: all of the store's, or with several nodes only those
        # this node holds (app/cluster implements the port; create_app sets it).
        self.tenancy: Tenancy = SoleTenancy()

    async def start(self) -> None:
        """Bring back every room the store still has open, then start sweeping.  A node of a
        cluster brings back none itself: it takes rooms over as they are asked for, or as their
        owners die (app/cluster/node.py)."""
        self.loop = asyncio.get_running_loop()
        await self.tenancy.start()
        if not self.tenancy.restores_at_start:
            self._sweeper = asyncio.create_task(self._sweep_forever(), name="room-sweeper")
            return
        for stored in await self.store.unfinished_rooms():
            try:
                actor = restore_room(stored, self.settings, self.store, self.observer, self.lost, self.clock)
            except Exception:  # one unreadable room must not keep the others down
                log.exception("room %s could not be restored", stored.code)
                continue
            self.run(actor)
        if self.rooms:
            log.info("restored %d room(s)", len(self.rooms))
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="room-sweeper")

    def run(self, actor: RoomActor) -> None:
        self.rooms[actor.code] = actor
        actor.start()
        actor.resume()

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for task in list(self.rebuilding.values()):
            task.cancel()
        # Rooms are not closed in the store: they come back when the server does, and clients
        # told "going away" (1001) reconnect to them.
        await asyncio.gather(*(actor.stop("server restarting", CLOSE_GOING_AWAY) for actor in self.rooms.values()))
        await self.tenancy.stop(list(self.rooms))  # with several nodes, handed over at once
        self.rooms.clear()
        for creator in self.creators.values():
            self.holdings.give_back("rooms", creator)
        self.creators.clear()

    def forget(self, code: str) -> RoomActor | None:
        creator = self.creators.pop(code, None)
        if creator is not None:
            self.holdings.give_back("rooms", creator)
        self.tenancy.forgotten(code)
        return self.rooms.pop(code, None)

    async def create(self, edition: str, *, public: bool, max_seats: int, target: int | None,
                     name: str | None, house_rules: object = None, turn_seconds: object = None,
                     away_grace_seconds: object = None, spectator_chat: object = False,
                     spectator_delay: object = 0, creator: str | None = None) -> RoomActor:
        """Open a room; ``creator`` (the client's address) is held to ``rooms_per_address`` live rooms."""
        options = RoomOptions.parse(self.settings, edition, public=public, max_seats=max_seats, target=target,
                                    name=name, house_rules=house_rules, turn_seconds=turn_seconds,
                                    away_grace_seconds=away_grace_seconds, spectator_chat=spectator_chat,
                                    spectator_delay=spectator_delay)
        if len(self.rooms) >= self.settings.max_rooms:
            raise RoomError("server_full", "The server has too many rooms right now; try again later.", 503)
        if creator is not None:
            cap = self.settings.rooms_per_address
            if await self.holdings.take("rooms", creator, cap) is not None:
                raise RoomError("too_many_rooms", f"Your address has {cap} open rooms already: play in one, or "
                                "wait until one closes.", 429)
        try:
            actor = await self._open(options, edition, public, max_seats, target)
        except BaseException:
            if creator is not None:
                self.holdings.give_back("rooms", creator)
            raise
        if creator is not None:
            self.creators[actor.code] = creator
        return actor

    async def _open(self, options: RoomOptions, edition: str, public: bool, max_seats: int,
                    target: int | None) -> RoomActor:
        code = new_code()
        while code in self.rooms:  # 31**8 codes: a clash is astronomically rare, but cheap to rule out
            code = new_code()
        state = RoomState.open(code, options, self.settings, self.clock)
        # Stored before anyone is told the code: a room that was announced survives a restart.
        await self.store.write(rec.RoomOpened(code, options.name, edition, public, max_seats, target,
                                              options.stored()))
        actor = RoomActor(state, self.settings, self.store, self.observer, self.lost)
        actor.serving = self.tenancy.serving
        self.rooms[code] = actor
        actor.start()
        if public:
            self._lobby = None  # listed at once: its creator is about to look for it
        return actor

    def get(self, code: str) -> RoomActor | None:
        actor = self.rooms.get(normalise_code(code))
        return actor if actor is not None and not actor.stopped else None

    async def find(self, code: str) -> RoomActor | None:
        """As ``get``, but a room being rebuilt is waited for rather than reported missing."""
        task = self.rebuilding.get(normalise_code(code))
        if task is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.shield(task)
        return self.get(code)

    # ------------------------------------------------------------------ a room that lost a write

    def lost(self, code: str) -> None:
        if not self.tenancy.may_rebuild(code):
            self.forget(code)  # another node has it, or will: its sockets reconnect there
            return
        if code not in self.rebuilding:
            self.rebuilding[code] = asyncio.create_task(self._rebuild(code), name=f"rebuild-{code}")

    async def _rebuild(self, code: str) -> None:
        """Read the room back from the store, where the change that failed never happened."""
        try:
            delay = 0.05
            for attempt in range(1, REBUILD_TRIES + 1):
                try:
                    if not await self.tenancy.still_ours(code):
                        self.forget(code)  # the write was refused: another node owns the room now
                        return
                    stored = await self.store.load_room(code)
                    if stored is None:
                        self.forget(code)
                        return
                    actor = restore_room(stored, self.settings, self.store, self.observer, self.lost,
                                         self.clock)
                    actor.serving = self.tenancy.serving
                except Exception:
                    log.exception("room %s: rebuild attempt %d failed", code, attempt)
                    await asyncio.sleep(delay)  # real time, not the rooms' clock: the store's to come back
                    delay = min(delay * 4, 2.0)
                    continue
                self.run(actor)
                log.warning("room %s rebuilt from the store after a failed write", code)
                return
            log.error("room %s could not be rebuilt; it is dropped", code)
            self.forget(code)
        finally:
            self.rebuilding.pop(code, None)

    # ------------------------------------------------------------------ listing and sweeping

    async def lobby(self) -> list[dict[str, Any]]:
        """The lobby's list: this process's rooms, or with several nodes every node's."""
        return await self.tenancy.lobby(self.public_rooms)

    def public_rooms(self) -> list[dict[str, Any]]:
        """Public rooms still open to join, newest first; read from each actor's published
        summary, and kept for ``lobby_cache_seconds`` (the caller must not change the list)."""
        now = self.clock.monotonic()
        if self._lobby is not None and now - self._lobby[0] < self.settings.lobby_cache_seconds:
            return self._lobby[1]
        out = [a.summary for a in self.rooms.values()
               if not a.stopped and a.summary["public"] and a.summary["seats_free"] > 0]
        out.sort(key=lambda s: s["created_at"], reverse=True)
        self._lobby = (now, out)
        return out

    async def sweep(self, now: float | None = None) -> list[str]:
        """Stop rooms nobody uses: idle ones, waiting ones no seat has a socket in, and
        finished ones after a grace period.  Spectators and lookups don't count as use
        (``RoomActor._lively``): anyone can make those, for ever."""
        now = self.clock.monotonic() if now is None else now
        settings = self.settings
        doomed = []
        for code, actor in self.rooms.items():
            if code in self.rebuilding:
                continue
            idle, unseated = now - actor.last_activity, now - actor.last_seated
            status, seated = actor.summary["status"], actor.seated
            if actor.stopped or (not seated and idle > settings.room_idle_seconds) or (
                status == "waiting" and not seated and unseated > settings.waiting_room_idle_seconds
            ) or (status == "over" and idle > settings.finished_room_seconds):
                doomed.append(code)
        for code in doomed:
            gone = self.forget(code)
            if gone is None:  # dropped meanwhile, while an earlier one was stopping
                continue
            await gone.stop("room closed: idle")
            await self.store.write(rec.RoomClosed(code))
            log.info("room %s stopped and removed", code)
        return doomed

    async def _sweep_forever(self) -> None:
        while True:
            await self.clock.sleep(self.settings.sweep_seconds)
            try:
                await self.sweep()
            except Exception:
                log.exception("room sweep failed")
