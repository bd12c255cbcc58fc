"""The parts of one room that its handlers work on, in one place (the actor owns them all)."""

from __future__ import annotations

from dataclasses import dataclass

from app.config import Settings

from .automation import Automation
from .races import Races
from .reveal import Reveal
from .room_state import Player, RoomState
from .streams import Streams


@dataclass
class RoomParts:
    state: RoomState
    settings: Settings
    streams: Streams
    automation: Automation
    races: Races
    reveal: Reveal  # what the room's HTTP views may show yet (a room with a spectator delay)

    def player(self, token_hash: str | None) -> Player | None:
        if token_hash is None:
            return None
        for p in self.state.players:
            if p.token_hash == token_hash:
                return p
        return None
