"""Every read of the players' pages and the leaderboard follows an index, on SQLite and Postgres:
none scans the player matches or the standings (EXPLAIN; Postgres with sequential scans priced out,
so that a plan that could use an index shows it however small the seeded tables are)."""

from __future__ import annotations

import asyncio

from sqlalchemy import text

from app.persistence import board_places as places
from app.persistence import player_reads as reads
from app.persistence.db import alembic_config, create_engine, upgrade
from bench.player_seed import player_id, seed
from tests.persistence.conftest import _reset, db_url, postgres_url  # noqa: F401  (fixtures)

PID = player_id(3)
MATCHES = ["m000000001", "m000000002"]
READS = {
    "leaderboard page": reads._BOARD.params(edition="classic", size=20, skip=40),
    "ranked players": places.RANKED_COUNT.params(edition="classic"),
    "history": reads.HISTORY.params(pid=PID, limit=50),
    "history's opponents": reads._OPPONENT_SEATS.params(ids=MATCHES),
    "standing rows": reads.STANDINGS.params(pid=PID),
    "group's matches": reads._NEWEST.params(pid=PID),
    "group's people": reads._WITH.params(ids=MATCHES, pid=PID),
    "standing's place": places.PLACE.params(edition="classic", bucket=100, ordinal=10.0, high=10.1, pid=PID),
}


def test_no_player_read_scans_the_matches_or_the_standings(db_url: str) -> None:  # noqa: F811
    from alembic import command

    command.downgrade(alembic_config(db_url), "0009_bot_levels")

    async def plans() -> dict[str, str]:
        engine = create_engine(db_url)
        await seed(engine, players=200, lines=2000)
        await engine.dispose()
        await asyncio.to_thread(upgrade, db_url)
        engine = create_engine(db_url)
        found = {}
        async with engine.connect() as conn:
            postgres = conn.dialect.name == "postgresql"
            if postgres:
                await conn.execute(text("SET enable_seqscan = off"))
            for what, statement in READS.items():
                sql = str(statement.compile(engine.sync_engine, compile_kwargs={"literal_binds": True}))
                rows = (
                    await conn.execute(text(("EXPLAIN " if postgres else "EXPLAIN QUERY PLAN ") + sql))
                ).all()
                found[what] = "\n".join(str(row[0] if postgres else row[-1]) for row in rows)
        await engine.dispose()
        return found

    for what, plan in asyncio.run(plans()).items():
        for table in ("player_matches", "player_standings", "players", "matches", "leaderboard_buckets"):
            assert f"Seq Scan on {table} " not in plan and not any(
                line.strip().startswith(f"SCAN {table}") for line in plan.splitlines()
            ), f"{what}:\n{plan}"
        assert "Index" in plan or "INDEX" in plan, f"{what}:\n{plan}"


def test_the_board_is_read_from_its_index_alone_right_after_the_migration(postgres_url: str) -> None:  # noqa: F811
    """On Postgres a page of the board and the counts of a player's place are index-only scans that
    visit no table page (``Heap Fetches: 0``) as soon as the migrations that filled the standings
    are done (0012 gives many rows a new version, asking to be vacuumed again):
    migrations/env.py vacuums the tables it filled in bulk, after the migrations' transaction.
    Without that, each read also visited the table until autovacuum came round: the benchmark's
    leaderboard p50 was 24 ms instead of 5."""
    from alembic import command

    asyncio.run(_reset(postgres_url))  # the run's database, as the tests before this one left it
    upgrade(postgres_url)
    command.downgrade(alembic_config(postgres_url), "0009_bot_levels")

    async def heap_fetches() -> dict[str, list[int]]:
        engine = create_engine(postgres_url)
        await seed(engine, players=200, lines=2000)
        await engine.dispose()
        await asyncio.to_thread(upgrade, postgres_url)
        engine = create_engine(postgres_url)
        found = {}
        async with engine.connect() as conn:
            await conn.execute(text("SET enable_seqscan = off"))
            for what in ("leaderboard page", "standing's place"):
                sql = str(READS[what].compile(engine.sync_engine, compile_kwargs={"literal_binds": True}))
                plan = [str(row[0]) for row in (await conn.execute(text("EXPLAIN ANALYZE " + sql))).all()]
                found[what] = [int(line.rsplit(":", 1)[1]) for line in plan if "Heap Fetches" in line]
        await engine.dispose()
        return found

    for what, fetches in asyncio.run(heap_fetches()).items():
        assert fetches and fetches == [0] * len(fetches), (what, fetches)
