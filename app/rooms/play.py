"""The match as the room plays it: start, actions, rounds that end and begin, the end.

Each function changes the room's state through the engine and returns the records that
make the change durable; the actor stores them before anyone sees it.  Timers are not set
here: ``next_round_at`` is state, and the automation schedules what it calls for.
"""

from __future__ import annotations

import secrets

from app.config import Settings
from app.engine import VARIANTS, Action, Event, IllegalAction, MatchConfig, apply, new_match, start_next_round
from app.engine.audit import commitment
from app.engine.house.teams import TEAM_SIZES

from . import records as rec
from .errors import RoomError
from .races import Races
from .room_state import BETWEEN, OVER, PLAYING, Player, RoomState
from .seating import room_record


def require_teams(st: RoomState, count: int) -> None:
    """HR-26: with teams of two, a match starts only with 4, 6, 8 or 10 players (``bad_teams``)."""
    if st.house.team_play and count not in TEAM_SIZES:
        raise RoomError("bad_teams", f"Teams of two need 4, 6, 8 or 10 players, not {count}.")


def start_match(st: RoomState, races: Races) -> list[rec.Record]:
    variant = VARIANTS[st.edition]
    if len(st.players) < max(2, variant.min_seats):
        raise RoomError("not_enough_players", "At least two players are needed to start.")
    require_teams(st, len(st.players))
    # 128 bits, drawn fresh: the seed is round 1's secret (and draws the first dealer), and its
    # hash is published before anyone plays, so it must be neither guessable nor chosen.
    seed = secrets.token_hex(16)
    match, events = new_match(MatchConfig(st.edition, len(st.players), st.target, st.house), seed)
    st.match, st.seed = match, seed
    st.match_no += 1
    st.status = PLAYING
    st.next_round_at = st.rematch_at = None
    # HR-25: the match clock runs from round 1's deal, in wall-clock time (blitz.py schedules it).
    blitz = st.house.blitz_seconds
    st.blitz_deadline = round(st.clock.wall() + blitz, 3) if blitz is not None else None
    for q in st.players:
        q.ready = False
    races.clear()
    st.note("started", match=st.match_no)
    st.record(events)
    st.match_id = secrets.token_hex(8)
    st.think.restart(st.clock.monotonic())
    return [
        rec.MatchStarted(st.code, st.match_id, st.match_no, st.edition, match.config.to_json(), match.target,
                         seed, tuple(p.name for p in st.players), st.blitz_deadline),
        round_started(st),
        room_record(st),
    ]


def round_started(st: RoomState) -> rec.RoundStarted:
    """The deal: its commitment goes to everyone now, its secret only to the store until the round ends."""
    m = st.match
    assert m is not None and st.match_id is not None
    secret = m.round_secret(m.round_no)
    return rec.RoundStarted(st.match_id, m.round_no, str(m.round.seed), m.dealer, secret, announce(st))


def announce(st: RoomState) -> str:
    """Publish the commitment of the round just dealt (in the log; the room's view carries it too)."""
    m = st.match
    assert m is not None
    committed = commitment(m.round_secret(m.round_no))
    st.note("commitment", round=m.round_no, commitment=committed)
    return committed


def reveal(st: RoomState, n: int | None = None) -> None:
    """The round is over: its secret goes to everyone, to check the deal against the commitment.

    ``n``: the round (by default the one just scored)."""
    m = st.match
    assert m is not None
    n = m.history[-1].number if n is None else n
    secret = m.round_secret(n)
    st.note("secret", round=n, secret=secret, commitment=commitment(secret))


def act(st: RoomState, races: Races, settings: Settings, player: Player, action: Action,
        client_id: str | None = None, sent: bool = False) -> list[rec.Record]:
    """Apply a seat's action (a person's, a bot's, or the clock's); the records that store it.
    ``sent``: it came from the seat's sender (not the room), and its think time is counted.

    A refused UNO! attempt at a settled race still updates the race's receipt, and is refused
    with the winner named (``Races.late``)."""
    if st.status != PLAYING or st.match is None:
        raise RoomError("not_playing", "No round is being played now.")
    m = st.match
    assert st.match_id is not None
    round_no = m.round_no  # the round the action is played in (a round it ends is history after)
    took_ms = st.think.took_ms(st.clock.monotonic())
    try:
        events = apply(m, player.seat, action)
    except IllegalAction as err:
        if err.code == "too_late":
            raise races.late(player.seat, err) from err
        raise
    races.settled(events, action)
    if sent:
        st.think.sent(player.seat, took_ms)
    st.think.changed(st.clock.monotonic())
    st.record(events)
    records: list[rec.Record] = [rec.ActionApplied(st.code, st.match_id, round_no, len(m.log), player.seat,
                                                   action.to_json(), client_id)]
    return records + after_action(st, settings, events)


def after_action(st: RoomState, settings: Settings, events: list[Event]) -> list[rec.Record]:
    """What the engine's events of one action leave to store besides the action: a round that
    ended (``round_over``), and the match with it (``match_over``), or the pause before the next."""
    ended = next((ev for ev in events if ev.kind == "round_over"), None)
    m = st.match
    if ended is None and m is not None and m.round.void:
        # A dead round (HR-13): nothing is scored; its secret is revealed and the next dealer deals at once.
        reveal(st, m.round_no)
        st.status = BETWEEN
        st.next_round_at = round(st.clock.wall(), 3)
        return [room_record(st)]
    if ended is None:
        return []
    assert m is not None and st.match_id is not None
    reveal(st)
    last = m.history[-1]  # the engine's record of the round, scores included
    records: list[rec.Record] = [rec.RoundFinished(st.match_id, last.number, ended.data["winner"],
                                                   ended.data["points"], tuple(m.scores), last.cards_left,
                                                   last.gained)]
    for q in st.players:
        q.ready = q.bot  # bots are always ready (for the next round, or a rematch: rematch.py)
    champion = next((ev.data["winner"] for ev in events if ev.kind == "match_over"), None)
    if champion is None:
        st.status = BETWEEN
        st.next_round_at = round(st.clock.wall() + settings.between_rounds_seconds, 3)
        records.append(room_record(st))
    else:
        st.status = OVER
        st.next_round_at = None
        st.note("final", winner=champion)
        records.append(rec.MatchFinished(st.code, st.match_id, champion, st.think.summary()))
    return records


def next_round(st: RoomState, races: Races) -> list[rec.Record]:
    assert st.match is not None
    # A fresh secret for each round: revealing this one tells nothing of the next.
    events = start_next_round(st.match, secrets.token_hex(16))
    st.status = PLAYING
    st.next_round_at = None
    for q in st.players:
        q.ready = False
    races.clear()
    st.think.changed(st.clock.monotonic())
    st.record(events)
    return [round_started(st), room_record(st)]


def everyone_ready(st: RoomState) -> bool:
    # Seats a bot plays (bots, and people away past the grace) never hold the next round up.
    return st.status == BETWEEN and all(q.ready or q.auto for q in st.players)
