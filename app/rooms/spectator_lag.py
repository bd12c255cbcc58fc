"""The spectators' timeline in a room with a delay: frames built when their view was current and
released ``delay`` seconds later (``Streams`` in streams.py fills and releases it)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any


@dataclass
class Lagged:
    """One frame of the spectators' delayed timeline, built (and audited) when its view was
    current, and sent once it is ``due``: the same patch to every spectator that follows the
    timeline, and a snapshot for those who start here."""

    due: float  # the room's monotonic time (clock.py)
    seq: int
    patch: str | None  # None: the view did not change since the previous frame
    snapshot: str | None = None

    @property
    def chars(self) -> int:
        return len(self.patch or "") + len(self.snapshot or "")


class SpectatorLag:
    """The spectators' view of a room with a delay: a queue of frames released ``delay`` seconds
    after they were built, in order.  Bounded: past ``max_frames`` or ``max_chars`` a new view
    is merged into the newest frame still queued (its patch then spans both changes, and it
    is due ``delay`` seconds from now), so spectators see fewer, coarser frames, never early ones."""

    def __init__(self, delay: int, max_frames: int, max_chars: int, seq: int) -> None:
        self.delay = delay
        self.max_frames, self.max_chars = max(2, max_frames), max_chars
        self.queue: deque[Lagged] = deque()
        self.chars = 0
        self.seq = seq  # the timeline's last frame number
        self.view: dict[str, Any] | None = None  # the view as of ``seq``
        self.base: dict[str, Any] | None = None  # the view as of ``seq - 1`` (to merge into the newest frame)
