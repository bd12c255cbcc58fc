"""Text the database cannot keep never costs a room (real Postgres, where a NUL in a text is refused).

At the edge: a message id is short printable ASCII (``bad_id`` to the sender otherwise), room
names are cleaned like player names.  Behind it, in case something unstorable gets through: a
write refused for its content is refused to its sender alone, the room goes back to what is
stored, in place, and no socket of the room is closed.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.config import Settings
from app.engine import action_from_json
from app.persistence import open_store
from app.rooms.commands import ActionCmd, ChatCmd, ClientCommand
from app.rooms.inbox import Command
from app.rooms.room_state import hash_token
from tests.live import Client, LiveServer, create_room, pending_client, seat_players, start_game


@pytest.fixture(scope="module")
def pg_server(postgres_url: str) -> Iterator[LiveServer]:
    settings = Settings(_env_file=None, database_url=postgres_url,  # type: ignore[call-arg]
                        between_rounds_seconds=60, socket_rate_messages=100_000, create_rooms_per_minute=10_000,
                        rooms_per_address=10_000, joins_per_minute=10_000, room_lists_per_minute=10_000)
    server = LiveServer(settings, store=open_store(settings)).start()
    yield server
    server.stop()


async def table(server: LiveServer) -> tuple[str, list[Client], Client]:
    code = await create_room(server, "classic", 3, target=500)
    clients = await seat_players(server, code, 3)
    await start_game(clients)
    watcher = Client(server, code)
    await watcher.connect()
    await watcher.recv()
    for c in (*clients, watcher):
        await c.drain(0.05)
    return code, clients, watcher


async def still_open(clients: list[Client]) -> None:
    """Every socket still answers on the connection it had: nothing was closed, nothing rebuilt."""
    for c in clients:
        assert c.ws is not None and c.ws.close_code is None
        pong = await c.request({"type": "ping"})
        assert pong["type"] == "pong"


@pytest.mark.slow
def test_a_nul_in_a_message_id_is_refused_to_its_sender_only(pg_server: LiveServer) -> None:
    async def main() -> None:
        code, clients, watcher = await table(pg_server)
        sender = pending_client(clients)
        assert sender is not None and sender.ws is not None
        # Any move of the decision the deal opened with (a draw, or the first card's colour or penalty).
        draw = next(a for a in sender.game["table"]["legal"] if a["kind"] not in ("declare_uno", "catch"))
        for frame in ({"type": "action", "id": "x\u0000", "action": draw},
                      {"type": "chat", "id": "x\u0000", "text": "hi"},
                      {"type": "chat", "id": "\u202e", "text": "hi"}, {"type": "ping", "id": "x" * 65}):
            await sender.ws.send(json.dumps(frame))
            while True:
                reply = await sender.recv()
                if reply["type"] == "error":
                    break
            assert reply["code"] == "bad_id" and reply["id"] is None, reply
        others = [c for c in (*clients, watcher) if c is not sender]
        for c in others:
            await c.drain(0.2)
            assert not c.errors  # nobody else heard of it
        await still_open([*clients, watcher])
        assert code not in pg_server.registry.rebuilding
        # The same action with a good id is applied, stored and shown to everyone.
        ack = await sender.request({"type": "action", "action": draw})
        assert ack["type"] == "ack"

    asyncio.run(main())


def test_a_room_name_with_control_characters_is_cleaned_not_a_500(pg_server: LiveServer) -> None:
    """Issue: a NUL in a room name gave a 500 on Postgres; overrides and zero-width characters reached the lobby."""
    with httpx.Client(base_url=pg_server.http) as http:
        made = http.post("/api/rooms", json={"variant": "classic", "public": True,
                                            "name": "Ana\u0000's\u202e \u200bta\u200cble\u2066\u0007\u001b"})
        assert made.status_code == 201, made.text
        assert made.json()["name"] == "Ana's table"
        listed = {r["code"]: r["name"] for r in http.get("/api/rooms").json()["rooms"]}
        assert listed[made.json()["code"]] == "Ana's table"
        only_controls = http.post("/api/rooms", json={"variant": "classic", "name": "\u0000\u202e"})
        assert only_controls.status_code == 201 and only_controls.json()["name"] == "Classic UNO room"


def tell(server: LiveServer, code: str, client: Client, body: ClientCommand) -> None:
    """A command told to the room as the socket layer would, but past its checks: what the room
    does if something unstorable ever gets through the edge."""
    async def send() -> None:
        actor = server.registry.get(code)
        outlet = actor.streams.seats[hash_token(client.token or "")].outlet
        actor.tell(Command(outlet, hash_token(client.token or ""), body, asyncio.get_running_loop().create_future()))

    loop = server.registry.loop
    assert loop is not None
    asyncio.run_coroutine_threadsafe(send(), loop).result(5)


@pytest.mark.slow
def test_a_write_the_store_refuses_fails_alone_and_the_room_goes_on(pg_server: LiveServer) -> None:
    async def main() -> dict[str, Any]:
        code, clients, watcher = await table(pg_server)
        actor = pg_server.registry.get(code)
        sender = pending_client(clients)
        assert sender is not None
        before = json.dumps(sender.game["table"], sort_keys=True)
        # Any move of the decision the deal opened with (a draw, or the first card's colour or penalty).
        draw = next(a for a in sender.game["table"]["legal"] if a["kind"] not in ("declare_uno", "catch"))
        # Built without validation: ids with a NUL, which Postgres cannot store.
        tell(pg_server, code, sender, ActionCmd.model_construct(type="action", id="a\u0000",
                                                                  action=action_from_json(draw)))
        refused = await sender.until_reply("a\u0000")
        assert refused["type"] == "error" and refused["code"] == "not_stored"
        tell(pg_server, code, sender, ChatCmd.model_construct(type="chat", id="c\u0000", text="lost"))
        assert (await sender.until_reply("c\u0000"))["code"] == "not_stored"
        for c in (*clients, watcher):
            await c.drain(0.2)
        # Nothing of either happened, for anyone; the room was not rebuilt; no socket closed.
        assert json.dumps(sender.game["table"], sort_keys=True) == before
        assert all(line["text"] != "lost" for c in (*clients, watcher) for line in c.view["chat"])
        assert pg_server.registry.get(code) is actor and code not in pg_server.registry.rebuilding
        others = [c for c in (*clients, watcher) if c is not sender]
        assert not any(c.errors for c in others)
        await still_open([*clients, watcher])
        ack = await sender.request({"type": "action", "action": draw})
        assert ack["type"] == "ack"
        chat = await clients[0].request({"type": "chat", "text": "still here"})
        assert chat["type"] == "ack"
        stored = await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(
            pg_server.store.load_room(code), pg_server.registry.loop))
        assert stored is not None and stored.match is not None
        return {"log": stored.match.log, "chat": [text for _, _, text in stored.chat]}

    stored = asyncio.run(main())
    assert len(stored["log"]) == 1 and stored["chat"][-1] == "still here" and "lost" not in stored["chat"]
