"""A room's state outside the rules: seats, names, tokens, host, ready flags, chat, logs.

Everything here is owned by one ``RoomActor`` and touched by it alone.  Published entries
(log lines, chat lines) are never mutated once built — they are replaced — because each
seat's last view holds references to them and is diffed against the next one.  The views are
built from it in ``room_views.py``, which keeps their parts here (``parts``) while they are
unchanged, so the differ passes them by identity.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import deque
from dataclasses import dataclass, field, fields
from typing import Any

from app.config import Settings
from app.engine import Event, HouseRules, Match
from app.engine.view_parts import ViewParts

from .away import AwayTally
from .clock import REAL_CLOCK, Clock
from .narrate import scrub
from .options import RoomOptions
from .think_time import ThinkTimes

# Room status, as clients see it.
WAITING = "waiting"  # seats are being taken; the host starts
PLAYING = "playing"  # a round is being played
BETWEEN = "between"  # a round is over; summary shown; the next one starts soon
OVER = "over"  # the match is over; the host may start a rematch

# Room codes: no 0/O, 1/I/L look-alikes.  31 ** 8 ≈ 8.5e11 codes, drawn with ``secrets``.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 8


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(code: str) -> str:
    return code.strip().upper()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Player:
    name: str
    token_hash: str
    seat: int
    connected: bool = False
    ready: bool = False
    bot: bool = False  # a computer player: its token is random and held by nobody
    away_since: float | None = None  # room clock's monotonic time its socket went; None: here, or never came
    auto: bool = False  # played by a bot for now: a bot seat, or a seat away longer than the grace
    away: AwayTally | None = None  # what the bot did for this seat while its player is away (away.py)
    # A bot seat's level (app.bots.LEVELS); None for a person (played at normal when away).
    level: str | None = None


@dataclass
class RoomState:
    code: str
    edition: str
    public: bool
    max_seats: int
    target: int | None
    name: str
    event_log_kept: int = 60
    private_log_kept: int = 20
    chat_kept: int = 500
    created: float = 0.0  # epoch seconds (``open`` sets it; a restored room, from its record)
    status: str = WAITING
    players: list[Player] = field(default_factory=list)  # index == seat
    host: int = 0
    match: Match | None = None
    match_no: int = 0
    match_id: str | None = None  # the stored match, for its history page
    seed: str | None = None
    next_round_at: float | None = None
    rematch_at: float | None = None  # epoch seconds: the host's rematch countdown ends then (rematch.py)
    chat: deque[dict[str, Any]] = field(default_factory=deque)
    reactions: deque[dict[str, Any]] = field(default_factory=deque)  # the last few (reactions.py), never stored
    reacted: dict[str, deque[float]] = field(default_factory=dict)  # each sender's recent reactions, for its rate
    log: deque[dict[str, Any]] = field(default_factory=deque)
    private: dict[int, deque[dict[str, Any]]] = field(default_factory=dict)
    entries: int = 0  # numbers every log and chat entry, so clients can key them
    replaced: int = 0  # published log entries replaced by updated copies (``replace_entry``)
    # Room options, chosen at creation and kept in the RoomOpened record.
    house: HouseRules = field(default_factory=HouseRules)
    turn_seconds: int | None = None  # None: no turn clock
    away_grace_seconds: float = 30.0  # a seat away this long is played by a bot until it returns
    turn_deadline: float | None = None  # epoch seconds: the pending decision is made for its seat then
    blitz_deadline: float | None = None  # epoch seconds: the match clock runs out then (HR-25, blitz.py)
    spectator_chat: bool = False  # spectators may chat (the host's switch)
    spectator_delay: int = 0  # seconds spectators' frames are held back (the host's choice)
    watchers: int = 0  # spectators as last published (counted at most once per coalescing window)
    screen_key: str | None = None  # the host's big-screen link's key (D-14, screen.py); None: no link
    screens: int = 0  # screen sockets connected with that key (seats' pages turn into controllers)
    parts: ViewParts = field(default_factory=ViewParts, repr=False, compare=False)
    clock: Clock = field(default=REAL_CLOCK, repr=False, compare=False)  # the room's time (clock.py)
    # How long each seat's sender took over its moves in this match (the ratings' by-hand check).
    think: ThinkTimes = field(default_factory=ThinkTimes, repr=False, compare=False)

    def take(self, other: RoomState) -> None:
        """Become ``other`` (a room rebuilt from the store), field by field: this object stays the
        one every part of the room holds.  (Compiled, a RoomState has no ``__dict__`` to swap.)"""
        for f in fields(other):
            setattr(self, f.name, getattr(other, f.name))

    @classmethod
    def open(cls, code: str, options: RoomOptions, settings: Settings,
             clock: Clock = REAL_CLOCK) -> RoomState:
        return cls(code=code, edition=options.edition, public=options.public, max_seats=options.max_seats,
                   target=options.target, name=options.name, clock=clock, created=clock.wall(),
                   event_log_kept=settings.event_log_kept, private_log_kept=settings.private_log_kept,
                   chat_kept=settings.chat_kept, house=options.house,
                   turn_seconds=options.turn_seconds, away_grace_seconds=options.away_grace_seconds,
                   spectator_chat=options.spectator_chat, spectator_delay=options.spectator_delay,
                   screen_key=options.screen_key)

    # ------------------------------------------------------------------ seats

    def name_of(self, seat: int) -> str:
        return self.players[seat].name if 0 <= seat < len(self.players) else f"seat {seat}"

    def by_token(self, token: str) -> Player | None:
        digest = hash_token(token)
        for p in self.players:
            # Equal-length hex digests; compare_digest keeps the lookup constant-time per seat.
            if secrets.compare_digest(p.token_hash, digest):
                return p
        return None

    def renumber(self) -> None:
        for i, p in enumerate(self.players):
            p.seat = i

    # ------------------------------------------------------------------ logs

    def _number(self) -> int:
        self.entries += 1
        return self.entries

    def number(self) -> int:
        """The next entry number (for entries kept outside the logs and the chat: reactions)."""
        return self._number()

    def note(self, kind: str, **data: Any) -> dict[str, Any]:
        """Append a room-level public log entry (joins, starts, UNO race receipts...): its kind and
        data only; clients put it in words (static/js/narrate.js)."""
        entry = {"n": self._number(), "kind": kind, **data}
        self.log.append(entry)
        while len(self.log) > self.event_log_kept:
            self.log.popleft()
        self._tally(entry)
        return entry

    def _tally(self, entry: dict[str, Any]) -> None:
        """A public entry into the tallies of the seats away (away.py), which outlast the log."""
        for p in self.players:
            if p.away is not None:
                p.away.fold(entry, p.seat)

    def replace_entry(self, old: dict[str, Any], new: dict[str, Any]) -> bool:
        """Swap a published entry for an updated copy (entries are never mutated)."""
        for i, e in enumerate(self.log):
            if e is old:
                self.log[i] = new
                self.replaced += 1
                return True
        return False

    def record(self, events: list[Event]) -> None:
        """Engine events into the logs: public ones for all, private ones for their seats only."""
        for ev in events:
            data = scrub(ev.data)
            entry = {"n": self._number(), "kind": ev.kind, **data}
            if ev.to is None:
                self.log.append(entry)
                while len(self.log) > self.event_log_kept:
                    self.log.popleft()
                self._tally(entry)
                continue
            for seat in ev.to:
                box = self.private.setdefault(seat, deque())
                box.append(entry)
                while len(box) > self.private_log_kept:
                    box.popleft()

    def add_chat(self, seat: int | None, text: str, name: str | None = None, **data: Any) -> dict[str, Any]:
        """A chat line; ``seat`` None: a spectator's (``name`` is how the room calls them)."""
        entry: dict[str, Any] = {"n": self._number(), "seat": seat,
                                 "name": name if name is not None else self.name_of(seat if seat is not None else -1),
                                 "text": text, "at": round(self.clock.wall(), 3)}
        if seat is None:
            entry["spectator"] = True
        entry.update(data)
        self.chat.append(entry)
        while len(self.chat) > self.chat_kept:
            self.chat.popleft()
        return entry

    # ------------------------------------------------------------------ options and the lobby

    def options(self) -> RoomOptions:
        """The room's options as they are now (what ``RoomOpened.options`` keeps)."""
        return RoomOptions(self.edition, self.max_seats, self.target, self.public, self.name, self.house,
                           self.turn_seconds, self.away_grace_seconds, self.spectator_chat,
                           self.spectator_delay, self.screen_key)

    def public_summary(self) -> dict[str, Any]:
        """What the lobby lists: no tokens, no cards (rebuilt only when it changes)."""
        key = (self.name, self.edition, self.public, self.max_seats, self.target, self.status,
               tuple((p.name, p.bot) for p in self.players), self.house, self.turn_seconds, self.away_grace_seconds,
               self.spectator_chat, self.spectator_delay)
        return self.parts.get("lobby", key, self._public_summary)

    def _public_summary(self) -> dict[str, Any]:
        return self.options().lobby_summary(self.code, status=self.status, players=[p.name for p in self.players],
                                          bots=sum(1 for p in self.players if p.bot), created_at=self.created)
