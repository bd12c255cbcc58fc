"""The server's garbage-collector policy (app/gc_policy.py), in a process of its own.

Full collections stop every room at once for as long as they walk the heap, so the server
freezes its start-up heap, never lets the heap's growth trigger a full pass, and runs one on
its own timer instead — which must still reclaim cyclic garbage.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent("""
    import asyncio, gc, weakref
    from app.config import Settings
    from app.gc_policy import NEVER
    from app.main import create_app

    async def main():
        app = create_app(Settings(_env_file=None, database_url="memory://", gc_full_seconds=0.3))
        async with app.router.lifespan_context(app):
            assert gc.get_threshold()[2] == NEVER, gc.get_threshold()
            assert gc.get_freeze_count() > 10_000, gc.get_freeze_count()

            class Node:
                pass

            a, b = Node(), Node()
            a.other, b.other = b, a  # a cycle: reference counting alone never frees it
            gone = weakref.ref(a)
            for _ in range(3):  # old enough for the young collections to leave it to the full pass
                gc.collect(1)
            del a, b
            for _ in range(50):
                gc.collect(1)  # what the young collections do: not enough
            assert gone() is not None, "a young collection freed an old cycle"
            await asyncio.sleep(0.6)  # the timer's full pass
            assert gone() is None, "the timed full collection did not run"
        print("ok")

    asyncio.run(main())
""")


def test_full_collections_run_on_a_timer_and_never_on_heap_growth() -> None:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "UNO_GC_FULL_SECONDS": "900"}
    out = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip().endswith("ok")
