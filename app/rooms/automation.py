"""Players who aren't there, and time: absent seats, the turn clock, hosting, the next round.

After every message, before anything is stored or sent, ``plan`` decides what the room stores
and shows about them: which seats a bot plays (bots, and people away past the room's grace),
the turn clock's deadline, the next round's start, the rematch countdown, the match clock and
whether hosting must pass on.  It builds no view: the bots' next move is picked after the
publish, on the views it built (``bot_moves.py``, which this owns).  Timers only ever ``tell``
the inbox; each is tagged with the table it was planned on, and a stale one is ignored when it
arrives.  Because planning happens inside the message, the one publish that follows already
shows every consequence (a fresh deadline, say).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from typing import Any

from app.bots import choose_action
from app.config import Settings
from app.engine import Match
from app.engine.house.pace import turn_clock_seconds

from .away import AwayTally
from .bot_moves import BotMoves
from .clock import Timer
from .inbox import BlitzExpired, Message, NextRound, RematchDue, Tick, TurnTimeout
from .outcome import Outcome
from .room_state import BETWEEN, OVER, PLAYING, RoomState
from .room_views import game_views
from .seating import room_record


def last_decision(m: Match) -> int:
    """The position of the last action that settled a decision (UNO! calls settle none)."""
    for i in range(len(m.log) - 1, -1, -1):
        if m.log[i].action.kind not in ("declare_uno", "catch"):
            return i + 1
    return 0


class Automation:
    def __init__(self, state: RoomState, settings: Settings, tell: Callable[[Message], None]) -> None:
        self.state = state
        self.settings = settings
        self.tell = tell
        self.rng = random.Random(secrets.randbits(64))
        self.clock = clock = state.clock  # the room's time (clock.py): every timer below is set on it
        self.turn = Timer(clock)  # the turn clock (``turn_seconds``)
        self.wake = Timer(clock)
        self.next_round = Timer(clock)
        self.rematch = Timer(clock)
        self.blitz = Timer(clock)
        self.moves = BotMoves(state, settings, tell)  # the bots' next move, planned after the publish

    def cancel(self) -> None:
        for timer in (self.turn, self.wake, self.next_round, self.rematch, self.blitz):
            timer.cancel()
        self.moves.cancel()

    def plan(self, out: Outcome) -> None:
        st = self.state
        now = self.clock.monotonic()
        wake = self._presence(out, now)
        self._hosting(out, now)
        due = self._host_due()
        if due is not None:
            wake = due if wake is None else min(wake, due)
        if wake is not None:
            self.wake.set(None, wake - now + 0.01, self.tell, Tick())
        else:
            self.wake.cancel()
        m = st.match
        if st.status == BETWEEN and m is not None and st.next_round_at is not None:
            key = (st.match_no, m.round_no)
            if self.next_round.key != key:
                self.next_round.set(key, st.next_round_at - self.clock.wall(), self.tell, NextRound(*key))
        else:
            self.next_round.cancel()
        if st.status == OVER and st.rematch_at is not None:
            if self.rematch.key != st.match_no:
                due = st.rematch_at - self.clock.wall()
                self.rematch.set(st.match_no, due, self.tell, RematchDue(st.match_no))
        else:
            self.rematch.cancel()
        self._plan_blitz()
        self._plan_clock(out)

    def _presence(self, out: Outcome, now: float) -> float | None:
        """Who a bot plays for now; the monotonic time of the next grace to run out, if any."""
        st = self.state
        in_match = st.status in (PLAYING, BETWEEN)
        wake: float | None = None
        for p in st.players:
            if p.bot:
                auto = True
            elif p.connected:
                auto = False
            else:
                if p.away_since is None:  # joined but never connected: away from now
                    p.away_since = now
                due = p.away_since + st.away_grace_seconds
                auto = in_match and now >= due
                if in_match and not auto:
                    wake = due if wake is None else min(wake, due)
            if auto != p.auto:
                p.auto = auto
                out.dirty = True
                if not p.bot and auto:
                    st.note("takeover", seat=p.seat)
                    if p.away is None:  # a takeover in the next match goes on with the same tally
                        p.away = AwayTally()
            if not p.bot and not p.auto and p.connected and p.away is not None:
                # Back (during a match, or after the ones the bot finished): what it did, told once.
                told, p.away = p.away.summary(), None
                out.dirty = True
                st.note("returned", seat=p.seat, away=told)
        return wake

    def _host_due(self) -> float | None:
        """When an absent host's grace runs out, if someone else is there to take over."""
        st = self.state
        if not st.players or not 0 <= st.host < len(st.players):
            return None
        host = st.players[st.host]
        if host.connected or host.bot or host.away_since is None:
            return None
        if not any(p.connected and not p.bot for p in st.players):
            return None
        return host.away_since + st.away_grace_seconds

    def _hosting(self, out: Outcome, now: float) -> None:
        """Only people host: a bot (the host left it alone) or a host away past the grace hands
        over to the longest-seated person who is here."""
        st = self.state
        if not st.players:
            return
        host = st.players[st.host] if 0 <= st.host < len(st.players) else None
        if host is not None and not host.bot:
            due = self._host_due()
            if due is None or now < due:
                return
        people = [p for p in st.players if not p.bot and p is not host]
        heir = next((p for p in people if p.connected), None)
        if heir is None and (host is None or host.bot):
            heir = next(iter(people), None)
        if heir is None:
            return
        st.host = heir.seat
        st.note("host", seat=heir.seat)
        out.store(room_record(st))

    def _plan_blitz(self) -> None:
        """HR-25: the match clock's expiry, once per match, through rounds and breaks alike; a match
        that is over (or a room without a match) has none."""
        st = self.state
        if st.blitz_deadline is None or st.match is None or st.status not in (PLAYING, BETWEEN):
            self.blitz.cancel()
        elif self.blitz.key != st.match_no:
            due = st.blitz_deadline - self.clock.wall()
            self.blitz.set(st.match_no, due, self.tell, BlitzExpired(st.match_no))

    def _plan_clock(self, out: Outcome) -> None:
        """The turn clock: a fresh deadline whenever a new decision is owed."""
        st = self.state
        m = st.match
        pending = m.round.pending if st.status == PLAYING and m is not None else None
        if st.turn_seconds is not None and pending is not None and m is not None:
            turn = (st.match_no, m.round_no, pending.seat, pending.kind, last_decision(m))
            if turn != self.turn.key:
                seconds = turn_clock_seconds(st.house, st.turn_seconds)  # HR-24: halved in fast mode
                st.turn_deadline = round(self.clock.wall() + seconds, 3)
                out.dirty = True
                self.turn.set(turn, seconds, self.tell, TurnTimeout(turn))
        else:
            self.turn.cancel()
            if st.turn_deadline is not None:
                st.turn_deadline = None
                out.dirty = True

    def timeout_action(self, seat: int) -> dict[str, Any] | None:
        """The minimal move for a seat whose time ran out: keep a drawn card, else draw, else the
        forced choice a bot would make (minus UNO! calls)."""
        m = self.state.match
        assert m is not None
        seen = game_views(self.state, (seat,))[seat]  # the bot below decides on the same view
        legal = seen["table"].get("legal", [])
        for kind in ("keep", "draw"):
            found = next((a for a in legal if a["kind"] == kind), None)
            if found is not None:
                return dict(found)
        chosen = choose_action(seen, self.rng, uno_reliability=0.0)
        if chosen is not None and not_for_the_clock(seen, chosen):
            return next(dict(a) for a in legal if a["kind"] == "accept")
        return no_batch(legal, chosen) if chosen is not None else None


def no_batch(legal: list[dict[str, Any]], chosen: dict[str, Any]) -> dict[str, Any]:
    """HX-8: the clock never plays a batch (HR-8): the bot's batch becomes its first card alone
    (legal whenever the batch is: C-5 judges the first card), with no UNO! call."""
    if not chosen.get("more"):
        return chosen
    return next(dict(a) for a in legal if a["kind"] == "play" and a["card"] == chosen["card"]
                and not a.get("more") and not a.get("uno"))


def not_for_the_clock(seen: dict[str, Any], action: dict[str, Any]) -> bool:
    """HX-8: the clock answers a penalty only with a card of the top card's face (the same Draw card,
    RULES.md §6.1), never with a cross-stack or a deflection (HR-2 to HR-4): it accepts instead."""
    table = seen["table"]
    pending = table.get("pending") or {}
    if action["kind"] != "play" or pending.get("kind") not in ("stack", "challenge"):
        return False
    face = next(c["face"] for c in table["hand"] if c["id"] == action["card"])
    return bool(face != table["top"]["face"])
