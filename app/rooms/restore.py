"""Rebuild a room from its stored records: after a restart, or after a write that failed.

The match is replayed from its seed, its rounds' secrets and its action log through the
engine, and its events are narrated again into the room's log, so players who reconnect
find the table exactly as it was when their last action was acknowledged.  The client ids whose effects were
stored come back too: a resend of one is answered, never applied twice.
"""

from __future__ import annotations

from app.bots import DEFAULT_LEVEL
from app.config import Settings
from app.engine import BETWEEN as M_BETWEEN
from app.engine import OVER as M_OVER
from app.engine import ROUND as M_ROUND
from app.engine import MatchConfig, action_from_json, apply, new_match, start_next_round

from .clock import REAL_CLOCK, Clock
from .options import RoomOptions
from .play import announce, reveal
from .records import StoredRoom
from .room_state import BETWEEN, OVER, PLAYING, WAITING, Player, RoomState


def restore_state(stored: StoredRoom, settings: Settings, clock: Clock = REAL_CLOCK) -> RoomState:
    options = RoomOptions.restored(settings, stored.edition, public=stored.public, max_seats=stored.max_seats,
                                   target=stored.target, name=stored.name, options=stored.options)
    st = RoomState.open(stored.code, options, settings, clock)
    now = clock.monotonic()
    # Nobody is connected after a restart: people count as away from now, so bots take over
    # their seats only after the room's grace, and bots simply carry on.
    # A bot stored before levels existed (no level) plays at the default one, as it did then.
    st.players = [Player(name=s.name, token_hash=s.token_hash, seat=s.seat, bot=s.is_bot,
                         away_since=None if s.is_bot else now, auto=s.is_bot,
                         level=(s.bot_level or DEFAULT_LEVEL) if s.is_bot else None) for s in stored.seats]
    st.host = stored.host
    for seat, name, text in stored.chat:
        st.add_chat(seat, text, name if seat is None else None)
    st.status = WAITING
    m = stored.match
    if m is None:
        return st
    match, events = new_match(MatchConfig.from_json(m.config), m.seed)
    st.match = match
    st.record(events)
    announce(st)
    # Later rounds are dealt again from the secrets they were dealt from; a round stored without
    # one was dealt from the match seed (the engine's default), as rounds were before commitments.
    for round_no, seat, action in m.log:
        while match.round_no < round_no:
            st.record(start_next_round(match, m.secrets.get(match.round_no + 1)))
            announce(st)
        playing = match.phase == M_ROUND
        st.record(apply(match, seat, action_from_json(action)))
        if playing and match.phase != M_ROUND:  # (not after D-8's blitz expiry between rounds)
            reveal(st)
    while match.round_no < m.rounds_started:
        st.record(start_next_round(match, m.secrets.get(match.round_no + 1)))
        announce(st)
    if len(st.players) != match.config.seats:
        # Someone left after the match (only then do the seats differ from the match's): the
        # private logs, replayed by the match's seat numbers, can no longer be told apart by
        # seat, and a match that is over needs none.
        st.private.clear()
    st.seed, st.match_no, st.match_id = m.seed, m.number, m.id
    st.blitz_deadline = m.blitz_deadline  # HR-25: the match clock ran on while the room was down
    st.status = {M_BETWEEN: BETWEEN, M_OVER: OVER}.get(match.phase, PLAYING)
    if st.status == BETWEEN:  # the next round's clock starts again
        st.next_round_at = round(clock.wall() + settings.between_rounds_seconds, 3)
    if st.status in (BETWEEN, OVER):  # bots are ready for the next round, or a rematch
        for p in st.players:
            p.ready = p.bot
    return st
