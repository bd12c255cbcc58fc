"""Each seat's numbered stream of state frames, and the one publish that follows a message.

A seat (or a spectator socket) holds the view it was last sent.  After a message has been
handled and its records stored, ``Streams.publish`` builds the new views of everyone
connected once (what they all see is shared), sends a newcomer a snapshot or the frames it
missed, and everybody else the JSON Patch to their new view.  Frames are numbered per
stream and kept, within a budget, so a client that reconnects can resume.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.config import Settings

from .clock import Handle
from .diff import make_patch
from .frames import dumps
from .inbox import Message, SpectatorsDue
from .overlay import Shared, seat_patch
from .ports import Outlet
from .room_state import RoomState
from .spectator_lag import Lagged, SpectatorLag

# Called for every frame the room sends, when it is first sent (replays after a reconnect are
# byte-identical copies): (room code, seat or None, frame text, state, the seat's full view
# after a state frame or None).  For audits and the leak/desync tests.
FrameObserver = Callable[[str, int | None, str, RoomState, dict[str, Any] | None], None]


@dataclass
class Stream:
    """The state frames of one seat (or one spectator socket): numbered, diffed, replayable."""

    outlet: Outlet | None = None
    seq: int = 0
    view: dict[str, Any] | None = None  # the view as of ``seq``: what the client holds
    buffer: deque[tuple[int, str]] = field(default_factory=deque)
    buffered: int = 0  # characters held in ``buffer``
    # Client id -> the answer sent (None: answered before a restart; the answer is an ack).
    replies: OrderedDict[str, str | None] = field(default_factory=OrderedDict)
    # Set when a socket attaches: the next publish sends it a snapshot, or resumes from here.
    fresh: bool = False
    resume_from: int | None = None
    synced: int = -1  # the publish that last built the view ``view`` shows (``Streams.published``)
    acks_in_patch: bool = False  # its socket asked for a command's ack in the patch it caused (PROTOCOL.md)
    # A spectator of a delayed room: the timeline frame whose snapshot starts it (None: started).
    starts_at: int | None = None
    number: int = 0  # a spectator's number in the room ("Spectator 3" in the chat)
    address: str = ""  # a spectator's client address (spectators per address are bounded)


class Streams:
    def __init__(self, state: RoomState, settings: Settings, observer: FrameObserver | None) -> None:
        self.state = state
        self.settings = settings
        self.observer = observer
        self.seats: dict[str, Stream] = {}  # by the seat's token hash (stable across renumbering)
        self.spectators: dict[Outlet, Stream] = {}
        self.lag: SpectatorLag | None = None  # spectators' frames held back (a room with a delay)
        # How the room asks for a message later (the actor's ``tell``): released spectator
        # frames and the watcher count, each by a message in the inbox, like every timer.
        self.tell: Callable[[Message], None] | None = None
        self.timers: dict[str, Handle] = {}  # set on the room's clock (clock.py)
        self.watched = 0  # spectator sockets so far, to number them
        self.public: dict[str, Any] | None = None  # the spectators' view as of the last publish
        self.published = 0  # publishes so far

    @property
    def connections(self) -> int:
        return self.seated + len(self.spectators)

    @property
    def seated(self) -> int:
        """Seats with a socket (spectators not counted)."""
        return sum(1 for s in self.seats.values() if s.outlet is not None)

    # ------------------------------------------------------------------ seats and sockets

    def add(self, token_hash: str, bot: bool = False) -> Stream:
        # A bot's stream is never connected to: it keeps no frames.
        stream = Stream(buffer=deque(maxlen=1 if bot else self.settings.replay_frames))
        self.seats[token_hash] = stream
        return stream

    def remove(self, token_hash: str) -> Outlet | None:
        stream = self.seats.pop(token_hash, None)
        return stream.outlet if stream is not None else None

    def attach(self, token_hash: str, outlet: Outlet, last_seq: int | None,
               acks_in_patch: bool = False) -> Outlet | None:
        """Connect a seat's socket; returns the socket it replaces, if any."""
        stream = self.seats[token_hash]
        old = stream.outlet if stream.outlet is not outlet else None
        stream.outlet, stream.fresh, stream.resume_from = outlet, True, last_seq
        stream.acks_in_patch = acks_in_patch
        return old

    def watch(self, outlet: Outlet, address: str = "") -> None:
        self.watched += 1
        self.spectators[outlet] = Stream(outlet=outlet, buffer=deque(maxlen=1), fresh=True, number=self.watched,
                                         address=address)

    def detach(self, outlet: Outlet) -> str | None:
        """Forget a socket; the token hash of its seat (None for a spectator or an unknown socket)."""
        if self.spectators.pop(outlet, None) is not None:
            return None
        for token_hash, stream in self.seats.items():
            if stream.outlet is outlet:
                stream.outlet = None
                return token_hash
        return None

    def later(self, name: str, delay: float, message: Message) -> None:
        """Tell the inbox ``message`` in ``delay`` seconds, unless a timer of this name is already set."""
        if self.tell is None or name in self.timers:
            return
        tell = self.tell

        def due() -> None:
            self.timers.pop(name, None)
            tell(message)

        self.timers[name] = self.state.clock.call_later(delay, due)

    def close_all(self, code: int, reason: str) -> None:
        for handle in self.timers.values():
            handle.cancel()
        self.timers.clear()
        self.lag = None
        for stream in [*self.seats.values(), *self.spectators.values()]:
            if stream.outlet is not None:
                stream.outlet.close(code, reason)
                stream.outlet = None
        self.spectators.clear()

    # ------------------------------------------------------------------ answers to client ids

    def answered(self, token_hash: str, cid: str) -> str | None:
        """The answer already given to this id (a resend), or None when it is new."""
        stream = self.seats.get(token_hash)
        if stream is None or cid not in stream.replies:
            return None
        text = stream.replies[cid]
        return text if text is not None else dumps({"type": "ack", "id": cid, "seq": stream.seq})

    def remember(self, token_hash: str, cid: str, text: str | None) -> None:
        stream = self.seats.get(token_hash)
        if stream is None:
            return
        stream.replies[cid] = text
        stream.replies.move_to_end(cid)
        while len(stream.replies) > self.settings.action_ids_kept:
            stream.replies.popitem(last=False)

    # ------------------------------------------------------------------ sending

    def emit(self, outlet: Outlet, seat: int | None, text: str, view: dict[str, Any] | None = None) -> None:
        if self.observer is not None:
            self.observer(self.state.code, seat, text, self.state, view)
        outlet.offer(text)

    def publish(self, ack: tuple[Stream, str] | None = None) -> bool:
        """Every connected seat and spectator: a snapshot or resume for newcomers, a patch for the rest.
        ``ack``: a stream whose socket takes its acks in patches, and the id of the command this
        publish answers; True when the command's patch carried it (no ack frame is owed then)."""
        live = [(p.seat, stream) for p in self.state.players
                if (stream := self.seats[p.token_hash]).outlet is not None]
        if not live and not self.spectators:
            return False
        new = self.state.views([*(seat for seat, _ in live), None])
        # What everyone sees is diffed once (app/rooms/overlay.py); a seat whose view was built by
        # the last publish adds its own keys' ops.  The others are diffed whole, with one memo
        # so that each shared part is compared once for the whole room, not once per seat.
        before, public = self.public, new[None]
        shared = Shared(before, public) if before is not None else None
        if shared is not None and shared.whole:
            shared = None
        self.public = public
        self.published += 1
        memo: dict[Any, Any] = {}
        acked = False
        for seat, stream in live:
            cid = ack[1] if ack is not None and ack[0] is stream else None
            if stream.fresh:
                stream.fresh = False
                if not self._resume(stream, seat, stream.resume_from, new[seat], memo):
                    self._deliver(stream, seat, "snapshot", "view", new[seat], new[seat])
            elif shared is not None and stream.synced == self.published - 1 and stream.view is not None:
                ops = seat_patch(shared, stream.view, new[seat])
                if ops:
                    self._deliver(stream, seat, "patch", "ops", ops, new[seat], cid,
                                  shared.text() if ops is shared.ops else None)
                    acked = acked or cid is not None
            else:
                acked = self._patch(stream, seat, new[seat], memo, cid) or acked
            stream.synced = self.published
        if self.spectators:
            self._spectators(public, memo, (before, shared) if shared is not None else None)
        return acked

    def publish_spectators(self) -> None:
        """Only spectators' views can have changed (one just arrived): the seats' are not built."""
        if self.spectators:
            self._spectators(self.state.views((None,))[None], {})

    def _spectators(self, watch: dict[str, Any], memo: dict[Any, Any],
                    known: tuple[Any, Shared] | None = None) -> None:
        """``known``: the last publish's view and its diff to ``watch`` (``Shared``), when made already."""
        if self.state.spectator_delay > 0:
            self._lag_spectators(watch, memo, known)
            return
        if self.lag is not None:  # the delay was turned off: everyone starts afresh, live
            self._drop_lag()
        self._publish_to_spectators(watch, memo, known)

    # ------------------------------------------------------------------ spectators, delayed

    def _drop_lag(self) -> None:
        self.lag = None
        handle = self.timers.pop("lag", None)
        if handle is not None:
            handle.cancel()
        for stream in self.spectators.values():
            stream.fresh, stream.starts_at, stream.view = True, None, None

    def _lag_spectators(self, watch: dict[str, Any], memo: dict[Any, Any],
                        known: tuple[Any, Shared] | None) -> None:
        """Queue the spectators' next frame (a patch, and a snapshot for newcomers), audited now,
        sent ``spectator_delay`` seconds from now (``release``)."""
        delay = self.state.spectator_delay
        lag = self.lag
        if lag is None or lag.delay != delay:  # a new delay: start the timeline again
            seq = max([lag.seq if lag is not None else 0, *(s.seq for s in self.spectators.values())])
            if lag is not None:
                self._drop_lag()
            lag = self.lag = SpectatorLag(delay, self.settings.spectator_lag_frames,
                                          self.settings.spectator_lag_chars, seq)
            for stream in self.spectators.values():
                stream.fresh, stream.starts_at, stream.view = True, None, None
        fresh = [stream for stream in self.spectators.values() if stream.fresh]
        ops = None
        if known is not None and lag.view is known[0]:
            ops = known[1].ops
        elif lag.view is not None:
            ops = make_patch(lag.view, watch, memo)
        if not ops and not fresh:
            return
        due = self.state.clock.monotonic() + delay
        tail = lag.queue[-1] if lag.queue else None
        if ops:
            full = len(lag.queue) >= lag.max_frames or lag.chars >= lag.max_chars
            if full and tail is not None and tail.patch is not None and lag.base is not None:
                # Over budget: the newest queued frame takes this change too, and waits again.
                lag.chars -= tail.chars
                tail.patch = self._lag_text("patch", "ops", tail.seq, make_patch(lag.base, watch, memo), watch)
                if tail.snapshot is not None:
                    tail.snapshot = self._lag_text("snapshot", "view", tail.seq, watch, watch)
                tail.due = due
                lag.chars += tail.chars
            else:
                lag.seq += 1
                lag.base = lag.view
                tail = Lagged(due, lag.seq, self._lag_text("patch", "ops", lag.seq, ops, watch))
                lag.queue.append(tail)
                lag.chars += tail.chars
            lag.view = watch
        elif lag.view is None:  # the timeline's first frame: a snapshot only
            lag.seq += 1
            lag.view = watch
            tail = Lagged(due, lag.seq, None)
            lag.queue.append(tail)
        if fresh:
            if tail is None or tail.seq != lag.seq:  # nothing queued shows the view as it is: a frame for them
                tail = Lagged(due, lag.seq, None)
                lag.queue.append(tail)
            if tail.snapshot is None:
                tail.snapshot = self._lag_text("snapshot", "view", tail.seq, watch, watch)
                lag.chars += len(tail.snapshot)
            for stream in fresh:
                stream.fresh, stream.starts_at = False, tail.seq
        self.later("lag", lag.queue[0].due - self.state.clock.monotonic(), SpectatorsDue())

    def _lag_text(self, kind: str, key: str, seq: int, body: Any, view: dict[str, Any]) -> str:
        text = dumps({"type": kind, "seq": seq, key: body})
        if self.observer is not None:  # audited as it is built, with the state it shows
            self.observer(self.state.code, None, text, self.state, view)
        return text

    def release(self) -> None:
        """Send the spectators every delayed frame that is due, in order."""
        lag = self.lag
        if lag is None:
            return
        now = self.state.clock.monotonic()
        while lag.queue and lag.queue[0].due <= now:
            frame = lag.queue.popleft()
            lag.chars -= frame.chars
            for stream in self.spectators.values():
                assert stream.outlet is not None
                if stream.starts_at is not None:
                    if stream.starts_at <= frame.seq and frame.snapshot is not None:
                        stream.starts_at, stream.seq = None, frame.seq
                        stream.outlet.offer(frame.snapshot)
                elif frame.patch is not None and stream.seq == frame.seq - 1:
                    stream.seq = frame.seq
                    stream.outlet.offer(frame.patch)
        if lag.queue:
            self.later("lag", lag.queue[0].due - now, SpectatorsDue())

    # ------------------------------------------------------------------ spectators, live

    def _publish_to_spectators(self, watch: dict[str, Any], memo: dict[Any, Any],
                               known: tuple[Any, Shared] | None) -> None:
        ops_by_view: dict[int, str] = {}  # spectators share views, so diff each distinct one once
        if known is not None:
            ops_by_view[id(known[0])] = known[1].text()
        for outlet, stream in self.spectators.items():
            if stream.fresh or stream.view is None:
                stream.fresh = False
                stream.seq += 1
                stream.view = watch
                self.emit(outlet, None, dumps({"type": "snapshot", "seq": stream.seq, "view": watch}), watch)
                continue
            key = id(stream.view)
            if key not in ops_by_view:
                ops_by_view[key] = dumps(make_patch(stream.view, watch, memo))
            if ops_by_view[key] == "[]":
                stream.view = watch  # the same content: the next change is diffed from this publish's view
                continue
            stream.seq += 1
            stream.view = watch
            self.emit(outlet, None, f'{{"type":"patch","seq":{stream.seq},"ops":{ops_by_view[key]}}}', watch)

    def _resume(self, stream: Stream, seat: int, last_seq: int | None, new: dict[str, Any],
                memo: dict[Any, Any]) -> bool:
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
        self._patch(stream, seat, new, memo)
        return True

    def _patch(self, stream: Stream, seat: int, new: dict[str, Any], memo: dict[Any, Any],
               ack: str | None = None) -> bool:
        """A patch to ``new`` (a snapshot if the stream has no view); True when it carried ``ack``."""
        if stream.view is None:
            self._deliver(stream, seat, "snapshot", "view", new, new)
            return False
        ops = make_patch(stream.view, new, memo)
        if ops:
            self._deliver(stream, seat, "patch", "ops", ops, new, ack)
        return bool(ops) and ack is not None

    def _deliver(self, stream: Stream, seat: int, kind: str, key: str, body: Any, new: dict[str, Any],
                 ack: str | None = None, body_text: str | None = None) -> None:
        """Number a state frame, keep it for reconnects, and send it (with the id it acks, if any).
        ``body_text``: ``body`` as JSON already (what several seats are sent alike is encoded once)."""
        stream.seq += 1
        if body_text is not None:  # byte for byte what dumps would write
            text = f'{{"type":"{kind}","seq":{stream.seq},"{key}":{body_text}' + \
                (f',"ack":{dumps(ack)}}}' if ack is not None else "}")
        else:
            frame = {"type": kind, "seq": stream.seq, key: body}
            if ack is not None:
                frame["ack"] = ack
            text = dumps(frame)
        # Kept for a reconnect within budget: past it, a fresh snapshot is cheaper than the replay.
        if len(stream.buffer) == stream.buffer.maxlen:
            stream.buffered -= len(stream.buffer[0][1])
        stream.buffer.append((stream.seq, text))
        stream.buffered += len(text)
        while stream.buffered > self.settings.replay_chars and len(stream.buffer) > 1:
            stream.buffered -= len(stream.buffer.popleft()[1])
        stream.view = new
        if stream.outlet is not None:
            self.emit(stream.outlet, seat, text, new)
