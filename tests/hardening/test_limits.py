"""The abuse limits over real sockets: frame size, message rate, Origin, body size, per-address rates."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from app.config import Settings
from app.transport.limits import CLOSE_POLICY, CLOSE_TOO_BIG, SlidingWindow, origin_allowed
from app.web.limits import Window
from tests.live import Client, LiveServer, create_room, seat_players
from tests.waiting import until


async def closed_with(client: Client, timeout: float = 5) -> tuple[int | None, list[dict[str, object]]]:
    """Read until the server closes the socket: (close code, the frames read before)."""
    assert client.ws is not None
    frames = []
    try:
        while True:
            frames.append(await client.recv(timeout))
    except ConnectionClosed as closed:
        return (closed.rcvd.code if closed.rcvd else None), frames


# ---------------------------------------------------------------- pure pieces


def test_sliding_window_allows_exactly_the_limit_per_window() -> None:
    w = SlidingWindow(3, 10.0)
    assert [w.allow(t) for t in (0, 1, 2, 3, 9.9)] == [True, True, True, False, False]
    assert w.allow(10.0) and not w.allow(10.5) and w.allow(11.0)


def test_a_window_keeps_only_the_times_still_in_it() -> None:
    # A high limit must not mean a long memory: one event a second for 1,000 s leaves the
    # times of the last 10 s, not a thousand of them.
    w = SlidingWindow(100_000, 10.0)
    assert all(w.allow(float(t)) for t in range(1000))
    assert list(w.times) == [float(t) for t in range(990, 1000)]


def test_address_window_says_when_to_retry_and_keeps_addresses_apart() -> None:
    now = [0.0]
    w = Window(2, 60.0, clock=lambda: now[0])
    assert w.hit("a") == 0 and w.hit("a") == 0
    now[0] = 15.0
    assert w.hit("a") == pytest.approx(45.0)
    assert w.hit("b") == 0
    now[0] = 60.0
    assert w.hit("a") == 0


@pytest.mark.parametrize(("origin", "host", "allowed", "ok"), [
    (None, "uno.example", [], True),  # not a browser
    ("https://uno.example", "uno.example", [], True),  # the server's own origin
    ("http://127.0.0.1:8000", "127.0.0.1:8000", [], True),
    ("HTTPS://UNO.example/", "uno.example", [], True),
    ("https://evil.example", "uno.example", [], False),
    ("https://uno.example.evil.example", "uno.example", [], False),
    ("http://127.0.0.1:9999", "127.0.0.1:8000", [], False),  # another port is another origin
    ("null", "uno.example", [], False),
    ("https://evil.example", None, [], False),
    ("https://friends.example", "uno.example", ["https://friends.example"], True),
    ("https://anyone.example", "uno.example", ["*"], True),
])
def test_origin_rule(origin: str | None, host: str | None, allowed: list[str], ok: bool) -> None:
    assert origin_allowed(origin, host, allowed) is ok


# ---------------------------------------------------------------- frame size


def test_a_frame_over_8_kib_closes_the_socket_with_1009(server: LiveServer) -> None:
    async def main() -> None:
        code = await create_room(server, "classic", 2, target=None)
        clients = await seat_players(server, code, 2)
        c = clients[0]
        assert c.ws is not None
        await c.ws.send(json.dumps({"type": "chat", "text": "x" * 9 * 1024}))
        close, frames = await closed_with(c)
        assert close == CLOSE_TOO_BIG
        assert frames[-1]["type"] == "error" and frames[-1]["code"] == "too_large"
        # Just under the limit is a normal (if refused) message; multi-byte text counts in bytes.
        await c.connect()
        await c.recv()
        await c.ws.send(json.dumps({"type": "chat", "id": "big", "text": "é" * 4000}, ensure_ascii=False))
        assert (await c.until_reply("big"))["code"] == "bad_message"
        await c.ws.send(json.dumps({"type": "chat", "text": "é" * 4100}, ensure_ascii=False))  # 8.2 KB
        close, _ = await closed_with(c)
        assert close == CLOSE_TOO_BIG
        # Past uvicorn's own cap (UNO_WS_MAX_SIZE) the protocol layer refuses it too.
        await c.connect()
        await c.recv()
        await c.ws.send("x" * 40_000)
        close, _ = await closed_with(c)
        assert close == CLOSE_TOO_BIG
        # The other player never noticed.
        pong = await clients[1].request({"type": "ping"})
        assert pong["type"] == "pong"

    asyncio.run(main())


# ---------------------------------------------------------------- message rate


def test_flooding_past_the_rate_closes_only_that_socket_with_1008(strict: LiveServer) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=strict.http) as http:
            r = await http.post("/api/rooms", json={"variant": "classic", "max_seats": 2})
            code = r.json()["code"]
        clients = await seat_players(strict, code, 2)
        flooder, other = clients
        assert flooder.ws is not None
        for i in range(10):  # the limit: 10 per 20 s
            assert (await flooder.request({"type": "ping", "id": f"p{i}"}))["type"] == "pong"
        await flooder.send({"type": "ping", "id": "one-too-many"})
        close, frames = await closed_with(flooder)
        assert close == CLOSE_POLICY
        assert frames[-1]["code"] == "rate_limited" and "10 per 20 s" in str(frames[-1]["message"])
        assert "one-too-many" not in flooder.replies  # never reached the room
        assert (await other.request({"type": "ping"}))["type"] == "pong"
        # The window is the seat's, not the socket's: reconnecting with the same token does not
        # reset it (the seat is not banned: its window simply has not moved on yet).
        await flooder.connect()
        await flooder.recv()
        await flooder.send({"type": "ping", "id": "after-reconnect"})
        close, frames = await closed_with(flooder)
        assert close == CLOSE_POLICY and frames[-1]["code"] == "rate_limited"
        assert "after-reconnect" not in flooder.replies

    asyncio.run(main())


# ---------------------------------------------------------------- Origin


def test_foreign_origins_are_refused_at_the_handshake(strict: LiveServer) -> None:
    async def main() -> None:
        code = (await asyncio.to_thread(httpx.post, strict.http + "/api/rooms",
                                        json={"variant": "classic", "max_seats": 2})).json()["code"]
        url = f"{strict.ws}/ws/rooms/{code}"
        for origin in ("https://evil.example", "null", "http://127.0.0.1:1"):
            with pytest.raises(InvalidStatus) as refused:
                await connect(url, origin=origin)  # type: ignore[arg-type]
            assert refused.value.response.status_code == 403
        with pytest.raises(InvalidStatus) as refused:  # the echo endpoint is guarded the same way
            await connect(f"{strict.ws}/ws/echo", origin="https://evil.example")  # type: ignore[arg-type]
        assert refused.value.response.status_code == 403
        own = f"http://127.0.0.1:{strict.port}"
        for welcome in (None, own, "https://uno.example", "https://friends.example"):
            async with connect(url, origin=welcome) as ws:  # type: ignore[arg-type]
                assert json.loads(await ws.recv())["type"] == "snapshot"

    asyncio.run(main())


# ---------------------------------------------------------------- HTTP bodies and per-address rates


def test_big_bodies_are_refused_with_413(strict: LiveServer) -> None:
    big = json.dumps({"variant": "classic", "name": "x" * 2000})
    r = httpx.post(strict.http + "/api/rooms", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["detail"]["code"] == "body_too_large"

    def chunks() -> object:  # no Content-Length: the bytes are counted as they come
        for _ in range(10):
            yield b" " * 200

    r = httpx.post(strict.http + "/api/rooms/ABCDEFGH/players", content=chunks(),  # type: ignore[arg-type]
                   headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["detail"]["code"] == "body_too_large"
    r = httpx.post(strict.http + "/api/rooms/ABCDEFGH/players", content=b" " * 900 + b'{"name": "Ana"}',
                   headers={"content-type": "application/json"})
    assert r.status_code == 404  # under the limit: it reaches the API


def test_room_creation_and_joins_are_rate_limited_per_address() -> None:
    settings = Settings(_env_file=None, create_rooms_per_minute=3, joins_per_minute=4)  # type: ignore[call-arg]
    server = LiveServer(settings).start()
    try:
        with httpx.Client(base_url=server.http) as http:
            codes = [http.post("/api/rooms", json={"variant": "classic", "max_seats": 10}) for _ in range(3)]
            assert [r.status_code for r in codes] == [201] * 3
            r = http.post("/api/rooms", json={"variant": "classic", "max_seats": 10})
            assert r.status_code == 429
            body = r.json()["detail"]
            assert body["code"] == "rate_limited" and "3 new rooms a minute" in body["message"]
            assert 1 <= int(r.headers["retry-after"]) <= 60
            assert http.get("/api/rooms").status_code == 200  # reading is not limited
            code = codes[0].json()["code"]
            statuses = [http.post(f"/api/rooms/{code}/players", json={"name": f"P{i}"}).status_code
                        for i in range(6)]
            assert statuses == [201] * 4 + [429] * 2
            assert http.get(f"/api/rooms/{code}").json()["seats_taken"] == 4
            metrics = http.get("/metrics").text
        assert 'uno_refused_total{reason="http_rate"} 3' in metrics
    finally:
        server.stop()


# ---------------------------------------------------------------- sockets per address and per room


@pytest.mark.slow
def test_spectators_per_room_and_sockets_per_address_are_capped() -> None:
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, spectators_per_room=2, sockets_per_address=4, create_rooms_per_minute=100,
        joins_per_minute=100)
    live = LiveServer(settings).start()

    async def main() -> None:
        code = await create_room(live, "classic", 2)
        (player,) = await seat_players(live, code, 1)
        watchers = [Client(live, code) for _ in range(3)]
        for w in watchers[:2]:
            await w.connect()
            assert (await w.recv())["type"] == "snapshot"
        await watchers[2].connect()  # one watcher too many for this room
        close, frames = await closed_with(watchers[2])
        assert close == 4429 and frames[-1]["code"] == "too_many_spectators"
        # The seat still plays, and a watcher who leaves makes room for another.
        assert (await player.request({"type": "ping"}))["type"] == "pong"
        await watchers[0].close()
        await until(lambda: len(live.registry.get(code).streams.spectators) == 1, what="the watcher gone")
        await watchers[2].connect()
        assert (await watchers[2].recv())["type"] == "snapshot"
        # Three sockets from this address so far; the fourth is the last one it may hold.
        other = await create_room(live, "classic", 2)
        fourth = Client(live, other)
        await fourth.connect()
        assert (await fourth.recv())["type"] == "snapshot"
        fifth = Client(live, other)
        await fifth.connect()
        close, frames = await closed_with(fifth)
        assert close == 4429 and frames[-1]["code"] == "too_many_sockets"
        await fourth.close()
        await until(lambda: live.registry.holdings.held("sockets", "127.0.0.1") < 4, what="the fourth socket uncounted")
        await fifth.connect()
        assert (await fifth.recv())["type"] == "snapshot"
        async with httpx.AsyncClient(base_url=live.http) as http:
            metrics = (await http.get("/metrics")).text
        assert 'uno_refused_total{reason="sockets_per_address"} 1' in metrics

    try:
        asyncio.run(main())
    finally:
        live.stop()
