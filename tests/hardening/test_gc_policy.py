"""The server's garbage-collector policy (app/gc_policy.py), in a process of its own.

Collections stop every room at once for as long as they walk the heap, so the server freezes
its start-up heap, never lets allocations trigger a collection, and runs one on its own timer
instead — which must still reclaim cyclic garbage.
"""

from __future__ import annotations

import asyncio
import gc
import subprocess
import sys
import textwrap
from pathlib import Path

from websockets.server import ServerProtocol

from tests.live import Client, LiveServer, create_room, seat_players

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent("""
    import asyncio, gc, weakref
    from app.config import Settings
    from app.gc_policy import Passes
    from app.main import create_app

    async def main():
        app = create_app(Settings(_env_file=None, database_url="memory://", gc_full_seconds=0.5))
        async with app.router.lifespan_context(app):
            assert not gc.isenabled()
            assert gc.get_freeze_count() > 10_000, gc.get_freeze_count()

            class Node:
                pass

            for _ in range(100_000):  # far past any allocation threshold: nothing collects
                a, b = Node(), Node()
                a.other, b.other = b, a  # a cycle: reference counting alone never frees it
            gone = weakref.ref(a)
            del a, b
            await asyncio.sleep(0.1)
            assert gone() is not None, "collected before the timer"
            await asyncio.sleep(0.6)  # the timer's full pass
            assert gone() is None, "the timed full collection did not run"
            assert Passes.count >= 1 and Passes.unreachable >= 2 and Passes.last_seconds > 0
        print("ok")

    asyncio.run(main())
""")


def test_collections_run_on_a_timer_and_never_on_allocation() -> None:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "UNO_GC_FULL_SECONDS": "900"}
    out = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip().endswith("ok")


def test_dropped_connections_leave_nothing_for_the_collector(server: LiveServer) -> None:
    """With automatic collection off, a dropped socket must be freed by reference counting alone:
    uvicorn left websockets' parser and protocol in a cycle (app/transport/uvicorn_ws.py)."""

    async def churn() -> None:
        code = await create_room(server, "classic", 2, target=None)
        players = await seat_players(server, code, 2)
        for _ in range(60):
            c = Client(server, code, players[1].token, 1)
            await c.connect()
            await c.recv()
            assert c.ws is not None
            c.ws.transport.abort()  # dropped: no close frame
        await asyncio.sleep(0.3)
        for p in players:
            await p.close()

    def alive() -> int:
        return sum(1 for o in gc.get_objects() if type(o) is ServerProtocol)

    gc.collect()
    before = alive()
    gc.disable()
    try:
        asyncio.run(churn())
        assert alive() - before < 10, f"{alive() - before} protocols of dropped sockets wait for the collector"
    finally:
        gc.enable()
