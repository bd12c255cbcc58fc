"""Drawing and forced play (RULES.md §7.4): HR-10 forced play and HR-11 play what you draw, with
§6's draw-until-playable (HX-2).

``legality.py`` asks this module whether a seat may draw on its turn and whether it may keep
the card it drew:

- HR-10: a seat owing ``turn`` that holds a playable card — any card the engine would accept
  now, an illegal big Draw included (only a challenge punishes it) — may not draw (``must_play``).
  It draws only when holding nothing playable; draw-until-playable then runs as §6.1 (HX-2).
- HR-11: a playable card drawn on a turn (C-6, or the one that ends draw-until-playable) must
  be played: ``keep`` is refused ``must_play`` — except a big Draw that a challenge would find
  guilty (CL-5, MK-4, PP-5, judged now), which may be kept while big Draws are challenged (not
  under HR-21).  The edition's own challenge test decides (``Edition.guilty_now``).

All Wild refuses both (HX-1): every card there may always be played and nothing is drawn on a turn.
"""

from __future__ import annotations

from ..state import RoundState

OPTIONS = ("forced_play", "must_play_drawn")


def may_draw(rnd: RoundState, holds_a_play: bool) -> bool:
    """HR-10: may the seat owing ``turn`` draw, given whether it holds a playable card?"""
    return not (holds_a_play and rnd.house.forced_play)


def may_keep(rnd: RoundState, seat: int, card: int) -> bool:
    """HR-11: may ``seat`` keep the playable ``card`` it just drew?"""
    house = rnd.house
    if not house.must_play_drawn:
        return True
    return not house.no_challenge and rnd.variant.guilty_now(rnd, seat, card)
