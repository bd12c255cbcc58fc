"""The HTTP API over a real socket: names and shapes other tools rely on."""

from __future__ import annotations

import asyncio
import logging

import httpx
import pytest

from app.rooms.room_state import CODE_ALPHABET, CODE_LENGTH
from tests.live import LiveServer, connect_once
from tests.waiting import until


def get(server: LiveServer, path: str) -> httpx.Response:
    return httpx.get(server.http + path)


def post(server: LiveServer, path: str, body: dict[str, object]) -> httpx.Response:
    return httpx.post(server.http + path, json=body)


def test_healthz(server: LiveServer) -> None:
    r = get(server, "/healthz")
    assert r.status_code == 200 and r.json()["ok"] is True


def test_create_list_get_join(server: LiveServer) -> None:
    r = post(server, "/api/rooms", {"variant": "mario_kart", "public": True, "max_seats": 3, "name": "Kart night"})
    assert r.status_code == 201
    room = r.json()
    code = room["code"]
    assert len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET) and not set(code) & set("0O1IL")
    assert room["variant"] == "mario_kart" and room["status"] == "waiting" and room["seats_free"] == 3
    private = post(server, "/api/rooms", {"variant": "classic", "public": False, "max_seats": 2}).json()
    listed = {x["code"] for x in get(server, "/api/rooms").json()["rooms"]}
    assert code in listed and private["code"] not in listed
    assert get(server, f"/api/rooms/{code.lower()}").json()["name"] == "Kart night"
    assert get(server, "/api/rooms/NOPE2345").status_code == 404
    r = post(server, f"/api/rooms/{code}/players", {"name": "  Ana  "})
    assert r.status_code == 201
    seat = r.json()
    assert seat["seat"] == 0 and seat["name"] == "Ana" and len(seat["token"]) >= 32 and seat["host"]
    assert post(server, f"/api/rooms/{code}/players", {"name": "ana"}).status_code == 409
    summary = get(server, f"/api/rooms/{code}").json()
    assert summary["seats_taken"] == 1 and summary["players"] == ["Ana"]
    assert seat["token"] not in get(server, f"/api/rooms/{code}").text
    assert post(server, "/api/rooms/NOPE2345/players", {"name": "x"}).status_code == 404


@pytest.mark.parametrize("body", [
    {"variant": "chess", "public": True, "max_seats": 4},
    {"variant": "pocket_pizza", "public": True, "max_seats": 6},  # PP is for 2–5
    {"variant": "classic", "public": True, "max_seats": 1},
    {"variant": "classic", "public": True, "max_seats": 4, "target_score": 0},
])
def test_bad_room_options_are_422(server: LiveServer, body: dict[str, object]) -> None:
    assert post(server, "/api/rooms", body).status_code == 422


def test_openapi_documents_the_routes(server: LiveServer) -> None:
    spec = get(server, "/openapi.json").json()
    paths = spec["paths"]
    assert {"/healthz", "/api/rooms", "/api/rooms/{code}", "/api/rooms/{code}/players"} <= set(paths)
    assert "201" in paths["/api/rooms/{code}/players"]["post"]["responses"]
    assert "409" in paths["/api/rooms/{code}/players"]["post"]["responses"]
    assert get(server, "/docs").status_code == 200


def test_tokens_never_reach_the_logs(server: LiveServer, caplog: pytest.LogCaptureFixture) -> None:
    code = post(server, "/api/rooms", {"variant": "classic", "public": False, "max_seats": 2}).json()["code"]
    token = post(server, f"/api/rooms/{code}/players", {"name": "Secret"}).json()["token"]
    logging.getLogger("uvicorn.error").setLevel(logging.INFO)
    try:
        with caplog.at_level(logging.DEBUG):
            asyncio.run(connect_once(server, code, token))
    finally:
        logging.getLogger("uvicorn.error").setLevel(logging.WARNING)
    # The server's loggers (the test's own websockets client logs its URL at DEBUG; that is not us).
    text = "\n".join(r.getMessage() for r in caplog.records if r.name.startswith(("uvicorn", "app")))
    assert "WebSocket" in text  # the connection was logged...
    assert token not in text  # ...without its token


