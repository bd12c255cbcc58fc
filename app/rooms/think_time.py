"""How long each seat's sender took over its moves in this match: a cheap summary per seat, for
the ratings to tell a seat played by hand from one a script answers (docs/STATS.md).

The room knows when it last changed (an action applied, whoever's; a deal) and when a seat's
action reached it.  Between the two is the time the seat's sender took to see the change and
answer: a person takes a few hundred milliseconds and rarely under ``INSTANT_MS``; a script
answers in a few milliseconds, every time.  Per seat only two numbers are kept — moves sent and
moves sent within ``INSTANT_MS`` of the last change — and handed over with the match's end
(``MatchFinished.think``).  Nothing per move is stored; a room restored after a restart counts
from there on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

INSTANT_MS = 150  # an answer sooner than this after the room last changed is "instant"


@dataclass
class ThinkTimes:
    since: float = 0.0  # when the room last changed, on the room's clock (clock.py: the callers pass it)
    by_seat: dict[int, list[int]] = field(default_factory=dict)  # seat -> [moves sent, instant ones]

    def restart(self, now: float) -> None:
        """A new match: nothing counted yet."""
        self.by_seat.clear()
        self.changed(now)

    def changed(self, now: float) -> None:
        self.since = now

    def took_ms(self, now: float) -> float:
        """How long since the room last changed (for an action arriving ``now``)."""
        return (now - self.since) * 1000

    def sent(self, seat: int, took_ms: float) -> None:
        """A seat's sender's move was applied, ``took_ms`` after the change it answered."""
        counts = self.by_seat.setdefault(seat, [0, 0])
        counts[0] += 1
        counts[1] += took_ms < INSTANT_MS

    def summary(self) -> tuple[tuple[int, int, int], ...]:
        """(seat, moves sent, instant ones) for every seat that sent a move."""
        return tuple((seat, moves, instant) for seat, (moves, instant) in sorted(self.by_seat.items()))
