"""The players one address makes an hour (app/web/new_players.py), counted by two nodes together
in the Postgres they share (app/cluster/rates.py): the hour's window holds across them, and the
sweep that clears the per-minute windows keeps the hourly ones for their hour."""

from __future__ import annotations

import asyncio

import asyncpg
from sqlalchemy.engine import make_url

from app.cluster.rates import SharedRates
from app.persistence.db import create_engine, upgrade
from app.rates import HOUR_S, HOURLY_KIND


def _dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def test_two_nodes_share_the_hours_new_players_and_the_sweep_keeps_them(fresh_postgres_url: str) -> None:
    upgrade(fresh_postgres_url)

    async def main() -> None:
        engines = [create_engine(fresh_postgres_url), create_engine(fresh_postgres_url)]
        a, b = SharedRates(engines[0]), SharedRates(engines[1])
        await a.start()
        # Six players an hour from one address, made through either node: the seventh waits out the hour.
        waits = [await node.hit(HOURLY_KIND, "203.0.113.7", 6, HOUR_S) for node in (a, b, a, b, a, b)]
        assert waits == [0.0] * 6
        assert await a.hit(HOURLY_KIND, "203.0.113.7", 6, HOUR_S) > HOUR_S - 60
        assert await b.hit(HOURLY_KIND, "198.51.100.1", 6, HOUR_S) == 0.0  # another address: its own
        conn = await asyncpg.connect(_dsn(fresh_postgres_url))
        try:
            # Seconds two minutes old: a per-minute window's are swept, an hourly one's are kept.
            now = await conn.fetchval("SELECT floor(extract(epoch FROM clock_timestamp()))::bigint")
            await conn.execute("INSERT INTO uno_rate_windows VALUES ($1, $2, 1), ($3, $2, 1)",
                               "join 203.0.113.7", now - 120, f"{HOURLY_KIND} 192.0.2.9")
            await a.sweep()
            keys = {r["key"] for r in await conn.fetch("SELECT key FROM uno_rate_windows")}
            assert "join 203.0.113.7" not in keys
            assert {f"{HOURLY_KIND} 192.0.2.9", f"{HOURLY_KIND} 203.0.113.7"} <= keys
        finally:
            await conn.close()
        assert await b.hit(HOURLY_KIND, "203.0.113.7", 6, HOUR_S) > 0  # still refused after the sweep
        for engine in engines:
            await engine.dispose()

    asyncio.run(main())
