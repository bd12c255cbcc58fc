"""The stacking family (RULES.md §6.1, §7.1): §6's ``stacking`` with HR-1 one kind only,
HR-2 cross-stack, HR-3 Reverse deflects, HR-4 Skip deflects and HR-5 revenge; and HR-21 no
challenges, which decides whether a big Draw opens a challenge.

Each edition names its small and big Draw, its Skip and its Reverse (``PenaltyCards``, the
table of §7, in the core's ``penalty_cards.py``).  With any of these options on, those four
faces get the effects below in the edition's rule table, and the table carries the family
itself (``RuleTable.stacking``), whose ``answers`` / ``answering`` say which cards answer a
pending penalty T — the only two places the family touches the engine.  Hook: the rule table
itself (``Rulebook.table``, built by ``table.py``, its ``rule_table``), whose ``stacking`` is
this family's ``PenaltyAnswers``.

- A Draw card puts T on the next seat.  That seat owes ``stack`` whenever the options allow
  any answer to T's kind, whatever it holds; under a challengeable big Draw it owes
  ``challenge`` plus the answers, and answering forfeits the challenge (HX-3).
- An answer: the same kind needs no colour match (D-13); ``up`` lets a big Draw answer a
  small one, ``both`` also a small Draw of the current colour answer a big one (HR-2); a
  Reverse or Skip of the current colour deflects T to another seat unchanged (HR-3, HR-4,
  D-10).  All Wild has no colours, so "of the current colour" lapses (HX-10).
- A big Draw played as an answer is challengeable by the seat it hits, judged at its play
  (D-4: Pocket Pizza's PP-5 asks whether its player held another *answer*); a deflected one
  never is.  HR-5 counts an answering Draw card twice.
- A last-card answer or deflection passes the whole T on, drawn with no answer (HX-5).

Nothing here acts on a first card or on a card an Item Box flips (HX-6, HX-9): those never
run a played card's effect.

HR-1 to HR-5 are declared here, as the fields of ``StackingOptions`` (``declare.py``), one of the
classes ``HouseRules`` is composed of (``options.py``).  The family plays two options declared
elsewhere, §6's ``stacking`` (``room.py``) and HR-21's ``no_challenge`` (``calls.py``), so what it
reads of a table's house rules is typed ``StackingReads``, which ``HouseRules`` is.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Protocol

from ..actions import Action
from ..card_rules import CardRule, Effect
from ..cards import Face
from ..penalty_cards import PenaltyCards
from ..pending import CHALLENGE, STACK, DrawKind, Pending
from ..state import RoundState
from ..variants.challenge import ask as ask_challenge
from .calls import UnoOptions
from .declare import Family, declared, defaults, played_by
from .room import RoomOptions

STACKING = Family("stacking")  # §7.1


@declared
@dataclass(frozen=True)
class StackingOptions:
    """The family's options (their declarations: ``declare.py``); ``HouseRules`` is composed of them."""

    stack_only: str = STACKING.choice("off", "small", "big", rules=("HR-1",), needs=("stacking",),
                                      conflicts=("cross_stack",))
    cross_stack: str = STACKING.choice("off", "up", "both", rules=("HR-2",), needs=("stacking",))
    reverse_deflect: str = STACKING.choice("off", "small", "all", rules=("HR-3",))
    skip_deflect: str = STACKING.choice("off", "small", "all", rules=("HR-4",))
    revenge: bool = STACKING.flag(rules=("HR-5",), needs=("stacking",))


class StackingReads(Protocol):
    """What the family reads of a table's house rules: the options it plays, §6's ``stacking``, its own
    and HR-21's ``no_challenge``.  No class but ``HouseRules`` holds all three families' options, and
    ``HouseRules`` sits above this module (it is composed of ``StackingOptions``): so a protocol."""

    @property
    def stacking(self) -> bool: ...
    @property
    def stack_only(self) -> str: ...
    @property
    def cross_stack(self) -> str: ...
    @property
    def reverse_deflect(self) -> str: ...
    @property
    def skip_deflect(self) -> str: ...
    @property
    def revenge(self) -> bool: ...
    @property
    def no_challenge(self) -> bool: ...


