"""Per-address limits count an IPv6 client by its /64, and renames are limited like new players."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
from starlette.types import Receive, Scope, Send

from app.persistence.db import resolve_url
from app.rates import address_key
from app.web.address_limits import AddressRateLimit
from tests.players.conftest import Person, remembering_server


def test_an_ipv6_address_is_keyed_by_its_64_and_ipv4_as_it_is() -> None:
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:ffff:1:2:3") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") == "2001:db8:1:3::/64"
    assert address_key("192.0.2.7") == "192.0.2.7"
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7"  # an IPv4 client on a dual-stack socket
    assert address_key("unknown") == "unknown"


async def _ok(scope: Scope, receive: Receive, send: Send) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


async def _status(app: AddressRateLimit, client: str) -> int:
    transport = httpx.ASGITransport(app=app, client=(client, 1234))
    async with httpx.AsyncClient(transport=transport, base_url="http://uno.test") as http:
        return (await http.post("/api/rooms", json={})).status_code


def test_one_ipv6_host_cannot_leave_its_window_by_changing_address() -> None:
    # Over the real middleware: two rooms a minute, asked from two addresses of one /64, then a third.
    limit = AddressRateLimit(_ok, create_per_minute=2, joins_per_minute=100, lists_per_minute=100)

    async def go() -> None:
        assert await _status(limit, "2001:db8:1:2::1") == 200
        assert await _status(limit, "2001:db8:1:2::2") == 200
        assert await _status(limit, "2001:db8:1:2:ffff::9") == 429  # the same /64: the same window
        assert await _status(limit, "2001:db8:1:3::1") == 200  # the next /64 is another client
        assert await _status(limit, "192.0.2.1") == 200

    asyncio.run(go())


def test_renames_are_limited_per_address_like_new_players(tmp_path: Path) -> None:
    live = remembering_server(resolve_url(None, tmp_path), create_rooms_per_minute=3)
    try:
        async def go() -> None:
            ana = Person(live, "Ana")
            assert (await ana.http.post("/api/me", json={"name": "Ana"})).status_code == 201
            for n in range(3):  # renames count apart from the new player
                assert (await ana.http.patch("/api/me", json={"name": f"Ana {n}"})).status_code == 200
            r = await ana.http.patch("/api/me", json={"name": "Victim"})
            assert r.status_code == 429 and r.json()["detail"]["code"] == "rate_limited"
            assert int(r.headers["retry-after"]) >= 1
            assert (await ana.me())["name"] == "Ana 2"  # the refused rename changed nothing
            await ana.http.aclose()

        asyncio.run(go())
    finally:
        live.stop()
