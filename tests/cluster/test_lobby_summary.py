"""A cluster's lobby lists a room exactly as one process lists it: one builder for both.

Each node reads the lobby from the database (app/cluster/ownership.py); a process alone reads
its rooms' own summaries (app/rooms/room_state.py).  Both go through ``RoomOptions.lobby_summary``:
a room with spectator chat on and a spectator delay is listed with both, by either.
"""

from __future__ import annotations

import asyncio

from tests.cluster.test_node_restore import _node, node_of


def test_a_node_lists_a_room_as_the_process_that_runs_it(postgres_url: str) -> None:
    async def scenario() -> None:
        store, registry, _ = await _node(postgres_url)
        try:
            actor = await registry.create("classic", public=True, max_seats=3, target=250, name="Friday night",
                                          house_rules={"stacking": True}, turn_seconds=30, away_grace_seconds=45,
                                          spectator_chat=True, spectator_delay=20)
            await actor.join("Ana")
            listed = {room["code"]: room for room in await node_of(registry).lobby()}
            alone = {room["code"]: room for room in registry.public_rooms()}
            # The same fields, the same values; the creation time is the row's (stored a moment later).
            assert abs(listed[actor.code].pop("created_at") - alone[actor.code]["created_at"]) < 60
            assert listed[actor.code] == {k: v for k, v in alone[actor.code].items() if k != "created_at"}
            assert listed[actor.code]["spectator_chat"] is True and listed[actor.code]["spectator_delay"] == 20
            assert listed[actor.code]["players"] == ["Ana"] and listed[actor.code]["seats_free"] == 2
        finally:
            await registry.stop()
            await store.stop()

    asyncio.run(scenario())