SMALL, BIG = DrawKind.SMALL, DrawKind.BIG
# The options that change what this family's cards do (the rule table is built per combination), from
# the classes that declare them, in the order of ``HouseRules``' fields; and where each is off (D-1).
_DECLARING = (RoomOptions, StackingOptions, UnoOptions)
OPTIONS: tuple[str, ...] = tuple(name for cls in _DECLARING for name in played_by(cls, "stacking"))
OFF: dict[str, object] = {name: default for cls in _DECLARING for name, default in defaults(cls).items()
                          if name in OPTIONS}


@dataclass(frozen=True)
class Stacking:
    """What the house rules let answer a pending penalty of each kind, and the effects that follow."""

    cards: PenaltyCards
    same: frozenset[DrawKind]  # kinds a Draw card of the same kind answers (stacking, HR-1)
    big_on_small: bool  # HR-2 up
    small_on_big: bool  # HR-2 both
    reverse: frozenset[DrawKind]  # HR-3
    skip: frozenset[DrawKind]  # HR-4
    revenge: bool  # HR-5
    challenges: bool  # not HR-21, and the edition challenges its big Draw
    # (kind, colour to match) -> the card ids that answer: ``answering``, built as first asked.
    _answering: dict[tuple[DrawKind, str | None], frozenset[int]] = field(
        default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, cards: PenaltyCards, house: StackingReads) -> Stacking | None:
        """The family under ``house``, or None when none of its options is on (§1-5 apply)."""
        if not any(getattr(house, name) != OFF[name] for name in OPTIONS):
            return None
        if not house.stacking:
            same: frozenset[DrawKind] = frozenset()
        elif house.stack_only == "off":
            same = frozenset({SMALL, BIG})
        else:  # HR-1: only the named kind takes an answer of its own kind
            same = frozenset({DrawKind(house.stack_only)})
        covered = {"off": frozenset(), "small": frozenset({SMALL}), "all": frozenset({SMALL, BIG})}
        return cls(cards, same, house.cross_stack in ("up", "both"), house.cross_stack == "both",
                   covered[house.reverse_deflect], covered[house.skip_deflect], house.revenge,
                   cards.big_guilt is not None and not house.no_challenge)

    # ------------------------------------------------------------------ answers

    def open_to(self, kind: DrawKind) -> bool:
        """Does any option allow an answer to a penalty of this kind?  (Then its seat owes ``stack``.)"""
        return (kind in self.same or kind in self.reverse or kind in self.skip
                or (self.big_on_small if kind is SMALL else self.small_on_big))

    def answer(self, rnd: RoundState, card: int, kind: DrawKind, colour: str | None) -> bool:
        """Does ``card`` answer a penalty of ``kind`` while ``colour`` is the colour to match?"""
        c = self.cards
        ct = rnd.cards[card]
        face = ct.face
        in_colour = c.colourless or ct.colour == colour
        if face == c.small:
            return kind in self.same if kind is SMALL else self.small_on_big and in_colour
        if face == c.big:
            return kind in self.same if kind is BIG else self.big_on_small
        if face == c.reverse:
            return kind in self.reverse and in_colour
        if face == c.skip:
            return kind in self.skip and in_colour
        return False

    def answers(self, rnd: RoundState, card: int) -> bool:
        """Does ``card`` answer the penalty pending now?  (``card_rules.PenaltyAnswers``, as
        ``refusal`` asks it.)"""
        p = rnd.pending
        return p is not None and p.draw_kind is not None and self.answer(rnd, card, p.draw_kind, rnd.colour)

    def answering(self, rnd: RoundState) -> frozenset[int]:
        """Every card id that answers the penalty pending now (``answers`` of each card at once): it
        depends only on the penalty's kind and the colour to match, so each pair is judged once."""
        p = rnd.pending
        if p is None or p.draw_kind is None:
            return frozenset()
        key = (p.draw_kind, rnd.colour)
        found = self._answering.get(key)
        if found is None:
            found = self._answering[key] = frozenset(
                card for card in range(len(rnd.cards)) if self.answer(rnd, card, p.draw_kind, rnd.colour))
        return found

    # ------------------------------------------------------------------ effects

    def edit(self, rules: dict[Face, CardRule]) -> None:
        """Give the edition's Draw cards, Skip and Reverse this family's effects."""
        c = self.cards
        rules[c.small] = replace(rules[c.small], effect=self._draw(SMALL, c.small_count))
        rules[c.big] = replace(rules[c.big], effect=self._draw(BIG, c.big_count))
        if self.reverse:
            rules[c.reverse] = replace(rules[c.reverse],
                                       effect=self._deflect(rules[c.reverse].effect, flips=True))
        if self.skip:
            rules[c.skip] = replace(rules[c.skip], effect=self._deflect(rules[c.skip].effect, flips=False))

    def _draw(self, kind: DrawKind, count: int) -> Effect:
        def effect(rnd: RoundState, seat: int, card: int, action: Action, last: bool) -> None:
            p = answered(rnd, seat)
            # The opening Draw card counts once; an answering one twice under revenge (HR-5).
            total = count if p is None else p.penalty + count * (2 if self.revenge else 1)
            victim = rnd.next_seat(seat)
            if last:  # C-13, HX-5: the whole T is drawn, with no answer and no challenge
                rnd.draw(victim, total, "card")
            elif kind is BIG and self.challenges:
                ask_challenge(rnd, seat, victim, total, self._guilty(rnd, seat, p), kind)
            elif self.open_to(kind):
                rnd.ask(Pending(STACK, victim, penalty=total, draw_kind=kind))
            else:  # C-9: nothing may answer it
                rnd.draw(victim, total, "card")
                rnd.pass_turn(seat, skip_next=1)

        return effect

    def _guilty(self, rnd: RoundState, seat: int, answered_: Pending | None) -> bool:
        """Was the big Draw just played illegal?  Judged now, against the hand it was played from (HX-3, D-4),
        its face-down cards left out (D-5)."""
        guilt = self.cards.big_guilt
        assert guilt is not None
        if answered_ is not None and self.cards.guilty_if_other_answer:
            kind = answered_.draw_kind
            assert kind is not None
            return any(self.answer(rnd, c, kind, rnd.prev_colour) for c in rnd.face_up(seat))
        return guilt(rnd, rnd.face_up(seat), rnd.prev_colour, rnd.prev_top)

    def _deflect(self, base: Effect, *, flips: bool) -> Effect:
        """HR-3 (``flips``) / HR-4: played as an answer, the card moves T on unchanged; otherwise as usual."""

        def effect(rnd: RoundState, seat: int, card: int, action: Action, last: bool) -> None:
            p = answered(rnd, seat)
            if p is None:
                base(rnd, seat, card, action, last)
                return
            if flips:  # D-10: the direction flips first, then T goes on in the new one
                rnd.direction = -rnd.direction
                rnd.emit("reverse", {"direction": rnd.direction})
            victim = rnd.next_seat(seat)
            rnd.emit("deflect", {"seat": seat, "to": victim, "penalty": p.penalty})
            if last:  # HX-5
                rnd.draw(victim, p.penalty, "card")
            else:  # a deflected big Draw is never challenged (HX-3): the new seat accepts or answers
                rnd.ask(Pending(STACK, victim, penalty=p.penalty, draw_kind=p.draw_kind))

        return effect


def answered(rnd: RoundState, seat: int) -> Pending | None:
    """The penalty ``seat`` is answering with the card it plays now, if it is answering one."""
    p = rnd.pending
    if p is not None and p.seat == seat and p.kind in (STACK, CHALLENGE) and p.draw_kind is not None:
        return p
    return None

