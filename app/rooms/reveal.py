"""When a room's HTTP views may show what its spectators are shown late.

A room with a spectator delay of D seconds sends its spectators every change D seconds after
its seats (``spectator_lag.SpectatorLag``).  Whatever anyone can read over HTTP follows the same
clock, or it would tell a spectator — or anyone watching the history page — a move or the
end before the delayed table does:

- the room's summary (``GET /api/rooms/{code}``) has the status published at least D seconds
  ago (the rest of it — seats, names, options — shows no move and is as it is now);
- a match's history, export and replay (``/api/matches/{id}...``) are withheld while the match
  is played in a room with a delay, and until D seconds after its end was published.

When the host changes the delay, the spectators' timeline starts again (they are shown the
table as it is, the new delay from now): so is everything here not yet shown.  A room rebuilt
from its records counts as published when it is rebuilt.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from .room_state import OVER, WAITING, RoomState

# Statuses waiting to be shown: past this many, the newest takes the next change too, and
# waits again (fewer, later steps; never an early one).  The status changes with a round.
STATUSES_KEPT = 32


class Reveal:
    def __init__(self, state: RoomState, now: float) -> None:
        self.state = state
        self.delay = state.spectator_delay
        # (shown from, status), oldest first; the first one is shown (or is the room's first).
        self.statuses: deque[tuple[float, str]] = deque([(now, state.status)])
        # Match id -> when its end may be shown (ends that may be shown already are forgotten).
        self.ended: dict[str, float] = {}
        self.shown: str | None = None  # the last match whose end was shown (never held back again)
        if state.status == OVER and state.match_id is not None and self.delay > 0:
            self.ended[state.match_id] = now + self.delay

    def published(self, now: float) -> None:
        """The room has just published a message's changes (to its seats; spectators get them
        ``delay`` seconds later)."""
        st = self.state
        if st.spectator_delay != self.delay:
            self.delay = st.spectator_delay
            later = now + self.delay
            self.statuses = deque((at if at <= now else later, s) for at, s in self.statuses)
            self.ended = {m: later for m, at in self.ended.items() if at > now}
        at = now + self.delay
        if st.status != self.statuses[-1][1]:
            if len(self.statuses) >= STATUSES_KEPT and self.statuses[-1][0] > now:
                self.statuses[-1] = (at, st.status)
            else:
                self.statuses.append((at, st.status))
        while len(self.statuses) > 1 and self.statuses[1][0] <= now:
            self.statuses.popleft()
        if st.status == OVER and st.match_id not in (None, self.shown) and st.match_id not in self.ended \
                and self.delay > 0:
            self.ended[st.match_id] = at
        for match_id in [m for m, shown in self.ended.items() if shown <= now]:
            del self.ended[match_id]
            self.shown = match_id

    def summary(self, now: float) -> dict[str, Any]:
        """The room's summary, with the newest status that may be shown by now."""
        summary = self.state.public_summary()
        shown = self.statuses[0][1]
        for at, status in self.statuses:
            if at > now:
                break
            shown = status
        if shown == summary["status"]:
            return summary
        free = max(0, summary["max_seats"] - summary["seats_taken"]) if shown == WAITING else 0
        return {**summary, "status": shown, "seats_free": free}

    def match_shown(self, match_id: str, now: float) -> bool:
        """Whether a match of this room may be shown over HTTP now."""
        st = self.state
        if match_id == st.match_id and st.status != OVER and st.spectator_delay > 0:
            return False  # being played (or its end not yet recorded here)
        shown = self.ended.get(match_id)
        return shown is None or shown <= now
