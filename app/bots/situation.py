"""What a bot reads from its seat's view: the table as a ``Situation``, seats' order done once.

Only the view, the same dict a human's client gets (``heuristic.py``): nothing here reaches
the engine's state or another seat's hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Card = dict[str, Any]
ActionJSON = dict[str, Any]

# A player this close to going out is a threat: stop them, shed points before they score them.
THREAT = 2


@dataclass(frozen=True)
class Situation:
    """The parts of a seat's view the heuristics use, with the arithmetic of seats done once."""

    seat: int
    edition: str
    hand: list[Card]  # the cards it sees and may play: not the face-down ones (HR-33), only counted
    legal: list[ActionJSON]
    sizes: list[int]
    colour: str | None
    top: Card
    direction: int
    owed: list[int]
    pending: dict[str, Any] | None
    exposed: list[int]
    drawn: Card | None

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> Situation:
        table = view["table"]
        sizes = list(table["hand_sizes"])
        return cls(
            seat=view["seat"], edition=view["edition"], hand=list(table.get("hand", [])),
            legal=list(table.get("legal", [])), sizes=sizes, colour=table.get("colour"), top=table["top"],
            direction=table["direction"], owed=list(table.get("skips_owed", [0] * len(sizes))),
            pending=table.get("pending"), exposed=list(table.get("exposed", [])), drawn=table.get("drawn"),
        )

    @property
    def n(self) -> int:
        return len(self.sizes)

    def step(self, seat: int, direction: int | None = None) -> int:
        return (seat + (self.direction if direction is None else direction)) % self.n

    @property
    def next_seat(self) -> int:
        """The opponent who plays after us if we pass the turn: seats owing lost turns are jumped
        (C-9); if every opponent owes one, the plain next seat (they will play, just later)."""
        opponents = self.opponents
        return next((s for s in opponents if not self.owed[s]), opponents[0])

    @property
    def prev_seat(self) -> int:
        return self.step(self.seat, -self.direction)

    @property
    def opponents(self) -> list[int]:
        """Opponents in turn order, starting with the next seat."""
        out, s = [], self.seat
        for _ in range(self.n - 1):
            s = self.step(s)
            out.append(s)
        return out

    def closest_to_winning(self) -> int:
        """The opponent with the fewest cards; ties go to whoever plays sooner."""
        return min(self.opponents, key=lambda s: self.sizes[s])

    @property
    def fewest(self) -> int:
        return min(self.sizes[s] for s in self.opponents)

    @property
    def threatened(self) -> bool:
        return self.fewest <= THREAT

    @property
    def next_threatens(self) -> bool:
        return self.sizes[self.next_seat] <= THREAT

