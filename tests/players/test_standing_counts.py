"""What a player's page reads is kept as matches settle (app/persistence/board.py and
board_places.py): each standing's settled matches that moved no rating, by why, and the board's
buckets, from which a ranked player's place and the edition's ranked count are read.  After
settlements of every kind, after a player's deletion and after migration 0012's fill, on SQLite
and Postgres, they equal what the stored history gives from scratch, and each ranked player's
place is the one the board's pages give them."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic import command
from sqlalchemy import text

from app.persistence import board_places
from app.persistence.board import Ranking, from_scratch, stored
from app.persistence.db import alembic_config, create_engine, resolve_url, upgrade
from bench.player_seed import seed
from tests.live import LiveServer, play_bot
from tests.persistence.conftest import db_url, fresh_postgres_url, postgres_url  # noqa: F401  (fixtures)
from tests.players.conftest import Person, remembering_server, settled


def test_every_ordinal_falls_in_the_bucket_the_databases_compare_it_into() -> None:
    rng = random.Random(12)
    # Tenths that have no exact double, the edges either side of zero, and ratings as they come.
    edges = [0.3, 0.7, -0.1, -0.3, 2.675, 5.1, 1e-12, -1e-12, 0.0, -0.0, 45.69999999999994, 0.1 * 3]
    for ordinal in edges + [rng.uniform(-30, 60) for _ in range(5000)]:
        b = board_places.bucket_of(ordinal)
        assert board_places.low(b) <= ordinal < board_places.low(b + 1), (ordinal, b)
    assert board_places.bucket_of(0.3) == 3 and board_places.bucket_of(-0.05) == -1


async def _kept(url: str, ranking: Ranking) -> tuple[Any, Any, Counter[Any], Counter[Any]]:
    """The standings as kept and from scratch; the buckets as kept and as the ranked rows give them."""
    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            kept, scratch = await stored(conn), await from_scratch(conn, ranking)
            buckets = await board_places.stored(conn)
    finally:
        await engine.dispose()
    ranked = [(edition, row["ordinal"]) for (_, edition), row in scratch.items() if row["ranked"]]
    return kept, scratch, buckets, board_places.histogram(ranked)


async def _room(server: LiveServer, seats: int, house: dict[str, Any]) -> str:
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.post("/api/rooms", json={"variant": "classic", "max_seats": seats,
                                                "house_rules": house})
        assert r.status_code == 201, r.text
        return str(r.json()["code"])


async def _match(server: LiveServer, people: list[Person], seed_: int, bot: bool = False,
                 house: dict[str, Any] | None = None) -> None:
    code = await _room(server, len(people) + bot, house or {"rounds": 2})
    clients = [await p.join(code) for p in people]
    if bot:
        r = await people[0].http.post(f"/api/rooms/{code}/bots",
                                      headers={"Authorization": f"Bearer {clients[0].token}"})
        assert r.status_code == 201, r.text
        await clients[0].drain(0.2)
    assert (await clients[0].request({"type": "start"}))["type"] == "ack"
    await asyncio.gather(*(play_bot(c, random.Random(f"{seed_}/{i}")) for i, c in enumerate(clients)))
    for c in clients:
        await c.close()


async def _places_agree_with_the_board(http: httpx.AsyncClient, ids: list[str]) -> int:
    """Each ranked player's standing gives the place and count the board's pages give; returns the count."""
    board = (await http.get("/api/leaderboard/classic")).json()
    on_board = {row["player"]: row["rank"] for row in board["players"]}
    for pid in ids:
        mine = (await http.get(f"/api/players/{pid}/standing")).json()["editions"]["classic"]
        assert mine["rank"] == on_board.get(pid), (pid, mine, on_board)
        assert mine["ranked_players"] == (board["ranked_players"] if mine["ranked"] else None)
    return int(board["ranked_players"])


@pytest.mark.slow
@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_unrated_counts_and_buckets_stay_right_across_settlements_and_a_deletion(
    database: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = (resolve_url(None, tmp_path) if database == "sqlite"
           else request.getfixturevalue("fresh_postgres_url"))
    ranking = Ranking(2, 2)
    # A player's first counted match is held back (``new_player``, the line's own reason).
    server = remembering_server(url, leaderboard_min_matches=2, leaderboard_min_opponents=2,
                                rating_after_matches=1)

    async def go() -> None:
        ana, bo, cy, di = people = [Person(server, n) for n in ("Ana", "Bo", "Cy", "Di")]
        await _match(server, [ana, bo], 1, house={"single_round": True})  # the match's reason: single_round
        await _match(server, [ana], 2, bot=True)  # Ana and a bot: few_players
        await _match(server, [ana, bo, cy], 3)  # Cy's first counted match: new_player
        await _match(server, [bo, cy, di], 4)  # Di's first: new_player
        await _match(server, [ana, di], 5)
        await _match(server, [ana, bo, cy, di], 6)
        await settled(server, 6)
        ids = [(await p.me())["id"] for p in people]
        kept, scratch, buckets, want = await _kept(url, ranking)
        assert kept == scratch and buckets == want and sum(buckets.values()) >= 2
        async with httpx.AsyncClient(base_url=server.http) as http:
            pages = [(await http.get(f"/api/players/{pid}")).json() for pid in ids]
            unrated = [page["standing"]["editions"]["classic"]["unrated"] for page in pages]
            assert unrated == [{"single_round": 1, "few_players": 1}, {"single_round": 1},
                               {"new_player": 1}, {"new_player": 1}]
            assert await _places_agree_with_the_board(http, ids) == sum(buckets.values())
            # Di goes: off the board's buckets, and the players they met count one opponent fewer.
            assert (await di.http.delete("/api/me")).status_code == 204
            kept, scratch, buckets, want = await _kept(url, ranking)
            assert kept == scratch and buckets == want and len(kept) == 3
            assert await _places_agree_with_the_board(http, ids[:3]) == sum(buckets.values())
        for p in people:
            await p.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()


def test_migration_0012_fills_the_unrated_counts_and_the_buckets(db_url: str) -> None:  # noqa: F811
    command.downgrade(alembic_config(db_url), "0009_bot_levels")

    async def history() -> None:
        engine = create_engine(db_url)
        await seed(engine, players=40, lines=400)
        async with engine.begin() as conn:  # some lines rated nobody: by the line's reason, or the match's
            await conn.execute(text("UPDATE player_matches SET mu_after = NULL, sigma_after = NULL, "
                                    "reason = 'new_player' WHERE match_id LIKE '%3'"))
            await conn.execute(text("UPDATE player_matches SET mu_after = NULL, sigma_after = NULL "
                                    "WHERE match_id LIKE '%7'"))
            await conn.execute(text("UPDATE settled_matches SET rated = false, reason = 'few_players' "
                                    "WHERE match_id LIKE '%7'"))
        await engine.dispose()

    asyncio.run(history())
    upgrade(db_url)
    kept, scratch, buckets, want = asyncio.run(_kept(db_url, Ranking()))
    assert kept == scratch and buckets == want and sum(buckets.values()) >= 10
    reasons = Counter(why for row in kept.values() for why in row["unrated"])
    assert reasons["new_player"] >= 5 and reasons["few_players"] >= 5, reasons
