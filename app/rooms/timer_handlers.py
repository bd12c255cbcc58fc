"""Messages a room sends itself when a timer it set runs out: the next round, a bot's planned
move, a turn's time up, the count of watchers, the delayed spectators' frames, a tick.

Dispatched by the message table in ``handlers.py``.  The next round, a bot's move and a turn's
timeout can arrive after the table changed under them: each checks that it is still due (the
round, the key of the table it was planned on) before acting.
"""

from __future__ import annotations

from . import play
from .inbox import BotTurn, CountWatchers, NextRound, SpectatorsDue, Tick, TurnTimeout
from .move_handlers import move_for
from .outcome import Outcome
from .parts import RoomParts
from .room_state import BETWEEN, PLAYING


def on_next_round(room: RoomParts, msg: NextRound, out: Outcome) -> None:
    st = room.state
    m = st.match
    if st.status == BETWEEN and m is not None and st.match_no == msg.match_no and m.round_no == msg.round_no:
        out.store(*play.next_round(st, room.races))


def on_bot_turn(room: RoomParts, msg: BotTurn, out: Outcome) -> None:
    st = room.state
    moves = room.automation.moves
    if msg.key != moves.timer.key or st.status != PLAYING or not 0 <= msg.seat < len(st.players):
        return  # stale: the table changed since the move was planned
    moves.timer.handle = None
    player = st.players[msg.seat]
    if player.auto:
        move_for(room, player, msg.action, out)


def on_turn_timeout(room: RoomParts, msg: TurnTimeout, out: Outcome) -> None:
    st = room.state
    m = st.match
    if msg.turn != room.automation.turn.key or st.status != PLAYING or m is None or m.round.pending is None:
        return
    room.automation.turn.cancel()  # whatever happens next gets a fresh clock
    seat = m.round.pending.seat
    player = st.players[seat]
    st.note("timeout", seat=seat)
    out.dirty = True
    action = room.automation.timeout_action(seat)
    if action is None or not move_for(room, player, action, out):
        return
    if action["kind"] == "draw" and st.status == PLAYING and st.match is m:
        # The minimal move: draw, then keep what was drawn (if it could have been played).
        pending = m.round.pending
        if pending is not None and pending.seat == seat:
            keep = room.automation.timeout_action(seat)
            if keep is not None and keep["kind"] == "keep":
                move_for(room, player, keep, out)


def on_count_watchers(room: RoomParts, msg: CountWatchers, out: Outcome) -> None:
    count = room.streams.watching
    if count != room.state.watchers:
        room.state.watchers = count
        out.dirty = True


def on_spectators_due(room: RoomParts, msg: SpectatorsDue, out: Outcome) -> None:
    """Nothing changes: the publish step sends the delayed spectator frames that are due."""


def on_tick(room: RoomParts, msg: Tick, out: Outcome) -> None:
    """Nothing to do but plan again (the actor always does, after every message)."""
