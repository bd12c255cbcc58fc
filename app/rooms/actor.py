"""RoomActor: the one task that owns a room and everything in it.

Every input — an HTTP join, a socket's command, a connect or disconnect, a timer — is a
small message in one inbox, processed strictly in arrival order.  That order is the
room's truth: it settles UNO! races (C-12) and makes every frame's ``seq`` meaningful.

After each message the actor rebuilds the view of every connected seat and sends it the
JSON Patch from the view that seat last received.  Outlets never block (see
``ports.Outlet``), so the actor never waits on a client.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from app.bots import bot_delay_s, choose_action
from app.config import Settings
from app.engine import (
    BETWEEN as M_BETWEEN,
)
from app.engine import (
    OVER as M_OVER,
)
from app.engine import (
    ROUND as M_ROUND,
)
from app.engine import (
    VARIANTS,
    Action,
    ConfigError,
    Event,
    IllegalAction,
    MatchConfig,
    apply,
    new_match,
    start_next_round,
    view,
)

from . import records as rec
from .diff import make_patch
from .ports import Outlet, Store
from .room_state import BETWEEN, OVER, PLAYING, WAITING, Player, RoomState, hash_token, new_token
from .text import clean_text

log = logging.getLogger("app.rooms")

# Close codes sent to sockets (4000-4999 are the application's own).
CLOSE_REPLACED = 4000  # the same seat connected again
CLOSE_BAD_TOKEN = 4401
CLOSE_REMOVED = 4403  # left the room, or removed by the host
CLOSE_NO_ROOM = 4404
CLOSE_ROOM_CLOSED = 4410
CLOSE_GOING_AWAY = 1001  # the server is stopping; the room comes back when it restarts

# Called for every frame the actor sends, when it is first sent (replays after a reconnect are
# byte-identical copies): (room code, seat or None, frame text, state, the seat's full view
# after a state frame or None).  For audits and the leak/desync tests.
FrameObserver = Callable[[str, int | None, str, RoomState, dict[str, Any] | None], None]


class RoomError(Exception):
    """A request the room refuses: a machine-readable code and a message people can read."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


# ---------------------------------------------------------------------- messages


@dataclass
class Join:
    name: str
    reply: asyncio.Future[dict[str, Any]]


@dataclass
class GetSummary:
    reply: asyncio.Future[dict[str, Any]]


@dataclass
class Attach:
    outlet: Outlet
    token: str | None
    last_seq: int | None
    reply: asyncio.Future[int | None]


@dataclass
class Detach:
    outlet: Outlet


@dataclass
class Command:
    outlet: Outlet
    seat_token: str | None  # token hash of the sender's seat (None: spectator)
    type: str
    id: str | None
    payload: dict[str, Any]
    done: asyncio.Future[None]


@dataclass
class NextRound:
    match_no: int
    round_no: int


@dataclass
class Stop:
    reason: str
    code: int = 4410  # CLOSE_ROOM_CLOSED; 1001 when the server is only going away for a while


@dataclass
class AddBot:
    """The host (by token) fills a free seat with a bot (HTTP; the socket's ``add_bot`` does the same)."""

    token: str
    reply: asyncio.Future[dict[str, Any]]


@dataclass
class BotTurn:
    """A bot's planned move is due; ``key`` is the table it was planned on (stale: ignored)."""

    key: tuple[Any, ...]
    seat: int
    action: dict[str, Any]


@dataclass
class TurnTimeout:
    """The turn clock ran out on decision ``turn`` (stale: ignored)."""

    turn: tuple[Any, ...]


@dataclass
class Tick:
    """Time passed (an absent seat's grace ran out): just look at the room again."""


Message = Join | GetSummary | Attach | Detach | Command | NextRound | Stop | AddBot | BotTurn | TurnTimeout | Tick


# ---------------------------------------------------------------------- per-seat streams


@dataclass
class Stream:
    """The state frames of one seat (or one spectator socket): numbered, diffed, replayable."""

    outlet: Outlet | None = None
    seq: int = 0
    view: dict[str, Any] | None = None  # the view as of ``seq``: what the client holds
    buffer: deque[tuple[int, str]] = field(default_factory=deque)
    buffered: int = 0  # characters held in ``buffer``
    replies: OrderedDict[str, str] = field(default_factory=OrderedDict)  # client id -> the answer sent


def _resolve(fut: asyncio.Future[Any], value: Any) -> None:
    # The asker may have gone (an HTTP client hung up): its answer is simply dropped.
    if not fut.done():
        fut.set_result(value)


