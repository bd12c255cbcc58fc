"""An empty draw pile under the house rules (RULES.md HX-7): every §7 draw follows C-8 and skips,
without error, what is not there; an empty pile never ends a round."""

from __future__ import annotations

from app.engine import VARIANTS

from .scenario import act, drawn_by, play
from .test_house_stacking import house_match


def test_a_penalty_larger_than_the_piles_draws_what_there_is__HX_7() -> None:
    names = [c.name for c in VARIANTS["pocket_pizza"].cards]
    for taken in ("red draw1", "blue draw1", "red 9", "yellow 1", "yellow 2"):
        names.remove(taken)
    half = len(names) // 2
    # Every card is dealt but the first: nothing is left to draw.
    hands = [["red draw1", "yellow 1", *names[:half]], ["blue draw1", "yellow 2", *names[half:]]]
    m = house_match("pocket_pizza", hands, "red 9", stacking=True, revenge=True, uno_penalty=6)
    rnd = m.round
    assert rnd.draw_pile == []
    play(m, 0, "red draw1")
    play(m, 1, "blue draw1")  # T = 1 + 2 = 3 (HR-5) on seat 0
    events = act(m, 0, "accept")
    # C-8: the discard pile but its top card (the first card and the red Draw One) is all there is.
    assert drawn_by(events, 0) == 2 and rnd.draw_pile == [] and len(rnd.discard) == 1
    assert rnd.winner is None and rnd.pending is not None and rnd.pending.seat == 1
    before = len(rnd.hands[1])
    act(m, 1, "draw")  # nothing at all to draw: skipped, the turn passes on
    assert len(rnd.hands[1]) == before and rnd.winner is None and rnd.pending.seat == 0
