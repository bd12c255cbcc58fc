"""The hard bot: the normal player, plus a memory of the round and the house rules played well.

It keeps a ``counting.Tally`` of what its own seat's views have shown (``observe`` every view,
in order; ``act`` observes the one it is asked about too) and uses it where a careful player
would:

- a colour to name (a wild, a colour decision) is the one it holds most, then one the next
  opponent has shown it lacks (drew rather than play it), then the one most often seen
  already (fewest left for the others to hold);
- on a turn, while the next opponent holds a few cards (3 or 4: fewer, and stopping it comes
  first), it plays into a colour that opponent lacks whenever it can;
- a challenge (CL-5, MK-4, PP-5) is made when the challenged hand, dealt from the cards it has
  not seen, more likely than not holds a card that made the big Draw illegal;
- Seven-O (HR-6, HR-7): a 7 or 0 that leaves it a hand at least two cards smaller is played
  first, and one that would leave it a bigger hand is not played while anything else is;
- jump-in (§6.1): an identical card is thrown in off turn — a card shed and the turn taken;
- several of a number (HR-8): its chosen number card goes with every other of that number it
  may add, ending on the colour it holds most;
- stacking and deflections are the heuristic's (``penalties.py``): pass a penalty on rather
  than take it.

Every choice is still one of the view's legal actions; the rest is the normal bot's.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from . import heuristic
from .counting import COLOURS, GUILTY_WILDS, Tally, held_any_odds
from .situation import Situation

LEVEL = "hard"
Action = dict[str, Any]
EXCHANGES = ("7", "0")
GAIN_WORTH_IT = 2  # cards fewer after a Seven-O exchange that make it the best play


class Hard:
    level = LEVEL

    def __init__(self) -> None:
        self.tally = Tally()

    def observe(self, view: dict[str, Any]) -> None:
        self.tally.observe(view)

    def act(self, view: dict[str, Any], rng: random.Random) -> Action | None:
        self.tally.observe(view)
        table = view.get("table") or {}
        legal: list[Action] = table.get("legal") or []
        seat = view.get("seat")
        if seat is None or not legal:
            return None
        calls = [a for a in legal if a["kind"] in heuristic.UNO_KINDS]
        if calls:  # UNO! business first, as the heuristic does it (asked with no decision owed)
            uno = heuristic.choose_action(_only(view, calls, pending=None), rng, 1.0)
            if uno is not None:
                return uno
        pending = table.get("pending") or {}
        if pending.get("seat") != seat:
            return self._jump_in(view, legal, rng)
        if pending.get("kind") == "challenge":
            legal = self._challenge(view, legal)
            if len(legal) == 1:
                return legal[0]
        elif pending.get("kind") == "turn":
            legal = self._starve(view, legal)
            if view["house_rules"].get("seven_o"):
                legal = self._exchanges(view, legal)
        elif pending.get("kind") == "colour":
            colour = self.colour(view, table["hand"], rng)
            named = next((a for a in legal if a.get("colour") == colour), None)
            return named or heuristic.choose_action(view, rng, 1.0)
        chosen = heuristic.choose_action(_only(view, legal), rng, 1.0)
        if chosen is None:
            return None
        if "colour" in chosen:
            return self._recolour(view, legal, chosen, rng)
        return self._batch(view, legal, chosen)

    # ------------------------------------------------------------------ what the count is for

    def colour(self, view: dict[str, Any], hand: list[dict[str, Any]], rng: random.Random) -> str:
        """Held most; then lacked by the next opponent; then most seen (fewest left out there)."""
        held = Counter(c["colour"] for c in hand if c["colour"] is not None)
        nxt = Situation.from_view(view).next_seat
        lacks = self.tally.lacks.get(nxt, set())
        seen = self.tally.seen_by_colour()
        return max(COLOURS, key=lambda col: (held[col], col in lacks, seen[col], rng.random()))

    def guilty_odds(self, view: dict[str, Any]) -> float:
        """How likely the challenged hand held a card that made its big Draw illegal, from the cards
        this seat has not seen (the replaced colour's, and the edition's guilty wilds)."""
        table = view["table"]
        pending = table["pending"]
        edition = view["edition"]
        challenged, colour = pending.get("challenged"), pending.get("replaced_colour")
        if challenged is None or colour not in COLOURS:
            return 0.0
        hand = table["hand"]
        guilty = self.tally.unseen(edition, colour, hand) + GUILTY_WILDS.get(edition, 0)
        if colour in self.tally.lacks.get(challenged, set()):
            guilty = GUILTY_WILDS.get(edition, 0)  # it drew rather than play that colour: none left then
        return held_any_odds(guilty, self.tally.unseen_total(edition, hand), table["hand_sizes"][challenged])

    # ------------------------------------------------------------------ the decisions

    def _challenge(self, view: dict[str, Any], legal: list[Action]) -> list[Action]:
        """Challenge when the count says likely guilty; otherwise leave the challenge out."""
        challenge = [a for a in legal if a["kind"] == "challenge"]
        if challenge and self.guilty_odds(view) > 0.5:
            return challenge
        return [a for a in legal if a["kind"] != "challenge"] or legal

    def _starve(self, view: dict[str, Any], legal: list[Action]) -> list[Action]:
        """Turn play to a colour the next seat has shown it lacks: it must draw.  Not when that seat
        is close to going out and a stopper would do more (the heuristic's choice then)."""
        s = Situation.from_view(view)
        lacks = self.tally.lacks.get(s.next_seat)
        if not lacks or s.next_threatens or s.sizes[s.next_seat] > 4:
            return legal
        colours = {c["id"]: c["colour"] for c in view["table"]["hand"]}
        starving = [a for a in legal if a["kind"] == "play" and colours.get(a["card"]) in lacks]
        return starving or legal

    def _exchanges(self, view: dict[str, Any], legal: list[Action]) -> list[Action]:
        """Seven-O: play a 7 or 0 that sheds at least two cards' worth of hand; never one that grows it."""
        table = view["table"]
        s = Situation.from_view(view)
        faces = {c["id"]: c["face"] for c in table["hand"]}
        good: set[tuple[int, int | None]] = set()
        bad: set[tuple[int, int | None]] = set()
        for a in legal:
            if a["kind"] != "play" or faces.get(a["card"]) not in EXCHANGES or a.get("more"):
                continue
            # A 7 swaps with its target (or the next seat, HR-7); a 0 passes every hand on, so ours
            # comes from the seat before.
            other = a.get("target", s.next_seat) if faces[a["card"]] == "7" else s.prev_seat
            gain = s.sizes[s.seat] - 1 - s.sizes[other]
            (good if gain >= GAIN_WORTH_IT else bad if gain < 0 else set()).add((a["card"], a.get("target")))
        if good:
            return [a for a in legal if (a.get("card"), a.get("target")) in good]
        kept = [a for a in legal if (a.get("card"), a.get("target")) not in bad]
        return kept if any(a["kind"] not in heuristic.UNO_KINDS for a in kept) else legal

    def _batch(self, view: dict[str, Any], legal: list[Action], chosen: Action) -> Action:
        """HR-8: the chosen number card with every other of its number (the group its ``batch`` offer
        names), in the order that ends (the last card's colour counts) on the colour it keeps most of, UNO
        said when the offer allows it; under HR-9 a batch of 3 also makes everyone else draw.  The offers
        are read from the whole view: the filters above keep plays only."""
        card = chosen.get("card")
        if chosen.get("kind") != "play" or chosen.get("more"):
            return chosen
        offers = [o for o in view["table"].get("legal", []) if o["kind"] == "batch" and card in o["cards"]]
        offer = offers[0] if offers else None
        if offer is None:
            return chosen
        hand = {c["id"]: c for c in view["table"]["hand"]}
        kept = [c for i, c in hand.items() if i not in offer["cards"]]
        # The best last card (hand order on a tie) that leaves a card to lead: the chosen one, if it may.
        ranked = sorted(offer["cards"], key=lambda i: -sum(c["colour"] == hand[i]["colour"] for c in kept))
        last = next(i for i in ranked if any(c != i for c in offer["leads"]))
        leads = [c for c in offer["leads"] if c != last]
        lead = card if card in leads else leads[0]
        more = [c for c in offer["cards"] if c not in (lead, last)] + [last]
        targets = offer.get("targets") or [None]
        target = chosen.get("target") if chosen.get("target") in targets else targets[0]
        batch: Action = {"kind": "play", "card": lead, "more": more}
        if target is not None:
            batch["target"] = target
        if [len(more) + 1, target] in offer.get("uno", []):
            batch["uno"] = True
        return batch

    def _jump_in(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action | None:
        """Off turn, the only card play on offer is a jump-in: take it (UNO! said, a wild coloured well)."""
        plays = [a for a in legal if a["kind"] == "play" and not a.get("more")]
        if not plays:
            return None
        forms = [a for a in plays if a["card"] == plays[0]["card"]]
        said = [a for a in forms if a.get("uno")] or forms
        return self._recolour(view, legal, said[0], rng) if "colour" in said[0] else said[0]

    def _recolour(self, view: dict[str, Any], legal: list[Action], chosen: Action,
                  rng: random.Random) -> Action:
        """The same play naming the counted colour instead, when that form is legal."""
        rest = [c for c in view["table"]["hand"] if c["id"] != chosen.get("card")]
        colour = self.colour(view, rest, rng)
        same = {k: v for k, v in chosen.items() if k != "colour"}
        for a in legal:
            if a.get("colour") == colour and {k: v for k, v in a.items() if k != "colour"} == same:
                return a
        return chosen


def _only(view: dict[str, Any], legal: list[Action], **table: Any) -> dict[str, Any]:
    """The view with its legal actions narrowed to ``legal`` and ``table``'s keys replaced (a shallow
    copy: views are shared by the room's publish)."""
    return {**view, "table": {**view["table"], "legal": legal, **table}}
