"""The registry: creates, finds and stops room actors; sweeps idle and finished rooms."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from app.config import Settings
from app.engine import VARIANTS, ConfigError, HouseRules

from . import records as rec
from .actor import CLOSE_GOING_AWAY, FrameObserver, RoomActor, RoomError
from .ports import Store
from .restore import restore_state
from .room_state import RoomState, new_code, normalise_code

log = logging.getLogger("app.rooms")

# Room options the API accepts (the UI offers 15 / 30 / 60 s turn clocks).
TURN_SECONDS_MIN, TURN_SECONDS_MAX = 1, 120
AWAY_GRACE_MIN, AWAY_GRACE_MAX = 1, 600


class RoomRegistry:
    def __init__(self, settings: Settings, store: Store, observer: FrameObserver | None = None) -> None:
        self.settings = settings
        self.store = store
        self.observer = observer
        self.rooms: dict[str, RoomActor] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None  # the loop every actor runs on

    async def start(self) -> None:
        """Bring back every room the store still has open, then start sweeping."""
        self.loop = asyncio.get_running_loop()
        for stored in await self.store.unfinished_rooms():
            try:
                state = restore_state(stored, self.settings)
            except Exception:  # one unreadable room must not keep the others down
                log.exception("room %s could not be restored", stored.code)
                continue
            actor = RoomActor(state, self.settings, self.store, self.observer)
            self.rooms[state.code] = actor
            actor.start()
            actor.resume()
        if self.rooms:
            log.info("restored %d room(s)", len(self.rooms))
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="room-sweeper")

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        # Rooms are not closed in the store: they come back when the server does, and clients
        # told "going away" (1001) reconnect to them.
        await asyncio.gather(*(actor.stop("server restarting", CLOSE_GOING_AWAY) for actor in self.rooms.values()))
        self.rooms.clear()

    async def create(self, edition: str, *, public: bool, max_seats: int, target: int | None,
                     name: str | None, house_rules: object = None, turn_seconds: int | None = None,
                     away_grace_seconds: float | None = None) -> RoomActor:
        variant = VARIANTS.get(edition)
        if variant is None:
            raise RoomError("bad_variant", f"Unknown variant {edition!r}; try one of {', '.join(VARIANTS)}.", 422)
        if not max(2, variant.min_seats) <= max_seats <= variant.max_seats:
            raise RoomError("bad_seats", f"{variant.title} is for {variant.min_seats} to {variant.max_seats} players.",
                            422)
        if target is not None and not 1 <= target <= 100_000:
            raise RoomError("bad_target", "The target score must be between 1 and 100000.", 422)
        try:
            house = HouseRules.from_json(house_rules)
        except ConfigError as err:
            raise RoomError(err.code, err.message, 422) from None
        if turn_seconds is not None and not (type(turn_seconds) is int and
                                             TURN_SECONDS_MIN <= turn_seconds <= TURN_SECONDS_MAX):
            raise RoomError("bad_turn_seconds", f"The turn clock must be between {TURN_SECONDS_MIN} and "
                            f"{TURN_SECONDS_MAX} seconds, or off.", 422)
        if away_grace_seconds is not None and not AWAY_GRACE_MIN <= away_grace_seconds <= AWAY_GRACE_MAX:
            raise RoomError("bad_away_grace", f"The grace for absent players must be between {AWAY_GRACE_MIN} and "
                            f"{AWAY_GRACE_MAX} seconds.", 422)
        if len(self.rooms) >= self.settings.max_rooms:
            raise RoomError("server_full", "The server has too many rooms right now; try again later.", 503)
        code = new_code()
        while code in self.rooms:  # 31**8 codes: a clash is astronomically rare, but cheap to rule out
            code = new_code()
        title = " ".join((name or "").split())[:40] or f"{variant.title} room"
        state = RoomState(code=code, edition=edition, public=public, max_seats=max_seats, target=target, name=title,
                          event_log_kept=self.settings.event_log_kept,
                          private_log_kept=self.settings.private_log_kept, chat_kept=self.settings.chat_kept,
                          house=house, turn_seconds=turn_seconds,
                          away_grace_seconds=float(away_grace_seconds if away_grace_seconds is not None
                                                   else self.settings.away_grace_seconds))
        # Stored before anyone is told the code: a room that was announced survives a restart.
        await self.store.write(rec.RoomOpened(code, title, edition, public, max_seats, target, state.options()))
        actor = RoomActor(state, self.settings, self.store, self.observer)
        self.rooms[code] = actor
        actor.start()
        return actor

    def get(self, code: str) -> RoomActor | None:
        actor = self.rooms.get(normalise_code(code))
        return actor if actor is not None and not actor.stopped else None

    def public_rooms(self) -> list[dict[str, Any]]:
        """Public rooms still open to join; read from each actor's published summary."""
        out = [a.summary for a in self.rooms.values()
               if not a.stopped and a.summary["public"] and a.summary["seats_free"] > 0]
        out.sort(key=lambda s: s["created_at"], reverse=True)
        return out

    async def sweep(self, now: float | None = None) -> list[str]:
        """Stop rooms nobody uses: idle ones, and finished ones after a grace period."""
        now = time.monotonic() if now is None else now
        doomed = []
        for code, actor in self.rooms.items():
            idle = now - actor.last_activity
            if actor.stopped or (actor.connections == 0 and idle > self.settings.room_idle_seconds) or (
                actor.summary["status"] == "over" and idle > self.settings.finished_room_seconds
            ):
                doomed.append(code)
        for code in doomed:
            actor = self.rooms.pop(code)
            await actor.stop("room closed: idle")
            await self.store.write(rec.RoomClosed(code))
            log.info("room %s stopped and removed", code)
        return doomed

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_seconds)
            try:
                await self.sweep()
            except Exception:
                log.exception("room sweep failed")
