"""A room with a spectator delay: its HTTP views (room summary, match history, export, replay)
show the end no sooner than its delayed spectators are shown it (docs/ROOMS.md)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.config import Settings
from app.rooms.clock import ManualClock
from app.rooms.reveal import Reveal
from app.rooms.room_state import OVER, PLAYING, RoomState
from tests.live import Client, LiveServer, choose, seat_players, start_game, sync
from tests.waiting import until

DELAY = 2


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    server = LiveServer(Settings(  # type: ignore[call-arg]
        between_rounds_seconds=0.5, _env_file=None, create_rooms_per_minute=100_000, joins_per_minute=100_000,
        sockets_per_address=100_000, socket_rate_messages=100_000, socket_opens_per_minute=1_000_000,
        http_requests_per_minute=0,
        connections_per_address=100_000, rooms_per_address=100_000, room_misses_per_minute=100_000,
        match_downloads_per_minute=100_000, watchers_coalesce_seconds=0.0), clock=ManualClock()).start()
    yield server
    server.stop()


async def views(http: httpx.AsyncClient, code: str, match_id: str) -> dict[str, tuple[int, Any]]:
    """Every HTTP view of the room and its match: (status code, body)."""
    paths = {"summary": f"/api/rooms/{code}", "history": f"/api/matches/{match_id}",
             "export": f"/api/matches/{match_id}/export", "replay": f"/api/matches/{match_id}/replay"}
    out = {}
    for name, path in paths.items():
        r = await http.get(path)
        out[name] = (r.status_code, r.json())
    return out


def shows_the_end(name: str, status: int, body: Any) -> bool:
    return bool(body["status"] == "over" if name == "summary" else
                status == 200 and (name != "history" or body["winner"] is not None))


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
            eve = Client(live, code)
            await eve.connect()
            actor = live.registry.get(code)
            await until(lambda: actor.state.watchers == 1, what="the spectator's arrival handled")
            await sync(players)  # and published: a ping is answered after it

            async def play(c: Client) -> None:
                rng = random.Random(f"delayed/{c.seat}")
                while c.status != "over":
                    action = choose(c, rng)
                    if action is None:
                        await c.recv(20)
                        continue
                    await c.request({"type": "action", "action": action})

            # The whole match is played while the rooms' clock stands still.
            await asyncio.gather(*(play(c) for c in players))
            for wait in (0.0, DELAY - 0.01):  # just now, and a hundredth of a second before the delay is over
                live.advance(wait)
                await eve.drain(0.2)
                assert eve.view is None or eve.status != "over", "the spectator sees the end the delay late"
                answers = await views(http, code, match_id)
                assert not any(shows_the_end(name, *answer) for name, answer in answers.items()), answers
                # The match routes answer as for a match still being played; the summary, as it was
                # published the delay ago (the room was waiting for its players then).
                for name in ("history", "export", "replay"):
                    status, body = answers[name]
                    assert status == 409 and body["detail"]["code"] == "match_not_finished", body
                assert answers["summary"][1]["status"] == "waiting"
            live.advance(0.01)
            while eve.view is None or eve.status != "over":  # every frame held back is due: the end too
                await eve.recv()
            answers = await views(http, code, match_id)
            assert all(shows_the_end(name, *answer) for name, answer in answers.items()), answers
            live.advance(DELAY)  # and it stays shown, whatever the room does next
            await eve.drain(0.1)
            answers = await views(http, code, match_id)
            assert all(shows_the_end(name, *answer) for name, answer in answers.items()), answers
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


def test_an_end_once_shown_stays_shown() -> None:
    """The messages a room handles after its match's end was shown (a summary asked for, say) do not
    hold that end back again."""
    st = room(10)
    reveal = Reveal(st, now=0.0)
    st.status, st.match_id = OVER, "m1"
    reveal.published(1.0)
    assert not reveal.match_shown("m1", 10.9)
    reveal.published(11.0)
    assert reveal.match_shown("m1", 11.0)
    for now in (11.5, 12.0, 30.0):
        reveal.published(now)
        assert reveal.match_shown("m1", now), now
