"""A message stored but never answered: the server is killed (SIGKILL) between its commit and
its ack; after the restart the client resends with the same id, and the message is answered —
never applied or stored twice.  A real uvicorn process on SQLite and on Postgres.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.persistence.db import resolve_url
from tests.live import Client, create_room, pending_client, seat_players, start_game, sync
from tests.persistence.test_crash_recovery import ProcessServer

pytestmark = pytest.mark.slow  # real processes and waits: not in the quick subset


def rows(url: str, sql: str) -> list[Any]:
    """Look at the rows directly, as the server's own store sees them."""
    async def query() -> list[Any]:
        engine = create_async_engine(resolve_url(url, "."))
        try:
            async with engine.connect() as conn:
                return list((await conn.execute(text(sql))).all())
        finally:
            await engine.dispose()

    return asyncio.run(query())


def wait_for_row(url: str, sql: str) -> None:
    """Until the message's row is committed: the moment to kill the server before it answers."""
    deadline = time.monotonic() + 10
    while not rows(url, sql):
        assert time.monotonic() < deadline, "the message was never stored"
        time.sleep(0.005)


def pending(clients: list[Client]) -> Client:
    mover = pending_client(clients)
    assert mover is not None, "nobody is to act after the deal"
    return mover


def resend_after_kill(database_url: str, data_dir: Path) -> None:
    server = ProcessServer(database_url, data_dir).start()
    try:
        async def first_life() -> tuple[str, list[tuple[str, int]], dict[str, Any], int]:
            code = await create_room(server, "classic", 2, target=500)  # type: ignore[arg-type]
            clients = await seat_players(server, code, 2)  # type: ignore[arg-type]
            await start_game(clients)
            await sync(clients)
            # A wild starter asks for a colour first: answer whatever comes before a draw is offered.
            mover = pending(clients)
            while not any(a["kind"] == "draw" for a in mover.game["table"]["legal"]):
                reply = await mover.request({"type": "action", "action": mover.game["table"]["legal"][0]})
                assert reply["type"] == "ack", reply
                await sync(clients)
                mover = pending(clients)
            action = next(a for a in mover.game["table"]["legal"] if a["kind"] == "draw")
            await clients[0].send({"type": "chat", "id": "chat-1", "text": "only once"})
            await mover.send({"type": "action", "id": "act-1", "action": action})
            return code, [(c.token or "", c.seat or 0) for c in clients], action, mover.seat or 0

        code, seats, action, mover_seat = asyncio.run(first_life())
        url = server.env["DATABASE_URL"]
        wait_for_row(url, "SELECT 1 FROM chat WHERE client_id = 'chat-1'")
        wait_for_row(url, "SELECT 1 FROM actions WHERE client_id = 'act-1'")
        stored_before_kill = len(rows(url, "SELECT 1 FROM actions"))
        server.kill()  # whatever the clients were answered, they never read it
        server = ProcessServer(database_url, data_dir).start()

        async def second_life() -> None:
            clients = [Client(server, code, token, seat) for token, seat in seats]  # type: ignore[arg-type]
            for c in clients:
                await c.connect()
                await c.recv()
            hand = len(clients[mover_seat].game["table"]["hand"])
            # The same ids again: answered with an ack, applied no second time.
            assert (await clients[0].request({"type": "chat", "id": "chat-1", "text": "only once"}))["type"] == "ack"
            reply = await clients[mover_seat].request({"type": "action", "id": "act-1", "action": action})
            assert reply["type"] == "ack", reply
            for c in clients:
                await c.drain(0.1)
            assert [m["text"] for m in clients[1].view["chat"]] == ["only once"]
            assert len(clients[mover_seat].game["table"]["hand"]) == hand
            # A new id is a new message.
            assert (await clients[0].request({"type": "chat", "id": "chat-2", "text": "twice"}))["type"] == "ack"
            for c in clients:
                await c.close()

        asyncio.run(second_life())
        assert len(rows(url, "SELECT 1 FROM chat WHERE client_id = 'chat-1'")) == 1
        assert len(rows(url, "SELECT 1 FROM actions WHERE client_id = 'act-1'")) == 1
        assert len(rows(url, "SELECT 1 FROM actions")) == stored_before_kill
    finally:
        server.stop()


def test_a_resend_after_sigkill_is_answered_not_applied_twice_on_sqlite(tmp_path: Path) -> None:
    resend_after_kill(f"sqlite:///{tmp_path / 'uno.sqlite3'}", tmp_path)


def test_a_resend_after_sigkill_is_answered_not_applied_twice_on_postgres(fresh_postgres_url: str,
                                                                          tmp_path: Path) -> None:
    resend_after_kill(fresh_postgres_url, tmp_path)
