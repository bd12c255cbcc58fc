"""The rooms' one clock: every time a room reads, and every wake-up it sets, goes through it.

A room reads two times: the *monotonic* time, for spans inside this process (a seat's grace
after its socket went, the spectators' delay, a reaction's rate, how long a room is idle), and
the *wall* time, epoch seconds, for deadlines it shows to clients and stores (the turn clock, the
next round, the rematch countdown, the match clock of HR-25: a restart or another node reads
them back).  It wakes itself with ``call_later`` (the timers only ever ``tell`` the inbox) and
waits with ``sleep`` (the registry's sweep).

``LoopClock`` is the real one, on the running event loop.  ``ManualClock`` moves only when told
(``advance``): the tests of the turn clock, the grace, the rematch countdown, the match clock and
the spectators' delay run on it, and so do not depend on how busy the machine is.  The registry
hands a room its clock (``RoomRegistry(clock=...)``, ``create_app(clock=...)``); the real one
unless a test brings its own.  Time that is not the rooms' stays on the real clock: the store's
retries and a cluster's leases (app/persistence, app/cluster), and the transport's protections
against real clients (app/transport), which a test clock must never hold open.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol


class Handle(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def monotonic(self) -> float:
        """Seconds from an arbitrary start, never going back: for spans."""
        ...

    def wall(self) -> float:
        """Epoch seconds: for deadlines clients are shown and the store keeps."""
        ...

    def call_later(self, delay: float, callback: Callable[..., Any], *args: Any) -> Handle:
        """Call ``callback(*args)`` on the running event loop ``delay`` seconds from now (at once if ≤ 0)."""
        ...

    async def sleep(self, seconds: float) -> None: ...


class Timer:
    """One pending wake-up of the room, tagged with what it was planned for (the automation's clocks,
    the bots' next move).  ``message`` is what it will tell the room's inbox."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.handle: Handle | None = None
        self.key: Any = None
        self.message: Any = None  # what it will tell (the tests read a planned move off it)

    def set(self, key: Any, delay: float, tell: Callable[[Any], None], message: Any) -> None:
        self.cancel()
        self.key, self.message = key, message
        self.handle = self.clock.call_later(delay, tell, message)

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
        self.handle, self.key, self.message = None, None, None


class LoopClock:
    """The real clock: ``time``'s clocks, and the running event loop's timers."""

    def monotonic(self) -> float:
        return time.monotonic()

    def wall(self) -> float:
        return time.time()

    def call_later(self, delay: float, callback: Callable[..., Any], *args: Any) -> Handle:
        return asyncio.get_running_loop().call_later(max(0.0, delay), callback, *args)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


REAL_CLOCK = LoopClock()


# How far past the time a manual clock reached a timer may be due and still run: a deadline kept to
# the millisecond, or reached in steps such as 0.49 + 0.01, may differ from it in the last bits.
SLACK = 1e-6


class ManualTimer:
    """A wake-up set on a ``ManualClock``: called on the loop that set it, when the clock reaches ``due``."""

    def __init__(self, due: float, loop: asyncio.AbstractEventLoop | None, callback: Callable[..., Any],
                 args: tuple[Any, ...]) -> None:
        self.due, self.loop, self.callback, self.args = due, loop, callback, args
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def run(self) -> None:
        if not self.cancelled:  # cancelled on its loop after ``advance`` handed it over
            self.cancelled = True
            self.callback(*self.args)


class ManualClock:
    """A clock for tests: it stands still until ``advance`` moves it, then runs every timer that
    has come due, in the order they are due (the order they were set, for equal times).  A timer
    set for no time at all (a delay ≤ 0) is due already: it runs on the loop's next turn.

    ``advance`` may be called from another thread than the event loop the timers were set on (a
    test beside a server running in a thread of its own): each timer is then handed to its loop
    in that order, and runs there.  The time jumps at once: a timer that a due one sets (a room
    reacting to its turn clock, say) counts from the new time, as it would on a real clock read
    just after the wake-up."""

    def __init__(self, wall: float | None = None) -> None:
        self.now = 1_000.0  # the monotonic time; its start means nothing, as time.monotonic()'s
        # wall() − monotonic(): whole seconds, so that a deadline the room keeps to the millisecond
        # (now + 1.5 s, rounded) is exactly the time ``advance(1.5)`` reaches.
        self.epoch = float(int(time.time() if wall is None else wall)) - self.now
        self.timers: list[tuple[float, int, ManualTimer]] = []
        self.order = itertools.count()
        self.lock = threading.Lock()

    def monotonic(self) -> float:
        return self.now

    def wall(self) -> float:
        return self.now + self.epoch

    def call_later(self, delay: float, callback: Callable[..., Any], *args: Any) -> ManualTimer:
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        with self.lock:
            timer = ManualTimer(self.now + max(0.0, delay), loop, callback, args)
            if delay > 0 or loop is None:
                heapq.heappush(self.timers, (timer.due, next(self.order), timer))
        if delay <= 0 and loop is not None:  # due already: soon, as the loop's own clock would
            loop.call_soon(timer.run)
        return timer

    async def sleep(self, seconds: float) -> None:
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def wake() -> None:
            if not woken.done():
                woken.set_result(None)

        timer = self.call_later(seconds, wake)
        try:
            await woken
        finally:
            timer.cancel()

    def pending(self) -> list[float]:
        """How far ahead each timer still set is due, soonest first (what a test may wait for)."""
        with self.lock:
            return sorted(t.due - self.now for _, _, t in self.timers if not t.cancelled)

    def advance(self, seconds: float) -> int:
        """Move the time on by ``seconds`` and run every timer due by then; how many were due."""
        assert seconds >= 0, "a clock never goes back"
        with self.lock:
            self.now += seconds
            due: list[ManualTimer] = []
            while self.timers and self.timers[0][0] <= self.now + SLACK:
                timer = heapq.heappop(self.timers)[2]
                if not timer.cancelled:
                    due.append(timer)
        try:
            here: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        for timer in due:
            if timer.loop is None or timer.loop is here:
                timer.run()
            elif not timer.loop.is_closed():
                timer.loop.call_soon_threadsafe(timer.run)
        return len(due)
