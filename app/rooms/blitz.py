"""HR-25 blitz at the room: the match clock runs out (RULES.md §7.8; D-8).

The deadline is state (``RoomState.blitz_deadline``, epoch seconds from round 1's deal, stored
with the match so that a restart keeps it); the automation schedules one ``BlitzExpired`` per
match for it (``Automation._plan_blitz``), through rounds and the breaks between them.  When it
arrives, in arrival order like every other message, the room applies the engine's own action
(``blitz_expiry`` from ``CLOCK_SEAT``) and stores it in the match's log like any other, so a
restart, a replay, the export and the verifier play it again.  The engine ends the round (won
by the seat with the fewest cards) and the match; a match that is over never gets it.
"""

from __future__ import annotations

from app.config import Settings
from app.engine import Action, apply
from app.engine.actions import BLITZ_EXPIRY, CLOCK_SEAT

from . import records as rec
from .inbox import BlitzExpired
from .outcome import Outcome
from .parts import RoomParts
from .play import after_action
from .room_state import BETWEEN, OVER, PLAYING, RoomState

EARLY = 0.5  # seconds: a wake-up earlier than this before the deadline (the wall clock moved) waits again


def on_blitz_expired(room: RoomParts, msg: BlitzExpired, out: Outcome) -> None:
    st = room.state
    if st.match_no != msg.match_no or st.status not in (PLAYING, BETWEEN) or st.blitz_deadline is None:
        return  # stale: the match is over, or another one began
    if st.clock.wall() < st.blitz_deadline - EARLY:
        room.automation.blitz.cancel()  # planned again after this message, for the deadline as it is
        return
    room.automation.blitz.handle = None
    room.races.clear()
    out.store(*expire(st, room.settings))


def expire(st: RoomState, settings: Settings) -> list[rec.Record]:
    """Apply the expiry; the records that store it (the action, the round it ended, the match)."""
    m = st.match
    assert m is not None and st.match_id is not None
    round_no = m.round_no
    action = Action(BLITZ_EXPIRY)
    events = apply(m, CLOCK_SEAT, action)
    st.record(events)
    records: list[rec.Record] = [rec.ActionApplied(st.code, st.match_id, round_no, len(m.log), CLOCK_SEAT,
                                                   action.to_json())]
    if any(ev.kind == "round_over" for ev in events):
        return records + after_action(st, settings, events)  # the round is scored, then the match ends
    # D-8: between rounds nothing is scored; the match ends at once.
    assert m.winner is not None
    st.status = OVER
    st.next_round_at = None
    for q in st.players:
        q.ready = q.bot  # as after any last round: bots are ready for a rematch
    st.note("final", winner=m.winner)
    return [*records, rec.MatchFinished(st.code, st.match_id, m.winner, st.think.summary())]
