"""No hints (RULES.md §7.11 HR-32) in a room: the engine plays it (tests/engine/test_house_information.py),
but the browser's table builds every move from the legal actions HR-32 leaves out of people's
frames, so a room refuses it — by name, and the presets that set it with it (HR-34)."""

from __future__ import annotations

import httpx

from tests.live import LiveServer


def test_a_room_refuses_no_hints_by_name_until_its_table_can_play_it__HR_32(server: LiveServer) -> None:
    for rules in ({"no_hints": True}, {"preset": "strict"}):
        r = httpx.post(f"{server.http}/api/rooms", json={"variant": "classic", "max_seats": 2, "house_rules": rules})
        assert r.status_code == 422, r.text
        detail = r.json()["detail"]
        assert detail["code"] == "bad_house_rules" and "no_hints" in detail["message"], detail
    schema = httpx.get(f"{server.http}/api/house-rules").json()
    options = {o["key"]: o for family in schema["families"] for o in family["options"]}
    assert options["no_hints"]["available"] is False
    assert next(p for p in schema["presets"] if p["key"] == "strict")["available"] is False
    # At its default it changes nothing and is accepted (D-1).
    r = httpx.post(f"{server.http}/api/rooms", json={"variant": "classic", "max_seats": 2,
                                                    "house_rules": {"no_hints": False}})
    assert r.status_code == 201, r.text
