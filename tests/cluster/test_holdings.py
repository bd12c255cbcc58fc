"""Issue 23, finding 4: the counts per address two nodes share (app/cluster/holdings.py), on the
run's Postgres with two ``SharedHoldings`` playing two nodes — caps held over live nodes only,
a late write never undoing a newer one, and each node's own count while the database is away."""

from __future__ import annotations

import asyncio
from typing import Any
from unittest.mock import patch

import asyncpg
import pytest
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from app.cluster.holdings import _WRITE, SharedHoldings
from app.cluster.ownership import Ownership
from app.cluster.rates import SharedRates
from app.persistence.db import create_engine, upgrade
from app.rooms.ports import Rate, Refusal


def _dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def test_a_cap_holds_over_the_live_nodes_and_a_dead_nodes_count_lapses(fresh_postgres_url: str) -> None:
    """UNO_SOCKETS_PER_ADDRESS across two nodes: 3 held between them is the cap of 3 for either;
    once A's lease has run out, what A held no longer counts."""
    upgrade(fresh_postgres_url)

    async def main() -> None:
        engine = create_engine(fresh_postgres_url)
        gate = asyncio.Semaphore(2)
        await SharedRates(engine).start()
        a, b = SharedHoldings(engine, "node-a", gate), SharedHoldings(engine, "node-b", gate)
        for node, holdings in (("node-a", a), ("node-b", b)):
            await Ownership(engine, node, "127.0.0.1:1", 5.0).renew()
            await holdings.start()
        conn = await asyncpg.connect(_dsn(fresh_postgres_url))
        try:
            assert await a.take("sockets", "10.0.0.1", 3) is None
            assert await a.take("sockets", "10.0.0.1", 3) is None
            assert await b.take("sockets", "10.0.0.1", 3) is None
            assert await b.take("sockets", "10.0.0.1", 3) == Refusal("cap")
            assert await a.take("sockets", "10.0.0.1", 3) == Refusal("cap")
            assert await b.take("sockets", "10.0.0.2", 3) is None  # another address: a count of its own
            assert (a.held("sockets", "10.0.0.1"), b.held("sockets", "10.0.0.1")) == (2, 1)

            a.give_back("sockets", "10.0.0.1")  # written in a batch: until then B sees one too many
            assert await b.take("sockets", "10.0.0.1", 3) == Refusal("cap")
            await a.flush()
            assert await b.take("sockets", "10.0.0.1", 3) is None
            assert await b.take("sockets", "10.0.0.1", 3) == Refusal("cap")

            await conn.execute("UPDATE nodes SET lease_until = now() - interval '1 second' WHERE id = 'node-a'")
            assert await b.take("sockets", "10.0.0.1", 3) is None  # A's one no longer counts
            assert await b.take("sockets", "10.0.0.1", 3) == Refusal("cap")  # B's own three do
        finally:
            await conn.close()
            await engine.dispose()

    asyncio.run(main())


def test_an_open_rate_is_one_window_for_both_nodes(fresh_postgres_url: str) -> None:
    """UNO_SOCKET_OPENS_PER_MINUTE across two nodes: opens alternate, one window; an open over
    the rate holds nothing, and one at the cap still counts in the rate."""
    upgrade(fresh_postgres_url)

    async def main() -> None:
        engine = create_engine(fresh_postgres_url)
        gate = asyncio.Semaphore(2)
        await SharedRates(engine).start()
        a, b = SharedHoldings(engine, "node-a", gate), SharedHoldings(engine, "node-b", gate)
        for node, holdings in (("node-a", a), ("node-b", b)):
            await Ownership(engine, node, "127.0.0.1:1", 5.0).renew()
            await holdings.start()
        rate = Rate(4, 60.0)
        try:
            assert await a.take("sockets", "10.0.0.1", 2, rate) is None
            assert await b.take("sockets", "10.0.0.1", 2, rate) is None
            assert await a.take("sockets", "10.0.0.1", 2, rate) == Refusal("cap")  # the third open, counted
            assert await b.take("sockets", "10.0.0.1", 2, rate) == Refusal("cap")  # the fourth
            refused = await a.take("sockets", "10.0.0.1", 100, rate)
            assert refused is not None and refused.over == "rate" and refused.wait >= 1
            refused = await b.take("sockets", "10.0.0.1", 100, rate)
            assert refused is not None and refused.over == "rate"
            assert (a.held("sockets", "10.0.0.1"), b.held("sockets", "10.0.0.1")) == (1, 1)
        finally:
            await engine.dispose()

    asyncio.run(main())