def test_echo_endpoint_for_the_benchmark(server: LiveServer) -> None:
    from websockets.asyncio.client import connect

    async def go() -> str:
        async with connect(f"{server.ws}/ws/echo") as ws:
            await ws.send("hello")
            return str(await ws.recv())

    assert asyncio.run(go()) == "hello"


def test_echo_relay_groups_for_the_benchmark(server: LiveServer) -> None:
    """``/ws/echo?group=`` relays each message to every socket of its group, and only of its group."""
    from websockets.asyncio.client import connect

    async def go() -> None:
        url = f"{server.ws}/ws/echo?group="
        async with connect(url + "a") as a1, connect(url + "a") as a2, connect(url + "b") as b1:
            groups = server.app.state.echo_groups
            await until(lambda: sum(map(len, groups.values())) == 3, what="all three in their groups")
            await a1.send("to a")
            assert await a1.recv() == "to a" and await a2.recv() == "to a"
            await b1.send("to b")
            assert await b1.recv() == "to b"
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(a2.recv(), 0.2)  # nothing of b's reached a
        await until(lambda: server.app.state.echo_groups == {}, what="the groups emptied as they left")

    asyncio.run(go())


FAMILY = "\U0001F469\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466"  # 7 code points, one emoji


def test_name_limit_counts_characters_after_nfc(server: LiveServer) -> None:
    # The limit is in code points after NFC, as the browser's fitText (static/js/text.js) counts.
    code = post(server, "/api/rooms", {"variant": "classic", "max_seats": 4}).json()["code"]
    assert post(server, f"/api/rooms/{code}/players", {"name": "a" * 17 + FAMILY}).status_code == 201
    decomposed = "Jose\u0301" + "e\u0301" * 20  # 24 characters once composed, 45 code points before
    r = post(server, f"/api/rooms/{code}/players", {"name": decomposed})
    assert r.status_code == 201 and r.json()["name"] == "Jos\u00e9" + "\u00e9" * 20
    r = post(server, f"/api/rooms/{code}/players", {"name": "b" * 18 + FAMILY})
    assert r.status_code == 422 and r.json()["detail"]["code"] == "bad_name"


@pytest.mark.parametrize(("body", "named"), [
    ({"variant": "classic", "house_rules": {"revenge": True}}, "'revenge' needs 'stacking'"),
    ({"variant": "all_wild", "house_rules": {"multi_play": True}}, "UNO All Wild cannot play 'multi_play'"),
    ({"variant": "classic", "house_rules": {"hand_limit": 12}}, "'hand_limit' must be one of"),
    ({"variant": "classic", "house_rules": {"preset": "party", "stacking": False, "cross_stack": "up"}},
     "'cross_stack' needs 'stacking'"),
])
def test_bad_house_rules_are_422_naming_the_option__HX_1(server: LiveServer, body: dict[str, object],
                                                         named: str) -> None:
    r = post(server, "/api/rooms", body)
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert detail["code"] == "bad_house_rules" and named in detail["message"], detail


def test_a_preset_is_stored_expanded_with_its_name__HR_34(server: LiveServer) -> None:
    """D-1, D-2: keys at their default are accepted anywhere; the room shows the expanded values and the preset."""
    r = post(server, "/api/rooms", {"variant": "classic", "house_rules": {
        "preset": "party", "jump_in": False, "revenge": False, "elimination": "off", "cross_stack": "up"}})
    assert r.status_code == 201, r.text
    rules = r.json()["house_rules"]
    assert rules["preset"] == "party" and rules["stacking"] is True and rules["seven_o"] is True
    assert rules["jump_in"] is False and rules["cross_stack"] == "up" and rules["revenge"] is False
    assert get(server, f"/api/rooms/{r.json()['code']}").json()["house_rules"] == rules
