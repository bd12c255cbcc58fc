"""The information family (RULES.md §7.11): HR-31 open hands, HR-32 no hints, HR-33 blind draw.

- HR-31 (``reveal_hands_at``): while a hand holds from 1 to that many cards, its cards are
  face up for every seat and spectator (``open_hands``, in the public part of every view,
  ``views.py``).  C-16 widens by this only (HX-15); spectators see it after their
  ``spectator_delay`` like everything else (D-6).  A face-down card (HR-33) inside an open hand
  shows to all, its holder included, as a face-down card — left out of ``open_hands``, counted in
  ``open_face_down`` — until it turns up; then it is shown like the rest of that hand (D-13).
  The sizes are judged as they are at each moment, after a swap or a pass too (HX-13).

- HR-32 (``no_hints``): frames to people carry no ``legal`` list and the room's ``why`` is
  refused ``no_hints`` (``app/rooms``: ``hintless`` below strips a seat's view); bots and the
  turn clock still decide on the engine's legal actions, from the full view.  So that the
  absence of a ``drawn`` decision tells nothing, every draw on a turn offers it, even for an
  unplayable card (``turns.draw``, by the ``no_hints`` hook): then only ``keep`` is legal
  (``legality.py``), and ``play_drawn`` is refused ``card_not_playable``.

- HR-33 (``blind_draw``): a card drawn on a turn or as a penalty — a Draw card's T, a challenge,
  a catch, a bomb, a misplay, an item (HX-9), a first card (HX-6) — comes in face down, seen by
  no one, its holder included; AW-6's special draw and the dip's draw come in face up (HX-11).
  The record is ``face_down.py``'s (``RoundState.face_down``); the draw's private ``drew`` event
  then goes to no one (the export still shows it).  A face-down card cannot be played, passed,
  answered or deflected with, jumped in with (HX-12) or batched: ``legal_actions`` never offers
  it and ``legality.py`` refuses it ``card_face_down`` (never a misplay, HR-20).  It counts for
  the hand's size, UNO! and scoring; not for forced play (HR-10, ``RoundState.face_up``) nor for a
  challenge's guilt (CL-5, MK-4, PP-5, D-4), and a challenger sees it face down, by count only
  (D-5, ``FaceDown.shown``).  A draw on a turn then ends the turn, with no ``drawn`` decision
  (HX-2, ``turns.draw``, by the ``blind_draw`` hook); draw-until-playable still stops at a playable card.
  The cards turn up (``settle``, after every turn action, the deal, and ``drawing.pass_stuck``)
  for a seat that comes to owe a ``turn``, ``stack`` or ``challenge`` — with the private
  ``turned_up`` event, which names them — and when they change hands, for the new holder (a
  Forced Swap, HX-10; Seven-O's swaps and passes, HX-13); all at round end.  A card drawn while
  its seat's own decision stays pending (HR-20's misplay draw, a catch) stays face down for the
  rest of that decision (D-13).  A seat's view lists its face-up cards in ``hand`` and the count
  of the others in ``face_down``; an open hand (HR-31) shows them to all as face-down cards, by
  count, never their faces (D-13).

Hooks (``plug``): ``Rulebook.open_hands`` (HR-31: ``RevealedHands``, asked by ``views.py``),
``Rulebook.no_hints`` (HR-32: ``turns.draw`` offers ``drawn`` for any card), ``Rulebook.blind_draw``
(HR-33: the round's ``face_down`` record is on, and ``turns.draw`` offers no ``drawn``) and
``Rulebook.settle`` (HR-33: ``Round.apply`` calls it after every turn action, and the deal).  The record
itself and what the core reads of it (``RoundState.face_up``, ``FaceDown.shown``) are the core's
(``face_down.py``, ``state.py``).

Its options are declared here, as the fields of ``InformationOptions`` (``declare.py``), one of
the classes ``HouseRules`` is composed of (``options.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..pending import CHALLENGE, STACK, TURN
from ..rulebook import OpenHands, Rulebook
from ..state import RoundState
from .declare import Family, declared, played_by

INFORMATION = Family("information")  # §7.11 (HR-33's face-down cards: the core's face_down.py)


@declared
@dataclass(frozen=True)
class InformationOptions:
    """The family's options (their declarations: ``declare.py``); ``HouseRules`` is composed of them."""

    reveal_hands_at: int | None = INFORMATION.choice(None, 1, 2, 3, rules=("HR-31",))
    no_hints: bool = INFORMATION.flag(rules=("HR-32",))
    blind_draw: bool = INFORMATION.flag(rules=("HR-33",), conflicts=("must_play_drawn",))


OPTIONS: tuple[str, ...] = played_by(InformationOptions, "information")
# HR-33: the decisions that turn their seat's face-down cards up.
TURNS_UP = frozenset({TURN, STACK, CHALLENGE})


class RevealedHands(OpenHands):
    """HR-31's hook (``Rulebook.open_hands``): the hands of 1 to ``limit`` cards are face up for all."""

    def __init__(self, limit: int) -> None:
        self.limit = limit

    def is_open(self, rnd: RoundState, seat: int) -> bool:
        return 1 <= len(rnd.hands[seat]) <= self.limit

    def hands(self, rnd: RoundState) -> dict[int, list[int]]:
        """The open hands, by seat, each with the cards face up for all: its face-down ones (HR-33) are
        not, its holder's eyes included (D-13)."""
        return {seat: list(rnd.face_up(seat)) for seat in range(len(rnd.hands)) if self.is_open(rnd, seat)}


def is_open(rnd: RoundState, seat: int) -> bool:
    """Is ``seat``'s hand face up for all (HR-31)?"""
    reveal = rnd.book.open_hands
    return reveal is not None and reveal.is_open(rnd, seat)


def hintless(game: dict[str, Any]) -> dict[str, Any]:
    """A seat's view without its legal actions (HR-32): a shallow copy, the view itself unchanged."""
    table = game.get("table")
    if not isinstance(table, dict) or "legal" not in table:
        return game
    return {**game, "table": {k: v for k, v in table.items() if k != "legal"}}



def settle(rnd: RoundState) -> None:
    """HR-33 after a turn action (or the deal): cards that changed hands are up for their new
    holder (HX-10, HX-13); the seat now owing ``turn``, ``stack`` or ``challenge`` sees its own;
    at round end every card is up."""
    record = rnd.face_down
    if not record.on:
        return
    for seat, down in enumerate(record.by_seat):
        if down:
            if rnd.winner is not None:
                down.clear()
            else:
                down.intersection_update(rnd.hands[seat])
    turn_up(rnd)


def turn_up(rnd: RoundState) -> None:
    """HR-33: the seat the pending decision waits for, if it owes a ``turn``, ``stack`` or
    ``challenge``, sees its face-down cards (told by the private ``turned_up`` event)."""
    p = rnd.pending
    if p is None or p.kind not in TURNS_UP:
        return
    down = rnd.face_down.by_seat[p.seat]
    if not down:
        return
    cards = [rnd.variant.card_json[c] for c in rnd.hands[p.seat] if c in down]
    down.clear()
    rnd.emit("turned_up", {"seat": p.seat, "cards": cards}, (p.seat,))


def plug(book: Rulebook, house: InformationOptions) -> None:
    """The family's hooks."""
    if house.reveal_hands_at is not None:
        book.open_hands = RevealedHands(house.reveal_hands_at)
    book.no_hints = house.no_hints
    if house.blind_draw:
        book.blind_draw = True
        book.settle = settle
