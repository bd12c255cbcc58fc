"""What a bot did for a seat while its player was away, told when they come back.

A seat away past its grace is played by a bot ("takeover" in the log) until its player returns
("returned").  The room's log keeps only its last entries, so an absence over a match or two
outruns it; the tally here is kept alongside instead, folded from the same public entries as
they are logged, and the "returned" note carries its summary (``away``) for the page's "While
you were away" box (static/js/absence.js).  Everything in it was public when it happened: cards
are counted, never named.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Draws a seat makes of its own accord on its turn; every other reason is a penalty
# (a Draw card, a catch, a lost challenge, an item, a misplay...).
OWN_DRAWS = frozenset({"turn", "dip", "special"})
ROUNDS_TOLD = 6  # the latest rounds, each one line; a longer absence says how many came before


@dataclass
class AwayTally:
    """Counts for one seat over one absence, from the public log entries (``fold``)."""

    played: int = 0  # cards played (every card of a batch, HR-8)
    drew: int = 0  # cards drawn on its turn
    penalty: int = 0  # cards it was made to draw
    caught: int = 0  # times caught not saying UNO!
    # {"by": seat, "with": seat}: whole hands swapped
    swaps: list[dict[str, int]] = field(default_factory=list)
    passed: int = 0  # times every hand was passed on (a 0 under Seven-O)
    rounds: list[dict[str, Any]] = field(default_factory=list)  # {"round", "winner", "points"}
    earlier_rounds: int = 0  # rounds over that fell off ``rounds``
    matches: list[int] = field(default_factory=list)  # winners of matches that ended
    host: int | None = None  # who became host meanwhile
    round_no: int | None = None  # the round being played (from ``round_start``)

    def fold(self, entry: dict[str, Any], you: int) -> None:
        """Count what public log ``entry`` did to seat ``you``."""
        kind = entry.get("kind")
        seat = entry.get("seat")
        if kind == "play" and seat == you:
            batch = entry.get("batch")
            self.played += len(batch) if isinstance(batch, list) and batch else 1
        elif kind == "draw" and seat == you:
            count = int(entry.get("count") or 0)
            if entry.get("reason") in OWN_DRAWS:
                self.drew += count
            else:
                self.penalty += count
        elif kind == "caught" and seat == you:
            self.caught += 1
        elif kind == "swap" and you in (seat, entry.get("target")):
            other = entry.get("target") if seat == you else seat
            if isinstance(seat, int) and isinstance(other, int):
                self.swaps.append({"by": seat, "with": other})
        elif kind == "hands_passed":
            self.passed += 1
        elif kind == "round_start":
            self.round_no = entry.get("round")
        elif kind == "round_over":
            self.rounds.append({"round": self.round_no, "winner": entry.get("winner"),
                                "points": entry.get("points")})
            if len(self.rounds) > ROUNDS_TOLD:
                self.rounds.pop(0)
                self.earlier_rounds += 1
        elif kind == "match_over" and isinstance(entry.get("winner"), int):
            self.matches.append(entry["winner"])
        elif kind == "host" and isinstance(seat, int) and seat != you:
            self.host = seat

    def summary(self) -> dict[str, Any]:
        """What the "returned" note carries: only what happened (zeros and empties left out)."""
        out: dict[str, Any] = {}
        for key in ("played", "drew", "penalty", "caught", "passed", "earlier_rounds"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        for key in ("swaps", "rounds", "matches"):
            if getattr(self, key):
                out[key] = list(getattr(self, key))
        if self.host is not None:
            out["host"] = self.host
        return out
