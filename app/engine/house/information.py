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
  unplayable card (``offers_drawn``): then only ``keep`` is legal (``legality.py``), and
  ``play_drawn`` is refused ``card_not_playable``.

- HR-33 (``blind_draw``): a card drawn on a turn or as a penalty — a Draw card's T, a challenge,
  a catch, a bomb, a misplay, an item (HX-9), a first card (HX-6) — comes in face down, seen by
  no one, its holder included; AW-6's special draw and the dip's draw come in face up (HX-11).
  The record is ``face_down.py``'s (``RoundState.face_down``); the draw's private ``drew`` event
  then goes to no one (the export still shows it).  A face-down card cannot be played, passed,
  answered or deflected with, jumped in with (HX-12) or batched: ``legal_actions`` never offers
  it and ``legality.py`` refuses it ``card_face_down`` (never a misplay, HR-20).  It counts for
  the hand's size, UNO! and scoring; not for forced play (HR-10, ``face_up``) nor for a
  challenge's guilt (CL-5, MK-4, PP-5, D-4), and a challenger sees it face down, by count only
  (D-5, ``variants/challenge.shown``).  A draw on a turn then ends the turn, with no ``drawn`` decision
  (HX-2, ``offers_drawn``); draw-until-playable still stops at a playable card.
  The cards turn up (``settle``, after every turn action, the deal, and ``drawing.pass_stuck``)
  for a seat that comes to owe a ``turn``, ``stack`` or ``challenge`` — with the private
  ``turned_up`` event, which names them — and when they change hands, for the new holder (a
  Forced Swap, HX-10; Seven-O's swaps and passes, HX-13); all at round end.  A card drawn while
  its seat's own decision stays pending (HR-20's misplay draw, a catch) stays face down for the
  rest of that decision (D-13).  A seat's view lists its face-up cards in ``hand`` and the count
  of the others in ``face_down``; an open hand (HR-31) shows them to all as face-down cards, by
  count, never their faces (D-13).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..pending import CHALLENGE, STACK, TURN
from ..state import RoundState
from .options import options_of

OPTIONS: tuple[str, ...] = options_of("information")  # declared in options.py
# HR-33: the decisions that turn their seat's face-down cards up.
TURNS_UP = frozenset({TURN, STACK, CHALLENGE})


def is_open(rnd: RoundState, seat: int) -> bool:
    """Is ``seat``'s hand face up for all (HR-31)?"""
    limit = rnd.house.reveal_hands_at
    return limit is not None and 1 <= len(rnd.hands[seat]) <= limit


def open_hands(rnd: RoundState) -> dict[int, list[int]]:
    """The open hands (HR-31), by seat — none unless ``reveal_hands_at`` is on — each with the
    cards face up for all: its face-down ones (HR-33) are not, its holder's eyes included (D-13)."""
    if rnd.house.reveal_hands_at is None:
        return {}
    return {seat: list(face_up(rnd, seat)) for seat in range(len(rnd.hands)) if is_open(rnd, seat)}


def offers_drawn(rnd: RoundState, card: int) -> bool:
    """After a draw on a turn: does the seat owe a ``drawn`` decision on ``card``?  (C-6: when it
    is playable; HR-32: always; HR-33: never, HX-2 — the draw ends the turn.)"""
    return not rnd.house.blind_draw and (rnd.house.no_hints or rnd.playable(card))


def hintless(game: dict[str, Any]) -> dict[str, Any]:
    """A seat's view without its legal actions (HR-32): a shallow copy, the view itself unchanged."""
    table = game.get("table")
    if not isinstance(table, dict) or "legal" not in table:
        return game
    return {**game, "table": {k: v for k, v in table.items() if k != "legal"}}


def face_up(rnd: RoundState, seat: int) -> Sequence[int]:
    """``seat``'s cards but the face-down ones (HR-33): what it may play, pass or answer with."""
    down = rnd.face_down.by_seat[seat]
    hand = rnd.hands[seat]
    return [c for c in hand if c not in down] if down else hand


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
