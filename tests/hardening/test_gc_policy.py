"""The server's garbage-collector policy (app/gc_policy.py), in a process of its own.

Collections stop every room at once for as long as they walk the heap, so the server freezes
its start-up heap, never lets allocations trigger a collection, and runs one on its own timer
instead — which must still reclaim cyclic garbage, and must be skipped while the heap is too
big for a short pass.
"""

from __future__ import annotations

import asyncio
import gc
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from websockets.server import ServerProtocol

from tests.live import Client, LiveServer, create_room, seat_players

pytestmark = pytest.mark.slow  # real processes and waits: not in the quick subset

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent("""
    import asyncio, gc, weakref
    from app import gc_policy
    from app.config import Settings
    from app.gc_policy import Passes
    from app.main import create_app

    class Node:
        pass

    def cycles(n):
        for _ in range(n):  # past CPython's allocation threshold (700): nothing collects
            a, b = Node(), Node()
            a.other, b.other = b, a  # a cycle: reference counting alone never frees it
        return weakref.ref(a)

    async def main():
        app = create_app(Settings(_env_file=None, database_url="memory://", gc_full_seconds=0.5))
        async with app.router.lifespan_context(app):
            assert not gc.isenabled()
            assert gc.get_freeze_count() > 10_000, gc.get_freeze_count()

            gone = cycles(2_000)
            await asyncio.sleep(0.1)
            assert gone() is not None, "collected before the timer"
            await asyncio.sleep(0.6)  # the timer's full pass
            assert gone() is None, "the timed full collection did not run"
            assert Passes.count >= 1 and Passes.unreachable >= 2 and Passes.last_seconds > 0
            assert Passes.longest_seconds < 0.1, Passes.longest_seconds

            # A heap too big for a short pass: the tick passes over it, the cycle waits.
            gc_policy.WALK_LIMIT = gc_policy.walk_bound() + 5_000
            kept = cycles(5_000)  # 10,000 more objects: over the limit
            count = Passes.count
            await asyncio.sleep(1.2)
            assert kept() is not None, "collected although the heap was over WALK_LIMIT"
            assert Passes.count == count and Passes.skipped >= 2, (Passes.count, Passes.skipped)
            gc_policy.WALK_LIMIT = 10 ** 9  # quieter: the next tick collects it
            await asyncio.sleep(0.6)
            assert kept() is None, "not collected once the heap was small enough"
        print("ok")

    asyncio.run(main())
""")


def test_collections_run_on_a_timer_never_on_allocation_and_only_while_short() -> None:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "UNO_GC_FULL_SECONDS": "900"}
    out = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip().endswith("ok")


CEILING_SCRIPT = textwrap.dedent("""
    import asyncio, gc, weakref
    from app import gc_policy
    from app.config import Settings
    from app.gc_policy import Passes
    from app.main import create_app

    class Node:
        pass

    def cycles(mib):
        for _ in range(mib):  # each a MiB of memory that only the cyclic collector frees
            a, b = Node(), Node()
            a.other, b.other = b, a
            a.payload = bytearray(1 << 20)
            a.payload[::4096] = b"x" * 256  # touched: resident, not just reserved
        return weakref.ref(a)

    async def until(predicate, timeout):
        deadline = asyncio.get_running_loop().time() + timeout
        while not predicate():
            assert asyncio.get_running_loop().time() < deadline, "timed out"
            await asyncio.sleep(0.02)

    async def main():
        gc_policy.CHECK_SECONDS = 0.1
        # The timer's own pass never runs here: the heap is never short enough, as on a busy server.
        gc_policy.WALK_LIMIT = -1
        settings = Settings(_env_file=None, database_url="memory://", gc_full_seconds=0.5, gc_ceiling_mib=64)
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            small = cycles(16)  # well under the ceiling: left alone
            await until(lambda: Passes.skipped >= 2, 10)
            assert small() is not None and Passes.forced == 0, "collected under the ceiling"

            big = cycles(96)  # past it: a full pass however long, and both are freed
            await until(lambda: big() is None, 10)
            assert small() is None and Passes.forced == 1 and Passes.count == 1, (Passes.forced, Passes.count)
            held = gc_policy.held_bytes() >> 20
            assert held < 64, f"{held} MiB still held after the forced pass"

            # A second pass waits for another quarter of the ceiling past what the first left.
            again = cycles(8)
            await asyncio.sleep(0.5)
            assert again() is not None and Passes.forced == 1, "a pass on every check once over the ceiling"
            # (What the first pass freed may still be resident, for the process to reuse: past it too.)
            more = cycles(200)
            await until(lambda: more() is None and again() is None, 10)
            assert Passes.forced == 2
        print("ok")

    asyncio.run(main())
""")


def test_a_full_pass_runs_anyway_past_the_memory_ceiling() -> None:
    """A busy server skips the timed pass; memory held beyond start-up past ``UNO_GC_CEILING_MIB``
    makes one anyway, and frees the cycles that built up."""
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "UNO_GC_FULL_SECONDS": "900"}
    out = subprocess.run([sys.executable, "-c", CEILING_SCRIPT], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip().endswith("ok")


def test_dropped_connections_leave_nothing_for_the_collector(server: LiveServer) -> None:
    """With automatic collection off, a dropped socket must be freed by reference counting alone:
    uvicorn left websockets' parser and protocol in a cycle (app/transport/uvicorn_adapter.py)."""

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
