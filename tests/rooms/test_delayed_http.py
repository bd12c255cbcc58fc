"""A room with a spectator delay: its HTTP views (room summary, match history, export, replay)
show the end no sooner than its delayed spectators are shown it (docs/ROOMS.md)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.config import Settings
from app.rooms.reveal import Reveal
from app.rooms.room_state import OVER, PLAYING, RoomState
from tests.live import Client, LiveServer, choose, seat_players, start_game

DELAY = 2


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    server = LiveServer(Settings(  # type: ignore[call-arg]
        between_rounds_seconds=0.5, _env_file=None, create_rooms_per_minute=100_000, joins_per_minute=100_000,
        sockets_per_address=100_000, socket_rate_messages=100_000, socket_opens_per_minute=1_000_000,
        http_requests_per_minute=0,
        connections_per_address=100_000, rooms_per_address=100_000, room_misses_per_minute=100_000,
        match_downloads_per_minute=100_000, watchers_coalesce_seconds=0.0)).start()
    yield server
    server.stop()


async def watch_until_over(eve: Client, seen: dict[str, float]) -> None:
    await eve.connect()
    while eve.view is None or eve.status != "over":
        await eve.recv(60)
    seen["spectator"] = time.monotonic()


async def poll(http: httpx.AsyncClient, code: str, match_id: str, seen: dict[str, float],
               answers: list[tuple[str, int, Any]], stop: asyncio.Event) -> None:
    """Ask every HTTP view, again and again, and note when each first shows the end."""
    paths = {"summary": f"/api/rooms/{code}", "history": f"/api/matches/{match_id}",
             "export": f"/api/matches/{match_id}/export", "replay": f"/api/matches/{match_id}/replay"}
    while not stop.is_set():
        for name, path in paths.items():
            if name in seen:
                continue  # seen once is enough (an export or replay costs the server)
            r = await http.get(path)
            body = r.json()
            answers.append((name, r.status_code, body))
            ended = (body["status"] == "over" if name == "summary" else
                     r.status_code == 200 and (name != "history" or body["winner"] is not None))
            if ended and name not in seen:
                seen[name] = time.monotonic()
        await asyncio.sleep(0.1)


@pytest.mark.slow
def test_the_http_views_of_a_delayed_room_show_the_end_no_sooner_than_its_spectators(live: LiveServer) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http, timeout=30) as http:
            r = await http.post("/api/rooms", json={"variant": "classic", "max_seats": 2, "target_score": 1,
                                                    "spectator_delay": DELAY})
            assert r.status_code == 201, r.text
            code = r.json()["code"]
            players = await seat_players(live, code, 2)
            await start_game(players)
            match_id = players[0].view["room"]["match_id"]
            assert match_id
            seen: dict[str, float] = {}
            answers: list[tuple[str, int, Any]] = []
            stop = asyncio.Event()
            eve = Client(live, code)
            spectator = asyncio.create_task(watch_until_over(eve, seen))
            poller = asyncio.create_task(poll(http, code, match_id, seen, answers, stop))

            acked: list[float] = []  # when each action that was applied was sent

            async def play(c: Client) -> None:
                rng = random.Random(f"delayed/{c.seat}")
                while c.status != "over":
                    action = choose(c, rng)
                    if action is None:
                        await c.recv(20)
                        continue
                    sent = time.monotonic()
                    if (await c.request({"type": "action", "action": action}))["type"] == "ack":
                        acked.append(sent)

            await asyncio.gather(*(play(c) for c in players))
            # The last action applied ended the match: it was published after it was sent.
            seen["seat"] = max(acked)
            await asyncio.wait_for(spectator, DELAY + 30)
            deadline = time.monotonic() + 30
            while not {"summary", "history", "export", "replay"} <= seen.keys():
                assert time.monotonic() < deadline, ("still withheld after the spectator saw the end", seen,
                                                     [(n, st) for n, st, _ in answers[-8:]])
                await asyncio.sleep(0.05)
            stop.set()
            await poller
        # The spectator and every HTTP view were shown the end the delay after it was played.
        for name in ("spectator", "summary", "history", "export", "replay"):
            assert seen[name] - seen["seat"] >= DELAY - 0.05, (name, seen)
        # Until then the match routes answered as for a match still being played.
        for name, status, body in answers:
            if name != "summary" and status != 200:
                assert status == 409 and body["detail"]["code"] == "match_not_finished", body
        assert any(status == 409 for name, status, _ in answers if name == "history")
        # The summary, too, was the delay late: still waiting just after the start.
        assert answers[0][0] == "summary" and answers[0][2]["status"] == "waiting"
        for c in (*players, eve):
            await c.close()

    asyncio.run(main())


def test_a_room_without_a_delay_shows_a_live_match_history(live: LiveServer) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            r = await http.post("/api/rooms", json={"variant": "classic", "max_seats": 2})
            code = r.json()["code"]
            players = await seat_players(live, code, 2)
            await start_game(players)
            match_id = players[0].view["room"]["match_id"]
            r = await http.get(f"/api/matches/{match_id}")
            assert r.status_code == 200 and r.json()["status"] == "playing"
            assert (await http.get(f"/api/rooms/{code}")).json()["status"] == "playing"
        for c in players:
            await c.close()

    asyncio.run(main())


def room(delay: int) -> RoomState:
    return RoomState(code="ABCDEFGH", edition="classic", public=False, max_seats=2, target=None, name="r",
                     spectator_delay=delay)


def test_a_new_delay_restarts_what_is_not_yet_shown() -> None:
    """As the spectators' timeline does: not yet shown, it is shown the new delay from the change."""
    st = room(10)
    reveal = Reveal(st, now=0.0)
    st.status, st.match_id = PLAYING, "m1"
    reveal.published(1.0)
    assert reveal.summary(5.0)["status"] == "waiting" and reveal.summary(11.0)["status"] == "playing"
    assert not reveal.match_shown("m1", 100.0)  # being played in a delayed room
    st.status = OVER
    reveal.published(2.0)
    assert not reveal.match_shown("m1", 11.9) and reveal.match_shown("m1", 12.0)
    st.spectator_delay = 3  # the host shortens the delay at 4 s: what was pending is shown at 7 s
    reveal.published(4.0)
    assert reveal.summary(6.9)["status"] == "waiting" and reveal.summary(7.0)["status"] == "over"
    # Only the status is held back: the options (the delay itself), seats and names are as they are.
    assert reveal.summary(4.5)["spectator_delay"] == 3 and reveal.summary(4.5)["seats_free"] == 2
    assert reveal.summary(7.0)["seats_free"] == 0
    assert not reveal.match_shown("m1", 6.9) and reveal.match_shown("m1", 7.0)
    st.spectator_delay = 0
    reveal.published(5.0)
    assert reveal.summary(5.0)["status"] == "over" and reveal.match_shown("m1", 5.0)
