"""Each seat's numbered stream of state frames, and the one publish that follows a message.

A seat (or a spectator socket) holds the view it was last sent.  After a message has been
handled and its records stored, ``Streams.publish`` builds the new views of everyone
connected once (what they all see is shared), sends a newcomer a snapshot or the frames it
missed, and everybody else the JSON Patch to their new view; then the sender's answer, which
it owns: an ``ack`` naming the sender's ``seq`` after that patch (or carried in the patch), or
the error.  The game views it built are handed on for the bots (``bot_moves.py``).  Frames are
numbered per stream and kept, within a budget, so a client that reconnects can resume.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from app.config import Settings

from .clock import Handle
from .diff import make_patch
from .frames import dumps
from .inbox import Message
from .outcome import Answer, Outcome
from .overlay import Shared, seat_patch
from .ports import Outlet
from .room_state import RoomState
from .room_views import game_views, seat_views
from .spectator_lag import SpectatorLag
from .stream import FrameObserver, Stream
from .watching import SpectatorFrames


class Streams(SpectatorFrames):
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

    @property
    def watching(self) -> int:
        """Spectators who are not screens: the room's ``watchers``."""
        return len(self.spectators) - self.screens

    def watch(self, outlet: Outlet, address: str = "", screen: bool = False) -> None:
        self.watched += 1
        self.spectators[outlet] = Stream(outlet=outlet, buffer=deque(maxlen=1), fresh=True, number=self.watched,
                                         address=address, screen=screen)

    def drop_screens(self) -> list[Outlet]:
        """Forget every screen's socket (its link was revoked); their sockets, for the caller to close."""
        gone = [outlet for outlet, stream in self.spectators.items() if stream.screen]
        for outlet in gone:
            del self.spectators[outlet]
        return gone

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

    def remember(self, token_hash: str, cid: str, text: str | None) -> None:
        stream = self.seats.get(token_hash)
        if stream is None:
            return
        stream.replies[cid] = text
        stream.replies.move_to_end(cid)
        while len(stream.replies) > self.settings.action_ids_kept:
            stream.replies.popitem(last=False)

    # ------------------------------------------------------------------ sending

    def emit(self, outlet: Outlet, seat: int | None, text: str, view: dict[str, Any] | None = None,
             screen: bool = False) -> None:
        if self.observer is not None:
            self.observer(self.state.code, seat, text, self.state, view, screen=screen)
        outlet.offer(text)

    def publish(self, out: Outcome) -> dict[int | None, Any] | None:
        """The publish of one stored message, in the order every client relies on: the views
        (every connected seat's and the spectators', or only a newcomer spectator's), the delayed
        spectator frames due by now, the message's own frames (a pong, a resent answer), then the
        sender's answer.  Returns every present seat's game view as it built them (automated
        seats' too: the bots pick on them), or None when it built none."""
        answer = out.answer
        games = None
        if out.dirty:
            games = self._views(answer)
        elif out.watch:
            self.publish_spectators()
        self.release()
        for outlet, seat, text in out.frames:
            self.emit(outlet, seat, text)
        if answer is not None:
            self._answer(answer)
        return games

    def _answer(self, a: Answer) -> None:
        """The sender's ``ack`` (naming its stream's ``seq``: its view already shows the command) or
        error, remembered by its id; sent as a frame of its own unless its patch carried it."""
        if a.error is not None:
            text = dumps(a.error)
        else:
            seq = a.stream.seq if a.stream is not None else 0
            text = dumps({"type": "ack", "id": a.cid, "seq": seq})
        if a.cid is not None and a.token_hash is not None:
            self.remember(a.token_hash, a.cid, text)  # a resend of the id gets a plain ack
        if not a.in_patch:
            self.emit(a.outlet, a.seat, text)

    def _views(self, answer: Answer | None) -> dict[int | None, Any] | None:
        """Every connected seat and spectator: a snapshot or resume for newcomers, a patch for the rest.
        A sender whose socket takes its acks in patches gets its ack in its patch (``in_patch``).
        Returns the game views built (None: nobody is connected, and nothing was built)."""
        ack = _in_patch(answer)
        players = self.state.players
        live = [(p.seat, stream) for p in players if (stream := self.seats[p.token_hash]).outlet is not None]
        if not live and not self.spectators:
            return None
        seats = [seat for seat, _ in live]
        # One build of the match's views serves the publish and the bots alike (the automated seats').
        games = game_views(self.state, [*seats, *(p.seat for p in players if p.auto), None])
        new = seat_views(self.state, [*seats, None], games=games)
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
        if answer is not None:
            answer.in_patch = acked  # then one frame, not two
        return games

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


def _in_patch(answer: Answer | None) -> tuple[Stream, str] | None:
    """The sender's stream and the id to ack in its patch, when its socket takes acks so (an ack,
    not an error, to the socket that sent the command)."""
    if answer is None or answer.error is not None or answer.cid is None:
        return None
    sender = answer.stream
    if sender is None or not sender.acks_in_patch or sender.outlet is not answer.outlet:
        return None
    return sender, answer.cid
