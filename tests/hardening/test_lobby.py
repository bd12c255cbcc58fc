"""``GET /api/rooms``: paginated, rebuilt at most once per ``lobby_cache_seconds``, rate-limited per address."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.config import Settings
from tests.live import LiveServer


def lobby_server(**values: Any) -> LiveServer:
    settings = Settings(_env_file=None, create_rooms_per_minute=10_000, joins_per_minute=10_000,  # type: ignore[call-arg]
                        **values)
    return LiveServer(settings).start()


@pytest.fixture(scope="module")
def cached() -> Iterator[LiveServer]:
    live = lobby_server(lobby_cache_seconds=60.0, room_lists_per_minute=10_000)
    yield live
    live.stop()


def test_the_list_comes_in_pages(cached: LiveServer) -> None:
    with httpx.Client(base_url=cached.http) as http:
        made = [http.post("/api/rooms", json={"variant": "classic", "max_seats": 2, "public": True}).json()["code"]
                for _ in range(7)]
        http.post("/api/rooms", json={"variant": "classic"})  # private by default: never listed
        first = http.get("/api/rooms", params={"limit": 3}).json()
        assert len(first["rooms"]) == 3 and first["total"] == 7
        assert (first["offset"], first["limit"], first["next_offset"]) == (0, 3, 3)
        seen = [r["code"] for r in first["rooms"]]
        offset = first["next_offset"]
        while offset is not None:
            page = http.get("/api/rooms", params={"limit": 3, "offset": offset}).json()
            seen += [r["code"] for r in page["rooms"]]
            offset = page["next_offset"]
        assert seen == made[::-1]  # newest first, each once
        whole = http.get("/api/rooms").json()
        assert whole["limit"] == 50 and whole["next_offset"] is None and len(whole["rooms"]) == 7
        assert http.get("/api/rooms", params={"limit": 10_000}).json()["limit"] == 100
        assert http.get("/api/rooms", params={"offset": 10**12}).json()["rooms"] == []
        for bad in ({"limit": 0}, {"offset": -1}, {"limit": "many"}):
            assert http.get("/api/rooms", params=bad).status_code == 422


def test_the_list_is_rebuilt_only_when_the_cache_runs_out(cached: LiveServer) -> None:
    with httpx.Client(base_url=cached.http) as http:
        code = http.post("/api/rooms", json={"variant": "classic", "max_seats": 3, "public": True}).json()["code"]
        listed = {r["code"]: r for r in http.get("/api/rooms").json()["rooms"]}
        assert listed[code]["seats_taken"] == 0
        assert http.post(f"/api/rooms/{code}/players", json={"name": "Ana"}).status_code == 201
        assert http.get(f"/api/rooms/{code}").json()["seats_taken"] == 1
        listed = {r["code"]: r for r in http.get("/api/rooms").json()["rooms"]}
        assert listed[code]["seats_taken"] == 0  # the list of a moment ago, not rebuilt
        # A new public room is listed at once: its creator is about to look for it.
        fresh = http.post("/api/rooms", json={"variant": "classic", "max_seats": 3, "public": True}).json()["code"]
        listed = {r["code"]: r for r in http.get("/api/rooms").json()["rooms"]}
        assert fresh in listed and listed[code]["seats_taken"] == 1


def test_listing_is_rate_limited_per_address() -> None:
    server = lobby_server(room_lists_per_minute=3)
    try:
        with httpx.Client(base_url=server.http) as http:
            assert [http.get("/api/rooms").status_code for _ in range(3)] == [200] * 3
            r = http.get("/api/rooms", params={"offset": 50})
            assert r.status_code == 429 and r.json()["detail"]["code"] == "rate_limited"
            assert "3 room lists a minute" in r.json()["detail"]["message"]
            assert 1 <= int(r.headers["retry-after"]) <= 60
            code = http.post("/api/rooms", json={"variant": "classic"}).json()["code"]
            assert http.get(f"/api/rooms/{code}").status_code == 200  # one room is another route
    finally:
        server.stop()


def test_room_names_are_cleaned_like_player_names(cached: LiveServer) -> None:
    """Issue: U+202E, U+200B/U+200C/U+2066, NUL, BEL and ESC in a room name reached GET /api/rooms."""
    with httpx.Client(base_url=cached.http) as http:
        made = http.post("/api/rooms", json={"variant": "classic", "max_seats": 2, "public": True,
                                            "name": "\u202eAna\u0000's \u200bta\u200cble\u2066\u0007\u001b  x"})
        assert made.status_code == 201 and made.json()["name"] == "Ana's table x"
        listed = {r["code"]: r["name"] for r in http.get("/api/rooms", params={"limit": 100}).json()["rooms"]}
        assert listed[made.json()["code"]] == "Ana's table x"
        family = "\U0001F469\u200d\U0001F469\u200d\U0001F467"  # the zero-width joiner stays
        assert http.post("/api/rooms", json={"variant": "classic", "name": family}).json()["name"] == family


def test_a_room_name_stored_before_names_were_cleaned_comes_back_clean() -> None:
    from app.rooms.options import RoomOptions

    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    back = RoomOptions.restored(settings, "classic", public=True, max_seats=2, target=None,
                                name="\u202eAna\u200b's\u0000", options={})
    assert back.name == "Ana's"
    assert RoomOptions.restored(settings, "classic", public=True, max_seats=2, target=None, name="\u0007",
                                options={}).name == "Classic UNO room"


def test_an_address_lists_in_bursts_of_twenty_at_most() -> None:
    """120 a minute (the default) is 20 in any 10 s: four addresses spending a minute's lists
    at once held an honest room up (bench/abuse.py rooms_list_flood)."""
    server = lobby_server()
    try:
        with httpx.Client(base_url=server.http) as http:
            pages = [http.get("/api/rooms") for _ in range(20)]
            assert [r.status_code for r in pages] == [200] * 20
            assert len({r.content for r in pages}) == 1  # no room changed: the same page each time
            r = http.get("/api/rooms")
        assert r.status_code == 429 and r.json()["detail"]["code"] == "rate_limited"
        assert "at most 20 room lists in 10 s" in r.json()["detail"]["message"]
        assert 1 <= int(r.headers["retry-after"]) <= 10  # not the rest of a minute
    finally:
        server.stop()
