"""The rematch: a decision of the whole table, not the host's alone.

When a match is over, each person says they are ready for another (the ``ready`` command) or
leaves (``leave``).  The rematch starts as soon as every person still at the table is ready.
The host may also ask for it (``rematch``): that starts a short countdown
(``UNO_REMATCH_COUNTDOWN_SECONDS``, ``room.rematch_at`` in the view) for the others to make up
their minds, and asking again during it starts at once.  Bots are always ready.  Before that,
the host may choose the next match's game (``next_match``: edition, target, house rules); the
table is asked again, so everyone's "ready" and any countdown start afresh.

Whoever has left the table when the rematch starts (their socket gone for longer than the room's
grace for absent players) is not dealt in: their seat is given up, as if they had left, so
nobody is played by a bot through a match they never joined; someone who only reloaded the page
keeps their seat.  A rematch that would leave too few players, or under teams of two (HR-26) a
count teams cannot be made of, is refused before anything changes: the host's ``rematch`` on the
message itself, so no countdown starts.  A countdown that runs while the table changes so (a seat
leaves, an absent one's grace runs out) stops with nothing dealt, and the table's log says why
(a ``rematch_stopped`` note with the refusal's ``reason`` code); so does a table that is all ready
but cannot be dealt in.
"""

from __future__ import annotations

from app.engine import VARIANTS

from . import play, seating
from . import records as rec
from .commands import NextMatchCmd
from .errors import RoomError
from .inbox import RematchDue
from .options import RoomOptions
from .outcome import Outcome
from .parts import RoomParts
from .room_state import OVER, Player, RoomState


def gone(st: RoomState, p: Player) -> bool:
    """A person whose socket has been gone longer than the room's grace: they left the table."""
    if p.bot or p.connected:
        return False
    return p.away_since is None or st.clock.monotonic() - p.away_since >= st.away_grace_seconds


def everyone_ready(st: RoomState) -> bool:
    """Every person still at the table is ready, and there is at least one."""
    present = [p for p in st.players if not p.bot and not gone(st, p)]
    return st.status == OVER and bool(present) and all(p.ready for p in present)


def blocked(st: RoomState) -> RoomError | None:
    """Why a rematch could not be dealt now, if it could not: too few, or (HR-26) a count teams of
    two cannot be made of.  Counted are the seats not given up: an absent person within their
    grace is still seated; one past it is given up when the rematch starts."""
    seated = sum(1 for p in st.players if not gone(st, p))
    if seated < max(2, VARIANTS[st.edition].min_seats):
        return RoomError("not_enough_players", "At least two players are needed for a rematch.")
    try:
        play.require_teams(st, seated)
    except RoomError as err:
        return err
    return None


def stop(st: RoomState, why: RoomError, out: Outcome) -> None:
    """The rematch cannot be dealt: any countdown ends, nothing changes seats, and the table reads why."""
    st.rematch_at = None
    st.note("rematch_stopped", reason=why.code, seated=sum(1 for p in st.players if not gone(st, p)))
    out.dirty = True


def settle(room: RoomParts, out: Outcome) -> None:
    """After someone left or said ready: a countdown the table no longer allows stops; a table
    that is all ready starts, or is told why it cannot."""
    st = room.state
    if st.status != OVER:
        return
    why = blocked(st)
    if why is not None:
        if st.rematch_at is not None or everyone_ready(st):
            stop(st, why, out)
    elif everyone_ready(st):
        _start(room, out)


def _start(room: RoomParts, out: Outcome) -> None:
    st = room.state
    why = blocked(st)
    if why is not None:
        raise why  # refused before anyone's seat is given up
    absent = [p for p in st.players if gone(st, p)]
    for p in absent:
        st.note("left", seat=p.seat, name=p.name)  # (seats close up: the name stays with the note)
        seating.remove(st, p)
        room.streams.remove(p.token_hash)
    if absent:
        out.store(seating.seats_record(st), seating.room_record(st))
    out.store(*play.start_match(st, room.races))


def ready(room: RoomParts, player: Player, is_ready: bool, out: Outcome) -> None:
    """A person says they are ready for a rematch (or not any more); the last one starts it."""
    player.ready = is_ready
    out.dirty = True
    settle(room, out)


def cmd_rematch(room: RoomParts, player: Player, cmd: object, out: Outcome) -> None:
    """The host asks for a rematch: at once if everyone is ready or the countdown runs, else a countdown."""
    st = room.state
    seating.require_host(st, player)
    if st.status != OVER:
        raise RoomError("not_over", "A rematch can start once the match is over.")
    why = blocked(st)
    if why is not None:
        raise why  # on the message itself: no countdown starts for a table that cannot be dealt (HR-26)
    if st.rematch_at is not None or everyone_ready(st) or room.settings.rematch_countdown_seconds <= 0:
        _start(room, out)
        return
    player.ready = True
    st.rematch_at = round(st.clock.wall() + room.settings.rematch_countdown_seconds, 3)
    out.dirty = True


def on_rematch_due(room: RoomParts, msg: RematchDue, out: Outcome) -> None:
    st = room.state
    if st.status != OVER or st.rematch_at is None or st.match_no != msg.match_no:
        return  # stale: started already, or a room that moved on
    why = blocked(st)  # an absent seat's grace may have run out since the last look
    if why is not None:
        stop(st, why, out)  # the countdown ends with nothing dealt, and the table is told why
        return
    _start(room, out)


def cmd_next_match(room: RoomParts, player: Player, cmd: NextMatchCmd, out: Outcome) -> None:
    """The host picks the next match's edition, target and house rules; the table answers again."""
    st = room.state
    seating.require_host(st, player)
    if st.status != OVER:
        raise RoomError("not_over", "The next match's game can be chosen once the match is over.")
    variant = VARIANTS.get(cmd.variant)
    if variant is not None and len(st.players) > variant.max_seats:
        raise RoomError("bad_seats", f"{variant.title} is for {variant.min_seats} to {variant.max_seats} players; "
                        f"{len(st.players)} are seated.", 422)
    seats = min(max(st.max_seats, len(st.players)), variant.max_seats) if variant is not None else st.max_seats
    chosen = RoomOptions.parse(room.settings, cmd.variant, public=st.public, max_seats=seats, target=cmd.target_score,
                               name=st.name, house_rules=cmd.house_rules, turn_seconds=st.turn_seconds,
                               away_grace_seconds=st.away_grace_seconds, spectator_chat=st.spectator_chat,
                               spectator_delay=st.spectator_delay)
    st.edition, st.max_seats, st.target, st.house = chosen.edition, chosen.max_seats, chosen.target, chosen.house
    st.rematch_at = None
    for q in st.players:
        q.ready = q.bot
    st.note("next_match", seat=player.seat, edition=st.edition, target=st.target)
    out.store(rec.GameChanged(st.code, st.edition, st.max_seats, st.target),
              rec.OptionsChanged(st.code, st.options().stored()))
