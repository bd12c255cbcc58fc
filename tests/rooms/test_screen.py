"""The host's big screen (RULES.md D-14): the key's endpoints, what a screen socket is sent, that a
socket without the key is a spectator, that revoking closes screens, and the watcher limits."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from app.rooms.memory_store import InMemoryStore
from tests.live import Client, LiveServer, puppet_step, seat_players, start_game, sync
from tests.rooms.test_spectators import new_room, settings
from tests.waiting import until


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    server = LiveServer(settings()).start()
    yield server
    server.stop()


async def screen_key(server: LiveServer, code: str, token: str | None,
                     method: str = "POST") -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    async with httpx.AsyncClient(base_url=server.http) as http:
        return await http.request(method, f"/api/rooms/{code}/screen", headers=headers)


async def screen(server: LiveServer, code: str, key: str) -> Client:
    c = Client(server, code)
    c.screen = key
    await c.connect()
    return c


async def closed_with(client: Client, timeout: float = 5) -> tuple[int | None, list[dict[str, Any]]]:
    """Read until the server closes the socket: its close code, and the errors sent before it."""
    with pytest.raises(ConnectionClosed) as info:
        while True:
            await client.recv(timeout)
    rcvd = info.value.rcvd
    return (rcvd.code if rcvd is not None else None), client.errors


def public_table(seat: Client) -> dict[str, Any]:
    """A seat's table less what that seat alone sees."""
    private = ("hand", "legal", "drawn", "revealed")
    return {k: v for k, v in seat.view["game"]["table"].items() if k not in private}


def test_only_the_host_makes_and_revokes_the_screen_key_D_14(live: LiveServer) -> None:
    async def main() -> None:
        code = await new_room(live, seats=3)
        ann, bo = await seat_players(live, code, 2)
        made = await screen_key(live, code, ann.token)
        assert made.status_code == 200, made.text
        body = made.json()
        key = body["key"]
        assert len(key) >= 16 and body["path"] == f"/r/{code}/screen?key={key}"
        assert body["url"].endswith(body["path"]) and body["qr"].startswith("data:image/svg+xml;base64,")
        # Asked again (the host's page reloaded): the same key, so the screen on the TV stays up.
        assert (await screen_key(live, code, ann.token)).json()["key"] == key
        # Anyone else: a typed error, and nothing changes.
        for method in ("POST", "DELETE"):
            refused = await screen_key(live, code, bo.token, method)
            assert refused.status_code == 409 and refused.json()["detail"]["code"] == "not_host", refused.text
            anonymous = await screen_key(live, code, None, method)
            assert anonymous.status_code == 401 and anonymous.json()["detail"]["code"] == "bad_token"
            wrong = await screen_key(live, code, "not-a-seat", method)
            assert wrong.status_code == 401 and wrong.json()["detail"]["code"] == "bad_token"
        missing = await screen_key(live, "ZZZZ2345", ann.token)
        assert missing.status_code == 404 and missing.json()["detail"]["code"] == "no_room"
        assert (await screen_key(live, code, ann.token)).json()["key"] == key
        # Revoked, then made again: a new key.
        assert (await screen_key(live, code, ann.token, "DELETE")).status_code == 204
        assert (await screen_key(live, code, ann.token, "DELETE")).status_code == 204  # (already none)
        again = (await screen_key(live, code, ann.token)).json()["key"]
        assert again != key
        for c in (ann, bo):
            await c.close()

    asyncio.run(main())


def test_a_screen_sees_the_public_table_at_once_while_spectators_wait_D_14(live: LiveServer) -> None:
    """D-14, C-16: a screen is sent the table live — no hand, no seat — in a room whose spectators
    are 30 s late; the seats are told a screen is there; the frame audit checks each of its frames."""
    async def main() -> None:
        code = await new_room(live, seats=3, spectator_delay=30)
        players = await seat_players(live, code, 3)
        key = (await screen_key(live, code, players[0].token)).json()["key"]
        await start_game(players)
        audited = live.audit.screen_frames
        eve = Client(live, code)
        await eve.connect()  # a spectator: nothing for 30 s
        tv = await screen(live, code, key)
        opened = time.monotonic()
        first = await tv.recv(5)
        assert first["type"] == "snapshot" and time.monotonic() - opened < 5
        assert tv.view["you"] is None and "private" not in tv.view
        assert "hand" not in tv.view["game"]["table"] and "legal" not in tv.view["game"]["table"]
        await until(lambda: _screens_shown(players, 1), what="the seats told a screen is here")
        await sync([tv])
        assert tv.view["room"]["screens"] == 1
        rng = random.Random(4)
        for _ in range(6):
            if not await puppet_step(players, rng, hurry=True):
                break
            await sync([tv])  # (a ping: answered after everything the room sent before it)
            assert tv.view["game"]["table"] == public_table(players[0])
            assert "hand" not in tv.view["game"]["table"]
        assert live.audit.screen_frames > audited + 1
        # Meanwhile the spectator, 30 s behind, has been sent nothing at all.
        with pytest.raises(TimeoutError):
            await eve.recv(0.2)
        assert eve.view is None
        # A screen cannot act or chat.
        refused = await tv.request({"type": "chat", "text": "hi"})
        assert refused["type"] == "error" and refused["code"] == "spectator"
        for c in (*players, eve, tv):
            await c.close()

    asyncio.run(main())


