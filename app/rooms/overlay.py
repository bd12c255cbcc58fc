"""Patches for every seat from one diff of what everyone sees, and a small one of each seat's own keys.

A seat's view is the spectators' view (the public one) with the seat's own keys laid over it
at three levels (``room_views.seat_views``, the engine's ``views``): ``you`` and ``private`` at the
top, ``seat`` in ``game``, and in ``game.table`` its ``hand``, ``face_down``, ``legal``,
``drawn`` and ``revealed``.  Every other key of a seat's view holds the very object the public
view holds.  So the public view's ops are every seat's ops for those keys: they are found once
per change (``Shared``), and each seat diffs only its own keys (``seat_patch``) — a few lookups,
where diffing its whole view walked the three levels of dicts its own keys sit in, for every
seat (that walk was two fifths of a move's cost in ``bench/actor.py``).

The ops come in exactly the order ``make_patch`` of the seat's whole view gives them: it walks
a dict's removed keys first, then its keys in order, and the seat's own keys have fixed places
among the public ones (``_rank``); the tests hold every frame to ``make_patch``.  A change that
replaces ``game`` or its ``table`` whole (a match starts) is no overlay: every seat is then
diffed whole, as is a seat whose last view was not built by the publish before this one.
"""

from __future__ import annotations

from typing import Any

from .diff import diff_at, make_patch
from .frames import dumps

TABLE_OWN = ("hand", "face_down", "legal", "drawn", "revealed")  # in the order the engine adds them
_ABSENT = object()
# Where each kind of op stands in make_patch's walk of a seat's view (top keys: protocol, room, you,
# players, chat, reactions, log, game, summary, private; in game: the match's keys, table, seat).
_TOP, _YOU, _BEFORE_TABLE, _OWN_REMOVED, _TABLE, _OWN_TABLE, _SEAT, _AFTER_GAME, _PRIVATE = range(9)
_WHOLE = frozenset({"", "/game", "/game/table"})  # containers of a seat's own keys


def _rank(op: dict[str, Any]) -> int:
    """Where a public op stands among the seat's own ones."""
    path: str = op["path"]
    if path.startswith("/game/table/"):
        # A key of the table removed: make_patch lists a dict's removals before its changes.
        return _BEFORE_TABLE if op["op"] == "remove" and path.count("/") == 3 else _TABLE
    if path.startswith("/game/"):
        return _BEFORE_TABLE  # the match's keys come before the table in ``game``
    top = path[1:].split("/", 1)[0]
    if top in ("protocol", "room"):
        return _TOP
    return _AFTER_GAME if top == "summary" else _BEFORE_TABLE


class Shared:
    """One change's public ops, split where a seat's own ops go between them."""

    __slots__ = ("_text", "ops", "parts", "whole")

    def __init__(self, before: dict[str, Any], after: dict[str, Any]) -> None:
        self.ops = ops = make_patch(before, after)  # the public view's own patch: a spectator's
        self._text: str | None = None
        self.whole = any(op["path"] in _WHOLE for op in ops)
        self.parts: list[list[dict[str, Any]]] = [[] for _ in range(_PRIVATE + 1)]
        for op in ops:
            self.parts[_rank(op)].append(op)

    def text(self) -> str:
        """``ops`` as JSON, encoded once for every seat sent just them and for the spectators."""
        if self._text is None:
            self._text = dumps(self.ops)
        return self._text


def seat_patch(shared: Shared, before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    """``make_patch(before, after)`` for a seat whose ``before`` overlays the public view ``shared``
    started from, and whose ``after`` overlays the one it ends at: ``shared.ops`` itself when
    nothing of the seat's own changed, so that it is serialised once for all such seats."""
    parts = shared.parts
    own: list[list[dict[str, Any]]] = [parts[0], [], parts[2], [], parts[4], [], [], parts[7], []]
    # Each key is looked up and compared by identity here, and a call made only for what differs:
    # most of a seat's own keys are the same objects, or absent from both views, at most moves.
    a, b = before.get("you", _ABSENT), after.get("you", _ABSENT)
    if a is not b:
        _key(a, b, "/you", own[_YOU], own[_YOU])
    game_a, game_b = before.get("game"), after.get("game")
    if game_a is not None and game_b is not None:
        table_a, table_b = game_a["table"], game_b["table"]
        if table_a is not table_b:
            removed, changed = own[_OWN_REMOVED], own[_OWN_TABLE]
            for k in TABLE_OWN:
                a, b = table_a.get(k, _ABSENT), table_b.get(k, _ABSENT)
                if a is not b:
                    _key(a, b, f"/game/table/{k}", removed, changed)
        a, b = game_a.get("seat", _ABSENT), game_b.get("seat", _ABSENT)
        if a is not b:
            _key(a, b, "/game/seat", own[_SEAT], own[_SEAT])
    a, b = before.get("private", _ABSENT), after.get("private", _ABSENT)
    if a is not b:
        _key(a, b, "/private", own[_PRIVATE], own[_PRIVATE])
    if not (own[_YOU] or own[_OWN_REMOVED] or own[_OWN_TABLE] or own[_SEAT] or own[_PRIVATE]):
        return shared.ops  # nothing of its own changed (most seats at most moves): the same list
    return [op for part in own for op in part]


def _key(a: Any, b: Any, path: str, removed: list[dict[str, Any]], changed: list[dict[str, Any]]) -> None:
    if b is _ABSENT:
        removed.append({"op": "remove", "path": path})
    elif a is _ABSENT:
        changed.append({"op": "add", "path": path, "value": b})
    elif type(a) is not type(b) or a != b:  # equal content (a hand rebuilt as it was) is compared in C
        diff_at(a, b, path, changed)
