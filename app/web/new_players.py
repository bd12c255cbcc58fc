"""How many players one address may make an hour: a join without a player, or ``POST /api/me``.

A farm of ratings needs many "different people"; one script makes one per cookie-less join.
So each client address (an IPv6 one by its /64, as every per-address limit) may make at most
``new_players_per_hour`` players in any hour — a household of four on one connection still
gets its four, with room for a phone or two.  Past it a join still takes its seat, unlinked
(as an API client's: remembered by nobody, rated never), and ``POST /api/me`` answers 429.

The window is the limits' own (app/rates.py): the times of the last few players made per
address, kept in memory for the hour and no longer; with several nodes it is counted by all of
them together (app/cluster/rates.py).  Nothing of the address is stored with the player.
"""

from __future__ import annotations

import logging

from starlette.requests import Request

from app.rates import HOUR_S, HOURLY_KIND
from app.web.limits import Shared, Window, limited_address

log = logging.getLogger("app.web")


class NewPlayers:
    def __init__(self, per_hour: int, shared: Shared | None = None) -> None:
        self.per_hour, self.shared = per_hour, shared
        self.window = Window(per_hour, HOUR_S)

    async def wait(self, request: Request) -> float:
        """Count one player made from the request's address: 0 if it may, else the seconds until it may."""
        address = limited_address(request.scope)
        shared = self.shared() if self.shared is not None else None
        if shared is not None:
            try:
                wait = await shared.hit(HOURLY_KIND, address, self.per_hour, HOUR_S)
            except Exception as err:  # the database is away: this node's own count, meanwhile
                log.warning("new players counted on this node only: %s", type(err).__name__)
            else:
                if wait <= 0:
                    self.window.hit(address)
                return wait
        wait = self.window.hit(address)
        if wait > 0 and self.window.first_refusal(address):
            log.info("no more new players from %s this hour: at most %d", address, self.per_hour)
        return wait


def new_players_of(request: Request) -> NewPlayers | None:
    found: NewPlayers | None = getattr(request.app.state, "new_players", None)
    return found
