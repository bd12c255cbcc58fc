"""What a careful player remembers of a round, from their own seat's views only: the hard bot's count.

A ``Tally`` is shown each view its seat gets, in order (a room shows it every change of the
table; ``bench/bots.py`` every step).  From them it keeps what a person at that seat could
have noted: every card that has lain on top of the discard pile, the cards it was shown
(a swap's reveal, open hands), and which colours an opponent had none of when it had to draw
on a plain turn.  Nothing here looks beyond the view, so the count is never hidden information.

What it is for: the colours the others are least likely to hold (most of them seen), whether a
challenged big Draw was likely illegal (how many cards of the replaced colour are still unseen),
and which colour a threatening opponent has just shown it lacks.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue")

# Each edition's deck, as its rules print it (tests/bots check these against the engine's decks):
# cards of each colour, and the colourless cards that also make a big Draw illegal when held
# (Mario Kart's Item Boxes, MK-4; Pocket Pizza's other wilds, PP-5).
PER_COLOUR = {"classic": 25, "mario_kart": 25, "pocket_pizza": 12, "all_wild": 0}
GUILTY_WILDS = {"classic": 0, "mario_kart": 8, "pocket_pizza": 3, "all_wild": 0}
DECK = {"classic": 108, "mario_kart": 112, "pocket_pizza": 52, "all_wild": 112}


class Tally:
    """One seat's memory of the round it is in; a new round (or match) starts it afresh."""

    def __init__(self) -> None:
        self.round: tuple[Any, ...] | None = None
        self.seen: dict[int, dict[str, Any]] = {}  # card id -> card, out of every hand for now
        self.lacks: dict[int, set[str]] = {}  # seat -> colours it drew rather than play
        self.last: dict[str, Any] | None = None  # the table of the view before

    def observe(self, view: dict[str, Any]) -> None:
        """Take in one view of the seat's (a spectator's or a finished round's are ignored)."""
        table = view.get("table")
        if view.get("seat") is None or not table or table.get("hand") is None:
            return
        key = (view.get("round"), view.get("scores") and tuple(view["scores"]))
        if key != self.round or (self.last is not None and table["discard_pile"] < self.last["discard_pile"]):
            # A new round, or the discard pile went back into the draw pile: what lay on it is
            # in play again (the round's key has the scores: a new match's round 1 is new too).
            self.round, self.seen, self.lacks, self.last = key, {}, {}, None
        top = table["top"]
        self.seen[top["id"]] = top
        for hand in table.get("open_hands") or ():
            for card in hand or ():
                self.seen[card["id"]] = card
        self._note_lacks(table)
        self.last = table

    def _note_lacks(self, table: dict[str, Any]) -> None:
        """A seat that owed a plain turn and drew (its hand one up, the top the same) had nothing
        of the colour asked for — as far as a person watching can tell.  Cards it takes any other
        way (a penalty, a pass) may bring the colour back, and a Seven-O exchange moves whole hands."""
        before = self.last
        if before is None:
            return
        pending = before.get("pending") or {}
        same_top = table["top"]["id"] == before["top"]["id"]
        for seat, (now, then) in enumerate(zip(table["hand_sizes"], before["hand_sizes"], strict=False)):
            if now <= then:
                continue
            colour = before.get("colour")
            own_turn = pending.get("kind") == "turn" and pending.get("seat") == seat
            if own_turn and same_top and colour in COLOURS:
                self.lacks.setdefault(seat, set()).add(colour)
            else:
                self.lacks.pop(seat, None)
        if not same_top and table["top"]["face"] in ("7", "0"):
            self.lacks.clear()  # under Seven-O the hands may have changed owners: forget them all

    def unseen(self, edition: str, colour: str, hand: list[dict[str, Any]]) -> int:
        """How many cards of ``colour`` could still be in another hand or the draw pile."""
        known = sum(1 for c in self.seen.values() if c["colour"] == colour)
        known += sum(1 for c in hand if c["colour"] == colour and c["id"] not in self.seen)
        return max(0, PER_COLOUR.get(edition, 0) - known)

    def unseen_total(self, edition: str, hand: list[dict[str, Any]]) -> int:
        held = sum(1 for c in hand if c["id"] not in self.seen)
        return max(1, DECK.get(edition, 108) - len(self.seen) - held)

    def seen_by_colour(self) -> Counter[str]:
        return Counter(c["colour"] for c in self.seen.values() if c["colour"] is not None)


def held_any_odds(guilty: int, total: int, cards: int) -> float:
    """The chance that ``cards`` cards dealt from ``total`` unseen ones include one of ``guilty``
    (drawn without replacement)."""
    none = 1.0
    for i in range(cards):
        if total - i <= 0:
            break
        none *= max(0.0, (total - guilty - i) / (total - i))
    return 1.0 - none