async def _screens_shown(players: list[Client], n: int) -> bool:
    await sync(players)
    return all(p.view["room"]["screens"] == n for p in players)


def test_without_the_key_the_screen_is_a_spectator_D_14(live: LiveServer) -> None:
    async def main() -> None:
        code = await new_room(live, seats=2)
        players = await seat_players(live, code, 2)
        real = (await screen_key(live, code, players[0].token)).json()["key"]
        # A wrong key is refused with a typed error; the page then watches without one.
        wrong = await screen(live, code, "x" * len(real))
        code_, errors = await closed_with(wrong)
        assert code_ == 4431 and errors[-1]["code"] == "bad_screen_key"
        plain = Client(live, code)
        await plain.connect()
        await plain.recv()
        await sync(players)
        assert plain.view["you"] is None and players[0].view["room"]["screens"] == 0
        # A seat's token wins over a screen key: the seat's own view.
        seat = Client(live, code, players[1].token, players[1].seat)
        seat.screen = real
        await seat.connect()
        await seat.recv()
        assert seat.view["you"] == players[1].seat
        for c in (*players, plain, seat):
            await c.close()

    asyncio.run(main())


def test_revoking_the_key_closes_its_screens_at_once(live: LiveServer) -> None:
    async def main() -> None:
        code = await new_room(live, seats=2)
        players = await seat_players(live, code, 2)
        key = (await screen_key(live, code, players[0].token)).json()["key"]
        tvs = [await screen(live, code, key) for _ in range(2)]
        eve = Client(live, code)
        await eve.connect()
        for tv in tvs:
            await tv.recv()
        await until(lambda: _screens_shown(players, 2), what="both screens counted")
        assert (await screen_key(live, code, players[0].token, "DELETE")).status_code == 204
        for tv in tvs:
            close, errors = await closed_with(tv)
            assert close == 4431 and errors[-1]["code"] == "screen_revoked"
        await until(lambda: _screens_shown(players, 0), what="the screens gone from the seats' views")
        # The spectator stays; the old key opens nothing.
        assert (await eve.request({"type": "ping"}))["type"] == "pong"
        again = await screen(live, code, key)
        assert (await closed_with(again))[0] == 4431
        for c in (*players, eve):
            await c.close()

    asyncio.run(main())


def test_screens_count_against_the_spectator_caps() -> None:
    server = LiveServer(settings(spectators_per_room=3, spectators_per_address=2)).start()
    try:
        async def main() -> None:
            code = await new_room(server, seats=2)
            players = await seat_players(server, code, 2)
            key = (await screen_key(server, code, players[0].token)).json()["key"]
            first, second = [await screen(server, code, key) for _ in range(2)]
            await first.recv()
            await second.recv()
            # This address holds two watchers already: a third, screen or spectator, is refused.
            third = await screen(server, code, key)
            close, errors = await closed_with(third)
            assert close == 4430 and errors[-1]["code"] == "too_many_watching"
            watcher = Client(server, code)
            await watcher.connect()
            assert (await closed_with(watcher))[0] == 4430
            for c in (*players, first, second):
                await c.close()

        asyncio.run(main())
    finally:
        server.stop()


@pytest.mark.slow
def test_the_screen_key_survives_a_restart() -> None:
    store = InMemoryStore()
    first = LiveServer(settings(), store=store).start()
    try:
        async def setup() -> tuple[str, str]:
            code = await new_room(first)
            [ann] = await seat_players(first, code, 1)
            key = (await screen_key(first, code, ann.token)).json()["key"]
            await ann.close()
            return code, key

        code, key = asyncio.run(setup())
    finally:
        first.stop()
    second = LiveServer(settings(), store=store).start()
    try:
        async def after() -> None:
            tv = await screen(second, code, key)
            assert (await tv.recv())["type"] == "snapshot" and tv.view["you"] is None
            assert "screen_key" not in str(second.registry.get(code).summary)  # never listed
            await tv.close()

        asyncio.run(after())
    finally:
        second.stop()
