"""A seat's patch from the public view's ops and its own keys (app/rooms/overlay.py), against
``make_patch`` of the seat's whole view: the same ops in the same order, in the shapes that
decide the order — a key of the table removed with one of the seat's own (make_patch lists a
dict's removals first), the seat's number changing between the room and the players, a seat
the match does not have, and a match that starts (no overlay: diffed whole)."""

from __future__ import annotations

from typing import Any

from app.rooms.diff import make_patch
from app.rooms.overlay import Shared, seat_patch

RED5 = {"id": 1, "name": "red 5"}
BLUE7 = {"id": 2, "name": "blue 7"}


def public(game: dict[str, Any] | None, **top: Any) -> dict[str, Any]:
    view = {"protocol": 1, "room": {"code": "ABCD", "status": "playing"}, "you": None,
            "players": [{"seat": 0}, {"seat": 1}], "chat": [], "reactions": [], "log": [{"n": 1}],
            "game": game, "summary": None}
    view.update(top)
    return view


def table(**keys: Any) -> dict[str, Any]:
    return {"current": 0, "top": RED5, "hand_sizes": [2, 3], "pending": {"kind": "turn", "seat": 0}, **keys}


def game(tbl: dict[str, Any], **keys: Any) -> dict[str, Any]:
    return {"edition": "classic", "scores": [0, 0], **keys, "table": tbl}


def seat_view(pub: dict[str, Any], seat: int, own: dict[str, Any] | None, private: list[Any],
              you: int | None = None) -> dict[str, Any]:
    """The seat's view as room_views.seat_views builds it: the public one with its own keys laid over it."""
    view = dict(pub)
    view["you"] = seat if you is None else you
    if pub["game"] is not None:
        g = dict(pub["game"])
        if own is not None:
            g["table"] = {**pub["game"]["table"], **own}
        g["seat"] = seat
        view["game"] = g
    view["private"] = private
    return view


def check(pub_a: dict[str, Any], pub_b: dict[str, Any], a: dict[str, Any], b: dict[str, Any]) -> list[Any]:
    shared = Shared(pub_a, pub_b)
    assert not shared.whole
    assert shared.ops == make_patch(pub_a, pub_b)
    ops = seat_patch(shared, a, b)
    assert ops == make_patch(a, b)
    return ops


def test_removals_of_the_table_and_the_seat_come_first_in_make_patchs_order__C_16() -> None:
    pub_a = public(game(table(result={"winner": 1})))
    pub_b = public(game(table(current=1, hand_sizes=[1, 3])), log=[{"n": 1}, {"n": 2}])
    a = seat_view(pub_a, 0, {"hand": [RED5, BLUE7], "legal": [{"kind": "draw"}], "drawn": BLUE7}, [{"n": 1}])
    b = seat_view(pub_b, 0, {"hand": [RED5], "legal": []}, [{"n": 1}, {"n": 2}])
    ops = check(pub_a, pub_b, a, b)
    paths = [op["path"] for op in ops]
    assert paths.index("/game/table/result") < paths.index("/game/table/drawn") < paths.index("/game/table/current")
    assert paths[-1].startswith("/private")


def test_a_renumbered_seat_and_a_seat_outside_the_match__C_16() -> None:
    pub_a = public(game(table()))
    pub_b = public(game(table(current=1), scores=[10, 0]), room={"code": "ABCD", "status": "between"},
                   players=[{"seat": 0}])
    a = seat_view(pub_a, 1, {"hand": [BLUE7], "legal": []}, [], you=1)
    b = seat_view(pub_b, 0, {"hand": [BLUE7], "legal": [{"kind": "catch", "target": 1}]}, [], you=0)
    check(pub_a, pub_b, a, b)
    late_a = seat_view(pub_a, 2, None, [])  # joined after the deal: the table is the public one
    late_b = seat_view(pub_b, 2, None, [{"n": 3}])
    check(pub_a, pub_b, late_a, late_b)


def test_a_match_that_starts_is_no_overlay__C_16() -> None:
    pub_a = public(None)
    pub_b = public(game(table()))
    assert Shared(pub_a, pub_b).whole
