"""Rebuild a room from its stored records after a restart.

The match is replayed from its seed and action log through the engine, and its events
are narrated again into the room's log, so players who reconnect find the table exactly
as it was when their last action was acknowledged.
"""

from __future__ import annotations

import time
from typing import Any

from app.config import Settings
from app.engine import (
    BETWEEN as M_BETWEEN,
)
from app.engine import (
    OVER as M_OVER,
)
from app.engine import (
    Action,
    ConfigError,
    HouseRules,
    MatchConfig,
    apply,
    new_match,
    start_next_round,
)

from .records import StoredRoom
from .room_state import BETWEEN, OVER, PLAYING, WAITING, Player, RoomState


def restore_state(stored: StoredRoom, settings: Settings) -> RoomState:
    st = RoomState(code=stored.code, edition=stored.edition, public=stored.public, max_seats=stored.max_seats,
                   target=stored.target, name=stored.name, event_log_kept=settings.event_log_kept,
                   private_log_kept=settings.private_log_kept, chat_kept=settings.chat_kept)
    apply_options(st, stored.options, settings)
    now = time.monotonic()
    # Nobody is connected after a restart: people count as away from now, so bots take over
    # their seats only after the room's grace, and bots simply carry on.
    st.players = [Player(name=s.name, token_hash=s.token_hash, seat=s.seat, bot=s.is_bot,
                         away_since=None if s.is_bot else now, auto=s.is_bot) for s in stored.seats]
    st.host = stored.host
    for seat, _name, text in stored.chat:
        st.add_chat(seat if seat is not None else -1, text)
    st.status = WAITING
    m = stored.match
    if m is None:
        return st
    config = MatchConfig.from_json(m.config)
    match, events = new_match(config, m.seed)
    st.record(events)
    for round_no, seat, action in m.log:
        while match.round_no < round_no:
            st.record(start_next_round(match))
        st.record(apply(match, seat, Action.from_json(action)))
    while match.round_no < m.rounds_started:
        st.record(start_next_round(match))
    st.match, st.seed, st.match_no, st.match_id = match, m.seed, m.number, m.id
    st.status = {M_BETWEEN: BETWEEN, M_OVER: OVER}.get(match.phase, PLAYING)
    return st


def apply_options(st: RoomState, options: dict[str, Any], settings: Settings) -> None:
    """Room options as stored in ``RoomOpened.options``; anything unreadable falls back to the default."""
    try:
        st.house = HouseRules.from_json(options.get("house_rules"))
    except ConfigError:
        st.house = HouseRules()
    turn = options.get("turn_seconds")
    st.turn_seconds = turn if type(turn) is int and turn > 0 else None
    grace = options.get("away_grace_seconds")
    st.away_grace_seconds = (float(grace) if isinstance(grace, int | float) and grace > 0
                             else settings.away_grace_seconds)
