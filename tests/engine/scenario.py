"""Helpers to build stacked-deck scenarios and act in them by card name."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.engine import Action, Event, Layout, Match, MatchConfig, apply, legal_actions, new_match


def make(edition: str, hands: Sequence[Sequence[str]], top: str | None, draw: Sequence[str] = (), *,
         dealer: int | None = None, target: int | None = None, seed: int | str = 0) -> Match:
    """A match whose first round is dealt exactly as given.

    By default the dealer is the last seat, so seat 0 is the first player (C-4).
    """
    seats = len(hands)
    match, _ = new_match(MatchConfig(edition, seats, target), seed,
                         dealer=seats - 1 if dealer is None else dealer, layout=Layout(hands, top, draw))
    return match


def names(match: Match, seat: int) -> list[str]:
    rnd = match.round
    return [rnd.cards[c].name for c in rnd.hands[seat]]


def card(match: Match, seat: int, name: str) -> int:
    """The id of a card named ``name`` in ``seat``'s hand."""
    try:
        return match.card_id(name, seat)
    except KeyError:
        raise AssertionError(f"seat {seat} holds no {name!r}: {names(match, seat)}") from None


def top(match: Match) -> str:
    rnd = match.round
    return rnd.cards[rnd.discard[-1]].name


def play(match: Match, seat: int, name: str, colour: str | None = None, target: int | None = None,
         uno: bool = False) -> list[Event]:
    return apply(match, seat, Action("play", card(match, seat, name), colour, target, uno))


def act(match: Match, seat: int, kind: str, **fields: Any) -> list[Event]:
    return apply(match, seat, Action(kind, **fields))


def kinds(match: Match, seat: int) -> set[str]:
    return {a.kind for a in legal_actions(match, seat)}


def drawn_by(events: list[Event], seat: int) -> int:
    """How many cards ``seat`` drew in these events."""
    return sum(e.data["count"] for e in events if e.kind == "draw" and e.data["seat"] == seat)