def test_a_write_read_before_a_newer_one_never_undoes_it(fresh_postgres_url: str) -> None:
    """A batch of give-backs read before a take but committed after it keeps the take's count."""
    upgrade(fresh_postgres_url)

    async def main() -> None:
        engine = create_engine(fresh_postgres_url)
        holdings = SharedHoldings(engine, "node-a", asyncio.Semaphore(2))
        await SharedRates(engine).start()  # the node makes the windows' table first (app/cluster/node.py)
        await Ownership(engine, "node-a", "127.0.0.1:1", 5.0).renew()
        await holdings.start()
        conn = await asyncpg.connect(_dsn(fresh_postgres_url))
        try:
            assert await holdings.take("rooms", "10.0.0.1", 5) is None
            assert not holdings.dirty  # decided by the database, not on this node's own
            async with engine.begin() as sql:  # a stale batch: stamp 0, read when nothing was held
                await sql.execute(_WRITE, {"node": "node-a", "stamp": 0, "kinds": ["rooms"],
                                           "addresses": ["10.0.0.1"], "ns": [0]})
            n = await conn.fetchval("SELECT n FROM uno_address_holds WHERE node = 'node-a' AND kind = 'rooms'")
            assert n == 1
        finally:
            await conn.close()
            await engine.dispose()

    asyncio.run(main())


def test_with_the_database_away_a_node_counts_on_its_own() -> None:
    """As the shared rates do: no database, the node's own cap and window still hold."""

    async def main() -> None:
        engine = create_async_engine("postgresql+asyncpg://postgres@127.0.0.1:1/none",
                                     connect_args={"timeout": 2})
        holdings = SharedHoldings(engine, "node-a", asyncio.Semaphore(2))
        rate = Rate(3, 60.0)
        try:
            assert await holdings.take("sockets", "10.0.0.1", 2, rate) is None
            assert await holdings.take("sockets", "10.0.0.1", 2, rate) is None
            assert await holdings.take("sockets", "10.0.0.1", 2, rate) == Refusal("cap")
            refused = await holdings.take("sockets", "10.0.0.1", 2, rate)
            assert refused is not None and refused.over == "rate"
            assert holdings.held("sockets", "10.0.0.1") == 2
            assert ("sockets", "10.0.0.1") in holdings.dirty  # written once the database is back
        finally:
            await engine.dispose()

    asyncio.run(main())


def test_a_burst_of_takes_on_two_nodes_is_decided_in_batches_and_holds_the_cap(
        fresh_postgres_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """UNO_SOCKETS_PER_ADDRESS (a cap of 1 here) with both nodes taking for 300 addresses at
    once, as after a failover: batched (fewer transactions than takes), and exactly one node
    holds each address."""
    upgrade(fresh_postgres_url)

    async def main() -> None:
        engine = create_engine(fresh_postgres_url)
        gate = asyncio.Semaphore(2)
        await SharedRates(engine).start()
        a, b = SharedHoldings(engine, "node-a", gate), SharedHoldings(engine, "node-b", gate)
        for node, holdings in (("node-a", a), ("node-b", b)):
            await Ownership(engine, node, "127.0.0.1:1", 5.0).renew()
            await holdings.start()
        decided = 0
        decide = SharedHoldings._decide

        async def counted(self: SharedHoldings, batch: list[Any]) -> Any:
            nonlocal decided
            decided += 1
            return await decide(self, batch)
        addresses = [f"10.1.{i // 200}.{i % 200}" for i in range(300)]
        rate = Rate(10, 60.0)
        try:
            with patch.object(SharedHoldings, "_decide", counted):
                answers = await asyncio.gather(*(holdings.take("sockets", address, 1, rate)
                                                 for address in addresses for holdings in (a, b)))
            assert decided < len(answers) / 4, decided
            assert "on this node only" not in caplog.text  # every one decided by the database
            for address in addresses:
                assert a.held("sockets", address) + b.held("sockets", address) == 1, address
            assert sum(answer is None for answer in answers) == len(addresses)
            assert all(answer == Refusal("cap") for answer in answers if answer is not None)
        finally:
            await engine.dispose()

    asyncio.run(main())
