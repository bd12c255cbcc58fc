"""One person cannot farm a rating (docs/STATS.md, "Inflating a rating"), and a household can
still be rated: real sockets to a real server, with the server's own checks as shipped.

The farm is the one a hostile visitor ran: one address, a script playing every seat, six
cookie-less puppets, three two-round matches one after another.  The household is four people
behind one address, each on their own browser, who pause before each move as people do."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.config import Settings
from app.persistence.db import resolve_url
from app.persistence.farm_guard import Before, FarmGuard
from app.rooms.think_time import INSTANT_MS
from tests.live import Client, LiveServer, choose, play_bot
from tests.persistence.conftest import fresh_postgres_url  # noqa: F401  (the fixture, for the Postgres run)
from tests.players.conftest import Person, remembering_server, settled

# The checks as a server ships them (the other player tests turn them off).
SHIPPED = {key: Settings.model_fields[key].default
           for key in ("new_players_per_hour", "rating_instant_share", "rating_after_matches",
                       "rating_first_day_matches", "rating_pair_limit")}


def guarded_server(tmp_path: Path, url: str | None = None) -> LiveServer:
    return remembering_server(url or resolve_url(None, tmp_path), **SHIPPED)


async def two_round_room(server: LiveServer, seats: int) -> str:
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.post("/api/rooms", json={"variant": "classic", "max_seats": seats,
                                                "house_rules": {"rounds": 2}})
        assert r.status_code == 201, r.text
        return str(r.json()["code"])


async def standing(http: httpx.AsyncClient, pid: str) -> dict[str, Any]:
    r = await http.get(f"/api/players/{pid}/standing")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()["editions"]["classic"]
    return body


async def by_hand(client: Client, rng: random.Random, pause: tuple[float, float] = (0.2, 0.45)) -> None:
    """A person at the table: looks until the table is still for a moment (200-450 ms), then moves."""
    while client.status != "over":
        if choose(client, rng) is None:
            if client.status == "between" and not any(
                    p["ready"] for p in client.view["players"] if p["seat"] == client.seat):
                await client.request({"type": "ready"})
                continue
            await client.recv(30)
            continue
        await client.drain(rng.uniform(*pause))
        action = choose(client, rng)  # on the table as it is now
        if action is not None:
            await client.request({"type": "action", "action": action})


async def play_match(server: LiveServer, people: list[Person], seed: str,
                     play: Callable[[Client, random.Random], Awaitable[object]] = play_bot) -> None:
    """One two-round match of ``people``, each seat played by ``play``: from the room's making to
    its last socket closed."""
    code = await two_round_room(server, len(people))
    clients = [await p.join(code) for p in people]
    assert (await clients[0].request({"type": "start"}))["type"] == "ack"
    await asyncio.gather(*(play(c, random.Random(f"{seed}/{i}")) for i, c in enumerate(clients)))
    for c in clients:
        await c.close()


def test_the_guards_thresholds() -> None:
    guard = FarmGuard()
    assert INSTANT_MS == 150
    assert not guard.by_hand(20, 20) and not guard.by_hand(20, 11)  # most moves instant: a script
    assert guard.by_hand(20, 10)  # a person
    assert guard.by_hand(4, 4) and guard.by_hand(None, None)  # too few to judge; not timed
    assert FarmGuard(instant_share=0).by_hand(20, 20)  # off
    # A player's first counted match rates nobody, nor do more than 2 rated ones in the day after it;
    # two players are rated together at most 5 times a day.
    now = datetime.now(UTC)
    hour_ago, two_days_ago = now - timedelta(hours=1), now - timedelta(days=2)
    before = {"a": Before(1, hour_ago, 0), "b": Before(3, hour_ago, 2), "c": Before(3, two_days_ago, 2)}
    assert guard.held_back(["a", "b", "c", "d"], before, {}, now) == {"b": "new_player", "d": "new_player"}
    seasoned = {p: Before(9, two_days_ago, 8) for p in "abc"}
    spent = {("a", "b"): 5, ("b", "a"): 5, ("a", "c"): 5, ("c", "a"): 5, ("b", "c"): 4, ("c", "b"): 4}
    assert guard.held_back(["a", "b", "c"], seasoned, spent, now) == {"a": "same_opponents"}
    assert FarmGuard(rated_after=0, pair_limit=0).held_back(["a", "b"], {}, spent, now) == {}

def test_an_address_makes_at_most_six_players_an_hour_and_then_joins_unlinked(tmp_path: Path) -> None:
    server = guarded_server(tmp_path)

    async def go() -> None:
        code = await two_round_room(server, 8)
        people = [Person(server, f"P{i}") for i in range(7)]
        for p in people:
            r = await p.http.post(f"/api/rooms/{code}/players", json={"name": p.name})
            assert r.status_code == 201, r.text  # the seat is always taken
        made = ["uno_player" in p.http.cookies for p in people]
        assert made == [True] * 6 + [False]  # the seventh is an unlinked seat, remembered by nobody
        r = await people[6].http.post("/api/me", json={"name": "P6"})
        assert r.status_code == 429 and r.json()["detail"]["code"] == "rate_limited", r.text
        assert int(r.headers["retry-after"]) > 3000  # the hour's window
        # A player already: a rename, not a new player.
        renamed = await people[0].http.post("/api/me", json={"name": "Still P0"})
        assert renamed.status_code == 201
        for p in people:
            await p.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()


@pytest.mark.slow
def test_a_scripted_farm_of_cookie_less_puppets_ranks_nobody(tmp_path: Path) -> None:
    server = guarded_server(tmp_path)

    async def go() -> None:
        farmer = Person(server, "Farmer")
        puppets = [Person(server, f"Puppet{i}") for i in range(6)]  # six cookie-less joins
        for n in range(3):  # three two-round matches, one after another, every seat the script's
            await play_match(server, [farmer, *puppets[2 * n:2 * n + 2]], f"farm/{n}")
        await settled(server, 3)
        players = [p for p in (farmer, *puppets) if "uno_player" in p.http.cookies]
        assert len(players) == 6  # the farmer and five puppets: the sixth joined unlinked
        async with httpx.AsyncClient(base_url=server.http) as http:
            assert (await http.get("/api/leaderboard/classic")).json()["players"] == []
            for p in players:
                pid = (await p.me())["id"]
                mine = await standing(http, pid)
                assert not mine["ranked"] and mine["matches"] == 0 and mine["matches_left"] == 3
                # Why: every seat answered the room within an instant, as no person does.
                assert mine["unrated"] == {"not_by_hand": 3 if p is farmer else 1}, mine
                lines = (await http.get(f"/api/players/{pid}")).json()["history"]
                assert all(not line["counted"] and line["reason"] == "not_by_hand" for line in lines)
        for p in (farmer, *puppets):
            await p.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()


@pytest.mark.slow
def test_a_farm_whose_script_waits_like_a_person_is_not_ranked_on_its_first_evening(
        tmp_path: Path, fresh_postgres_url: str) -> None:  # noqa: F811  (the fixture)
    # On Postgres (the household and the scripted farm play on SQLite): the checks' reads on both.
    server = guarded_server(tmp_path, fresh_postgres_url)

    async def go() -> None:
        farmer, left, right = Person(server, "Farmer"), Person(server, "Left"), Person(server, "Right")
        for n in range(4):  # one match to make the puppets count, then three more for the leaderboard
            # Every seat waits past the instant before it moves, as the timing check asks.
            await play_match(server, [farmer, left, right], f"patient/{n}",
                             lambda c, rng: by_hand(c, rng, (0.16, 0.22)))
            await settled(server, n + 1, timeout=60)
        async with httpx.AsyncClient(base_url=server.http) as http:
            assert (await http.get("/api/leaderboard/classic")).json()["players"] == []
            mine = await standing(http, (await farmer.me())["id"])
            # Played "by hand", so rated: twice, then no more on its first day.
            assert (mine["matches"], mine["opponents"], mine["matches_left"]) == (2, 2, 1), mine
            assert not mine["ranked"] and mine["unrated"] == {"new_player": 2}, mine
        for p in (farmer, left, right):
            await p.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()


@pytest.mark.slow
def test_a_household_of_four_behind_one_address_is_rated_like_any_group(tmp_path: Path) -> None:
    server = guarded_server(tmp_path)

    async def go() -> None:
        family = [Person(server, name) for name in ("Mum", "Dad", "Ida", "Leo")]
        for n in range(3):  # their first evening: three two-round matches, played by hand
            await play_match(server, family, f"home/{n}", by_hand)
            await settled(server, n + 1, timeout=60)
        async with httpx.AsyncClient(base_url=server.http) as http:
            for p in family:
                pid = (await p.me())["id"]
                lines = (await http.get(f"/api/players/{pid}")).json()["history"]  # newest first
                assert all(line["counted"] for line in lines), lines  # by hand, each of them
                # Their first match made them players and rated nobody; the next two were rated.
                assert lines[2]["reason"] == "new_player" and lines[2]["rating"] is None
                assert all(line["reason"] is None and line["rating"] is not None for line in lines[:2])
                mine = await standing(http, pid)
                # Provisional, with what is left said: one more rated match (on their second day: at
                # most two are rated in a player's first), like any new group.
                assert (mine["matches"], mine["opponents"], mine["matches_left"], mine["opponents_left"]) \
                    == (2, 3, 1, 0), mine
                assert not mine["ranked"] and mine["unrated"] == {"new_player": 1}
        for p in family:
            await p.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()
