"""The spectators' and screens' frames: live, or held back by the room's delay (``Streams``' part).

Spectators share one view, the public one; a room with a delay sends it ``spectator_delay``
seconds late (a timeline of frames built when current: spectator_lag.py); the host's big
screens (screen.py, RULES.md D-14) are sent it live whatever the delay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .diff import make_patch
from .frames import dumps
from .inbox import SpectatorsDue
from .overlay import Shared
from .room_views import seat_views
from .spectator_lag import Lagged, SpectatorLag

if TYPE_CHECKING:
    from app.config import Settings

    from .clock import Handle
    from .inbox import Message
    from .ports import Outlet
    from .room_state import RoomState
    from .stream import FrameObserver, Stream


class SpectatorFrames:
    """What ``Streams`` sends its spectators (a mixin: the state is the streams' own)."""

    state: RoomState
    settings: Settings
    observer: FrameObserver | None
    spectators: dict[Outlet, Stream]
    lag: SpectatorLag | None
    timers: dict[str, Handle]

    @property
    def screens(self) -> int:
        """Big screens connected (they are among ``spectators``)."""
        return sum(1 for s in self.spectators.values() if s.screen)

    def later(self, name: str, delay: float, message: Message) -> None:
        raise NotImplementedError

    def emit(self, outlet: Outlet, seat: int | None, text: str, view: dict[str, Any] | None = None,
             screen: bool = False) -> None:
        raise NotImplementedError

    def publish_spectators(self) -> None:
        """Only spectators' views can have changed (one just arrived): the seats' are not built."""
        if self.spectators:
            self._spectators(seat_views(self.state, (None,))[None], {})

    def _spectators(self, watch: dict[str, Any], memo: dict[Any, Any],
                    known: tuple[Any, Shared] | None = None) -> None:
        """``known``: the last publish's view and its diff to ``watch`` (``Shared``), when made already.
        Screens (D-14) are sent the view live whatever the delay."""
        if self.state.spectator_delay > 0:
            if self.screens < len(self.spectators):
                self._lag_spectators(watch, memo, known)
            self._publish_to_spectators(watch, memo, known, screens_only=True)
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
            if not stream.screen:
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
                if not stream.screen:
                    stream.fresh, stream.starts_at, stream.view = True, None, None
        fresh = [stream for stream in self.spectators.values() if stream.fresh and not stream.screen]
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
                merged = make_patch(lag.base, watch, memo)
                tail.patch = self._lag_text("patch", "ops", tail.seq, merged, watch)
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
            # Nothing queued shows the view as it is: a frame for them.
            if tail is None or tail.seq != lag.seq:
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
                if stream.screen:
                    continue
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
                               known: tuple[Any, Shared] | None, screens_only: bool = False) -> None:
        """The view as it is now, to every spectator (``screens_only``: to the screens, D-14)."""
        ops_by_view: dict[int, str] = {}  # spectators share views, so diff each distinct one once
        if known is not None:
            ops_by_view[id(known[0])] = known[1].text()
        for outlet, stream in self.spectators.items():
            if screens_only and not stream.screen:
                continue
            if stream.fresh or stream.view is None:
                stream.fresh = False
                stream.seq += 1
                stream.view = watch
                self.emit(outlet, None, dumps({"type": "snapshot", "seq": stream.seq, "view": watch}), watch,
                          screen=stream.screen)
                continue
            key = id(stream.view)
            if key not in ops_by_view:
                ops_by_view[key] = dumps(make_patch(stream.view, watch, memo))
            if ops_by_view[key] == "[]":
                stream.view = watch  # the same content: the next change is diffed from this publish's view
                continue
            stream.seq += 1
            stream.view = watch
            self.emit(outlet, None, f'{{"type":"patch","seq":{stream.seq},"ops":{ops_by_view[key]}}}', watch,
                      screen=stream.screen)
