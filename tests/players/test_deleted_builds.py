"""Deleting a player reaches every copy of the matches they played (docs/STATS.md): the stored
builds of those matches' exports and replays, and the copies every node holds in memory.

Two servers over one Postgres database, as the nodes of a cluster: a match is played on one, its
export and replay fetched from both (so both hold them in memory, gzipped and unzipped), then a
player deletes themselves on one node.  Fetched again from each node, neither document names
them any more and each has a new ETag; the old copies are gone from both nodes' memory."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest

from app.persistence.players import FORMER_PLAYER
from tests.live import LiveServer, play_bot
from tests.persistence.conftest import _reset
from tests.players.conftest import Person, remembering_server, settled
from tests.players.test_memory import open_room

pytestmark = pytest.mark.slow  # two servers, a real match, builds in worker processes

KINDS = ("export", "replay")
PLAIN = {"Accept-Encoding": "identity"}  # a client that does not take gzip: the unzipped copy


def test_a_deleted_players_name_leaves_every_nodes_builds_and_their_etags_change(postgres_url: str) -> None:
    asyncio.run(_reset(postgres_url))
    one = remembering_server(postgres_url)
    two = remembering_server(postgres_url)
    try:
        asyncio.run(_delete_between_fetches(one, two))
    finally:
        one.stop()
        two.stop()


async def fetch(node: LiveServer, match_id: str, kind: str, plain: bool = False) -> httpx.Response:
    async with httpx.AsyncClient(base_url=node.http, timeout=30) as http:
        r = await http.get(f"/api/matches/{match_id}/{kind}", headers=PLAIN if plain else None)
    assert r.status_code == 200, r.text
    return r


async def _delete_between_fetches(one: LiveServer, two: LiveServer) -> None:
    ana, bo = Person(one, "Ana"), Person(one, "Bo")
    code = await open_room(one, 2)
    clients = [await ana.join(code), await bo.join(code)]
    assert (await clients[0].request({"type": "start"}))["type"] == "ack"
    match_id = clients[0].view["room"]["match_id"]
    await asyncio.gather(*(play_bot(c, random.Random(i)) for i, c in enumerate(clients)))
    for c in clients:
        await c.close()
    await settled(one, 1)

    before: dict[tuple[str, str, bool], str] = {}
    for node, name in ((one, "one"), (two, "two")):
        for kind in KINDS:
            for plain in (False, True):
                r = await fetch(node, match_id, kind, plain)
                assert r.json()["players"] == ["Ana", "Bo"] and '"Ana"' in r.text
                before[(name, kind, plain)] = r.headers["etag"]
        held = node.app.state.match_builds
        assert {(match_id, kind) for kind in KINDS} <= set(held.cache) and len(held.plain) >= 2

    assert (await ana.http.delete("/api/me")).status_code == 204  # on node one

    for node, name in ((one, "one"), (two, "two")):
        held = node.app.state.match_builds
        old = {k: held.cache[(match_id, k)].etag for k in KINDS}  # still in memory: nothing told this node
        for kind in KINDS:
            for plain in (False, True):
                r = await fetch(node, match_id, kind, plain)
                doc: dict[str, Any] = r.json()
                assert doc["players"] == [FORMER_PLAYER, "Bo"], (name, kind)
                assert '"Ana"' not in r.text, (name, kind, plain)
                assert r.headers["etag"] != before[(name, kind, plain)], (name, kind, plain)
            # The old copies left this node's memory, the unzipped ones too.
            assert held.cache[(match_id, kind)].etag != old[kind]
            assert old[kind] not in held.plain
    for p in (ana, bo):
        await p.close()
