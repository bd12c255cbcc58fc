"""One node of a cluster: its lease, the rooms it owns, and where a room's traffic belongs.

A node serves a room only while it holds the room's current epoch and its own lease is
fresh.  It renews the lease every second; one that can't (the database is away, or the
process was stopped for a while) stops serving at once, and when it comes back it keeps only
the rooms nobody took meanwhile.  Rooms of dead nodes are taken over in batches by the
survivors, and any node asked for a room nobody alive owns takes it there and then: clients
reconnecting after a crash bring their rooms back with them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.config import Settings
from app.persistence.fencing import Fence
from app.rooms.errors import CLOSE_RESTARTING
from app.rooms.registry import RoomRegistry, restore_room
from app.rooms.room_state import normalise_code

from .holdings import SharedHoldings
from .ownership import Ownership
from .rates import SharedRates

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine

log = logging.getLogger("app.cluster")

# Stop serving this long before the lease runs out: the survivors may take the rooms the
# moment it does, and this node's clock and the database's drift apart a little.
LEASE_MARGIN_S = 1.0
MATCH_ROOMS_KEPT = 4096  # match ids whose room is remembered


@dataclass(frozen=True)
class Elsewhere:
    """The room belongs to a live node at this address."""

    address: str


def node_address(settings: Settings, port: int) -> str:
    """host:port where the proxy reaches this node."""
    if settings.node_address:
        return settings.node_address
    try:
        host = socket.gethostbyname(socket.gethostname())
    except OSError:
        host = "127.0.0.1"
    return f"{host}:{port}"


class ClusterNode:
    """The rooms' ``Tenancy`` (app/rooms/ports.py) for one node of several."""

    restores_at_start = False  # rooms come in as they are taken over, or asked for

    def __init__(self, settings: Settings, engine: AsyncEngine, registry: RoomRegistry, fence: Fence,
                 address: str) -> None:
        self.settings = settings
        self.registry = registry
        self.fence = fence
        self.id = fence.node
        self.ownership = Ownership(engine, self.id, address, settings.lease_seconds)
        self.rates = SharedRates(engine)  # per-address limits counted for every node at once
        # What each address holds (sockets, rooms) and opens, over every live node; the registry's.
        self.holdings = SharedHoldings(engine, self.id, self.rates.gate)
        self.renewed = -1e9  # monotonic time the last renewal was sent at
        self.adopting: dict[str, asyncio.Task[bool]] = {}
        # Set when a renewal saw rooms with no live owner: the take-over loop's cue.
        self.orphans = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._lobby: tuple[float, list[dict[str, Any]]] | None = None
        # Match id -> its room's code (never changes): the match routes go where the room is.
        self.match_rooms: OrderedDict[str, str] = OrderedDict()
        # Figures for /metrics and the benchmark.
        self.taken_over = 0
        self.lost = 0

    @staticmethod
    def new_id(settings: Settings) -> str:
        return settings.node_id or f"node-{secrets.token_hex(6)}"

    # ------------------------------------------------------------------ the lease

    def serving(self) -> bool:
        """Whether this node's lease is certainly still running."""
        return time.monotonic() - self.renewed < self.settings.lease_seconds - LEASE_MARGIN_S

    async def start(self) -> None:
        await self.rates.start()  # the windows' table first: a socket's open counts in both
        await self.holdings.start()
        await self._renew()
        self._tasks = [asyncio.create_task(self._keep_lease(), name="cluster-lease"),
                       asyncio.create_task(self._take_over_forever(), name="cluster-takeover"),
                       asyncio.create_task(self.rates.sweep_forever(), name="cluster-rate-sweep"),
                       asyncio.create_task(self.holdings.run_forever(), name="cluster-holdings")]

    async def stop(self, codes: list[str]) -> None:
        """Give every room up at once (its sockets were told to come back): survivors take them."""
        for task in [*self._tasks, *self.adopting.values()]:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        try:
            await self.ownership.leave(codes)
        except Exception:
            log.exception("could not release %d room(s); they are taken over when the lease runs out", len(codes))
        try:
            await self.holdings.leave()
        except Exception as err:  # they stop counting anyway, with the lease just ended
            log.warning("could not clear this node's counts per address: %s", type(err).__name__)

    async def _renew(self) -> None:
        sent = time.monotonic()
        if await self.ownership.renew():
            self.orphans.set()
        self.renewed = sent

    async def _keep_lease(self) -> None:
        while True:
            was_serving = self.serving()
            try:
                await self._renew()
            except Exception as err:
                log.warning("node %s could not renew its lease: %s", self.id, type(err).__name__)
            if not self.serving():
                self._drop_all("lease lost")
            elif not was_serving:
                self.holdings.rewrite_all()  # its rows may have been swept meanwhile
                await self._keep_what_is_still_ours()
            await asyncio.sleep(self.settings.lease_renew_seconds)

    def _drop_all(self, why: str) -> None:
        for code in list(self.registry.rooms):
            self.drop(code, why)

    async def _keep_what_is_still_ours(self) -> None:
        """Back after a lapse: stop every room another node has taken meanwhile."""
        codes = list(self.registry.rooms)
        if not codes:
            return
        held = await self.ownership.held(codes)
        for code in codes:
            if held.get(code) != (self.id, self.fence.epochs.get(code)):
                self.drop(code, "taken over")

    def drop(self, code: str, why: str) -> None:
        """Stop serving a room without writing anything: its sockets come back through the proxy."""
        actor = self.registry.forget(code)  # its epoch with it
        if actor is not None:
            self.lost += 1
            actor.halt(CLOSE_RESTARTING, "room moved")
            log.warning("room %s dropped: %s", code, why)

    # ------------------------------------------------------------------ taking rooms

    async def _take_over_forever(self) -> None:
        while True:
            await self.orphans.wait()
            self.orphans.clear()
            if not self.serving():
                continue
            try:
                if await self.take_over_once() >= self.settings.takeover_batch:
                    self.orphans.set()  # a full batch: there may be more, right away
            except Exception:
                log.exception("taking rooms over failed")  # the next renewal cues it again

    async def take_over_once(self) -> int:
        """Take a batch of rooms nobody alive owns and restore them here: how many were taken.
        Each restore is an adoption in flight (``adopting``): a client asking for one of these
        rooms meanwhile waits for it, instead of claiming the room a second time."""
        taken = await self.ownership.take_over(self.settings.takeover_batch)
        turns = asyncio.Semaphore(4)

        async def restore(code: str, epoch: int) -> bool:
            async with turns:
                return await self._restore(code, epoch)

        tasks = [self._adoption(code, restore(code, epoch)) for code, epoch in taken]
        await asyncio.gather(*tasks, return_exceptions=True)
        if taken:
            self.taken_over += len(taken)
            log.info("node %s took over %d room(s)", self.id, len(taken))
        return len(taken)

    def _adoption(self, code: str, work: Coroutine[Any, Any, bool]) -> asyncio.Task[bool]:
        task = self.adopting[code] = asyncio.create_task(work, name=f"adopt-{code}")

        def done(_: asyncio.Task[bool]) -> None:
            if self.adopting.get(code) is task:
                del self.adopting[code]
        task.add_done_callback(done)
        return task

    async def _restore(self, code: str, epoch: int) -> bool:
        try:
            stored = await self.registry.store.load_room(code)
            if stored is None:
                return False
            actor = restore_room(stored, self.settings, self.registry.store, self.registry.observer,
                                 self.registry.lost, self.registry.clock)
        except Exception:
            log.exception("room %s could not be restored here", code)
            return False
        # Two restores of one room can overlap here (a takeover, and a client's claim of the room
        # this node had just taken): the newest epoch is the one the store accepts, so its actor
        # is the one that runs.  An older one would be a second actor of the room on this node.
        held = self.fence.epochs.get(code)
        if held is not None and held > epoch:
            return True
        older = self.registry.rooms.get(code)
        self.fence.epochs[code] = epoch
        if older is not None:
            older.halt(CLOSE_RESTARTING, "room moved")
        actor.serving = self.serving
        self.registry.run(actor)
        return True

    async def place(self, code: str) -> Elsewhere | None:
        """Where a request for this room belongs: None to serve it here (taking the room first
        when nobody alive owns it; an unknown room is then answered as such), or the owner."""
        code = normalise_code(code)
        if self.registry.get(code) is not None:
            return None
        task = self.adopting.get(code)
        if task is None:
            location = await self.ownership.locate(code)
            if location is None:
                return None
            if location.owner != self.id and location.alive and location.address:
                return Elsewhere(location.address)
            if not self.serving():
                return None  # answered as a room that is restarting
            task = self._adoption(code, self._adopt(code))
        with contextlib.suppress(Exception):
            if await asyncio.shield(task):
                return None
        location = await self.ownership.locate(code)
        if location is not None and location.owner != self.id and location.alive and location.address:
            return Elsewhere(location.address)
        return None

    async def room_of_match(self, match_id: str) -> str | None:
        code = self.match_rooms.get(match_id)
        if code is None:
            code = await self.ownership.room_of_match(match_id)
            if code is None:
                return None
            self.match_rooms[match_id] = code
            while len(self.match_rooms) > MATCH_ROOMS_KEPT:
                self.match_rooms.popitem(last=False)
        return code

    async def _adopt(self, code: str) -> bool:
        epoch = await self.ownership.claim(code)
        if epoch is None:
            return False
        self.taken_over += 1
        return await self._restore(code, epoch)

    def may_rebuild(self, code: str) -> bool:
        """A room of this node could not store a write: whether to rebuild it here.  Not when
        another node took it (the write was fenced) or this node's lease has lapsed: then the
        registry forgets it, epoch and all."""
        return self.serving()

    async def still_ours(self, code: str) -> bool:
        held = await self.ownership.held([code])
        return held.get(code) == (self.id, self.fence.epochs.get(code))

    def forgotten(self, code: str) -> None:
        self.fence.epochs.pop(code, None)  # a write under it now is refused, whoever makes it

    def holder(self, code: str) -> tuple[str, int]:
        return self.id, self.fence.epochs.get(normalise_code(code), 0)

    # ------------------------------------------------------------------ the lobby

    async def lobby(self, local: Callable[[], list[dict[str, Any]]] | None = None) -> list[dict[str, Any]]:
        """Public waiting rooms of every node (``local``, this node's, is not enough): one query,
        kept ``lobby_cache_seconds``."""
        now = time.monotonic()
        if self._lobby is not None and now - self._lobby[0] < self.settings.lobby_cache_seconds:
            return self._lobby[1]
        rooms = await self.ownership.lobby(self.settings)
        self._lobby = (now, rooms)
        return rooms
