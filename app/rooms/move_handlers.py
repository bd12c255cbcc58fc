"""The game's moves: a seat's action, its question why one would be refused, ready for the next
round, the match started; and a move the room makes for a seat (a bot's, or the clock's).

Dispatched by the command table in ``handlers.py``; ``move_for`` serves the timers' messages
(``timer_handlers.py``).
"""

from __future__ import annotations

import logging
from typing import Any

from app.engine import ConfigError, IllegalAction, action_from_json

from . import play, rematch, seating
from .commands import ActionCmd, StartCmd, WhyCmd
from .errors import RoomError
from .outcome import Outcome
from .parts import RoomParts
from .room_state import OVER, PLAYING, WAITING, Player

log = logging.getLogger("app.rooms")

# What a command, or a move the room makes for a seat, may be refused with.
REFUSALS = (RoomError, IllegalAction, ConfigError)


def move_for(room: RoomParts, player: Player, action: dict[str, Any], out: Outcome) -> bool:
    """The room moves for a seat (a bot, or the clock), through the same path as a person's action."""
    try:
        out.store(*play.act(room.state, room.races, room.settings, player, action_from_json(action)))
        return True
    except REFUSALS as err:
        log.warning("room %s: move %s for seat %d refused: %s", room.state.code, action, player.seat, err)
        room.automation.moves.replan()
        out.dirty = True
        return False


def cmd_action(room: RoomParts, player: Player, cmd: ActionCmd, out: Outcome) -> None:
    try:
        out.store(*play.act(room.state, room.races, room.settings, player, cmd.action, cmd.id, sent=True))
    except IllegalAction:
        out.dirty = True  # a refused UNO! attempt still updates the race receipt
        raise


def cmd_why(room: RoomParts, player: Player, cmd: WhyCmd, out: Outcome) -> None:
    """The engine's reason an action would be refused now (a dimmed card tapped), without acting."""
    m = room.state.match
    if room.state.status != PLAYING or m is None:
        raise RoomError("not_playing", "No round is being played now.")
    if room.state.house.no_hints:  # HR-32
        raise RoomError("no_hints", "No hints at this table: the rules do not say why before you act.")
    refused = m.round.refusal(player.seat, cmd.action)
    if refused is not None:
        try:
            raise refused
        finally:  # the error's traceback holds this frame: not the error too, a cycle that holds the room
            del refused


def cmd_ready(room: RoomParts, player: Player, cmd: Any, out: Outcome) -> None:
    if room.state.status == OVER:  # ready for a rematch (rematch.py)
        rematch.ready(room, player, cmd.ready, out)
        return
    player.ready = cmd.ready
    out.dirty = True
    if play.everyone_ready(room.state):
        out.store(*play.next_round(room.state, room.races))


def cmd_start(room: RoomParts, player: Player, cmd: StartCmd, out: Outcome) -> None:
    seating.require_host(room.state, player)
    if room.state.status != WAITING:
        raise RoomError("already_started", "The game has already started.")
    out.store(*play.start_match(room.state, room.races))
