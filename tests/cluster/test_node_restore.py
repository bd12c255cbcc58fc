"""One node, two restores of the same room: only the newest epoch's actor may run.

A node's takeover pass and a client's claim can restore the same room at once (the claim
raises the epoch of a room the node had just taken).  Whatever order they finish in, the
node must end with one live actor for the room, holding the newest epoch; an older actor
left running would be a second copy of the room on the node.
"""

from __future__ import annotations

import asyncio

from sqlalchemy import text

from app.cluster.node import ClusterNode
from app.config import Settings
from app.main import join_cluster
from app.persistence import SqlStore
from app.persistence.db import create_engine
from app.rooms.actor import RoomActor
from app.rooms.registry import RoomRegistry


def node_of(registry: RoomRegistry) -> ClusterNode:
    assert isinstance(registry.tenancy, ClusterNode), registry.tenancy
    return registry.tenancy


async def _node(postgres_url: str) -> tuple[SqlStore, RoomRegistry, list[RoomActor]]:
    # Long leases and renewals: the node's own takeover loop stays out of the way.
    settings = Settings(_env_file=None, cluster=True, node_id="node-restore", node_address="127.0.0.1:1",  # type: ignore[call-arg]
                        lease_seconds=120, lease_renew_seconds=60, bot_delay_scale=0.0)
    store = SqlStore(create_engine(postgres_url), migrate_url=postgres_url)
    await store.start()
    registry = RoomRegistry(settings, store)
    join_cluster(settings, store, registry)
    await registry.start()
    started: list[RoomActor] = []
    run = registry.run

    def recorded(actor: RoomActor) -> None:
        started.append(actor)
        run(actor)
    registry.run = recorded  # type: ignore[method-assign]
    return store, registry, started


async def _orphan(store: SqlStore, registry: RoomRegistry, epoch: int) -> str:
    """A room whose owner died: in the store at ``epoch``, on no node."""
    actor = await registry.create("classic", public=False, max_seats=2, target=None, name=None)
    code = actor.code
    node_of(registry).drop(code, "test")
    async with store.engine.begin() as conn:
        await conn.execute(text("INSERT INTO nodes (id, address, lease_until) VALUES ('node-dead', 'x:1', now()) "
                                "ON CONFLICT (id) DO NOTHING"))
        await conn.execute(text("UPDATE rooms SET owner = 'node-dead', epoch = :e WHERE code = :c"),
                           {"e": epoch, "c": code})
    return code


def _live(started: list[RoomActor], code: str) -> list[RoomActor]:
    return [a for a in started if a.code == code and not a.stopped]


def test_restores_finishing_out_of_order_leave_the_newest_epoch_running(postgres_url: str) -> None:
    async def scenario() -> None:
        store, registry, started = await _node(postgres_url)
        node = node_of(registry)
        try:
            for first, second in ((3, 2), (4, 5)):
                code = await _orphan(store, registry, first - 1)
                assert await node._restore(code, first)
                assert await node._restore(code, second)
                newest = max(first, second)
                live = _live(started, code)
                assert len(live) == 1, f"{len(live)} actors of room {code} running"
                assert registry.rooms[code] is live[0]
                assert node.fence.epochs[code] == newest
        finally:
            await registry.stop()
            await store.stop()
    asyncio.run(scenario())


def test_a_claim_during_a_takeover_leaves_one_actor(postgres_url: str) -> None:
    async def scenario() -> None:
        store, registry, started = await _node(postgres_url)
        node = node_of(registry)
        try:
            code = await _orphan(store, registry, 1)
            await asyncio.gather(node.take_over_once(), node.place(code))
            await asyncio.sleep(0.1)
            live = _live(started, code)
            assert len(live) == 1, f"{len(live)} actors of room {code} running"
            assert registry.rooms[code] is live[0]
            async with store.engine.connect() as conn:
                owner, epoch = (await conn.execute(text("SELECT owner, epoch FROM rooms WHERE code = :c"),
                                                   {"c": code})).one()
            assert (owner, epoch) == (node.id, node.fence.epochs[code])
        finally:
            await registry.stop()
            await store.stop()
    asyncio.run(scenario())
