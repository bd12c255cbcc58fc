"""A socket opened with ``?acks=in_patch`` (the browser's) takes the ack of a command in the patch
the command caused: one frame where there were two (docs/PROTOCOL.md).  Without it, the patch and
then the ack, as before; a refusal is an error frame either way; a resent id is answered with
the plain ack it was given."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest

from app.config import Settings
from tests.live import Client, LiveServer, create_room, seat_players, start_game, sync


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    live = LiveServer(Settings(_env_file=None, between_rounds_seconds=600, create_rooms_per_minute=100_000,  # type: ignore[call-arg]
                               joins_per_minute=100_000, sockets_per_address=100_000)).start()
    yield live
    live.stop()


def a_move(client: Client) -> dict[str, Any]:
    return next(a for a in client.game["table"]["legal"] if a["kind"] not in ("declare_uno", "catch"))


async def frames_until_reply(client: Client, cid: str) -> list[dict[str, Any]]:
    start = len(client.frames)
    await client.until_reply(cid)
    return [json.loads(text) for text in client.frames[start:]]


def test_a_moves_ack_rides_in_its_patch_when_the_socket_asks__C_16(server: LiveServer) -> None:
    async def main() -> None:
        code = await create_room(server, "classic", 2, target=500)
        clients = await seat_players(server, code, 2)
        merged = clients[0]
        merged.acks_in_patch = True
        await merged.close()
        await merged.connect(merged.seq)
        await start_game(clients)
        await sync(clients)
        merged_id = None
        movers = set()
        for _ in range(40):  # until both kinds of socket have moved (a Skip may give a seat two turns)
            mover = next(c for c in clients if c.game["table"]["pending"]["seat"] == c.seat)
            cid = mover.new_id()
            await mover.send({"type": "action", "id": cid, "action": a_move(mover)})
            frames = await frames_until_reply(mover, cid)
            movers.add(mover.seat)
            kinds = [f["type"] for f in frames]
            if mover is merged:
                merged_id = cid
                assert kinds[-1] == "patch" and frames[-1]["ack"] == cid and "ack" not in kinds, kinds
            else:
                assert kinds[-2:] == ["patch", "ack"] and "ack" not in frames[-2], kinds
            await sync(clients)
            if merged.status != "playing" or (len(movers) == 2 and merged_id is not None):
                break
        # The same id again: never applied twice, answered with the plain ack it was given.
        assert merged_id is not None and len(movers) == 2
        await merged.send({"type": "action", "id": merged_id, "action": {"kind": "draw"}})
        again = await frames_until_reply(merged, merged_id)
        assert [f["type"] for f in again] == ["ack"]
        # A refusal is an error frame, whatever the socket asked for.
        wrong = await merged.request({"type": "action", "action": {"kind": "play", "card": 99999}})
        assert wrong["type"] == "error"
        for c in clients:
            await c.close()

    asyncio.run(main())
