"""What each message does to a room: two dispatch tables, one by inbox message, one by command.

A handler changes the room's state and notes in an ``Outcome`` what to store and what to
answer; it never writes to the store or a socket (the actor does both, in that order).
A refusal raises ``RoomError`` (or the engine's ``IllegalAction``) before anything changed.

The tables are the one place that says which function handles what.  The handlers live by
family: seats, sockets, chat and the host's options in ``lobby_handlers.py``; the game's moves
in ``move_handlers.py``; the messages a room's own timers send it in ``timer_handlers.py``; and
a few with the feature they belong to (``rematch.py``, ``blitz.py``, ``screen.py``,
``reactions.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import blitz, lobby_handlers, move_handlers, reactions, rematch, screen, timer_handlers
from .inbox import (
    AddBot,
    Attach,
    BlitzExpired,
    BotTurn,
    CountWatchers,
    Detach,
    GetSummary,
    Join,
    MatchShown,
    NextRound,
    RematchDue,
    ScreenLink,
    SpectatorsDue,
    Tick,
    TurnTimeout,
)
from .lobby_handlers import spectator_chat
from .move_handlers import REFUSALS
from .outcome import Outcome
from .parts import RoomParts
from .room_state import Player

# What the actor takes from here: the tables, what a command may be refused with, and the one
# handler it calls for a spectator's socket rather than a seat's (a spectator's chat).
__all__ = ["COMMAND_HANDLERS", "MESSAGE_HANDLERS", "REFUSALS", "spectator_chat"]


# ---------------------------------------------------------------------- inbox messages


MESSAGE_HANDLERS: dict[type, Callable[[RoomParts, Any, Outcome], None]] = {
    Join: lobby_handlers.on_join,
    GetSummary: lobby_handlers.on_get_summary,
    MatchShown: lobby_handlers.on_match_shown,
    AddBot: lobby_handlers.on_add_bot,
    Attach: lobby_handlers.on_attach,
    Detach: lobby_handlers.on_detach,
    NextRound: timer_handlers.on_next_round,
    RematchDue: rematch.on_rematch_due,
    BotTurn: timer_handlers.on_bot_turn,
    TurnTimeout: timer_handlers.on_turn_timeout,
    BlitzExpired: blitz.on_blitz_expired,
    Tick: timer_handlers.on_tick,
    CountWatchers: timer_handlers.on_count_watchers,
    ScreenLink: screen.on_screen_link,
    SpectatorsDue: timer_handlers.on_spectators_due,
}


# ---------------------------------------------------------------------- a seat's commands


COMMAND_HANDLERS: dict[str, Callable[[RoomParts, Player, Any, Outcome], None]] = {
    "action": move_handlers.cmd_action,
    "chat": lobby_handlers.cmd_chat,
    "rename": lobby_handlers.cmd_rename,
    "ready": move_handlers.cmd_ready,
    "leave": lobby_handlers.cmd_leave,
    "kick": lobby_handlers.cmd_kick,
    "add_bot": lobby_handlers.cmd_add_bot,
    "start": move_handlers.cmd_start,
    "rematch": rematch.cmd_rematch,
    "options": lobby_handlers.cmd_options,
    "why": move_handlers.cmd_why,
    "react": reactions.cmd_react,
    "next_match": rematch.cmd_next_match,
}
