"""The database goes away for a while: nothing is acknowledged until it is stored, nothing is
lost, and service resumes by itself.

The server talks to Postgres through a TCP proxy this test controls; cutting the proxy
drops every connection and refuses new ones, as a database restart or a network fault would.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
import time
from typing import Any

import pytest
from sqlalchemy.engine import make_url

from app.config import Settings
from app.persistence import open_store
from tests.live import LiveServer, choose, create_room, seat_players, start_game

pytestmark = pytest.mark.slow  # real processes and waits: not in the quick subset


class Proxy:
    """A TCP proxy in its own thread and event loop, which can be cut and restored."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.up = True
        self.writers: set[asyncio.StreamWriter] = set()
        self.loop = asyncio.new_event_loop()
        self.port = 0
        ready = threading.Event()
        threading.Thread(target=self._run, args=(ready,), daemon=True).start()
        ready.wait(5)

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)

        async def serve() -> None:
            server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
            self.port = server.sockets[0].getsockname()[1]
            ready.set()
            async with server:
                await server.serve_forever()

        self.loop.run_until_complete(serve())

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.up:
            writer.close()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self.writers.update((writer, up_writer))

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def cut(self) -> None:
        def close_all() -> None:
            self.up = False
            for w in list(self.writers):
                w.transport.abort()
            self.writers.clear()

        self.loop.call_soon_threadsafe(close_all)

    def restore(self) -> None:
        self.loop.call_soon_threadsafe(setattr, self, "up", True)


def test_actions_wait_out_a_database_outage_and_nothing_is_lost(fresh_postgres_url: str) -> None:
    real = make_url(fresh_postgres_url)
    proxy = Proxy(real.host or "127.0.0.1", real.port or 5432)
    settings = Settings(_env_file=None, database_url=real.set(host="127.0.0.1", port=proxy.port)  # type: ignore[call-arg]
                        .render_as_string(hide_password=False), between_rounds_seconds=60)
    store = open_store(settings)
    server = LiveServer(settings, store=store).start()
    try:
        async def main() -> dict[str, Any]:
            code = await create_room(server, "classic", 2, target=500)
            clients = await seat_players(server, code, 2)
            await start_game(clients)
            for c in clients:
                await c.drain(0.05)
            mover = next(c for c in clients if choose(c, random.Random(1), uno_chatter=0) is not None)
            action = choose(mover, random.Random(1), uno_chatter=0)
            assert action is not None
            failures_before = store.failures
            proxy.cut()
            cid = mover.new_id()
            await mover.send({"type": "action", "id": cid, "action": action})
            # While the database is away the action is neither acknowledged nor broadcast.
            with pytest.raises(TimeoutError):
                await mover.until_reply(cid, timeout=1.5)
            proxy.restore()
            reply = await mover.until_reply(cid, timeout=20)
            assert reply["type"] == "ack", reply
            assert store.failures > failures_before  # it did see the outage, and retried
            for c in clients:
                await c.drain(0.1)
            stored = next(r for r in await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(
                store.unfinished_rooms(), server.registry.loop)) if r.code == code)
            assert stored.match is not None and len(stored.match.log) == 1
            return {"log": stored.match.log, "acted": action}

        result = asyncio.run(main())
        assert result["log"][0][2]["kind"] == result["acted"]["kind"]
    finally:
        server.stop()
        proxy.restore()
        time.sleep(0.1)
