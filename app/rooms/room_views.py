"""What each seat (and a spectator) is shown: the views the publish builds and diffs.

A view is the engine's view of the match for that seat, the room around it (its options and
status, the players, the chat, the logs, the round's summary) and the seat's private log.  What
all seats see is built once and shared between them (views are read-only).  The parts of views
are kept (the room's ``ViewParts``, ``RoomState.parts``) while they are unchanged, so the
differ passes them by identity; published entries are never mutated, only replaced, for the
same reason (room_state.py).  The publish (``Streams.publish``) builds every present seat's game
view once per change and hands them on to the bots (``bot_moves.py``).
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any

from app.engine import views
from app.engine.audit import commitment
from app.engine.house.information import hintless
from app.engine.view_parts import ViewParts

from .room_state import BETWEEN, OVER, RoomState

PROTOCOL_VERSION = 1


def room_info(st: RoomState) -> dict[str, Any]:
    key = (st.name, st.edition, st.public, st.max_seats, st.target, st.status, st.host,
           len(st.players), st.match_no, st.match_id, st.next_round_at, st.house, st.turn_seconds,
           st.turn_deadline, st.away_grace_seconds, st.match.round_no if st.match else None,
           st.spectator_chat, st.spectator_delay, st.watchers, st.rematch_at, st.blitz_deadline,
           st.screens)
    return st.parts.get("room", key, functools.partial(_room_info, st))


def _room_info(st: RoomState) -> dict[str, Any]:
    return {
        "code": st.code,
        "name": st.name,
        "edition": st.edition,
        "public": st.public,
        "max_seats": st.max_seats,
        "target": st.target,
        "status": st.status,
        "host": st.host if st.players else None,
        "match": st.match_no,
        "match_id": st.match_id,
        "next_round_at": st.next_round_at,
        "rematch_at": st.rematch_at,
        "house_rules": st.house.to_json(),
        "turn_seconds": st.turn_seconds,
        "turn_deadline": st.turn_deadline,
        "blitz_deadline": st.blitz_deadline,
        "away_grace_seconds": st.away_grace_seconds,
        "spectator_chat": st.spectator_chat,
        "spectator_delay": st.spectator_delay,
        "watchers": st.watchers,
        "screens": st.screens,  # big screens showing the table (D-14): seats' pages become controllers
        # The SHA-256 of the secret the current (or last) round was dealt from: published with
        # the deal, so the deck cannot be chosen afterwards; the secret comes with the summary.
        "commitment": commitment(st.match.round_secret(st.match.round_no)) if st.match else None,
    }


def round_summary(st: RoomState) -> dict[str, Any] | None:
    """Between rounds: the round just scored; at the end: the final table too."""
    m = st.match
    if m is None or not m.history or st.status not in (BETWEEN, OVER):
        return None
    last = m.history[-1]
    standings = m.standings()  # best first: highest total, or lowest under penalty scoring (HR-23)
    return {
        "round": last.number,
        "winner": last.winner,
        "points": last.points,  # what the round credited (HR-27: its winner's team)
        "gained": list(last.gained),  # what each seat's own total gained from it
        "cards_left": list(last.cards_left),
        "secret": m.round_secret(last.number),  # revealed: the round is over
        "scores": list(m.scores),
        "final": st.status == OVER,
        "match_winner": m.winner,
        "table": [{"seat": s, "name": st.name_of(s), "score": m.scores[s]} for s in standings],
    }


def view_for(st: RoomState, seat: int | None) -> dict[str, Any]:
    """Everything ``seat`` (None: a spectator) may see; the thing the server diffs."""
    return seat_views(st, (seat,))[seat]


def seat_views(st: RoomState, seats: Iterable[int | None], parts: ViewParts | None = None,
          games: Mapping[int | None, Any] | None = None) -> dict[int | None, dict[str, Any]]:
    """Several seats' views at once.  What they all see is built once and shared between them
    (views are read-only), so it costs one build, and the differ can compare it once.
    ``parts``: where unchanged parts are kept (the room's own unless given: a fresh one builds
    everything anew, as the tests do to check the kept parts).  ``games``: the seats' game
    views, when the caller built them already (``game_views``, for more seats than these)."""
    seats = tuple(seats)
    parts = parts or st.parts
    if games is None:
        games = game_views(st, seats, parts)
    room = room_info(st)
    seated = tuple((p.seat, p.name, p.connected, p.ready, p.bot, p.auto, p.level) for p in st.players)
    players = parts.get("players", (st.host, seated), lambda: [
        {"seat": seat, "name": name, "connected": connected, "host": seat == st.host,
         "ready": ready, "bot": bot, "auto": auto, "level": level}
        for seat, name, connected, ready, bot, auto, level in seated
    ])
    # Each list is kept while its own entries are unchanged (not the room's every change):
    # a seat's private log or the chat stays the same object through the moves of others.
    chat = parts.get("chat", _span(st.chat), lambda: list(st.chat))
    reactions = parts.get("reactions", _span(st.reactions), lambda: list(st.reactions))
    log = parts.get("log", (_span(st.log), st.replaced), lambda: list(st.log))
    summary = round_summary(st)
    out: dict[int | None, dict[str, Any]] = {}
    for seat in seats:
        game = games[seat]
        if st.house.no_hints and seat is not None and game is not None:
            # HR-32: people are not told their legal actions (bots and the clock still are: game_views).
            game = parts.get(("hintless", seat), id(game), functools.partial(hintless, game), owner=game)
        one: dict[str, Any] = {"protocol": PROTOCOL_VERSION, "room": room, "you": seat, "players": players,
                               "chat": chat, "reactions": reactions, "log": log, "game": game,
                               "summary": summary}
        if seat is not None:
            box: Iterable[dict[str, Any]] = st.private.get(seat, ())
            one["private"] = parts.get(("private", seat), _span(box), functools.partial(list, box), owner=box)
        out[seat] = one
    return out


def game_views(st: RoomState, seats: Iterable[int | None],
               parts: ViewParts | None = None) -> dict[int | None, Any]:
    """The match as each of ``seats`` sees it (None: no match yet).  Built at once for every seat
    that is connected or played by a bot, and a spectator, and only when the match has changed:
    every action is logged and each round numbered, so (round, actions, phase) names the
    match's state.  The publish builds them once per change and hands the bots theirs
    (``Streams.publish``, ``bot_moves.py``), and a game that did not change passes the differ
    by identity.  A seat away costs nothing."""
    seats = tuple(seats)
    m = st.match
    if m is None:
        return dict.fromkeys(seats)
    parts = parts or st.parts
    key = (m.round_no, len(m.log), m.phase)
    present = tuple(p.seat for p in st.players if p.connected or p.auto)
    built = parts.get("games", key, lambda: views(m, (*present, None), parts), owner=m)
    missing = [s for s in seats if s not in built]
    if missing:  # a seat away, or one the match does not have (joined after it ended)
        built.update(views(m, missing, parts))
    return {s: built[s] for s in seats}


def _span(entries: Iterable[dict[str, Any]]) -> tuple[int, ...]:
    """What a log, the chat or a private log holds, in a key: entries are numbered in the order
    they are made and only appended (or dropped from the front), so the numbers of the first
    and the last name them all."""
    held = entries if isinstance(entries, deque) else deque(entries)
    return (len(held), held[0]["n"], held[-1]["n"]) if held else (0,)
