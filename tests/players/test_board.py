"""The leaderboard kept as matches settle (app/persistence/board.py), on SQLite and Postgres:
the standings the settlements leave equal a from-scratch computation of the history, before and
after a player is deleted; the board is served in pages that are stable and complete; migration
0010 fills the table from the history stored before it; reads past the per-address limit get 429."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic import command
from sqlalchemy import insert

from app.persistence.board import Ranking, from_scratch, stored
from app.persistence.db import alembic_config, create_engine, resolve_url, upgrade
from app.persistence.player_models import PlayerRow, PlayerStandingRow
from bench.player_seed import seed
from tests.live import LiveServer, play_bot
from tests.persistence.conftest import db_url, fresh_postgres_url, postgres_url  # noqa: F401  (fixtures)
from tests.players.conftest import Person, remembering_server, settled
from tests.players.test_memory import open_room


async def _table(url: str, ranking: Ranking) -> tuple[dict[Any, Any], dict[Any, Any]]:
    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            return await stored(conn), await from_scratch(conn, ranking)
    finally:
        await engine.dispose()


async def _match(server: LiveServer, people: list[Person], seed_: int) -> None:
    code = await open_room(server, len(people))
    clients = [await p.join(code) for p in people]
    assert (await clients[0].request({"type": "start"}))["type"] == "ack"
    await asyncio.gather(*(play_bot(c, random.Random(f"{seed_}/{i}")) for i, c in enumerate(clients)))
    for c in clients:
        await c.close()


@pytest.mark.slow
@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_settled_matches_leave_the_standings_a_from_scratch_computation_gives(
    database: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = (
        resolve_url(None, tmp_path) if database == "sqlite" else request.getfixturevalue("fresh_postgres_url")
    )
    ranking = Ranking(2, 2)
    server = remembering_server(
        url, leaderboard_min_matches=2, leaderboard_min_opponents=2, leaderboard_size=1
    )

    async def go() -> None:
        ana, bo, cy, di = (Person(server, n) for n in ("Ana", "Bo", "Cy", "Di"))
        for n, table in enumerate(([ana, bo], [ana, bo, cy], [bo, cy, di], [ana, di])):
            await _match(server, table, n)
            await settled(server, n + 1)
        kept, scratch = await _table(url, ranking)
        assert kept == scratch and len(kept) == 4
        ranked = sorted((row["ordinal"], pid) for (pid, _), row in kept.items() if row["ranked"])
        assert len(ranked) >= 2  # Ana and Bo met 2 different players in 2+ rated matches
        # One player a page: the pages, walked by their ``next``, are the whole board in order.
        async with httpx.AsyncClient(base_url=server.http) as http:
            seen, page = [], 1
            while page is not None:
                body = (await http.get(f"/api/leaderboard/classic?page={page}")).json()
                assert body["pages"] == len(ranked) and body["ranked_players"] == len(ranked)
                seen += [(row["rank"], row["player"]) for row in body["players"]]
                page = body["next"]
            assert seen == [(i + 1, pid) for i, (_, pid) in enumerate(reversed(ranked))]
        # A deleted player leaves the others one opponent fewer, as the history now says.
        assert (await di.http.delete("/api/me")).status_code == 204
        kept, scratch = await _table(url, ranking)
        assert kept == scratch and len(kept) == 3
        for p in (ana, bo, cy, di):
            await p.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()


def _standings(n: int) -> list[dict[str, Any]]:
    """``n`` players' made-up standings, ties in rating among them; a third short of the rule."""
    rng = random.Random(7)
    return [
        {
            "player_id": f"p{i:03d}",
            "edition": "classic",
            "ranked": False,
            "mu": 25.0,
            "sigma": 5.0,
            "ordinal": float(rng.randint(0, 40)),
            "matches": 2 if i % 3 == 0 else 5,
            "opponents": 3,
            "counted": 5,
            "wins": 1,
        }
        for i in range(n)
    ]


def test_the_board_is_served_in_pages_that_are_stable_and_complete(db_url: str) -> None:  # noqa: F811
    rows = _standings(130)

    async def put() -> None:
        engine = create_engine(db_url)
        async with engine.begin() as conn:
            await conn.execute(
                insert(PlayerRow), [{"id": r["player_id"], "name": f"N{r['player_id']}"} for r in rows]
            )
            await conn.execute(insert(PlayerStandingRow), rows)  # every ranked flag wrong: set again at start
        await engine.dispose()

    asyncio.run(put())
    expected = sorted(((r["ordinal"], r["player_id"]) for r in rows if r["matches"] >= 3), reverse=True)
    server = remembering_server(db_url, leaderboard_size=20)

    async def walk() -> None:
        async with httpx.AsyncClient(base_url=server.http) as http:
            pages = []
            for page in range(1, 7):
                body = (await http.get(f"/api/leaderboard/classic?page={page}")).json()
                assert body["page"] == page and body["page_size"] == 20 and body["pages"] == 5
                assert body["previous"] == (page - 1 if page > 1 else None)
                assert body["next"] == (page + 1 if page < 5 else None)
                assert body == (await http.get(f"/api/leaderboard/classic?page={page}")).json()  # stable
                pages.append(body["players"])
            assert pages[5] == [] and [len(p) for p in pages[:5]] == [20, 20, 20, 20, 6]
            listed = [row for page in pages for row in page]
            assert [(row["ordinal"], row["player"]) for row in listed] == expected
            assert [row["rank"] for row in listed] == list(range(1, len(expected) + 1))
            # A player's standing gives the place the board gives them, ties included.
            for row in listed[::7]:
                mine = (await http.get(f"/api/players/{row['player']}/standing")).json()["editions"][
                    "classic"
                ]
                assert (mine["rank"], mine["ranked_players"]) == (row["rank"], len(expected))
            for bad in ("0", "-1", "x", "100001"):
                r = await http.get(f"/api/leaderboard/classic?page={bad}")
                assert r.status_code == 422, r.text

    try:
        asyncio.run(walk())
    finally:
        server.stop()


def test_migration_0010_fills_the_standings_from_the_history(db_url: str) -> None:  # noqa: F811
    command.downgrade(alembic_config(db_url), "0009_bot_levels")

    async def history() -> None:
        engine = create_engine(db_url)
        await seed(engine, players=40, lines=400)
        await engine.dispose()

    asyncio.run(history())
    upgrade(db_url)
    kept, scratch = asyncio.run(_table(db_url, Ranking()))
    assert kept == scratch
    assert len(kept) >= 40 and sum(row["ranked"] for row in kept.values()) >= 10


def test_player_reads_past_the_limit_are_refused_with_a_typed_code(tmp_path: Path) -> None:
    server = remembering_server(resolve_url(None, tmp_path), player_reads_per_minute=6)

    async def go() -> None:
        async with httpx.AsyncClient(base_url=server.http) as http:
            for path in ("/api/leaderboard/classic", "/api/players/nobody", "/api/players/nobody/group") * 2:
                assert (await http.get(path)).status_code in (200, 404)
            for path in ("/api/leaderboard/classic", "/api/players/nobody/standing"):
                r = await http.get(path)
                assert r.status_code == 429 and r.json()["detail"]["code"] == "rate_limited", r.text
                assert int(r.headers["retry-after"]) >= 1
            assert (await http.get("/api/me")).status_code == 404  # one's own player is not a read of others
        other = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
        async with httpx.AsyncClient(base_url=server.http, transport=other) as http:
            assert (await http.get("/api/leaderboard/classic")).status_code == 200

    try:
        asyncio.run(go())
    finally:
        server.stop()