def dumps(obj: Any) -> str:
    """Compact JSON for a frame.  orjson: the standard encoder took ~30 µs per patch, a tenth of an action."""
    try:
        return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # an integer past 64 bits, say: the standard encoder writes anything JSON can
        return json.dumps(obj, separators=(",", ":"))


class RoomActor:
    def __init__(self, state: RoomState, settings: Settings, store: Store,
                 observer: FrameObserver | None = None) -> None:
        self.state = state
        self.settings = settings
        self.store = store
        self.observer = observer
        self.inbox: asyncio.Queue[Message] = asyncio.Queue()
        self.streams: dict[str, Stream] = {}  # by the seat's token hash (stable across renumbering)
        self.spectators: dict[Outlet, Stream] = {}
        self.races: dict[int, dict[str, Any]] = {}  # the open UNO! race receipt per target seat
        self.timer: asyncio.TimerHandle | None = None
        # Players who aren't there: one planned bot move, the turn clock, and a wake-up for
        # the next absent seat whose grace runs out.  Timers only ever ``tell`` the inbox.
        self.rng = random.Random(secrets.randbits(64))
        self.bot_timer: asyncio.TimerHandle | None = None
        self.bot_key: tuple[Any, ...] | None = None
        self.turn_timer: asyncio.TimerHandle | None = None
        self.turn_key: tuple[Any, ...] | None = None
        self.wake_timer: asyncio.TimerHandle | None = None
        self.closing: list[tuple[Outlet, int, str]] = []
        self.task: asyncio.Task[None] | None = None
        self.last_activity = time.monotonic()
        self.stopped = False
        # Replaced (never mutated) after each message, so others may read it without the actor.
        self.summary: dict[str, Any] = state.public_summary()

    @property
    def code(self) -> str:
        return self.state.code

    @property
    def connections(self) -> int:
        return sum(1 for s in self.streams.values() if s.outlet is not None) + len(self.spectators)

    # ------------------------------------------------------------------ outside API

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"room-{self.code}")

    def tell(self, message: Message) -> None:
        if self.stopped:
            fut = getattr(message, "reply", None) or getattr(message, "done", None)
            if fut is not None and not fut.done():
                fut.set_exception(RoomError("room_closed", "This room has closed.", 410))
            return
        self.inbox.put_nowait(message)

    async def join(self, name: str) -> dict[str, Any]:
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.tell(Join(name, fut))
        return await fut

    async def get_summary(self) -> dict[str, Any]:
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.tell(GetSummary(fut))
        return await fut

    async def add_bot(self, token: str) -> dict[str, Any]:
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.tell(AddBot(token, fut))
        return await fut

    async def attach(self, outlet: Outlet, token: str | None, last_seq: int | None) -> int | None:
        fut: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self.tell(Attach(outlet, token, last_seq, fut))
        return await fut

    async def stop(self, reason: str = "room closed", code: int = CLOSE_ROOM_CLOSED) -> None:
        """Stop after the messages already in the inbox (their writes included) are handled."""
        if self.task is None or self.task.done():
            return
        self.tell(Stop(reason, code))
        with contextlib.suppress(asyncio.CancelledError):
            await self.task

    # ------------------------------------------------------------------ the loop

    async def _run(self) -> None:
        while True:
            msg = await self.inbox.get()
            self.last_activity = time.monotonic()
            if isinstance(msg, Stop):
                self._shutdown(msg.reason, msg.code)
                return
            try:
                await self._handle(msg)
            except RoomError as err:
                self._fail(msg, err)
            except Exception:  # a bug must cost one message, never the room
                log.exception("room %s: error handling %s", self.code, type(msg).__name__)
                self._fail(msg, RoomError("internal", "Something went wrong on the server.", 500))
            try:
                if self._plan():
                    self._push()
            except Exception:
                log.exception("room %s: error planning bots and clocks", self.code)
            self.summary = self.state.public_summary()

    def _fail(self, msg: Message, err: RoomError) -> None:
        if isinstance(msg, Join | GetSummary | Attach | AddBot):
            if not msg.reply.done():
                msg.reply.set_exception(err)
        elif isinstance(msg, Command):
            self._reply(msg.outlet, None, self._error(msg.id, err.code, err.message))
            if not msg.done.done():
                msg.done.set_result(None)

    def _shutdown(self, reason: str, code: int = CLOSE_ROOM_CLOSED) -> None:
        self.stopped = True
        for timer in (self.timer, self.bot_timer, self.turn_timer, self.wake_timer):
            if timer is not None:
                timer.cancel()
        for stream in [*self.streams.values(), *self.spectators.values()]:
            if stream.outlet is not None:
                stream.outlet.close(code, reason)
                stream.outlet = None
        self.spectators.clear()
        while not self.inbox.empty():
            self._fail(self.inbox.get_nowait(), RoomError("room_closed", "This room has closed.", 410))

    async def _handle(self, msg: Message) -> None:
        if isinstance(msg, Join):
            result = self._join(msg.name)
            await self._save_seats()
            _resolve(msg.reply, result)
            self._push()
        elif isinstance(msg, GetSummary):
            _resolve(msg.reply, self.state.public_summary())
        elif isinstance(msg, Attach):
            self._attach(msg)
        elif isinstance(msg, Detach):
            self._detach(msg.outlet)
        elif isinstance(msg, Command):
            await self._command(msg)
        elif isinstance(msg, AddBot):
            host = self.state.by_token(msg.token)
            if host is None:
                raise RoomError("bad_token", "That token does not belong to a seat in this room.", 401)
            result = self._add_bot(host)
            await self._save_seats()
            _resolve(msg.reply, result)
            self._push()
        elif isinstance(msg, BotTurn):
            await self._bot_turn(msg)
        elif isinstance(msg, TurnTimeout):
            await self._turn_timeout(msg)
        elif isinstance(msg, Tick):
            pass  # the planning after every message does the work
        elif isinstance(msg, NextRound):
            m = self.state.match
            if (self.state.status == BETWEEN and m is not None and self.state.match_no == msg.match_no
                    and m.round_no == msg.round_no):
                await self.store.write(*self._next_round())
                self._push()

    # ------------------------------------------------------------------ seats

    def _join(self, name: str) -> dict[str, Any]:
        st = self.state
        name = self._clean_name(name)
        if st.status != WAITING:
            raise RoomError("room_started" if st.status != OVER else "room_finished",
                            "This game has already started; you can watch it." if st.status != OVER
                            else "This game has finished.")
        if len(st.players) >= st.max_seats:
            raise RoomError("room_full", f"This room is full ({st.max_seats} seats).")
        self._check_name_free(name, None)
        token = new_token()
        player = Player(name=name, token_hash=hash_token(token), seat=len(st.players))
        st.players.append(player)
        self.streams[player.token_hash] = Stream(buffer=deque(maxlen=self.settings.replay_frames))
        if len(st.players) == 1:
            st.host = 0
        st.note("joined", f"{name} took seat {player.seat + 1}.", seat=player.seat)
        return {"code": st.code, "seat": player.seat, "token": token, "name": name,
                "host": player.seat == st.host, "ws_path": f"/ws/rooms/{st.code}"}

    def _clean_name(self, name: str) -> str:
        name = clean_text(name)
        if not name:
            raise RoomError("bad_name", "Please choose a name.", 422)
        if len(name) > self.settings.name_max_chars:
            raise RoomError("bad_name", f"Names are at most {self.settings.name_max_chars} characters.", 422)
        return name

    def _check_name_free(self, name: str, me: Player | None) -> None:
        if any(p.name.casefold() == name.casefold() and p is not me for p in self.state.players):
            raise RoomError("name_taken", f"Someone here is already called {name}.")

    def _remove(self, player: Player, code: int, reason: str) -> None:
        st = self.state
        host = st.players[st.host] if st.players else None
        st.players.remove(player)
        st.renumber()
        if host is player or host is None:
            # The longest-seated person becomes host (a bot never hosts).
            st.host = next((p.seat for p in st.players if not p.bot), 0)
        else:
            st.host = host.seat
        stream = self.streams.pop(player.token_hash, None)
        if stream is not None and stream.outlet is not None:
            # Closed after this message's reply, so a leaving player still gets its ack.
            self.closing.append((stream.outlet, code, reason))

    def _player(self, token_hash: str | None) -> Player | None:
        if token_hash is None:
            return None
        for p in self.state.players:
            if p.token_hash == token_hash:
                return p
        return None

    # ------------------------------------------------------------------ connections

    def _attach(self, msg: Attach) -> None:
        st = self.state
        if msg.token is None:
            stream = Stream(outlet=msg.outlet, buffer=deque(maxlen=1))
            self.spectators[msg.outlet] = stream
            self._snapshot(stream, None)
            _resolve(msg.reply, None)
            return
        player = st.by_token(msg.token)
        if player is None:
            raise RoomError("bad_token", "That token does not belong to a seat in this room.", 401)
        stream = self.streams[player.token_hash]
        if stream.outlet is not None and stream.outlet is not msg.outlet:
            stream.outlet.close(CLOSE_REPLACED, "replaced by a newer connection")
        stream.outlet = msg.outlet
        player.connected = True
        player.away_since = None  # back: the seat is theirs again (the planning takes the bot off)
        _resolve(msg.reply, player.seat)
        if not self._resume(stream, player.seat, msg.last_seq):
            self._snapshot(stream, player.seat)
        self._push()

    def _resume(self, stream: Stream, seat: int, last_seq: int | None) -> bool:
        """Replay what a reconnecting client missed, if the buffer still holds all of it."""
        if last_seq is None or stream.view is None or not 1 <= last_seq <= stream.seq:
            return False
        missed = [(s, text) for s, text in stream.buffer if s > last_seq]
        if last_seq < stream.seq and (not missed or missed[0][0] != last_seq + 1):
            return False
        assert stream.outlet is not None
        for _, text in missed:
            # Byte-identical to frames already sent to this seat (and seen by the observer then);
            # they show the seat's own past view, so they are judged by the state of their time.
            stream.outlet.offer(text)
        # Whatever changed while nobody was connected arrives as one more patch.
        self._send_state(stream, seat, self.state.view_for(seat))
        return True

    def _snapshot(self, stream: Stream, seat: int | None) -> None:
        new = self.state.view_for(seat)
        self._deliver(stream, seat, "snapshot", "view", new, new)

    def _detach(self, outlet: Outlet) -> None:
        if self.spectators.pop(outlet, None) is not None:
            return
        for token_hash, stream in self.streams.items():
            if stream.outlet is outlet:
                stream.outlet = None
                player = self._player(token_hash)
                if player is not None:
                    player.connected = False
                    player.away_since = time.monotonic()
                self._push()
                return

    # ------------------------------------------------------------------ sending

    def _emit(self, outlet: Outlet, seat: int | None, text: str, view: dict[str, Any] | None) -> None:
        if self.observer is not None:
            self.observer(self.code, seat, text, self.state, view)
        outlet.offer(text)

    def _send_state(self, stream: Stream, seat: int | None, new: dict[str, Any],
                    memo: dict[Any, Any] | None = None) -> None:
        assert stream.view is not None
        ops = make_patch(stream.view, new, memo)
        if ops:
            self._deliver(stream, seat, "patch", "ops", ops, new)

    def _deliver(self, stream: Stream, seat: int | None, kind: str, key: str, body: Any,
                 new: dict[str, Any]) -> None:
        """Number a state frame, keep it for reconnects, and send it if the seat is connected."""
        stream.seq += 1
        text = dumps({"type": kind, "seq": stream.seq, key: body})
        # Kept for a reconnect within budget: past it, a fresh snapshot is cheaper than the replay.
        if len(stream.buffer) == stream.buffer.maxlen:
            stream.buffered -= len(stream.buffer[0][1])
        stream.buffer.append((stream.seq, text))
        stream.buffered += len(text)
        while stream.buffered > self.settings.replay_chars and len(stream.buffer) > 1:
            stream.buffered -= len(stream.buffer.popleft()[1])
        stream.view = new
        if stream.outlet is not None:
            self._emit(stream.outlet, seat, text, new)

    def _push(self) -> None:
        """Send every connected seat (and spectator) the patch to its new view."""
        streams = ((p, self.streams[p.token_hash]) for p in self.state.players)
        live = [(p, stream) for p, stream in streams if stream.outlet is not None and stream.view is not None]
        seats: list[int | None] = [p.seat for p, _ in live]
        if self.spectators:
            seats.append(None)
        if not seats:
            return
        new = self.state.views(seats)
        # The seats' last views share what they all saw, as the new ones do: one memo lets the
        # differ compare each shared part once for the whole room, not once per seat.
        memo: dict[Any, Any] = {}
        for player, stream in live:
            self._send_state(stream, player.seat, new[player.seat], memo)
        if self.spectators:
            watch = new[None]
            ops_by_view: dict[int, str] = {}  # spectators share views, so diff each distinct one once
            for outlet, stream in self.spectators.items():
                assert stream.view is not None
                key = id(stream.view)
                if key not in ops_by_view:
                    ops_by_view[key] = dumps(make_patch(stream.view, watch, memo))
                if ops_by_view[key] == "[]":
                    continue
                stream.seq += 1
                stream.view = watch
                self._emit(outlet, None, f'{{"type":"patch","seq":{stream.seq},"ops":{ops_by_view[key]}}}', watch)

    def _reply(self, outlet: Outlet, seat: int | None, frame: dict[str, Any]) -> None:
        self._emit(outlet, seat, dumps(frame), None)

    @staticmethod
    def _error(cid: str | None, code: str, message: str) -> dict[str, Any]:
        return {"type": "error", "id": cid, "code": code, "message": message}

    # ------------------------------------------------------------------ commands

    async def _command(self, msg: Command) -> None:
        player = self._player(msg.seat_token)
        try:
            if msg.type == "ping":
                self._reply(msg.outlet, None, {"type": "pong", "id": msg.id})
                return
            if player is None:
                if msg.seat_token is not None:
                    self._reply(msg.outlet, None, self._error(msg.id, "not_seated", "You no longer have a seat here."))
                else:
                    self._reply(msg.outlet, None, self._error(msg.id, "spectator", "Spectators can only watch."))
                return
            stream = self.streams[player.token_hash]
            if msg.id is not None and msg.id in stream.replies:
                # A resend (typically after a reconnect): the same answer, never a second apply.
                self._emit(msg.outlet, player.seat, stream.replies[msg.id], None)
                return
            try:
                await self._perform(player, msg)
                self._push()
                answer = {"type": "ack", "id": msg.id, "seq": stream.seq}
            except (RoomError, IllegalAction, ConfigError) as err:
                self._push()  # a refused UNO! attempt still updates the race receipt
                answer = self._error(msg.id, err.code, err.message)
            text = dumps(answer)
            if msg.id is not None:
                stream.replies[msg.id] = text
                while len(stream.replies) > self.settings.action_ids_kept:
                    stream.replies.popitem(last=False)
            self._emit(msg.outlet, player.seat, text, None)
        finally:
            for outlet, code, reason in self.closing:
                outlet.close(code, reason)
            self.closing.clear()
            if not msg.done.done():
                msg.done.set_result(None)

    async def _perform(self, player: Player, msg: Command) -> None:
        st = self.state
        t, p = msg.type, msg.payload
        if t == "action":
            self._act(player, p.get("action"))
            # Stored before the room acknowledges or broadcasts anything (the caller pushes).
            await self.store.write(*self._after_action())
        elif t == "chat":
            text = clean_text(str(p.get("text", "")))
            if not text:
                raise RoomError("bad_chat", "Say something.")
            if len(text) > self.settings.chat_max_chars:
                raise RoomError("bad_chat", f"Chat messages are at most {self.settings.chat_max_chars} characters.")
            st.add_chat(player.seat, text)
            await self.store.write(rec.ChatPosted(st.code, player.seat, player.name, text))
        elif t == "rename":
            name = self._clean_name(str(p.get("name", "")))
            self._check_name_free(name, player)
            old, player.name = player.name, name
            st.note("renamed", f"{old} is now called {name}.", seat=player.seat)
            await self._save_seats()
        elif t == "ready":
            player.ready = bool(p.get("ready", True))
            # Seats a bot plays (bots, and people away past the grace) never hold the next round up.
            if st.status == BETWEEN and all(q.ready or q.auto for q in st.players):
                await self.store.write(*self._next_round())
        elif t == "leave":
            if st.status in (PLAYING, BETWEEN):
                raise RoomError("in_game", "You cannot leave a seat during a match; just close the game.")
            st.note("left", f"{player.name} left.", seat=player.seat)
            self._remove(player, CLOSE_REMOVED, "you left the room")
            await self._save_seats()
        elif t == "add_bot":
            self._add_bot(player)
            await self._save_seats()
        elif t == "kick":
            self._require_host(player)
            seat = p.get("seat")
            if st.status != WAITING:
                raise RoomError("in_game", "Seats can only be removed before the game starts.")
            if type(seat) is not int or not 0 <= seat < len(st.players) or seat == player.seat:
                raise RoomError("bad_seat", "Choose another seated player to remove.")
            target = st.players[seat]
            st.note("kicked", f"{player.name} removed {target.name}.", seat=seat)
            self._remove(target, CLOSE_REMOVED, "removed by the host")
            await self._save_seats()
        elif t == "start":
            self._require_host(player)
            if st.status != WAITING:
                raise RoomError("already_started", "The game has already started.")
            await self.store.write(*self._start_match())
        elif t == "rematch":
            self._require_host(player)
            if st.status != OVER:
                raise RoomError("not_over", "A rematch can start once the match is over.")
            await self.store.write(*self._start_match())
        else:
            raise RoomError("bad_message", f"Unknown message type {t!r}.")

    def _require_host(self, player: Player) -> None:
        if player.seat != self.state.host:
            raise RoomError("not_host", f"Only the host ({self.state.name_of(self.state.host)}) can do that.")

    # ------------------------------------------------------------------ the match

    def _start_match(self) -> list[rec.Record]:
        st = self.state
        variant = VARIANTS[st.edition]
        if len(st.players) < max(2, variant.min_seats):
            raise RoomError("not_enough_players", "At least two players are needed to start.")
        seed = secrets.token_hex(8)
        match, events = new_match(MatchConfig(st.edition, len(st.players), st.target, st.house), seed)
        st.match, st.seed = match, seed
        st.match_no += 1
        st.status = PLAYING
        st.next_round_at = None
        for q in st.players:
            q.ready = False
        self.races.clear()
        st.note("started", "The rematch begins." if st.match_no > 1 else "The game begins.", match=st.match_no)
        st.record(events)
        st.match_id = secrets.token_hex(8)
        return [
            rec.MatchStarted(st.code, st.match_id, st.match_no, st.edition, match.config.to_json(), match.target,
                             seed, tuple(p.name for p in st.players)),
            self._round_started(),
            self._room_changed(),
        ]

    def _round_started(self) -> rec.RoundStarted:
        st = self.state
        assert st.match is not None and st.match_id is not None
        return rec.RoundStarted(st.match_id, st.match.round_no, str(st.match.round.seed), st.match.dealer)

    def _room_changed(self) -> rec.RoomChanged:
        return rec.RoomChanged(self.state.code, self.state.status, self.state.host)

    def _act(self, player: Player, raw: Any) -> None:
        st = self.state
        if st.status != PLAYING or st.match is None:
            raise RoomError("not_playing", "No round is being played now.")
        action = Action.from_json(raw)
        try:
            events = apply(st.match, player.seat, action)
        except IllegalAction as err:
            if err.code == "too_late":
                self._late_attempt(player, action, err)
            raise
        self._note_race(events, action)
        st.record(events)

    def _note_race(self, events: list[Event], action: Action) -> None:
        """Start an UNO! race receipt when a declaration or catch wins (C-12)."""
        for ev in events:
            if ev.kind == "uno" and action.kind == "declare_uno" and not ev.data.get("early"):
                self._open_race(ev.data["seat"], ev.data["seat"], "declare")
            elif ev.kind == "caught":
                self._open_race(ev.data["seat"], ev.data["by"], "catch")

    def _open_race(self, target: int, seat: int, how: str) -> None:
        attempts = [{"seat": seat, "action": how, "ok": True}]
        self.races[target] = self.state.note("uno_race", self._race_text(target, attempts), target=target,
                                             attempts=attempts)

    def _late_attempt(self, player: Player, action: Action, err: IllegalAction) -> None:
        target = player.seat if action.kind == "declare_uno" else action.target
        entry = self.races.get(target) if target is not None else None
        if entry is None:
            return
        attempts = [*entry["attempts"], {"seat": player.seat,
                                         "action": "declare" if action.kind == "declare_uno" else "catch",
                                         "ok": False}]
        new = {**entry, "attempts": attempts, "text": self._race_text(entry["target"], attempts)}
        if self.state.replace_entry(entry, new):
            self.races[entry["target"]] = new
        first = attempts[0]
        who = self.state.name_of(first["seat"])
        did = "declared UNO" if first["action"] == "declare" else f"caught {self.state.name_of(entry['target'])}"
        err.message = f"Too late: {who} {did} first."

    def _race_text(self, target: int, attempts: list[dict[str, Any]]) -> str:
        name = self.state.name_of
        parts = []
        for i, a in enumerate(attempts, 1):
            verb = "declared UNO" if a["action"] == "declare" else "caught them"
            parts.append(f"{i}. {name(a['seat'])} {verb}" + ("" if a["ok"] else " (too late)"))
        return f"UNO! race over {name(target)}: " + "; ".join(parts) + "."

    def _after_action(self) -> list[rec.Record]:
        """What the action just applied leaves to store: itself, and a round or match that ended."""
        st = self.state
        m = st.match
        assert m is not None and st.match_id is not None
        entry = m.log[-1]
        records: list[rec.Record] = [
            rec.ActionApplied(st.code, st.match_id, entry.round, len(m.log), entry.seat, entry.action.to_json())]
        if m.phase != M_ROUND:
            last = m.history[-1]
            records.append(rec.RoundFinished(st.match_id, last.number, last.winner, last.points, tuple(m.scores),
                                             last.cards_left))
        if m.phase == M_BETWEEN:
            st.status = BETWEEN
            for q in st.players:
                q.ready = q.bot  # bots are always ready for the next round
            delay = self.settings.between_rounds_seconds
            st.next_round_at = round(time.time() + delay, 3)
            if self.timer is not None:
                self.timer.cancel()
            self.timer = asyncio.get_running_loop().call_later(
                delay, self.tell, NextRound(st.match_no, m.round_no))
            records.append(self._room_changed())
        elif m.phase == M_OVER:
            st.status = OVER
            st.next_round_at = None
            assert m.winner is not None
            st.note("final", f"{st.name_of(m.winner)} wins the match.", winner=m.winner)
            records.append(rec.MatchFinished(st.code, st.match_id, m.winner))
        return records

    def _next_round(self) -> list[rec.Record]:
        st = self.state
        assert st.match is not None
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        events = start_next_round(st.match)
        st.status = PLAYING
        st.next_round_at = None
        for q in st.players:
            q.ready = False
        self.races.clear()
        st.record(events)
        return [self._round_started(), self._room_changed()]

    def resume(self) -> None:
        """After a restart: a room restored between rounds starts its next-round clock again."""
        st = self.state
        for p in st.players:
            self.streams.setdefault(p.token_hash, Stream(buffer=deque(maxlen=self.settings.replay_frames)))
        if st.status == BETWEEN and st.match is not None:
            delay = self.settings.between_rounds_seconds
            st.next_round_at = round(time.time() + delay, 3)
            self.timer = asyncio.get_running_loop().call_later(
                delay, self.tell, NextRound(st.match_no, st.match.round_no))
            for p in st.players:
                p.ready = p.bot
        self._plan()

    # ------------------------------------------------------------------ players who aren't there

    def _add_bot(self, host: Player) -> dict[str, Any]:
        st = self.state
        self._require_host(host)
        if st.status != WAITING:
            raise RoomError("room_started", "Bots can only be added before the game starts.")
        if len(st.players) >= st.max_seats:
            raise RoomError("room_full", f"This room is full ({st.max_seats} seats).")
        taken = {p.name.casefold() for p in st.players}
        n = 1
        while f"bot {n}" in taken:
            n += 1
        name = f"Bot {n}"
        # A token nobody holds: the seat can never be connected to, only played by the room.
        bot = Player(name=name, token_hash=hash_token(new_token()), seat=len(st.players), bot=True, auto=True)
        st.players.append(bot)
        self.streams[bot.token_hash] = Stream(buffer=deque(maxlen=1))
        st.note("bot_added", f"{host.name} added {name} to seat {bot.seat + 1}.", seat=bot.seat, bot=name)
        return {"code": st.code, "seat": bot.seat, "name": name, "bot": True}

    def _cancel(self, timer: asyncio.TimerHandle | None) -> None:
        if timer is not None:
            timer.cancel()

    def _plan(self) -> bool:
        """After every message: who a bot plays for, the next bot move, the turn clock.

        Returns whether anything the views show changed (the caller pushes then).
        """
        if self.stopped:
            return False
        st = self.state
        loop = asyncio.get_running_loop()
        now = time.monotonic()
        changed = False
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
                changed = True
                if not p.bot and (auto or p.connected):  # (a match that ends is no return)
                    st.note("takeover" if auto else "returned",
                            f"{p.name} is away; a bot plays for them until they return." if auto
                            else f"{p.name} is back and plays again.", seat=p.seat)
        self._cancel(self.wake_timer)
        self.wake_timer = None
        if wake is not None:
            self.wake_timer = loop.call_later(max(0.0, wake - now) + 0.01, self.tell, Tick())

        m = st.match
        pending = m.round.pending if st.status == PLAYING and m is not None else None
        # The next bot move: planned once per table state, re-planned whenever it changes.
        if st.status == PLAYING and m is not None:
            controlled = tuple(p.seat for p in st.players if p.auto)
            key = (st.match_no, m.round_no, len(m.log), controlled)
            if key != self.bot_key:
                self._cancel(self.bot_timer)
                self.bot_timer, self.bot_key = None, key
                best: tuple[float, int, dict[str, Any]] | None = None
                for seat in controlled:
                    # A bot acts on its own seat's view, exactly what a person there would see.
                    action = choose_action(view(m, seat), self.rng)
                    if action is None:
                        continue
                    delay = bot_delay_s(action, self.rng) * self.settings.bot_delay_scale
                    if best is None or delay < best[0]:
                        best = (delay, seat, action)
                if best is not None:
                    self.bot_timer = loop.call_later(best[0], self.tell, BotTurn(key, best[1], best[2]))
        else:
            self._cancel(self.bot_timer)
            self.bot_timer, self.bot_key = None, None

        # The turn clock: a fresh deadline whenever a new decision is owed.
        if st.turn_seconds is not None and pending is not None and m is not None:
            turn = (st.match_no, m.round_no, pending.seat, pending.kind, self._last_decision(m))
            if turn != self.turn_key:
                self._cancel(self.turn_timer)
                self.turn_key = turn
                st.turn_deadline = round(time.time() + st.turn_seconds, 3)
                changed = True
                self.turn_timer = loop.call_later(st.turn_seconds, self.tell, TurnTimeout(turn))
        else:
            self._cancel(self.turn_timer)
            self.turn_timer, self.turn_key = None, None
            if st.turn_deadline is not None:
                st.turn_deadline = None
                changed = True
        return changed

    @staticmethod
    def _last_decision(m: Any) -> int:
        """The position of the last action that settled a decision (UNO! calls settle none)."""
        for i in range(len(m.log) - 1, -1, -1):
            if m.log[i].action.kind not in ("declare_uno", "catch"):
                return i + 1
        return 0

    async def _act_for(self, player: Player, action: dict[str, Any]) -> None:
        """The room acts for a seat, through the same path as a person's action: stored, then sent."""
        self._act(player, action)
        await self.store.write(*self._after_action())
        self._push()

    async def _bot_turn(self, msg: BotTurn) -> None:
        st = self.state
        if msg.key != self.bot_key or st.status != PLAYING or not 0 <= msg.seat < len(st.players):
            return  # stale: the table changed since the move was planned
        self.bot_timer = None
        player = st.players[msg.seat]
        if not player.auto:
            return
        try:
            await self._act_for(player, msg.action)
        except (IllegalAction, RoomError, ConfigError) as err:
            log.warning("room %s: bot move %s for seat %d refused: %s", self.code, msg.action, msg.seat, err)
            self.bot_key = None  # plan afresh
            self._push()

    async def _turn_timeout(self, msg: TurnTimeout) -> None:
        st = self.state
        m = st.match
        if msg.turn != self.turn_key or st.status != PLAYING or m is None or m.round.pending is None:
            return
        self.turn_timer, self.turn_key = None, None  # whatever happens next gets a fresh clock
        seat = m.round.pending.seat
        player = st.players[seat]
        st.note("timeout", f"Time ran out for {player.name}; the room moved for them.", seat=seat)
        legal = view(m, seat)["table"].get("legal", [])
        keep = next((a for a in legal if a["kind"] == "keep"), None)
        if keep is not None:  # a drawn card waits: keep it
            await self._act_for(player, keep)
            return
        draw = next((a for a in legal if a["kind"] == "draw"), None)
        if draw is not None:
            # The minimal move: draw, then keep what was drawn.
            await self._act_for(player, draw)
            r = m.round.pending if st.status == PLAYING and st.match is m else None
            if r is not None and r.seat == seat:
                keep = next((a for a in view(m, seat)["table"].get("legal", []) if a["kind"] == "keep"), None)
                if keep is not None:
                    await self._act_for(player, keep)
            return
        # A forced choice (a colour, a target, a challenge...): what the bot would do, minus UNO! calls.
        action = choose_action(view(m, seat), self.rng, uno_reliability=0.0)
        if action is not None:
            await self._act_for(player, action)
        else:
            self._push()

    # ------------------------------------------------------------------ persistence

    async def _save_seats(self) -> None:
        st = self.state
        seats = tuple(rec.SeatInfo(p.seat, p.name, p.token_hash, p.bot) for p in st.players)
        await self.store.write(rec.SeatsChanged(st.code, seats), self._room_changed())
