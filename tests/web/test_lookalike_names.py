"""Names that look like another seat's are refused in a room, blank letters are dropped, and on the
server's pages look-alike players are told apart by a tag from their id.

"Victim" written with a Cyrillic і, or followed by a Hangul filler, reads exactly as "Victim" on
every screen: one seat could pass for another in the log, the chat and the catches."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.persistence.db import resolve_url
from app.rooms.lookalike import CONFUSABLES_VERSION, confusable
from app.rooms.text import clean_text
from app.web.lookalikes import mark_lookalikes, tag_of
from tests.live import LiveServer, create_room
from tests.players.conftest import remembering_server


@pytest.mark.parametrize("typed", [
    "Victim\u3164",  # HANGUL FILLER
    "\u2800Victim",  # BRAILLE PATTERN BLANK
    "Vic\u115ftim",  # HANGUL CHOSEONG FILLER
    "Victim\ufe0f",  # a variation selector on a letter that has no variants
    "\u0301Victim",  # a combining mark on nothing
    "Vi\u034fctim",  # COMBINING GRAPHEME JOINER
])
def test_blank_letters_and_stray_marks_are_dropped_from_names(typed: str) -> None:
    assert clean_text(typed) == "Victim"


def test_what_a_name_needs_stays() -> None:
    for name in ("Nguyễn", "नमस्ते", "\u2764\ufe0f Ana", "1\ufe0f\u20e3", "👨\u200d👩\u200d👧", "Zoë"):
        assert clean_text(name) == name
    assert clean_text("e" + "\u0301" * 9) == "é" + "\u0301" * 3  # a tower of marks is cut to three deep


def test_look_alikes_are_confusable_and_different_names_are_not() -> None:
    assert CONFUSABLES_VERSION.split(".")[0].isdigit()  # the Unicode data's version, as shipped
    same = [("Victim", "V\u0456ctim"), ("Ana", "\u0410NA"), ("PayPal", "PayPaI"), ("Bo", "B\u043e"),
            ("Victim", "VICTIM"), ("Victim", "\uff36ictim")]  # ... and a fullwidth V
    for a, b in same:
        assert confusable(a, b) and confusable(b, a), (a, b)
    for a, b in [("Ana", "Anna"), ("Zoë", "Zoe"), ("Łukasz", "Lukasz"), ("Bo", "Bob")]:
        assert not confusable(a, b), (a, b)


def test_a_look_alike_of_a_seated_name_is_refused_name_taken(server: LiveServer) -> None:
    code = asyncio.run(create_room(server, "classic", 4, target=None))

    def join(name: str) -> httpx.Response:  # each from a browser of its own (a player's cookie rejoins)
        with httpx.Client(base_url=server.http) as http:
            return http.post(f"/api/rooms/{code}/players", json={"name": name})

    assert join("Victim").status_code == 201
    for twin in ("V\u0456ctim", "Victim\u3164", "VICTIM", "\u2800Victim"):
        r = join(twin)
        assert r.status_code == 409, (twin, r.text)
        detail = r.json()["detail"]
        assert detail["code"] == "name_taken" and detail["params"] == {"name": "Victim"}, twin
    with httpx.Client(base_url=server.http) as http:
        room = http.get(f"/api/rooms/{code}").json()
    assert room["players"] == ["Victim"]  # nothing joined
    assert join("Victor").status_code == 201


def test_look_alike_players_on_one_list_are_marked_and_tagged_apart() -> None:
    rows: list[dict[str, Any]] = [{"player": "p-victim", "name": "Victim"}, {"player": "p-fake", "name": "V\u0456ctim"},
            {"player": "p-bo", "name": "Bo"}, {"player": None, "name": "a former player"}]
    mark_lookalikes(rows)
    victim, fake, bo, former = rows
    assert victim["lookalike"] and fake["lookalike"] and not bo["lookalike"]
    assert victim["tag"] == tag_of("p-victim") != fake["tag"] == tag_of("p-fake")
    assert len(victim["tag"]) == 4 and "tag" not in former  # no player, nothing to tell apart
    same = [{"player": "p1", "name": "Ana"}, {"player": "p1", "name": "Ana"}]  # one player twice
    mark_lookalikes(same)
    assert not same[0]["lookalike"]


def test_a_player_carries_the_tag_of_their_id(tmp_path: Path) -> None:
    live = remembering_server(resolve_url(None, tmp_path))
    try:
        with httpx.Client(base_url=live.http) as http:
            me = http.post("/api/me", json={"name": "Victim"}).json()
            assert me["tag"] == tag_of(me["id"])
            assert http.get(f"/api/players/{me['id']}").json()["player"]["tag"] == me["tag"]
    finally:
        live.stop()


def test_a_bot_is_not_named_like_a_seated_person(server: LiveServer) -> None:
    code = asyncio.run(create_room(server, "classic", 4, target=None))
    with httpx.Client(base_url=server.http) as http:
        host = http.post(f"/api/rooms/{code}/players", json={"name": "B\u043et 1"})  # a Cyrillic о
        assert host.status_code == 201
        headers = {"authorization": f"Bearer {host.json()['token']}"}
        r = http.post(f"/api/rooms/{code}/bots", headers=headers)
        assert r.status_code in (200, 201), r.text
        names = http.get(f"/api/rooms/{code}").json()["players"]
    assert names == ["B\u043et 1", "Bot 2"]
