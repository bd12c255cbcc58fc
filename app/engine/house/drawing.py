"""Drawing and forced play (RULES.md §7.4): HR-10 forced play, HR-11 play what you draw, HR-12
hand limit and HR-13 dead round, with §6's draw-until-playable (HX-2, HX-14, D-13).

Hooks (``plug``): ``Rulebook.forced_play`` (HR-10), ``may_keep`` (HR-11), ``hand_limit`` and
``pass_stuck`` (HR-12, HR-13), and §6's ``draw_until_playable``.  ``legality.py`` and ``plays.py`` ask
whether a seat may draw on its turn and whether it may keep the card it drew; ``turns.draw`` stops
draw-until-playable at the limit; ``Round.apply`` (and the deal) calls ``pass_stuck``:

- HR-10: a seat owing ``turn`` that holds a playable card — any card the engine would accept
  now, an illegal big Draw included (only a challenge punishes it), a face-down one (HR-33) not —
  may not draw (``must_play``).  It draws only when holding nothing playable; draw-until-playable
  then runs as §6.1 (HX-2).
- HR-11: a playable card drawn on a turn (C-6, or the one that ends draw-until-playable) must
  be played: ``keep`` is refused ``must_play`` — except a big Draw that a challenge would find
  guilty (CL-5, MK-4, PP-5, judged now), which may be kept while big Draws are challenged (not
  under HR-21).  The edition's own challenge test decides (``Edition.guilty_now``).

- HR-12: a seat holding ``hand_limit`` cards or more may not draw on its turn (C-6,
  draw-until-playable, AW-6: refused ``hand_limit``); draw-until-playable stops at the limit
  (HX-2).  With a playable card it must play; with none its turn ends at once, undrawn, with no
  message from the seat (D-13): ``pass_stuck`` runs after every action and after the deal, and
  emits the public ``limit_pass`` event, as RULES.md names it (not ``passed``: that is Pocket
  Pizza's private Dip event, which carries a card).  Penalty draws ignore the limit.
  The pass is not a turn action (HX-4): it closes no catch window.
- HR-13: when every seat passes so in a row (nothing played or drawn between — the passes of
  one chain, since a seat that can act ends it), the round is void at once: the ``dead_round``
  event, no scores, not counted in ``rounds`` (HX-14); the next dealer deals anew (``match.py``).

All Wild refuses HR-10 and HR-11 (HX-1): every card there may always be played and nothing is
drawn on a turn.

Its options are declared here, as the fields of ``DrawingOptions`` (``declare.py``), one of the
classes ``HouseRules`` is composed of (``options.py``).  ``plug`` reads two more, §6's
``draw_until_playable`` (``room.py``) and HR-21's ``no_challenge`` (``calls.py``), so what it reads
of a table's house rules is typed ``DrawingReads``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..pending import TURN
from ..plays import at_limit
from ..rulebook import Rulebook
from ..state import RoundState
from .declare import ALL_WILD, Family, declared, played_by
from .information import turn_up

DRAWING = Family("drawing")  # §7.4


@declared
@dataclass(frozen=True)
class DrawingOptions:
    """The family's options (their declarations: ``declare.py``); ``HouseRules`` is composed of them."""

    forced_play: bool = DRAWING.flag(rules=("HR-10",), refused_by={ALL_WILD: True})
    must_play_drawn: bool = DRAWING.flag(rules=("HR-11",), refused_by={ALL_WILD: True})
    hand_limit: int | None = DRAWING.choice(None, 15, 20, 25, rules=("HR-12", "HR-13"))


class DrawingReads(Protocol):
    """What ``plug`` reads of a table's house rules: §6's ``draw_until_playable``, the family's own
    options and HR-21's ``no_challenge`` (a protocol: ``HouseRules``, which holds all three families'
    options, sits above this module)."""

    @property
    def draw_until_playable(self) -> bool: ...
    @property
    def forced_play(self) -> bool: ...
    @property
    def must_play_drawn(self) -> bool: ...
    @property
    def hand_limit(self) -> int | None: ...
    @property
    def no_challenge(self) -> bool: ...


OPTIONS: tuple[str, ...] = played_by(DrawingOptions, "drawing")


def may_keep(rnd: RoundState, seat: int, card: int) -> bool:
    """HR-11 (``must_play_drawn``): may ``seat`` keep the playable ``card`` it just drew?  Only a big Draw a
    challenge would find guilty, while big Draws are challenged."""
    return rnd.variant.guilty_now(rnd, seat, card)


def stuck(rnd: RoundState, seat: int) -> bool:
    """HR-12: at the limit with nothing playable, so its turn ends at once.  (A hand at the limit
    holds more than one card, so no last-card restriction, HR-15, can apply.)"""
    return at_limit(rnd, seat) and not any(rnd.playable(card) for card in rnd.face_up(seat))  # HR-33


def pass_stuck(rnd: RoundState) -> bool:
    """Pass every turn that HR-12 ends at once; True when all seats passed in a row (HR-13).

    A dead round leaves no decision pending (``pending`` None) and no winner."""
    passed: set[int] = set()
    while rnd.winner is None and (p := rnd.pending) is not None and p.kind == TURN and stuck(rnd, p.seat):
        rnd.emit("limit_pass", {"seat": p.seat, "limit": rnd.book.hand_limit})
        passed.add(p.seat)
        if len(passed) == rnd.n:
            rnd.pending = None
            rnd.exposed.clear()
            rnd.declared.clear()
            rnd.emit("dead_round", {"hand_sizes": [len(hand) for hand in rnd.hands]})
            return True
        rnd.pass_turn(p.seat)
        turn_up(rnd)  # HR-33: the seat passed to owes a turn
    return False


def never_keep(rnd: RoundState, seat: int, card: int) -> bool:
    """HR-11 under HR-21: no big Draw is challenged, so no playable card drawn may be kept."""
    return False


def plug(book: Rulebook, house: DrawingReads) -> None:
    """The family's hooks, with §6's draw-until-playable (whose stop at the limit is HR-12's)."""
    book.draw_until_playable = house.draw_until_playable
    book.forced_play = house.forced_play
    if house.must_play_drawn:
        book.may_keep = never_keep if house.no_challenge else may_keep
    if house.hand_limit is not None:
        book.hand_limit = house.hand_limit
        book.pass_stuck = pass_stuck
