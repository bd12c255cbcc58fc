"""Errors carry what a client needs to word them itself (docs/PROTOCOL.md#errors): the browser
shows no server English, so the name taken, the seats, the host, the seat whose turn it is and
the length limits come as ``params``, over HTTP and in error frames alike."""

from __future__ import annotations

import asyncio

import httpx

from tests.live import LiveServer, create_room, pending_client, seat_players, start_game


def test_http_errors_carry_params(server: LiveServer) -> None:
    code = asyncio.run(create_room(server, "classic", 2, target=None))
    with httpx.Client(base_url=server.http) as http:
        assert http.post(f"/api/rooms/{code}/players", json={"name": "Ana"}).status_code == 201
        taken = http.post(f"/api/rooms/{code}/players", json={"name": "ana"}).json()["detail"]
        assert taken["code"] == "name_taken" and taken["params"] == {"name": "Ana"}  # the name it looks like
        assert "message" in taken  # the English sentence stays for API users
        assert http.post(f"/api/rooms/{code}/players", json={"name": "Bo"}).status_code == 201
        full = http.post(f"/api/rooms/{code}/players", json={"name": "Cy"}).json()["detail"]
        assert full["code"] == "room_full" and full["params"] == {"seats": 2}
        long = http.post(f"/api/rooms/{code}/players", json={"name": "x" * 40}).json()["detail"]
        assert long["code"] == "bad_name" and long["params"] == {"max": 24}
        missing = http.get("/api/rooms/ZZZZZZZZ").json()["detail"]
        assert missing["code"] == "no_room" and "params" not in missing  # nothing to add: no params


def test_error_frames_carry_params(server: LiveServer) -> None:
    async def main() -> None:
        code = await create_room(server, "classic", 3, target=None)
        clients = await seat_players(server, code, 3)
        host, other = clients[0], clients[1]
        reply = await other.request({"type": "kick", "seat": 2})
        assert reply["code"] == "not_host" and reply["params"] == {"host": host.seat}
        await start_game(clients)
        turn = pending_client(clients)
        assert turn is not None
        idle = next(c for c in clients if c is not turn)
        reply = await idle.request({"type": "action", "action": {"kind": "draw"}})
        pending = turn.game["table"]["pending"]
        assert reply["code"] == "not_your_turn", reply
        assert reply["params"] == {"seat": turn.seat, "decision": pending["kind"]}
        reply = await idle.request({"type": "chat", "text": "x" * 301})
        assert reply["code"] == "bad_chat" and reply["params"] == {"max": 300}
        reply = await idle.request({"type": "chat", "text": "   "})
        assert reply["code"] == "bad_chat" and "params" not in reply
        for c in clients:
            await c.close()

    asyncio.run(main())
