"""What one seat may see (C-16), as a plain JSON-able dict.

A seat sees its own hand and legal actions, the size of every hand, the top discard and
the colour to match, the draw pile's size, the direction, exposures, scores and the
round's outcome.  Another seat's cards appear only where a rule shows them: the
challenged hand to its challenger (CL-6, PP-6), a hand of few cards under HR-31 (to all:
``open_hands``, a seat's cards or null) and every hand once the round is scored.  Under HR-33
a seat's own face-down cards are left out of its ``hand``, counted in ``face_down`` (and in a
challenged hand it is shown, ``revealed.face_down``, D-5; in an open hand, for all, its holder
too, ``open_face_down``, D-13) until they turn up.
The spectator view (seat None) has no hand at all.  Views are read-only: card dicts, and
what ``views`` builds once for several seats, are shared between them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .card_shapes import card_shapes, penalty_answers, turn_draw
from .match import Match
from .pending import CHALLENGE, DRAWN, SHOWN_REASONS, SPECIAL, STACK, DrawKind, PendingKind, Reason
from .round import Round
from .view_parts import ViewParts

# Kinds and reasons as plain strings (a dict lookup is cheaper than an enum's ``.value``).
PLAIN: dict[str, str] = {m: m.value for m in (*PendingKind, *Reason, *DrawKind)}


def view(match: Match, seat: int | None) -> dict[str, Any]:
    return views(match, (seat,))[seat]


def views(match: Match, seats: Iterable[int | None],
          parts: ViewParts | None = None) -> dict[int | None, dict[str, Any]]:
    """The views of several seats at once: what all of them may see is built once and shared.

    With ``parts`` (kept by the caller between calls), the match's part that has not changed
    since the last call is the same object as then."""
    parts = parts or ViewParts()
    book = match.round.book  # the table's house rules, as hooks (every round of a match holds the same)

    def match_part() -> dict[str, Any]:
        part = {
            "edition": match.config.edition,
            "seats": match.config.seats,
            "target": match.target,
            "house_rules": parts.get("house_rules", book.key, book.options_json),
            # What a play of each face takes under them (a client offering moves without `legal`, HR-32).
            "card_rules": parts.get("card_rules", (match.config.edition, book.key),
                                    lambda: card_shapes(match.variant, book.table)),
            # How a turn's draw goes (AW-5, AW-6, HR-12) and what a card may answer (HX-3),
            # for the same client.
            "turn_draw": parts.get("turn_draw", (match.config.edition, book.key),
                                   lambda: turn_draw(match.variant, book)),
            "penalty_answers": parts.get("penalty_answers", (match.config.edition, book.key),
                                         lambda: penalty_answers(book.table)),
            "phase": match.phase,
            "round": match.round_no,
            "dealer": match.dealer,
            "scores": list(match.scores),
            "winner": match.winner,
            "history": [
                {"round": r.number, "winner": r.winner, "points": r.points, "cards_left": list(r.cards_left),
                 "gained": list(r.gained)}
                for r in match.history
            ],
        }
        teams = book.teams
        if teams is not None:  # HR-26, HR-27: who partners whom, and the totals the match ranks
            part["teams"] = teams.groups()
            part["team_scores"] = teams.side_totals(match.scores)
        if book.eliminate is not None:
            part["eliminated"] = list(match.out)  # HR-29, HR-30: in the order they went out
        return part

    # Rounds are only ever appended to the history, and scores (and eliminations) change with it.
    public = parts.get("match", (match.phase, match.round_no, match.dealer, tuple(match.scores), match.winner,
                                 match.target, len(match.history)), match_part, owner=match)
    table = public_table(match.round)
    out: dict[int | None, dict[str, Any]] = {}
    for seat in seats:
        one = dict(public)
        one["table"] = seat_table(match.round, table, seat, parts)
        if seat is not None:
            one["seat"] = seat
        out[seat] = one
    return out


def round_view(rnd: Round, seat: int | None) -> dict[str, Any]:
    return seat_table(rnd, public_table(rnd), seat)


def public_table(rnd: Round) -> dict[str, Any]:
    """What every seat (and a spectator) sees of the round."""
    cards = rnd.variant.card_json
    p = rnd.pending
    pending: dict[str, Any] | None = None
    if p is not None:
        # Plain strings, not the enums: views are compared by type and value (app/rooms/diff.py).
        pending = {"kind": PLAIN[p.kind], "seat": p.seat}
        if p.reason is not None and p.kind in SHOWN_REASONS:
            pending["reason"] = PLAIN[p.reason]
        if p.kind == CHALLENGE:
            pending["challenged"] = p.challenged
            pending["penalty"] = p.penalty
            # Everyone saw what the Wild Draw card covered: a challenger weighs their odds on it.
            pending["replaced_colour"] = rnd.prev_colour
        elif p.kind == STACK:
            pending["penalty"] = p.penalty  # the total piled up, taken by accepting (RULES.md 6.1)
        if p.draw_kind is not None:
            pending["draw_kind"] = PLAIN[p.draw_kind]  # small or big: what may answer it (RULES.md §7)
    out: dict[str, Any] = {
        "current": rnd.current,
        "direction": rnd.direction,
        "top": cards[rnd.discard[-1]],
        "colour": rnd.colour,
        "draw_pile": len(rnd.draw_pile),
        "discard_pile": len(rnd.discard),
        "hand_sizes": [len(h) for h in rnd.hands],
        "exposed": sorted(rnd.exposed),
        "declared": sorted(rnd.declared),
        # C-11: UNO! said on one's turn with two cards, before the play (announced to all in the log);
        # the client plays that seat's next card without asking about UNO! again.
        "predeclared": rnd.predeclared,
        "skips_owed": list(rnd.owed),
        "pending": pending,
        "winner": rnd.winner,
    }
    book = rnd.book
    if book.open_hands is not None:  # HR-31, HX-15: these hands are face up for all
        shown = book.open_hands.hands(rnd)
        out["open_hands"] = [[cards[c] for c in shown[s]] if s in shown else None for s in range(rnd.n)]
        if rnd.face_down.on:  # D-13: an open hand's face-down cards (HR-33) show to all as backs
            down = rnd.face_down.by_seat
            out["open_face_down"] = [len(down[s]) if s in shown else None for s in range(rnd.n)]
    if book.seat_order is not None and rnd.ring is not None:
        out["seat_order"] = list(rnd.ring)  # HR-28: this round's order of play (before any Reverse)
    if rnd.winner is not None:
        out["result"] = {
            "winner": rnd.winner,
            "points": rnd.points,
            "hands": [[cards[c] for c in hand] for hand in rnd.hands],
        }
    return out


def seat_table(rnd: Round, public: dict[str, Any], seat: int | None,
               parts: ViewParts | None = None) -> dict[str, Any]:
    """``public`` (shared, never copied deeply) plus what only ``seat`` may see.  With ``parts``, a
    seat's legal actions that did not change since the last build are the same list as then:
    most moves leave most seats' unchanged, and the differ passes them by identity (a list of
    fresh dicts it would compare deeply, for every seat)."""
    if seat is None or not 0 <= seat < rnd.n:
        return public
    cards = rnd.variant.card_json
    p = rnd.pending
    out = dict(public)
    record = rnd.face_down
    if record.on:  # HR-33: face-down cards are hidden from their holder too (HX-15), until they turn up
        down = record.by_seat[seat] if rnd.winner is None else frozenset()
        out["hand"] = [cards[c] for c in rnd.hands[seat] if c not in down]
        out["face_down"] = len(down)
    else:
        out["hand"] = [cards[c] for c in rnd.hands[seat]]
    legal = rnd.legal_actions(seat)
    offers = rnd.batch_offers(seat)  # HR-8: each group's batches as one entry, after the actions

    def listed() -> list[dict[str, Any]]:
        out = [a.to_json() for a in legal]
        out.extend(o.to_json() for o in offers)
        return out

    if parts is None:
        out["legal"] = listed()
    else:
        out["legal"] = parts.get(("legal", seat), (tuple(legal), tuple(offers)), listed, owner=rnd)
    if p is not None and p.seat == seat and p.kind in (DRAWN, SPECIAL) and p.card is not None:
        out["drawn"] = cards[p.card]
    if rnd.reveal is not None and rnd.reveal[0] == seat:
        out["revealed"] = {"seat": rnd.reveal[1], "cards": [cards[c] for c in rnd.reveal[2]]}
        if record.on:
            out["revealed"]["face_down"] = record.in_reveal  # D-5: shown face down, by count
    return out
