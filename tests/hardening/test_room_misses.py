"""Unknown room codes are counted per address, over HTTP and WebSocket together: guessing is refused."""

from __future__ import annotations

import asyncio

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from app.config import Settings
from app.rooms.errors import CLOSE_NO_ROOM
from app.transport.limits import CLOSE_POLICY
from tests.live import LiveServer


def guarded_server() -> LiveServer:
    settings = Settings(_env_file=None, room_misses_per_minute=5, create_rooms_per_minute=1_000,  # type: ignore[call-arg]
                        joins_per_minute=1_000)
    return LiveServer(settings).start()


async def close_code(server: LiveServer, code: str) -> int | None:
    async with connect(f"{server.ws}/ws/rooms/{code}") as ws:
        try:
            await asyncio.wait_for(ws.recv(), 5)
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None
    return None


def test_unknown_codes_over_http_are_limited_per_address() -> None:
    server = guarded_server()
    try:
        with httpx.Client(base_url=server.http) as http:
            code = http.post("/api/rooms", json={"variant": "classic"}).json()["code"]
            for _ in range(3):
                assert http.get(f"/api/rooms/{code}").status_code == 200  # rooms that exist cost nothing
            guesses = [http.get(f"/api/rooms/GUESS{i:03d}") for i in range(4)]
            guesses.append(http.post("/api/rooms/GUESS999/players", json={"name": "Ana"}))
            assert [r.status_code for r in guesses] == [404] * 5
            refused = http.get("/api/rooms/GUESS100")
            assert refused.status_code == 429 and refused.json()["detail"]["code"] == "rate_limited"
            assert "5 unknown room codes a minute" in refused.json()["detail"]["message"]
            assert 1 <= int(refused.headers["retry-after"]) <= 60
            # Until the window frees up, every lookup from the address is refused, sockets too.
            assert http.get(f"/api/rooms/{code}").status_code == 429
            assert http.post(f"/api/rooms/{code}/players", json={"name": "Ana"}).status_code == 429
            assert asyncio.run(close_code(server, code)) == CLOSE_POLICY
            assert 'uno_refused_total{reason="room_misses"} 4' in http.get("/metrics").text
            assert http.get("/api/rooms").status_code == 200  # the lobby is another matter
    finally:
        server.stop()


def test_unknown_codes_over_websockets_are_limited_per_address() -> None:
    server = guarded_server()
    try:
        code = httpx.post(server.http + "/api/rooms", json={"variant": "classic"}).json()["code"]

        async def main() -> list[int | None]:
            return [await close_code(server, f"GUESS{i:03d}") for i in range(7)]

        assert asyncio.run(main()) == [CLOSE_NO_ROOM] * 5 + [CLOSE_POLICY] * 2
        assert httpx.get(server.http + f"/api/rooms/{code}").status_code == 429
    finally:
        server.stop()
