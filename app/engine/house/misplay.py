"""The misplay penalty (RULES.md §7.6 HR-20), with D-7 and HX-4.

Under ``misplay_penalty`` a ``play`` on one's own ``turn`` decision, or a ``play_drawn`` on one's
``drawn`` decision, of a card in hand that the engine would refuse as ``card_not_playable`` or
``finish_restricted`` is not refused: it is a misplay.  A public ``misplay`` event shows the
card, which stays in hand; the seat draws 1 (C-8: what is there); the decision stays pending.
Any other refusal costs nothing (D-7): a lost jump-in, an answer, ``not_your_turn``.  A misplay
is not a turn action (HX-4): it closes no catch window, though the draw ends its own holder's
exposure.  Hook: ``Rulebook.misplay`` (``MisplayPenalty``), which ``Round.apply`` asks before it raises a
refusal.

Its option, HR-20 ``misplay_penalty``, is declared with §7.6's in ``calls.py`` (``UnoOptions``).
"""

from __future__ import annotations

from ..actions import PLAY, PLAY_DRAWN, Action
from ..errors import IllegalAction, Refusal
from ..pending import DRAWN, TURN
from ..rulebook import Misplay, Rulebook
from ..state import RoundState
from .calls import UnoOptions
from .declare import played_by

OPTIONS: tuple[str, ...] = played_by(UnoOptions, "misplay")  # declared in calls.py
PENALISED = frozenset({Refusal.CARD_NOT_PLAYABLE, Refusal.FINISH_RESTRICTED})


def is_misplay(rnd: RoundState, seat: int, action: Action, refused: IllegalAction) -> bool:
    p = rnd.pending
    return (not action.more and refused.code in PENALISED  # a batch: never (HR-8)
            and p is not None and p.seat == seat
            and ((action.kind == PLAY and p.kind == TURN) or (action.kind == PLAY_DRAWN and p.kind == DRAWN))
            and action.card in rnd.hands[seat])


def misplay(rnd: RoundState, seat: int, action: Action) -> None:
    assert action.card is not None
    rnd.emit("misplay", {"seat": seat, "cards": [rnd.card_json(action.card)]})
    rnd.draw(seat, 1, "misplay")


class MisplayPenalty(Misplay):
    def applies(self, rnd: RoundState, seat: int, action: Action, refused: IllegalAction) -> bool:
        return is_misplay(rnd, seat, action, refused)

    def penalise(self, rnd: RoundState, seat: int, action: Action) -> None:
        misplay(rnd, seat, action)


def plug(book: Rulebook, house: UnoOptions) -> None:
    """The family's hook: ``Rulebook.misplay`` under ``misplay_penalty``."""
    if house.misplay_penalty:
        book.misplay = MisplayPenalty()
