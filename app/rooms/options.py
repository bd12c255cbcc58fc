"""Room options — edition, seats, target, house rules, turn clock, grace, spectators — checked in one place.

The HTTP API hands what a creator asked for to ``RoomOptions.parse`` (through the registry);
a restart reads stored options back with ``RoomOptions.stored`` (lenient: an option that
no longer reads falls back to its default rather than keeping the room down).  The engine's
own ``MatchConfig.validate`` decides what the engine can play, so its limits are not
written again here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.config import Settings
from app.engine import VARIANTS, ConfigError, HouseRules, MatchConfig
from app.engine.house import SPECS

from .errors import RoomError
from .text import clean_text

TURN_SECONDS_MIN, TURN_SECONDS_MAX = 1, 120  # the UI offers 15 / 30 / 60 s
AWAY_GRACE_MIN, AWAY_GRACE_MAX = 1, 600
SPECTATOR_DELAY_MIN, SPECTATOR_DELAY_MAX = 0, 30  # seconds spectators' frames are held back
NAME_MAX = 40

# Options the engine plays but the browser's table cannot yet (refused when on, and offered as
# unavailable by /api/house-rules).  None now: HR-32's no hints, which takes the legal actions out
# of people's frames, is played by the table's own candidate moves (static/js/table/unhinted.js).
NOT_AT_THE_TABLE: frozenset[str] = frozenset()


@dataclass(frozen=True)
class RoomOptions:
    edition: str
    max_seats: int
    target: int | None = None  # None: the edition's own
    public: bool = True
    name: str = ""
    house: HouseRules = field(default_factory=HouseRules)
    turn_seconds: int | None = None  # None: no turn clock
    away_grace_seconds: float = 30.0
    spectator_chat: bool = False  # whether spectators may chat (the host can change it)
    spectator_delay: int = 0  # seconds spectators see the table late (the host can change it)
    # The key of the host's big-screen link (RULES.md D-14; screen.py), None when there is none.
    # Kept with the options so that the link outlives a restart as the room does; never listed.
    screen_key: str | None = None

    @classmethod
    def parse(cls, settings: Settings, edition: str, *, public: bool, max_seats: int, target: int | None,
              name: str | None = None, house_rules: object = None, turn_seconds: object = None,
              away_grace_seconds: object = None, spectator_chat: object = False,
              spectator_delay: object = 0) -> RoomOptions:
        """A creator's request, or a ``RoomError`` (422) naming the first option that is wrong."""
        variant = VARIANTS.get(edition)
        if variant is None:
            raise RoomError("bad_variant", f"Unknown variant {edition!r}; try one of {', '.join(VARIANTS)}.", 422)
        if type(max_seats) is not int or max_seats < 2:
            raise RoomError("bad_seats", f"{variant.title} is for {variant.min_seats} to {variant.max_seats} "
                            "players.", 422)
        try:
            house = HouseRules.from_json(house_rules, variant)
            MatchConfig(edition, max_seats, target, house).validate()
        except ConfigError as err:
            raise RoomError(err.code, err.message, 422, **err.params) from None  # the option, for the words
        unplayable = [name for name in house.enabled if name in NOT_AT_THE_TABLE]
        if unplayable:
            raise RoomError("bad_house_rules", f"'{unplayable[0]}' is not supported by this server's table yet.", 422,
                            option=unplayable[0])
        if house.team_play and max_seats < 4:  # HR-26: teams of two need four seats at least
            raise RoomError("bad_teams", "Teams of two need a room of at least 4 seats.", 422)
        if turn_seconds is not None and not (type(turn_seconds) is int
                                             and TURN_SECONDS_MIN <= turn_seconds <= TURN_SECONDS_MAX):
            raise RoomError("bad_turn_seconds", f"The turn clock must be between {TURN_SECONDS_MIN} and "
                            f"{TURN_SECONDS_MAX} seconds, or off.", 422)
        # HX-1: an option may need the room's turn clock (fast mode halves it), which is no house rule.
        for name in house.enabled:
            if SPECS[name].needs_setting == "turn_seconds" and turn_seconds is None:
                raise RoomError("bad_house_rules", f"'{name}' needs 'turn_seconds' (a turn clock).", 422)
        if away_grace_seconds is None:
            grace = settings.away_grace_seconds
        elif (isinstance(away_grace_seconds, int | float) and not isinstance(away_grace_seconds, bool)
              and AWAY_GRACE_MIN <= away_grace_seconds <= AWAY_GRACE_MAX):
            grace = float(away_grace_seconds)
        else:
            raise RoomError("bad_away_grace", f"The grace for absent players must be between {AWAY_GRACE_MIN} "
                            f"and {AWAY_GRACE_MAX} seconds.", 422)
        # Cleaned as player names and chat are (text.py): the lobby lists it to everyone.
        title = clean_text(name or "")[:NAME_MAX].strip() or f"{variant.title} room"
        return cls(edition, max_seats, target, public, title, house, turn_seconds, grace,
                   check_spectator_chat(spectator_chat), check_spectator_delay(spectator_delay))

    def stored(self) -> dict[str, Any]:
        """What ``RoomOpened.options`` keeps (edition, seats, target and name have columns of their own)."""
        return {"house_rules": self.house.to_json(), "turn_seconds": self.turn_seconds,
                "away_grace_seconds": self.away_grace_seconds, "spectator_chat": self.spectator_chat,
                "spectator_delay": self.spectator_delay, "screen_key": self.screen_key}

    def lobby_summary(self, code: str, *, status: str, players: list[str], bots: int,
                      created_at: float) -> dict[str, Any]:
        """What the lobby lists of a room with these options: no tokens, no cards.  The one
        builder, for a process's own rooms (``RoomState``) and a cluster's (app/cluster/ownership.py)."""
        taken = len(players)
        return {
            "code": code,
            "name": self.name,
            "variant": self.edition,
            "public": self.public,
            "max_seats": self.max_seats,
            "target_score": self.target,
            "status": status,
            "seats_taken": taken,
            "seats_free": max(0, self.max_seats - taken) if status == "waiting" else 0,
            "players": players,
            "bots": bots,
            "created_at": created_at,
            "house_rules": self.house.to_json(),
            "turn_seconds": self.turn_seconds,
            "away_grace_seconds": self.away_grace_seconds,
            "spectator_chat": self.spectator_chat,
            "spectator_delay": self.spectator_delay,
        }

    @classmethod
    def restored(cls, settings: Settings, edition: str, *, public: bool, max_seats: int, target: int | None,
                 name: str, options: dict[str, Any]) -> RoomOptions:
        """Options read back after a restart; anything unreadable falls back to its default."""
        try:
            house = HouseRules.from_json(options.get("house_rules"), VARIANTS.get(edition))
        except ConfigError:
            house = HouseRules()
        turn = options.get("turn_seconds")
        grace = options.get("away_grace_seconds")
        delay = options.get("spectator_delay")
        key = options.get("screen_key")
        return cls(edition, max_seats, target, public, _title(edition, name), house,
                   turn if type(turn) is int and turn > 0 else None,
                   float(grace) if isinstance(grace, int | float) and grace > 0 else settings.away_grace_seconds,
                   options.get("spectator_chat") is True,
                   delay if type(delay) is int and SPECTATOR_DELAY_MIN <= delay <= SPECTATOR_DELAY_MAX else 0,
                   key if isinstance(key, str) and 16 <= len(key) <= 64 else None)


def _title(edition: str, name: str) -> str:
    """A stored room name, cleaned again: rooms stored before names were cleaned come back clean."""
    variant = VARIANTS.get(edition)
    return clean_text(name)[:NAME_MAX].strip() or (f"{variant.title} room" if variant else name)


def check_spectator_chat(value: object) -> bool:
    """Whether spectators may chat: a boolean, or a ``RoomError`` (422)."""
    if type(value) is not bool:
        raise RoomError("bad_spectator_chat", "Spectator chat is either on or off.", 422)
    return value


def check_spectator_delay(value: object) -> int:
    """The spectators' delay in whole seconds, 0-30, or a ``RoomError`` (422)."""
    if type(value) is not int or not SPECTATOR_DELAY_MIN <= value <= SPECTATOR_DELAY_MAX:
        raise RoomError("bad_spectator_delay", f"The spectators' delay must be a whole number of seconds from "
                        f"{SPECTATOR_DELAY_MIN} to {SPECTATOR_DELAY_MAX}.", 422)
    return value
